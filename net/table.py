"""The table: the one authority for one game.

A :class:`Table` holds the rules state and the game record. Every move, from a
person, a bot or a move clock, goes through :meth:`Table.play` or
:meth:`Table.apply_move`, is validated by the rules, appended to the record
and autosaved; then every watcher gets an :class:`~net.client.Update` per seat
it watches, built from that seat's view, legal moves and the events it may see
(``visible_events``). Nothing else ever leaves the table, so a transport
cannot leak what a seat must not know. The table knows no game: whatever
decides the game (resignations, clocks, the end) comes from the rules.

The table is built from parts, each owning one concept (net/table_parts/):
the move clocks (``clocks``), the computer players (``computers``), the
computer standing in for an absent person (``stand_ins``), the record kept
behind the moves (``autosave``) and what is still in flight (``in_flight``;
:meth:`idle` and :meth:`close` wait for the save in flight, so nothing is
lost to an orderly stop). A resumed game starts fresh clocks.

Status: ``playing``, then ``finished``. The state id is the number of moves
applied: it only grows; a move chosen at another state id is refused
(:class:`~net.client.StaleMove`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from typing import Any

from rules.bots import Bot, Situation, make_bot
from rules.errors import IllegalMove
from rules.events import Event, visible_events
from rules.game import RESIGN, GameSpec, GameState
from saves.errors import SaveError
from saves.record import GameRecord, SeatInfo
from saves.store import SaveStore

from .client import FINISHED, PLAYING, Hint, HintEstimate, NoHints, StaleMove, Update
from .table_parts.audience import Audience, Listener, Perspective
from .table_parts.autosave import Autosave
from .table_parts.clocks import Clock, MoveClocks, Sleep
from .table_parts.computers import HURRIED, Computers
from .table_parts.in_flight import InFlight, cancel_and_wait
from .table_parts.stand_ins import StandIns
from .table_parts.timeouts import play_timeouts
from .thinkers import SeatPosition, Thinkers

__all__ = ["HURRIED", "Clock", "Listener", "Perspective", "Sleep", "Table"]

log = logging.getLogger(__name__)


def _hint(situation: Situation, rng: random.Random) -> tuple[HintEstimate, ...]:
    """The advice's judgement of a seat's choices, best first (the hard
    computer's and the analysis's of the same position: seeded by the
    position, so ``rng`` is not needed)."""
    from rules.bots.advice import advise

    return advise(situation).choices


def _hint_in_worker(position: SeatPosition, seed: str) -> tuple[HintEstimate, ...]:
    """:func:`_hint`, run in the pool (a module function, so that a process
    pool can pickle it) from what crossed into the worker."""
    return _hint(position.situation(), random.Random(seed))


class Table:
    """One game's authority. Create it with :func:`net.local.open_table` or
    :func:`net.local.resume_table`; talk to it through a client."""

    def __init__(
        self,
        spec: GameSpec[Any, Any],
        state: GameState[Any, Any],
        record: GameRecord,
        store: SaveStore | None,
        *,
        events: Sequence[Event] = (),
        pace: float = 0.0,
        executor: Executor | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        hints: bool = True,
    ) -> None:
        if len(record.seats) != state.config.players:
            raise ValueError(f"{len(record.seats)} seats for a {state.config.players}-player game")
        self.spec = spec
        self.state = state
        self.record = record
        self.pace = pace
        self.executor = executor
        self.clock_source = clock
        self.sleep = sleep
        self.hints_allowed = hints
        self._events: list[Event] = list(events)  # unredacted; filtered per seat on the way out
        # changes whenever the history does (a server keeps a history it
        # sends many spectators as long as this stays the same)
        self.history_version = 0
        self.started = False
        self.closed = False
        self.in_flight = InFlight()
        self.audience = Audience(self, self._events)
        self.computers = Computers(self, make_bot)
        self.stand_ins = StandIns(self)
        live = lambda: self.status == PLAYING and not self.closed  # noqa: E731
        self.clocks = MoveClocks(clock, sleep, live, self.expire_clocks)
        self.autosave = Autosave(
            record,
            store,
            tell=lambda notices: self.audience.tell([], notices),
            queue=self.audience.queue,
            busy=self.in_flight.enter,
            done=self.in_flight.leave,
        )
        if record.status == PLAYING and state.is_over:  # saved before its status was
            self._record_end()

    # ------------------------------------------------------------ reading
    @property
    def store(self) -> SaveStore | None:
        return self.autosave.store

    @property
    def seats(self) -> list[SeatInfo]:
        return self.record.seats

    @property
    def status(self) -> str:
        return self.record.status

    @property
    def state_id(self) -> int:
        return len(self.record.moves)

    @property
    def paused(self) -> bool:
        return self.clocks.paused

    @property
    def save_error(self) -> str | None:  # why the last autosave failed, if it did
        return self.autosave.error

    @property
    def bot_errors(self) -> list[str]:  # bot bugs the table worked around
        return self.computers.errors

    def history(self, seat: Perspective) -> list[Event]:
        return visible_events(self._events, seat)

    def thinking(self) -> tuple[int, ...]:
        """The bot seats choosing (or about to choose) a move."""
        if self.status != PLAYING or not self.started or self.closed:
            return ()
        return tuple(s for s in self.state.to_act() if s in self.computers)

    def connected(self) -> tuple[int, ...]:
        """Seats with a player there: bots, and people with a client attached."""
        return tuple(
            s for s in range(len(self.seats)) if s in self.computers or self.audience.present(s)
        )

    def time_left(self, seat: int) -> float | None:
        return self.clocks.time_left(seat)

    def snapshot(self, seat: Perspective) -> Update:
        """Where things stand for ``seat``, as an update with no new events;
        for a seat just taken back, with the notice the others heard of it
        (once): its person watches the table only from this snapshot on."""
        told = self.stand_ins.told_on_return(seat) if seat is not None else None
        return self.audience.update(seat, (), () if told is None else (told,), {})

    def watch(self, perspectives: Iterable[Perspective], listener: Listener) -> Callable[[], None]:
        """Send ``listener`` one Update per perspective (a seat, or None for a
        spectator) after every change. Returns a function that stops it."""
        return self.audience.watch(perspectives, listener)

    def follow(self, changed: Callable[[], None]) -> Callable[[], None]:
        """Call ``changed`` after every change (as :meth:`watch`, but no view is
        built: nothing of the game). Returns a function that stops it."""
        return self.audience.follow(changed)

    def attach(self, seats: Iterable[int]) -> None:
        """A client now sits at these person seats (they show as connected)."""
        self.audience.attach(seats)

    def detach(self, seats: Iterable[int]) -> None:
        """A client has left these seats."""
        self.audience.detach(seats)

    def seat_person(self, seat: int, name: str) -> None:
        """A person takes ``seat`` (or leaves it, as "Player N", before the game
        starts). Call `save` after: a server restarted before the first move
        then brings the table back with the names of the people who sat there."""
        self._check_seat(seat)
        self.record.seats[seat] = SeatInfo(name, "remote")

    def redeal(self, seed: int) -> None:
        """Deal the game again from ``seed``, before it starts (no move yet):
        a network table whose seat was left before the start, so that what
        the leaver saw of that deal, their hand or any other seat's they sat
        at meanwhile, tells nothing of the cards played. Call `save` after."""
        if self.started or self.record.moves:
            raise IllegalMove("the game has begun: it cannot be dealt again")
        self.state = self.spec.new(self.state.config, seed, self.record.deck_order)
        self.record.seed = seed
        self._events.clear()
        self.audience.forget_histories()
        self.history_version += 1

    async def save(self) -> None:
        """Save the record now (moves save themselves; this is for seat changes)."""
        await self.autosave.save()

    async def kept(self, moves: int) -> None:
        """Return once a save holds the record's first ``moves`` moves;
        SaveError if the save that should have failed."""
        await self.autosave.kept(moves)

    def save_failed(self, err: SaveError) -> None:
        """Saving failed: say so once (with the next update) until it works again."""
        self.autosave.failed(err)

    def use_bot(self, seat: int, bot: Bot) -> None:
        """``bot`` plays the computer's ``seat`` instead of the level's bot (a
        lesson's scripted opponent, net/lesson.py); before the table starts."""
        self.computers.use(seat, bot)

    def hand_to_computer(self, seat: int, level: str) -> None:
        """A computer player takes over a person's seat for the rest of the game
        (a network player who has gone for good); its clock stops."""
        self._check_seat(seat)
        self.stand_ins.hand_to_computer(seat, level)

    def hand_back(self, seat: int) -> None:
        """The person whose seat a computer took over (`hand_to_computer`) is
        back: the seat is theirs again from now, its clock restarts, and a
        choice the computer is still making for it is dropped. Call `attach`
        after: it tells everyone."""
        self._check_seat(seat)
        self.stand_ins.hand_back(seat)

    def stood_in(self, seat: int) -> None:
        """A table brought back from its record: the computer at ``seat`` was
        playing it for a person (who may still take it back)."""
        self._check_seat(seat)
        self.stand_ins.stood_in(seat)

    def stands_in(self, seat: int) -> bool:
        """A computer plays ``seat`` for the person who sat there."""
        return seat in self.stand_ins

    # ------------------------------------------------------------ acting
    async def start(self) -> None:
        """Send everyone the current position; bots and clocks begin."""
        if self.closed:
            raise IllegalMove("the table is closed")
        if self.started:
            return
        self.started = True
        self.arm_clocks()
        self.computers.kick()
        self.audience.tell([])

    async def play(self, seat: int, text: str, state_id: int | None = None) -> None:
        """A person's move in notation, chosen at ``state_id`` (None: whatever
        the state; a resignation needs none). MoveError (state unchanged) if
        the rules refuse it, StaleMove if the table has moved on since
        ``state_id``, IllegalMove if a bot sits there."""
        self._check_seat(seat)
        if seat in self.computers:
            raise IllegalMove(f"seat {seat + 1} is played by the computer")
        self._check_open()
        if state_id is not None and state_id != self.state_id:
            raise StaleMove(
                "the game has moved on since you chose that move: look again and choose anew"
            )
        self.in_flight.enter()
        try:
            await self.apply_move(seat, text)
        finally:
            self.in_flight.leave()

    async def resign(self, seat: int) -> None:
        """``seat`` gives up: the rules decide what follows (see rules.game)."""
        await self.play(seat, str(RESIGN))

    async def hint(self, seat: int) -> Hint:
        """The engine's view of ``seat``'s legal moves, searched from what the
        seat has seen (a Situation, as a bot gets), in the executor; counted
        in the record and saved. NoHints where none is given."""
        self._check_seat(seat)
        if not self.hints_allowed:
            raise NoHints("hints are off at this table")
        if seat in self.computers or self.status != PLAYING or seat not in self.state.to_act():
            raise NoHints("a hint is for your own turn: wait until you must move")
        self.in_flight.enter()
        try:
            return await self.computers.hint(seat, _hint_in_worker)
        finally:
            self.in_flight.leave()

    def share_screen(self, seats: Iterable[int]) -> None:
        """These seats' people share one screen (hot-seat): see MoveClocks."""
        self.clocks.share_screen(seats)

    async def pause(self, paused: bool) -> None:
        """Stop or restart every move clock where it stands."""
        if self.clocks.pause(paused) and self.started and not self.closed:
            self.audience.tell([])

    async def idle(self) -> None:
        """Return once no bot is thinking and no move or save is in flight.
        Re-raises an error that stopped a bot (a bug) instead of hanging."""
        await self.in_flight.idle()

    async def expire_clocks(self) -> None:
        """Play the timeout move of every seat whose clock has run out."""
        await play_timeouts(self)

    async def close(self) -> None:
        """Stop bots and clocks; return once the last save is on disk."""
        self.closed = True
        await cancel_and_wait([*self.computers.running(), self.clocks.stop()])
        await self.autosave.finish()  # the last moves reach the disk

    # ------------------------------------------------------------ for the parts
    async def apply_move(self, seat: int, text: str, before: Sequence[Event] = ()) -> None:
        """Validate and apply one move, record it, tell everyone, then save;
        whoever plays the seat (a person, its computer, its clock)."""
        self._check_open()
        move = self.spec.parse_move(text)  # NotationError: nothing changed
        events = list(before) + self.state.play(seat, move)  # IllegalMove: nothing changed
        self.record.moves.append((seat, str(move)))
        self.stand_ins.moved(seat)
        if self.state.is_over:
            self._record_end()
        self.record.touch()
        self._events.extend(events)
        self.history_version += 1
        self.arm_clocks()
        self.computers.kick()
        self.audience.tell(events)
        self.autosave.soon()

    def _pool(self) -> Thinkers:
        return self.computers.pool()

    def _check_seat(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < len(self.seats):
            raise IllegalMove(f"there is no seat {seat!r} at this table")

    def _check_open(self) -> None:
        if self.closed:
            raise IllegalMove("the table is closed")
        if self.status != PLAYING:
            raise IllegalMove("the game is over")

    def arm_clocks(self) -> None:
        live = self.status == PLAYING and not self.closed and self.started
        acting = set(self.state.to_act()) - set(self.computers.bots) if live else set()
        self.clocks.arm(self.state.clock, acting)

    def _record_end(self) -> None:
        outcome = self.state.outcome()
        self.record.status = FINISHED
        self.record.result = outcome.to_json() if outcome is not None else None
