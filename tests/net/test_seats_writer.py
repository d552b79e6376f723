"""The seats' writer (net/server/hall.py): who may take which seat back is
written the moment after a change, the changes of a moment together, and a
player's `joined` waits for the write that holds its own seat, not for the
writer to be idle (a take-over's storm of rejoins waited for every rejoin of
the storm)."""

from __future__ import annotations

import asyncio

import pytest

from net.server import Limits
from net.server.hall import Hall
from net.server.store import KeptTable

from .netkit import FakeTime


async def turns() -> None:
    """A few turns of the event loop (the writer's and the waiters' steps)."""
    for _ in range(5):
        await asyncio.sleep(0)


class HeldWrites:
    """A store whose seat writes wait until the test lets each one go."""

    def __init__(self) -> None:
        self.writes: list[asyncio.Future[None]] = []
        self.started = asyncio.Event()

    async def save_seats(self, tables: dict[str, KeptTable]) -> None:
        done = asyncio.get_running_loop().create_future()
        self.writes.append(done)
        self.started.set()
        await done


async def test_a_change_waits_for_its_own_write_not_for_the_writer_to_be_idle() -> None:
    fake = FakeTime()
    store = HeldWrites()
    hall = Hall(store, Limits(), clock=fake.clock, sleep=fake.sleep, executor=None, pace=0)  # type: ignore[arg-type]
    hall.persist()  # a first seat taken back: its write begins
    first = asyncio.ensure_future(hall.seats_written())
    await store.started.wait()
    hall.persist()  # a second, meanwhile: it goes in the next write
    second = asyncio.ensure_future(hall.seats_written())
    await asyncio.sleep(0)
    assert len(store.writes) == 1 and not first.done()
    store.writes[0].set_result(None)
    await turns()
    assert first.done()  # its write is done: no wait for the next one
    assert not second.done()
    assert len(store.writes) == 2
    hall.persist()  # a third, while the second is written
    third = asyncio.ensure_future(hall.seats_written())
    store.writes[1].set_result(None)
    await turns()
    assert second.done() and not third.done()
    store.writes[2].set_result(None)
    await turns()
    assert third.done()
    await hall.seats_written()  # nothing left to write: at once


async def test_a_failed_write_is_told_to_those_waiting_for_it() -> None:
    fake = FakeTime()
    store = HeldWrites()
    hall = Hall(store, Limits(), clock=fake.clock, sleep=fake.sleep, executor=None, pace=0)  # type: ignore[arg-type]
    hall.persist()
    waiting = asyncio.ensure_future(hall.seats_written())
    await store.started.wait()
    store.writes[0].set_exception(OSError("disk full"))
    await turns()
    assert waiting.done()
    with pytest.raises(OSError, match="disk full"):
        waiting.result()
    hall.persist()  # the next change writes again
    again = asyncio.ensure_future(hall.seats_written())
    await turns()
    store.writes[1].set_result(None)
    await turns()
    assert again.done() and again.exception() is None
