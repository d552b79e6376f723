"""The table: the one authority for one game.

A :class:`Table` holds the rules state and the game record. Every move, from a
person, a bot or a move clock, goes through :meth:`Table.play` or its private
twin, is validated by the rules, appended to the record and autosaved; then
every watcher gets an :class:`~net.client.Update` per seat it watches, built
from that seat's view, legal moves and the events it may see
(``visible_events``). Nothing else ever leaves the table, so a transport
cannot leak what a seat must not know. The table knows no game: whatever
decides the game (resignations, clocks, the end) comes from the rules.

Saving is behind the move, not in its way: a move is answered once it is
applied and everyone has been told, and the record is saved right after in
the background. Saves coalesce (one on disk at a time, then one of the
newest record), so a busy server writes less, never out of order;
:meth:`idle` and :meth:`close` wait for the save in flight, so nothing is
lost to an orderly stop.

Bots: a bot seat's decision goes to the pool of the executor the table was
given (net/thinkers.py: threads in the app, processes on a server), shared
with every other table there and served in turn; the worker gets a
:class:`~net.thinkers.SeatPosition` (a state sampled for the seat, never the
table's), so the event loop never freezes and no hidden card leaves it. A
search the busy pool cut short is said once, in a ``hurried`` notice. Every
bot that must act thinks at once (a simultaneous phase). ``pace`` seconds
pass between a move and a bot's reply (the bot thinks meanwhile); 0 in
tests. A bot's random generator is seeded from (game seed, seat, state id),
so a game resumed from its record goes on exactly as it would have without
the interruption. Closing the table cancels a bot that is still thinking
(one queued leaves the queue; a running one's answer is dropped).

Move clocks come from ``state.clock(seat)``: a person's clock starts when
their seat must act and restarts only when the clock's turn key changes (the
steps of one turn share a clock); when it runs out the table plays the
clock's timeout move after a ``timeout`` event. Bots have no clock. People
who share one screen (hot-seat, :meth:`Table.share_screen`) get their clocks
one after the other, lowest seat first, as the screen shows them.
:meth:`pause` stops every clock (local play: a menu is open). The clock and
the sleep are injected, so tests drive time by hand. A resumed game starts
fresh clocks.

Status: ``playing``, then ``finished``. The state id is the number of moves
applied: it only grows; a move chosen at another state id is refused
(:class:`~net.client.StaleMove`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Hashable, Iterable, Sequence
from concurrent.futures import Executor
from typing import Any

from rules.bots import Bot, Situation, make_bot
from rules.errors import IllegalMove
from rules.events import Event, SeatEvent, visible_events
from rules.game import RESIGN, GameSpec, GameState
from saves.errors import SaveError
from saves.record import GameRecord, SeatInfo
from saves.store import SaveStore

from .client import FINISHED, PLAYING, Hint, HintEstimate, NoHints, Notice, StaleMove, Update
from .thinkers import SeatPosition, Thinkers, thinkers_for

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[Any]]
Listener = Callable[[Update], None]
Perspective = int | None


def _hint(situation: Situation, rng: random.Random) -> tuple[HintEstimate, ...]:
    """The engine's estimates for a seat's moves."""
    from rules.bots.search import hint

    analysis = hint(situation, rng)
    return tuple(HintEstimate(str(e.move), e.value, e.points) for e in analysis.moves)


def _hint_in_worker(position: SeatPosition, seed: str) -> tuple[HintEstimate, ...]:
    """:func:`_hint`, run in the pool (a module function, so that a process
    pool can pickle it) from what crossed into the worker."""
    return _hint(position.situation(), random.Random(seed))


HURRIED = (
    "The server is busy: the computer takes less time over its moves to keep every game going."
)


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
        self.store = store
        self.pace = pace
        self.executor = executor
        self.clock_source = clock
        self.sleep = sleep
        self.hints_allowed = hints
        self._events: list[Event] = list(events)  # unredacted; filtered per seat on the way out
        self._history_version = 0
        self._bots: dict[int, Bot] = {
            i: make_bot(record.game, seat.level or "medium")
            for i, seat in enumerate(record.seats)
            if seat.kind == "bot"
        }
        self._watchers: list[tuple[tuple[Perspective, ...], Listener]] = []
        self._present: Counter[int] = Counter()  # person seats -> clients attached there
        # seat -> (turn key, clock time it runs out); while paused, seconds left instead
        self._clocks: dict[int, tuple[Hashable, float]] = {}
        self._paused = False
        self._one_screen: frozenset[int] = frozenset()  # hot-seat people, see share_screen
        self._started = False
        self._closed = False
        self._bot_tasks: dict[int, asyncio.Task[None]] = {}
        self._watchdog: asyncio.Task[None] | None = None
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._save_lock = asyncio.Lock()
        self._unsaved = False  # the record has changed since the last save began
        self._saver: asyncio.Task[None] | None = None
        self._failure: BaseException | None = None
        self.save_error: str | None = None  # why the last autosave failed, if it did
        self._queued: list[Notice] = []  # notices for the next update
        # person seats a computer plays for now (hand_to_computer), and those
        # just handed back to their person (attach says so in words)
        self._stand_ins: set[int] = set()
        self._handed_back: set[int] = set()
        self.bot_errors: list[str] = []  # bot bugs the table worked around
        self._thinkers: Thinkers | None = None  # the executor's shared queue, on first use
        self._told_hurried = False
        if record.status == PLAYING and state.is_over:  # saved before its status was
            self._record_end()

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

    @property
    def paused(self) -> bool:
        return self._paused

    def history(self, seat: Perspective) -> list[Event]:
        return visible_events(self._events, seat)

    @property
    def history_version(self) -> int:
        """Changes whenever the history does (a server keeps a history it
        sends many spectators as long as this stays the same)."""
        return self._history_version

    def thinking(self) -> tuple[int, ...]:
        """The bot seats choosing (or about to choose) a move."""
        if self.status != PLAYING or not self._started or self._closed:
            return ()
        return tuple(s for s in self.state.to_act() if s in self._bots)

    def connected(self) -> tuple[int, ...]:
        """Seats with a player there: bots, and people with a client attached."""
        return tuple(s for s in range(len(self.seats)) if s in self._bots or self._present[s])

    def time_left(self, seat: int) -> float | None:
        held = self._clocks.get(seat)
        if held is None:
            return None
        if self._paused:
            return held[1]
        return max(0.0, held[1] - self.clock_source())

    def snapshot(self, seat: Perspective) -> Update:
        """Where things stand for ``seat``, as an update with no new events."""
        return self._update(seat, (), (), {})

    def watch(self, perspectives: Iterable[Perspective], listener: Listener) -> Callable[[], None]:
        """Send ``listener`` one Update per perspective (a seat, or None for a
        spectator) after every change. Returns a function that stops it."""
        entry = (tuple(perspectives), listener)
        self._watchers.append(entry)

        def unwatch() -> None:
            with contextlib.suppress(ValueError):
                self._watchers.remove(entry)

        return unwatch

    def attach(self, seats: Iterable[int]) -> None:
        """A client now sits at these person seats (they show as connected)."""
        back = []
        for seat in seats:
            if self._present[seat] == 0 and self._started:
                back.append(seat)
            self._present[seat] += 1
        if back and not self._closed:
            self._notify([], tuple(self._back_notice(s) for s in back))

    def _back_notice(self, seat: int) -> Notice:
        if seat in self._handed_back:
            self._handed_back.discard(seat)
            text = f"{{p{seat} is|are}} back and {{p{seat}:plays|play}} again: the computer stops."
            return Notice("back", text, seat)
        return Notice("back", f"{{p{seat} is|are}} back.", seat)

    def detach(self, seats: Iterable[int]) -> None:
        """A client has left these seats."""
        gone = []
        for seat in seats:
            self._present[seat] -= 1
            if self._present[seat] <= 0:
                del self._present[seat]
                gone.append(seat)
        if gone and self._started and not self._closed and self.status == PLAYING:
            self._notify([], tuple(Notice("left", f"{{p{s} has|have}} left.", s) for s in gone))

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
        if self._started or self.record.moves:
            raise IllegalMove("the game has begun: it cannot be dealt again")
        self.state = self.spec.new(self.state.config, seed, self.record.deck_order)
        self.record.seed = seed
        self._events.clear()
        self._history_version += 1

    async def save(self) -> None:
        """Save the record now (moves save themselves; this is for seat changes)."""
        await self._save()

    def use_bot(self, seat: int, bot: Bot) -> None:
        """``bot`` plays the computer's ``seat`` instead of the level's bot (a
        lesson's scripted opponent, net/lesson.py); before the table starts."""
        if seat not in self._bots or self._started:
            raise ValueError(f"seat {seat + 1} is no computer seat of a table not yet started")
        self._bots[seat] = bot

    def hand_to_computer(self, seat: int, level: str) -> None:
        """A computer player takes over a person's seat for the rest of the game
        (a network player who has gone for good); its clock stops."""
        self._check_seat(seat)
        if seat in self._bots:
            return
        old = self.record.seats[seat]
        self.record.seats[seat] = SeatInfo(old.name, "bot", level)
        self._bots[seat] = make_bot(self.record.game, level)
        self._stand_ins.add(seat)
        self._present.pop(seat, None)
        if not self._started or self._closed or self.status != PLAYING:
            return
        self._arm_clocks()
        self._kick_bots()
        self._notify([], (Notice("computer", f"The computer plays for {{p{seat}}} now.", seat),))

    def hand_back(self, seat: int) -> None:
        """The person whose seat a computer took over (`hand_to_computer`) is
        back: the seat is theirs again from now, its clock restarts, and a
        choice the computer is still making for it is dropped. Call `attach`
        after: it tells everyone."""
        self._check_seat(seat)
        if seat not in self._bots or seat not in self._stand_ins:
            return
        old = self.record.seats[seat]
        self.record.seats[seat] = SeatInfo(old.name, "remote")
        del self._bots[seat]
        self._stand_ins.discard(seat)
        self._handed_back.add(seat)
        task = self._bot_tasks.get(seat)
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
        if self._started and not self._closed and self.status == PLAYING:
            self._arm_clocks()

    def stood_in(self, seat: int) -> None:
        """A table brought back from its record: the computer at ``seat`` was
        playing it for a person (who may still take it back)."""
        self._check_seat(seat)
        if seat in self._bots:
            self._stand_ins.add(seat)

    def stands_in(self, seat: int) -> bool:
        """A computer plays ``seat`` for the person who sat there."""
        return seat in self._stand_ins

    # ------------------------------------------------------------ acting
    async def start(self) -> None:
        """Send everyone the current position; bots and clocks begin."""
        if self._closed:
            raise IllegalMove("the table is closed")
        if self._started:
            return
        self._started = True
        self._arm_clocks()
        self._kick_bots()
        self._notify([])

    async def play(self, seat: int, text: str, state_id: int | None = None) -> None:
        """A person's move in notation, chosen at ``state_id`` (None: whatever
        the state; a resignation needs none). MoveError (state unchanged) if
        the rules refuse it, StaleMove if the table has moved on since
        ``state_id``, IllegalMove if a bot sits there."""
        self._check_seat(seat)
        if seat in self._bots:
            raise IllegalMove(f"seat {seat + 1} is played by the computer")
        self._check_open()
        if state_id is not None and state_id != self.state_id:
            raise StaleMove(
                "the game has moved on since you chose that move: look again and choose anew"
            )
        self._enter()
        try:
            await self._apply(seat, text)
        finally:
            self._leave()

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
        if seat in self._bots or self.status != PLAYING or seat not in self.state.to_act():
            raise NoHints("a hint is for your own turn: wait until you must move")
        state_id = self.state_id
        seed = f"{self.record.seed}:hint:{seat}:{state_id}"
        position = SeatPosition.of(self.state, seat, self._seen(seat), seed)
        self._enter()
        try:
            # a person is waiting: ahead of every computer's search
            moves = await self._pool().think(self, _hint_in_worker, position, seed, urgent=True)
            hints = self.record.hints or [0] * len(self.seats)
            hints[seat] += 1
            self.record.hints = hints
            await self._save()
        finally:
            self._leave()
        return Hint(state_id, seat, moves, hints[seat])

    async def pause(self, paused: bool) -> None:
        """Stop or restart every move clock where it stands."""
        if paused == self._paused:
            return
        now = self.clock_source()
        if paused:
            self._clocks = {s: (t, max(0.0, end - now)) for s, (t, end) in self._clocks.items()}
        else:
            self._clocks = {s: (t, now + left) for s, (t, left) in self._clocks.items()}
        self._paused = paused
        self._rearm_watchdog()
        if self._started and not self._closed:
            self._notify([])

    async def idle(self) -> None:
        """Return once no bot is thinking and no move or save is in flight.
        Re-raises an error that stopped a bot (a bug) instead of hanging."""
        await self._idle.wait()
        if self._failure is not None:
            raise self._failure

    async def expire_clocks(self) -> None:
        """Play the timeout move of every seat whose clock has run out."""
        if self._paused:
            return
        now = self.clock_source()
        for seat, (turn, end) in sorted(self._clocks.items()):
            if self.status != PLAYING or self._clocks.get(seat) != (turn, end) or end > now:
                continue  # the game ended, the seat moved meanwhile, or time is left
            del self._clocks[seat]
            clock = self.state.clock(seat)
            if clock is None or clock.turn != turn:
                continue
            text = f"{{p{seat}}} ran out of time."
            notice = Event("timeout", text, SeatEvent(seat=seat))
            if any(other != seat for other in self.state.to_act()):
                # others still choose at the same time: that this seat chose
                # nothing is its secret until the rules reveal the round
                notice = Event("timeout", text, SeatEvent(seat=seat), private_to=seat)
            self._enter()
            try:
                await self._apply(seat, str(clock.timeout_move), before=[notice])
            except IllegalMove as err:
                log.error("the timeout move of seat %d is illegal: %s", seat, err)
            finally:
                self._leave()

    async def close(self) -> None:
        """Stop bots and clocks; return once the last save is on disk."""
        self._closed = True
        self._clocks.clear()
        tasks = [*self._bot_tasks.values(), self._watchdog]
        for task in tasks:
            if task is not None and not task.done() and task is not asyncio.current_task():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self._saver is not None:  # the last moves reach the disk
            await self._saver
        async with self._save_lock:  # let a save in flight finish
            pass

    # ------------------------------------------------------------ internals
    def _check_seat(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < len(self.seats):
            raise IllegalMove(f"there is no seat {seat!r} at this table")

    def _check_open(self) -> None:
        if self._closed:
            raise IllegalMove("the table is closed")
        if self.status != PLAYING:
            raise IllegalMove("the game is over")

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
        move = self.spec.parse_move(text)  # NotationError: nothing changed
        events = list(before) + self.state.play(seat, move)  # IllegalMove: nothing changed
        self.record.moves.append((seat, str(move)))
        if self.state.is_over:
            self._record_end()
        self.record.touch()
        self._events.extend(events)
        self._history_version += 1
        self._arm_clocks()
        self._kick_bots()
        self._notify(events)
        self._save_soon()

    def _record_end(self) -> None:
        outcome = self.state.outcome()
        self.record.status = FINISHED
        self.record.result = outcome.to_json() if outcome is not None else None

    def _save_soon(self) -> None:
        """Save the record in the background, after any save in flight (the
        move does not wait for the disk: fsync takes milliseconds, and a
        server's many tables would queue behind each other's)."""
        if self.store is None:
            return
        self._unsaved = True
        if self._saver is None or self._saver.done():
            self._enter()  # idle() waits for the disk too
            self._saver = asyncio.create_task(self._save_while_unsaved())

    async def _save_while_unsaved(self) -> None:
        try:
            while self._unsaved:
                self._unsaved = False
                await self._save()
        finally:
            self._leave()

    async def _save(self) -> None:
        if self.store is None:
            return
        snapshot = self.record.copy()  # the table goes on changing the original
        # the lock is FIFO, so saves reach the disk in the order of the moves
        async with self._save_lock:
            failed_before = self.save_error
            try:
                await asyncio.to_thread(self.store.save, snapshot)
            except SaveError as err:
                self.save_failed(err)
                if self.save_error != failed_before:
                    self._notify([])
            else:
                self.save_error = None
                if failed_before is not None:
                    self._notify([], (Notice("saved", "The game is being saved again."),))

    def save_failed(self, err: SaveError) -> None:
        """Saving failed: say so once (with the next update) until it works again."""
        log.error("autosave failed: %s", err)
        if str(err) != self.save_error:
            self._queued.append(Notice("save_failed", f"The game is not being saved: {err}"))
        self.save_error = str(err)

    def _update(
        self,
        seat: Perspective,
        events: Sequence[Event],
        notices: Sequence[Notice],
        views: dict[Perspective, Any],
    ) -> Update:
        state = self.state
        if seat not in views:
            views[seat] = state.view(seat)
        to_act = state.to_act()
        legal = (
            tuple(str(m) for m in state.legal_moves(seat))
            if seat is not None and seat in to_act and self.status == PLAYING
            else ()
        )
        return Update(
            state_id=self.state_id,
            seat=seat,
            view=views[seat],
            to_act=to_act if self.status == PLAYING else (),
            legal=legal,
            scores=state.scores(),
            events=tuple(visible_events(events, seat)),
            status=self.status,
            result=state.outcome(),
            thinking=self.thinking(),
            connected=self.connected(),
            notices=tuple(notices),
            clocks=tuple(self.time_left(s) for s in range(len(self.seats))),
            paused=self._paused,
            hints=tuple(self.record.hints),
        )

    def _notify(self, events: Sequence[Event], notices: Sequence[Notice] = ()) -> None:
        if self._queued:
            notices = (*self._queued, *notices)
            self._queued.clear()
        views: dict[Perspective, Any] = {}
        for perspectives, listener in list(self._watchers):
            for seat in perspectives:
                update = self._update(seat, events, notices, views)
                try:
                    listener(update)
                except Exception:  # a broken screen must not stop the table
                    log.exception("a table listener failed")

    # ------------------------------------------------------------ bots
    def _kick_bots(self) -> None:
        """Every bot that must act and is not yet thinking starts to."""
        for seat in self.thinking():
            running = self._bot_tasks.get(seat)
            # a task that has just finished is still listed until its done
            # callback runs: it will not look at the state again
            if running is not None and not running.done():
                continue
            self._enter()  # busy from now, before the task first runs
            task = asyncio.get_running_loop().create_task(self._bot_turn(seat))
            self._bot_tasks[seat] = task
            # a callback, not a `finally`: a task cancelled before its first
            # step never runs its body
            task.add_done_callback(functools.partial(self._bot_done, seat))

    def _bot_done(self, seat: int, task: asyncio.Task[None]) -> None:
        if self._bot_tasks.get(seat) is task:
            del self._bot_tasks[seat]
        self._leave()

    async def _bot_turn(self, seat: int) -> None:
        try:
            while seat in self.thinking():
                await self._bot_move(seat)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # a bug: surface it through idle()
            log.exception("a bot of seat %d stopped", seat)
            self._failure = err

    def _pool(self) -> Thinkers:
        if self._thinkers is None:
            self._thinkers = thinkers_for(self.executor)
        return self._thinkers

    def _seen(self, seat: int) -> tuple[Event, ...]:
        return tuple(visible_events(self._events, seat))

    async def _bot_move(self, seat: int) -> None:
        state_id = self.state_id
        seed = f"{self.record.seed}:{seat}:{state_id}"
        rng = random.Random(seed)  # the worker's bot draws the same numbers from the seed
        legal = self.state.legal_moves(seat)
        # the worker gets a sample drawn for the seat: never the table's state,
        # nor any event hidden from the seat (net/thinkers.py)
        position = SeatPosition.of(self.state, seat, self._seen(seat), seed)
        # a hard computer's medium self plays when the busy pool has no time for a search
        hard = self.record.seats[seat].level == "hard"
        fallback = make_bot(self.record.game, "medium") if hard else None
        think = asyncio.ensure_future(
            self._pool().choose(self, self._bots[seat], position, seed, fallback)
        )
        try:
            if self.pace > 0:
                choice, _ = await asyncio.gather(think, self.sleep(self.pace))
            else:
                choice = await think
            move = choice.move
            if choice.hurried and not self._told_hurried:
                self._told_hurried = True  # once a game: it is the server's state, not news
                self._queued.append(Notice("hurried", HURRIED))
        except asyncio.CancelledError:
            think.cancel()
            raise
        except Exception as err:
            move = self._bot_fallback(seat, legal, rng, f"raised {err!r}")
        if self.status != PLAYING or self._closed or seat not in self._bots:
            return  # (the seat's person took it back meanwhile)
        if self.state_id != state_id:
            # another seat moved while the bot thought (a simultaneous phase):
            # keep its choice if it still stands, else think again
            if move not in self.state.legal_moves(seat):
                return
        elif move not in legal:
            move = self._bot_fallback(seat, legal, rng, f"chose the illegal move {move}")
        await self._apply(seat, str(move))

    def _bot_fallback(
        self, seat: int, legal: Sequence[Hashable], rng: random.Random, what: str
    ) -> object:
        message = f"the {self.record.game} bot of seat {seat + 1} {what}; playing at random"
        log.error(message)
        self.bot_errors.append(message)
        return rng.choice(legal)

    # ------------------------------------------------------------ clocks
    def share_screen(self, seats: Iterable[int]) -> None:
        """These seats' people share one screen (hot-seat) and so act one at a
        time, lowest seat first, even in a simultaneous phase: only the first
        of them still to act has a running clock; the next one's starts when it
        has moved. Otherwise the second person's time would run out while the
        first one chose."""
        self._one_screen = frozenset(seats)

    def _arm_clocks(self) -> None:
        """Bring every clock in line with the rules after a change: a seat that
        must act keeps its clock while the turn key stays, gets a fresh one
        when it changes, and loses it when it need not act."""
        live = self.status == PLAYING and not self._closed and self._started
        acting = set(self.state.to_act()) if live else set()
        acting -= set(self._bots)
        waiting = sorted(acting & self._one_screen)[1:]  # not their turn at the screen yet
        acting.difference_update(waiting)
        now = self.clock_source()
        clocks: dict[int, tuple[Hashable, float]] = {}
        for seat in sorted(acting):
            rule = self.state.clock(seat)
            if rule is None:
                continue
            held = self._clocks.get(seat)
            if held is not None and held[0] == rule.turn:
                clocks[seat] = held
            else:
                fresh = rule.seconds if self._paused else now + rule.seconds
                clocks[seat] = (rule.turn, fresh)
        changed = clocks != self._clocks
        self._clocks = clocks
        if changed:
            self._rearm_watchdog()

    def _rearm_watchdog(self) -> None:
        # Clocks may differ in length (a setup phase has its own), so the
        # watchdog is restarted whenever they change, sleeping to the earliest.
        # A watchdog that is itself playing a timeout move is left to finish
        # that move (cancelling it could cut a save short); it stops looping
        # once it is no longer the table's watchdog.
        old = self._watchdog
        if old is not None and not old.done() and old is not asyncio.current_task():
            old.cancel()
        self._watchdog = None
        if self._clocks and not self._paused and not self._closed:
            self._watchdog = asyncio.get_running_loop().create_task(self._watch_clocks())

    async def _watch_clocks(self) -> None:
        me = asyncio.current_task()
        while (
            self._watchdog is me
            and self._clocks
            and self.status == PLAYING
            and not self._closed
            and not self._paused
        ):
            wait = min(end for _, end in self._clocks.values()) - self.clock_source()
            if wait > 0:
                await self.sleep(wait)
            else:
                await self.expire_clocks()
