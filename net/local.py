"""The in-process transport: a screen and its table in one event loop.

:func:`open_table` starts a new game, :func:`resume_table` goes on with a
saved one; both return a :class:`LocalClient`, which a screen uses exactly as
it would the network client.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor

from rules.config import GameConfig
from rules.errors import IllegalMove
from rules.events import Event
from rules.registry import get_game
from saves.errors import SaveError
from saves.record import SEAT_KINDS, GameRecord, SeatInfo
from saves.stats import compute_store
from saves.store import SaveStore

from .client import Hint, RatingChange, TableClient, Update, UpdateListeners
from .table import Clock, Sleep, Table, log

__all__ = ["LocalClient", "open_table", "resume_table"]


class LocalClient(TableClient):
    """A client of a :class:`~net.table.Table` in this process.

    Updates: each change at the table produces one :class:`Update` per seat in
    ``my_seats`` (seat order), each with that seat's view and visible events;
    with no seats of its own, one per change with ``seat=None`` (spectator).
    ``snapshot`` and ``history`` answer only for ``my_seats`` and None, so a
    hot-seat screen cannot show a seat's hand by mistake to the wrong person
    unless it asks for that seat.
    """

    can_pause = True  # nobody else's time is at stake at a local table
    can_hurry = True  # nor anyone else's patience

    def __init__(
        self, table: Table, my_seats: Sequence[int], *, one_screen: bool | None = None
    ) -> None:
        """``one_screen``: the people at ``my_seats`` share one screen and take
        turns at it (hot-seat), so the table runs their clocks one at a time;
        by default, whenever there is more than one seat."""
        seats = tuple(my_seats)
        for seat in seats:
            if not 0 <= seat < len(table.seats):
                raise ValueError(f"there is no seat {seat} at this table")
            if table.seats[seat].kind == "bot":
                raise ValueError(f"seat {seat + 1} is played by the computer")
        self._table = table
        self.keeps_record = table.store is not None
        if one_screen if one_screen is not None else len(seats) > 1:
            table.share_screen(seats)
        self.game_id = table.record.game
        self.config = dict(table.record.config)
        self.preset = table.record.preset
        self.seats = list(table.record.seats)
        self.record_id = table.record.id
        self.my_seats = seats
        self._listeners = UpdateListeners()
        self._unwatch = table.watch(seats or (None,), self._listeners.tell)
        table.attach(seats)
        self._closed = False

    @property
    def table(self) -> Table:
        """The table itself, for tests and tools in this process (a screen
        uses only the TableClient API, which a remote client has too)."""
        return self._table

    # ------------------------------------------------------------ TableClient
    def subscribe(self, listener: Callable[[Update], None]) -> Callable[[], None]:
        return self._listeners.add(listener)

    async def start(self) -> None:
        await self._table.start()

    def snapshot(self, seat: int | None) -> Update:
        self._check_mine(seat)
        return self._table.snapshot(seat)

    def history(self, seat: int | None) -> list[Event]:
        self._check_mine(seat)
        return self._table.history(seat)

    async def play(self, seat: int, move: str, state_id: int) -> None:
        self._check_acting(seat)
        await self._table.play(seat, move, state_id)

    async def resign(self, seat: int) -> None:
        self._check_acting(seat)
        await self._table.resign(seat)

    async def rematch(self) -> LocalClient:
        table = self._table
        outcome = table.state.outcome()
        if outcome is None:
            raise IllegalMove("the game is not over yet")
        spec = table.spec
        config = spec.rematch_config(table.state.config, outcome)
        client = open_table(
            table.store,
            self.game_id,
            config,
            list(self.seats),
            self.my_seats,
            pace=table.pace,
            preset=self.preset,
            executor=table.executor,
            clock=table.clock_source,
            sleep=table.sleep,
        )
        await self.close()
        return client

    async def hint(self, seat: int) -> Hint:
        self._check_acting(seat)
        return await self._table.hint(seat)

    async def rating_change(self) -> tuple[RatingChange, ...]:
        """From the saved games: the table saves the game's end in the
        background once it is over, and idle() returns once that is on disk."""
        store = self._table.store
        if store is None:
            return ()
        await self.idle()
        names = [s.name for s in self.seats if s.kind != "bot"]
        return await asyncio.to_thread(_rating_changes, store, self.record_id, names)

    def hurry(self) -> None:
        self._table.pace = 0.0

    async def pause(self, paused: bool) -> None:
        await self._table.pause(paused)

    async def idle(self) -> None:
        await self._table.idle()

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._unwatch()
        self._listeners.clear()
        self._table.detach(self.my_seats)
        await self._table.close()

    def unplayed(self) -> bool:
        return self._table.store is not None and not self._table.record.moves

    def forget_unplayed(self) -> bool:
        store = self._table.store
        if store is None or not self.unplayed():
            return False
        try:
            store.delete(self.record_id)
        except SaveError:
            return False  # never written, or already gone: nothing kept either way
        return True

    def _check_mine(self, seat: int | None) -> None:
        if seat is not None and seat not in self.my_seats:
            raise ValueError(f"seat {seat} is not one of this client's seats {self.my_seats}")

    def _check_acting(self, seat: int) -> None:
        if seat not in self.my_seats:
            raise IllegalMove(f"you do not play seat {seat + 1 if type(seat) is int else seat}")


def _rating_changes(
    store: SaveStore, record_id: str, names: Sequence[str]
) -> tuple[RatingChange, ...]:
    """What the finished game ``record_id`` did to each of ``names``' ratings
    ("You" is the one person at a local screen); nothing for a game not saved."""
    try:
        if store.load(record_id).status != "finished":
            return ()
    except SaveError:
        return ()
    stats = compute_store(store)
    changes = []
    for name in dict.fromkeys(names):
        played = stats.played(record_id, name)
        if played is None or played.rating_before is None or played.rating_after is None:
            continue
        before, after = played.rating_before.mu, played.rating_after.mu
        changes.append(RatingChange(name, before, after, yours=name == "You"))
    return tuple(changes)


def open_table(
    store: SaveStore | None,
    game_id: str,
    config: GameConfig,
    seats: list[SeatInfo],
    my_seats: tuple[int, ...],
    seed: int | None = None,
    pace: float = 0.0,
    deck_order: Sequence[str] | None = None,
    preset: str | None = None,
    *,
    executor: Executor | None = None,
    clock: Clock = time.monotonic,
    sleep: Sleep = asyncio.sleep,
) -> LocalClient:
    """Start a new game at a table in this process and save its (empty) record.

    ``seats`` has one SeatInfo per player; ``my_seats`` are the seats this
    screen plays (every human seat for hot-seat). ``seed`` None picks a random
    one. ``store`` None: a throwaway table that saves nothing. ``executor``
    runs the bots (None: asyncio's default threads); ``clock`` and ``sleep``
    are for tests. UnknownGame / ValueError for bad arguments.
    """
    spec = get_game(game_id)
    if not isinstance(config, spec.Config):
        raise ValueError(f"config for {game_id} must be a {spec.Config.__name__}")
    if len(seats) != config.players:
        raise ValueError(f"{len(seats)} seats for a {config.players}-player game")
    for seat in seats:
        if seat.kind not in SEAT_KINDS:
            raise ValueError(f"seat kind must be one of {', '.join(SEAT_KINDS)}, not {seat.kind!r}")
    if seed is None:
        seed = secrets.randbits(32)
    state = spec.new(config, seed, deck_order)
    record = GameRecord.new(
        game_id,
        config,
        seed,
        seats,
        preset=preset,
        deck_order=list(deck_order) if deck_order is not None else None,
        record_id=store.unused_id() if store is not None else None,
    )
    table = Table(
        spec, state, record, store, pace=pace, executor=executor, clock=clock, sleep=sleep
    )
    if store is not None:
        try:
            store.save(record)
        except SaveError as err:  # play on; the first update tells the player
            table.save_failed(err)
            log.error("cannot save the new game: %s", err)
    return LocalClient(table, my_seats)


def resume_table(
    store: SaveStore,
    record_id: str,
    pace: float = 0.0,
    *,
    executor: Executor | None = None,
    clock: Clock = time.monotonic,
    sleep: Sleep = asyncio.sleep,
) -> LocalClient:
    """Go on with a saved game: replay its record and seat a client at every
    human seat. SaveError (one line) if it is missing, unreadable, or does not
    replay. A finished or resigned game opens for viewing: moves are refused."""
    record = store.load(record_id)
    state, events = record.replay_with_events()
    table = Table(
        record.spec(),
        state,
        record,
        store,
        events=events,
        pace=pace,
        executor=executor,
        clock=clock,
        sleep=sleep,
    )
    mine = tuple(i for i, seat in enumerate(record.seats) if seat.kind == "human")
    return LocalClient(table, mine)
