"""A table's saves (net/table_parts/autosave.py): a mover who waits for its
move to be kept saves in its own task, at once, with no save in flight;
moves played meanwhile are saved behind it; saves played in the background
are finished by ``finish``; the table's count of work in flight ends at 0."""

from __future__ import annotations

import asyncio

import pytest

from net.table_parts.autosave import Autosave
from saves.errors import SaveError
from saves.record import GameRecord, SeatInfo

from .netkit import HANG


class Store:
    """A store that notes which task saved how many moves, and can be held."""

    def __init__(self) -> None:
        self.saves: list[tuple[asyncio.Task[object] | None, int]] = []
        self.gate = asyncio.Event()
        self.gate.set()
        self.fail: str | None = None

    async def save_async(self, record: GameRecord) -> None:
        self.saves.append((asyncio.current_task(), len(record.moves)))
        await self.gate.wait()
        if self.fail is not None:
            raise SaveError(self.fail)


class Counter:
    def __init__(self) -> None:
        self.count = 0

    def busy(self) -> None:
        self.count += 1

    def done(self) -> None:
        self.count -= 1


def _saver(store: Store, counter: Counter) -> tuple[Autosave, GameRecord]:
    record = GameRecord(
        id="t1",
        game="toy",
        preset=None,
        config={},
        seed=1,
        deck_order=None,
        seats=[SeatInfo("Ada", "human"), SeatInfo("Bo", "human")],
    )
    autosave = Autosave(
        record,
        store,  # type: ignore[arg-type]  # (a SaveStore with save_async, as the server's)
        tell=lambda notices: None,
        queue=lambda notice: None,
        busy=counter.busy,
        done=counter.done,
    )
    return autosave, record


async def _move(autosave: Autosave, record: GameRecord, seat: int, move: str) -> None:
    """A move played and waited for, as the server's `ok` waits (net/server/seats.py)."""
    record.moves.append((seat, move))
    autosave.soon()
    await autosave.kept(len(record.moves))


async def test_a_mover_saves_in_its_own_task_before_the_loop_turns() -> None:
    store, counter = Store(), Counter()
    autosave, record = _saver(store, counter)
    waiting = asyncio.ensure_future(_move(autosave, record, 0, "a"))
    await asyncio.sleep(0)  # one turn: the mover's save has begun, in the mover's task
    assert store.saves == [(waiting, 1)]
    await asyncio.wait_for(waiting, HANG)
    await asyncio.sleep(0)  # (the background start that found nothing to do)
    assert len(store.saves) == 1
    assert counter.count == 0


async def test_moves_played_during_a_save_are_saved_behind_it_and_finish_waits() -> None:
    store, counter = Store(), Counter()
    autosave, record = _saver(store, counter)
    store.gate.clear()
    first = asyncio.ensure_future(_move(autosave, record, 0, "a"))
    await asyncio.sleep(0)
    # played while the first save is on its way: waits for it, then is saved
    second = asyncio.ensure_future(_move(autosave, record, 1, "b"))
    await asyncio.sleep(0)
    assert [n for _, n in store.saves] == [1]  # one save in flight at a time
    store.gate.set()
    await asyncio.wait_for(asyncio.gather(first, second), HANG)
    assert [n for _, n in store.saves] == [1, 2]
    record.moves.append((0, "c"))
    autosave.soon()  # nobody waits: saved in the background
    await asyncio.wait_for(autosave.finish(), HANG)
    assert [n for _, n in store.saves] == [1, 2, 3]
    assert counter.count == 0


async def test_a_failed_save_fails_the_movers_wait() -> None:
    store, counter = Store(), Counter()
    autosave, record = _saver(store, counter)
    store.fail = "the disk is full"
    with pytest.raises(SaveError, match="the disk is full"):
        await asyncio.wait_for(_move(autosave, record, 0, "a"), HANG)
    assert autosave.error == "the disk is full"
    store.fail = None
    # saving works again: both moves kept
    await asyncio.wait_for(_move(autosave, record, 1, "b"), HANG)
    assert autosave.error is None
    assert counter.count == 0
