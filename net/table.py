"""The table: the one authority for one game.

A :class:`Table` holds the rules state and the game record. Every move, from a
person, a bot or a move timer, goes through :meth:`Table.play` or its private
twin, is validated by the rules, appended to the record and autosaved; then
every watcher gets an :class:`~net.client.Update` per seat it watches, built
from that seat's view and the events it may see (``visible_events``). Nothing
else ever leaves the table, so a transport cannot leak what a seat must not
know.

Bots: a bot seat gets a :class:`rules.bots.Situation` (its view, its legal
moves, samples), never the state, and chooses in a worker thread
(``asyncio.to_thread``) so the event loop, and the UI on it, never freezes.
``pace`` seconds pass between a move and a bot's reply (the bot thinks
meanwhile); 0 in tests. A bot's random generator is seeded from (game seed,
seat, state id), so a game resumed from its record goes on exactly as it
would have without the interruption.

Move timers: a game opts in per seat and per moment by returning a move from
``state.timeout_move(seat)``; the length comes from the ``timer`` argument,
else from the game's Config option ``timer`` (seconds, 0 = off; trick has it), see
:func:`move_timer_seconds`. A person's timer starts when their seat must act
and restarts after each move it makes (in a simultaneous round it keeps
running while the other seat submits); when it runs out the table plays
``timeout_move(seat)`` for them after a ``timeout`` event. Bots have no timer.
People who share one screen (hot-seat, :meth:`Table.share_screen`) get
their clocks one after the other, lowest seat first, as the screen shows them.
A move whose events carry ``timer_reset: true`` in their data restarts every
running clock (trick's Claim Priority).
The clock and the sleep are injected, so tests drive time by hand. A resumed
game starts fresh timers.

Status: ``playing``, then ``finished`` (the rules ended the game) or
``resigned``. The state id is the number of moves applied: it only grows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from rules.bots import Bot, Situation, make_bot
from rules.config import GameConfig
from rules.errors import IllegalMove, NotationError
from rules.events import Event, visible_events
from rules.game import GameSpec, GameState, Outcome
from saves.errors import SaveError
from saves.record import GameRecord, SeatInfo
from saves.store import SaveStore

from .client import Update

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[Any]]
Listener = Callable[[Update], None]
Perspective = int | None

TIMER_OPTION = "timer"


def move_timer_seconds(config: GameConfig) -> float | None:
    """The move timer a game's options ask for: the ``timer`` option in
    seconds, if the game has one and it is above 0; else None (no timer)."""
    seconds = getattr(config, TIMER_OPTION, None)
    if isinstance(seconds, int | float) and not isinstance(seconds, bool) and seconds > 0:
        return float(seconds)
    return None


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
        timer: float | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        if len(record.seats) != state.config.players:
            raise ValueError(f"{len(record.seats)} seats for a {state.config.players}-player game")
        self.spec = spec
        self.state = state
        self.record = record
        self.store = store
        self.pace = pace
        self.timer = timer if timer is not None else move_timer_seconds(state.config)
        self._clock = clock
        self._sleep = sleep
        self._events: list[Event] = list(events)  # unredacted; filtered per seat on the way out
        self._bots: dict[int, Bot] = {
            i: make_bot(record.game, seat.level or "medium")
            for i, seat in enumerate(record.seats)
            if seat.kind == "bot"
        }
        self._watchers: list[tuple[tuple[Perspective, ...], Listener]] = []
        self._deadlines: dict[int, float] = {}  # seat -> clock time its move timer runs out
        self._one_screen: frozenset[int] = frozenset()  # hot-seat people, see share_screen
        self._started = False
        self._closed = False
        self._driver: asyncio.Task[None] | None = None
        self._watchdog: asyncio.Task[None] | None = None
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._save_lock = asyncio.Lock()
        self._failure: BaseException | None = None
        self.save_error: str | None = None  # why the last autosave failed, if it did
        self.bot_errors: list[str] = []  # bot bugs the table worked around
        if record.status == "playing" and state.is_over:  # saved before its status was
            outcome = state.outcome()
            record.status = "finished"
            record.result = outcome.to_json() if outcome is not None else None
        if record.status == "resigned" and record.result:
            self._events.append(_resign_event(record.result))

    # ------------------------------------------------------------ reading
    @property
    def seats(self) -> list[SeatInfo]:
        return self.record.seats

    @property
    def status(self) -> str:
        return self.record.status

    @property
    def state_id(self) -> int:
        return len(self.record.moves)

    def view(self, seat: Perspective) -> dict[str, Any]:
        return self.state.view(seat)

    def history(self, seat: Perspective) -> list[Event]:
        return visible_events(self._events, seat)

    def thinking(self) -> int | None:
        """The bot seat that is choosing (or about to choose) a move."""
        if self.status != "playing" or not self._started or self._closed:
            return None
        return next((s for s in self.state.to_act() if s in self._bots), None)

    def time_left(self, seat: int) -> float | None:
        deadline = self._deadlines.get(seat)
        return None if deadline is None else max(0.0, deadline - self._clock())

    def watch(self, perspectives: Iterable[Perspective], listener: Listener) -> Callable[[], None]:
        """Send ``listener`` one Update per perspective (a seat, or None for a
        spectator) after every change. Returns a function that stops it."""
        entry = (tuple(perspectives), listener)
        self._watchers.append(entry)

        def unwatch() -> None:
            with contextlib.suppress(ValueError):
                self._watchers.remove(entry)

        return unwatch

    # ------------------------------------------------------------ acting
    async def start(self) -> None:
        """Send everyone the current position; bots and timers begin."""
        if self._closed:
            raise IllegalMove("the table is closed")
        if self._started:
            return
        self._started = True
        self._arm_timers(mover=None)
        self._kick_bots()
        self._notify([])

    async def play(self, seat: int, text: str) -> None:
        """A person's move in notation. IllegalMove (state unchanged) if the
        rules refuse it, if it is not that seat's turn, or if a bot sits there."""
        self._check_seat(seat)
        if seat in self._bots:
            raise IllegalMove(f"seat {seat + 1} is played by the computer")
        self._enter()
        try:
            await self._apply(seat, text)
        finally:
            self._leave()

    async def resign(self, seat: int) -> None:
        """``seat`` gives up: the game ends, every other seat ranked ahead of it."""
        self._check_seat(seat)
        if seat in self._bots:
            raise IllegalMove(f"seat {seat + 1} is played by the computer")
        self._check_open()
        self._enter()
        try:
            others = tuple(s for s in range(len(self.seats)) if s != seat)
            outcome = Outcome(
                winner=others[0] if len(others) == 1 else None,
                ranking=(others, (seat,)),
                scores=_scores(self.state),
                reason=f"{self.seats[seat].name} resigned",
            )
            self.record.status = "resigned"
            self.record.result = outcome.to_json()
            self.record.touch()
            self._deadlines.clear()
            events = [_resign_event(self.record.result)]
            self._events.extend(events)
            self._notify(events)
            await self._save()
        finally:
            self._leave()

    async def idle(self) -> None:
        """Return once no bot is thinking and no move or save is in flight.
        Re-raises an error that stopped the bot loop (a bug) instead of hanging."""
        await self._idle.wait()
        if self._failure is not None:
            raise self._failure

    async def expire_timers(self) -> None:
        """Play the timeout move of every seat whose timer has run out."""
        now = self._clock()
        for seat, deadline in sorted(self._deadlines.items()):
            if self.status != "playing" or self._deadlines.get(seat) != deadline:
                continue  # the game ended, or the seat moved meanwhile
            if deadline > now:
                continue
            del self._deadlines[seat]
            move = self.state.timeout_move(seat)
            if move is None:
                continue
            notice = Event("timeout", f"{{p{seat}}} ran out of time.", {"seat": seat})
            self._enter()
            try:
                await self._apply(seat, str(move), before=[notice])
            except IllegalMove as err:
                log.error("the timeout move %s of seat %d is illegal: %s", move, seat, err)
            finally:
                self._leave()

    async def close(self) -> None:
        """Stop bots and timers (the record is already saved)."""
        self._closed = True
        self._deadlines.clear()
        for task in (self._driver, self._watchdog):
            if task is not None and not task.done() and task is not asyncio.current_task():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        async with self._save_lock:  # let a save in flight finish
            pass

    # ------------------------------------------------------------ internals
    def _check_seat(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < len(self.seats):
            raise IllegalMove(f"there is no seat {seat!r} at this table")

    def _check_open(self) -> None:
        if self._closed:
            raise IllegalMove("the table is closed")
        if self.status != "playing":
            raise IllegalMove(f"the game is over ({self.status})")

    def _enter(self) -> None:
        self._busy += 1
        self._idle.clear()

    def _leave(self) -> None:
        self._busy -= 1
        if self._busy == 0:
            self._idle.set()

    async def _apply(self, seat: int, text: str, before: Sequence[Event] = ()) -> None:
        """Validate and apply one move, record it, tell everyone, then save."""
        self._check_open()
        try:
            move = self.spec.parse_move(text)
        except NotationError as err:
            raise IllegalMove(str(err)) from None
        events = list(before) + self.state.play(seat, move)  # IllegalMove: nothing changed
        record = self.record
        record.moves.append((seat, str(move)))
        if self.state.is_over:
            outcome = self.state.outcome()
            record.status = "finished"
            record.result = outcome.to_json() if outcome is not None else None
        record.touch()
        self._events.extend(events)
        # a rule may restart every clock (trick's Claim Priority: "the timer for
        # the next round will reset"); it says so in an event's data
        self._arm_timers(mover=seat, restart=any(e.data.get("timer_reset") for e in events))
        self._kick_bots()
        self._notify(events)
        await self._save()

    async def _save(self) -> None:
        if self.store is None:
            return
        snapshot = self.record.copy()  # the table goes on changing the original
        # the lock is FIFO, so saves reach the disk in the order of the moves
        async with self._save_lock:
            try:
                await asyncio.to_thread(self.store.save, snapshot)
            except SaveError as err:
                self.save_error = str(err)
                log.error("autosave failed: %s", err)
            else:
                self.save_error = None

    def _notify(self, events: Sequence[Event]) -> None:
        thinking = self.thinking()
        views: dict[Perspective, dict[str, Any]] = {}
        for perspectives, listener in list(self._watchers):
            for seat in perspectives:
                if seat not in views:
                    views[seat] = self.state.view(seat)
                update = Update(
                    state_id=self.state_id,
                    seat=seat,
                    view=views[seat],
                    events=visible_events(events, seat),
                    thinking=thinking,
                    status=self.status,
                    time_left=self.time_left(seat) if seat is not None else None,
                )
                try:
                    listener(update)
                except Exception:  # a broken screen must not stop the table
                    log.exception("a table listener failed")

    # ------------------------------------------------------------ bots
    def _kick_bots(self) -> None:
        if self._driver is None and self.thinking() is not None:
            self._enter()  # busy from now, before the task first runs
            self._driver = asyncio.get_running_loop().create_task(self._drive_bots())
            # a callback, not a `finally`: a task cancelled before its first
            # step never runs its body
            self._driver.add_done_callback(self._bots_done)

    def _bots_done(self, task: asyncio.Task[None]) -> None:
        if self._driver is task:
            self._driver = None
        self._leave()

    async def _drive_bots(self) -> None:
        try:
            while (seat := self.thinking()) is not None:
                await self._bot_move(seat)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # a bug: surface it through idle()
            log.exception("the bot loop stopped")
            self._failure = err
        finally:
            self._driver = None  # a move after this point starts a new loop

    async def _bot_move(self, seat: int) -> None:
        state_id = self.state_id
        # a copy: the worker never sees the table's state, nor any event hidden from the seat
        situation = Situation(self.state, seat, visible_events(self._events, seat))
        rng = random.Random(f"{self.record.seed}:{seat}:{state_id}")
        think = asyncio.to_thread(self._bots[seat].choose, situation, rng)
        try:
            if self.pace > 0:
                move, _ = await asyncio.gather(think, self._sleep(self.pace))
            else:
                move = await think
        except Exception as err:
            move = self._bot_fallback(seat, situation, rng, f"raised {err!r}")
        if self.status != "playing" or self._closed:
            return
        if self.state_id != state_id:
            # another seat moved while the bot thought (a simultaneous round):
            # keep its choice if it still stands, else ask again
            if move not in self.state.legal_moves(seat):
                return
        elif move not in situation.legal:
            move = self._bot_fallback(seat, situation, rng, f"chose the illegal move {move}")
        await self._apply(seat, str(move))

    def _bot_fallback(
        self, seat: int, situation: Situation, rng: random.Random, what: str
    ) -> object:
        message = f"the {self.record.game} bot of seat {seat + 1} {what}; playing at random"
        log.error(message)
        self.bot_errors.append(message)
        return rng.choice(situation.legal)

    # ------------------------------------------------------------ timers
    def share_screen(self, seats: Iterable[int]) -> None:
        """These seats' people share one screen (hot-seat) and so act one at a
        time, lowest seat first, even in a simultaneous round: only the first
        of them still to act has a running clock; the next one's starts when it
        has moved. Otherwise the second person's time would run out while the
        first one chose."""
        self._one_screen = frozenset(seats)

    def _arm_timers(self, mover: int | None, restart: bool = False) -> None:
        timer = self.timer
        stopped = timer is None or self.status != "playing" or self._closed or not self._started
        if restart or stopped:
            self._deadlines.clear()
        if timer is None or stopped:
            return
        acting = set(self.state.to_act())
        waiting = sorted(acting & self._one_screen)[1:]  # not their turn at the screen yet
        acting.difference_update(waiting)
        for seat in list(self._deadlines):
            if seat not in acting or seat == mover:
                del self._deadlines[seat]
        now = self._clock()
        for seat in sorted(acting):
            if (
                seat not in self._deadlines
                and seat not in self._bots
                and self.state.timeout_move(seat) is not None
            ):
                self._deadlines[seat] = now + timer
        if self._deadlines and self._watchdog is None:
            self._watchdog = asyncio.get_running_loop().create_task(self._watch_timers())

    async def _watch_timers(self) -> None:
        # Every timer has the same length, so a deadline added later is never
        # earlier than those already set: sleeping until the earliest is safe,
        # and waking for one that was cancelled meanwhile costs one loop.
        try:
            while self._deadlines and self.status == "playing" and not self._closed:
                wait = min(self._deadlines.values()) - self._clock()
                if wait > 0:
                    await self._sleep(wait)
                else:
                    await self.expire_timers()
        finally:
            self._watchdog = None


def _scores(state: GameState[Any, Any]) -> tuple[int, ...]:
    """The scores a resignation leaves on the board: the view's ``scores`` if the
    game keeps any, else zeros."""
    players: int = state.config.players
    scores = state.view(None).get("scores")
    if isinstance(scores, list) and len(scores) == players and all(type(s) is int for s in scores):
        return tuple(scores)
    return (0,) * players


def _resign_event(result: dict[str, Any]) -> Event:
    ranking = result.get("ranking") or [[]]
    last = ranking[-1] if ranking else []
    seat = last[0] if len(last) == 1 and type(last[0]) is int else None
    text = f"{{p{seat}}} resigns." if seat is not None else str(result.get("reason", "resigned"))
    return Event("resign", text, {"seat": seat})
