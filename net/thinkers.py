"""Where computer players think: one pool a process, shared by every table, with a fair queue.

A table never runs a search itself. It hands :class:`Thinkers` a
:class:`SeatPosition` (what one seat may know, nothing more) and awaits the
move. The pool runs at most ``workers`` searches at once in its executor (a
process pool on a server, ``cardtable serve``; threads in the app) and keeps
the rest in a queue of its own, served from the event loop:

* **Fair**: one lane per table, served in turn (round robin), so a table
  whose computers all want to think waits its turn like any other; a lane's
  own requests go in order.
* **People first**: a hint (a person is waiting for it) goes before every
  computer's search. A person's move never waits for the pool at all: it is
  applied on the event loop, which searches never occupy.
* **Gone is gone**: a request whose table closed (its task cancelled) leaves
  the queue at once; one already running is let finish and its answer dropped
  (a worker process cannot be interrupted midway).
* **Budgets under load**: when more searches wait than there are workers, a
  search that starts gets a lower time ceiling, the pool's ``share`` seconds
  times the workers over the searches waiting (never below ``floor``), so the
  queue drains in about ``share`` seconds rather than making every table wait
  for every other's full ceiling; under ``fallback_below`` a hard computer
  plays its medium level's move instead (docs/bots.md, "Under load").

What crosses into a worker is a :class:`SeatPosition`: the game's public
config, the seat, the events it has seen, and one state *sampled for the
seat* (``state.determinize``: every card it cannot see dealt again,
consistently with what it knows), as its position text where the game writes
one (a few hundred bytes) or else as the sampled state. The true state, with
the other hands and the stock's order, never leaves the table's process.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import multiprocessing
import os
import random
import signal
import threading
import weakref
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from rules.bots import Bot, Situation
from rules.bots.search import ceiling_cap
from rules.events import Event
from rules.game import GameState

T = TypeVar("T")

# a search waits about this long for the searches queued before it when the
# pool is busy: the ceilings shrink so that the queue drains in this time.
# Half a second, not a whole one: a search overruns its ceiling a little (it
# checks the clock between samples; the worker reads the position, the
# answer travels back), and a computer's move should come within its own
# ceiling and a second (issue 29), measured under load in docs/protocol.md
SHARE_SECONDS = 0.5
# ...but no search is cut below this: under it a search is mostly overhead
FLOOR_SECONDS = 0.01
# Below this ceiling a hard computer plays its medium level's move instead of
# searching: a search cut that short plays no better than the rules of thumb
# (territory's hard against medium: 39.8% at 0.05 s, 47.0% at 0.1 s, 55.0% at
# 0.2 s, 71.3% at its own 1 s; docs/bots.md)
FALLBACK_BELOW = 0.2


@dataclass(frozen=True)
class SeatPosition:
    """What a worker gets of a seat's decision: nothing the seat may not know."""

    game: str
    config: Any
    seat: int
    history: tuple[Event, ...]
    # the seat's legal moves in the table's order (the sample lists its own
    # hand in view order): a bot that draws among them draws as at the table
    legal: tuple[Hashable, ...]
    text: str | None  # a sample's position text, where the game writes one
    sample: GameState[Any, Any] | None = None  # else the sampled state itself

    @classmethod
    def of(
        cls, state: GameState[Any, Any], seat: int, history: tuple[Event, ...], seed: str
    ) -> SeatPosition:
        """The position ``seat`` faces, hidden cards dealt again from ``seed``."""
        sample = state.determinize(seat, random.Random(f"{seed}:worker-sample"))
        legal = tuple(state.legal_moves(seat))
        known = (state.spec.id, state.config, seat, history, legal)
        try:
            text = sample.position_text()
        except NotImplementedError:  # a game without position texts: the sample, pickled
            return cls(*known, None, sample)
        return cls(*known, text)

    def situation(self) -> Situation:
        if self.text is not None:
            from rules.registry import get_game

            state = get_game(self.game).parse_position(self.config, self.text)
        else:
            assert self.sample is not None
            state = self.sample
        situation = Situation(state, self.seat, self.history)
        situation.legal = list(self.legal)
        return situation


@dataclass(frozen=True)
class Choice:
    """A worker's answer: the move, and whether a busy pool cut its search short."""

    move: Hashable
    hurried: bool


def choose_move(bot: Bot, position: SeatPosition, seed: str, ceiling: float | None) -> Choice:
    """A computer player's decision, in a worker (a module function: a
    process pool pickles it by name, and the bot, a few settings, with it)."""
    situation = position.situation()
    with ceiling_cap(ceiling) as cap:
        move = bot.choose(situation, random.Random(seed))
    return Choice(move, cap is not None and cap.cut)


@dataclass
class _Request:
    job: Callable[..., Any]
    args: tuple[Any, ...]
    answer: asyncio.Future[Any]
    hurry: bool  # a computer's move: the job takes the ceiling as its last argument
    fallback: Bot | None = None  # what plays instead when the ceiling is too short
    started: bool = False
    fell_back: bool = False


class Thinkers:
    """The pool's queue; see the module docstring. ``workers``: searches run
    at once (the executor's size)."""

    def __init__(
        self,
        executor: Executor | None,
        workers: int,
        *,
        share: float = SHARE_SECONDS,
        floor: float = FLOOR_SECONDS,
        fallback_below: float = FALLBACK_BELOW,
    ) -> None:
        if workers < 1:
            raise ValueError(f"a pool needs a worker at least, not {workers}")
        self.executor = executor
        self.workers = workers
        self.share = share
        self.floor = floor
        self.fallback_below = fallback_below
        self._urgent: collections.deque[_Request] = collections.deque()
        # table -> its requests in order; the dict's order is the turn order
        self._lanes: dict[Hashable, collections.deque[_Request]] = {}
        self._running = 0
        self.hurried = 0  # searches started under a lowered ceiling

    @property
    def waiting(self) -> int:
        return len(self._urgent) + sum(len(lane) for lane in self._lanes.values())

    @property
    def running(self) -> int:
        return self._running

    def ceiling(self) -> float | None:
        """The time ceiling for a search starting now: None (its own) unless
        more are waiting than there are workers."""
        waiting = self.waiting
        if waiting < self.workers:
            return None
        return max(self.floor, self.share * self.workers / waiting)

    async def think(
        self, table: Hashable, job: Callable[..., T], *args: Any, urgent: bool = False
    ) -> T:
        """``job(*args)`` in the pool, in ``table``'s lane (or ahead of every
        lane if ``urgent``); cancelling the caller withdraws it."""
        result: T = await self._enqueue(table, job, args, urgent, hurry=False)
        return result

    async def choose(
        self,
        table: Hashable,
        bot: Bot,
        position: SeatPosition,
        seed: str,
        fallback: Bot | None = None,
    ) -> Choice:
        """A computer player's move, its search's ceiling lowered if the pool
        is busy; ``fallback`` (a hard computer's medium level) plays instead
        if the ceiling would be under ``fallback_below``."""
        choice: Choice = await self._enqueue(
            table, choose_move, (bot, position, seed), False, hurry=True, fallback=fallback
        )
        return choice

    async def _enqueue(
        self,
        table: Hashable,
        job: Callable[..., Any],
        args: tuple[Any, ...],
        urgent: bool,
        hurry: bool,
        fallback: Bot | None = None,
    ) -> Any:
        answer = asyncio.get_running_loop().create_future()
        request = _Request(job, args, answer, hurry, fallback)
        if urgent:
            self._urgent.append(request)
        else:
            self._lanes.setdefault(table, collections.deque()).append(request)
        self._pump()
        try:
            return await request.answer
        except asyncio.CancelledError:
            if not request.started:
                self._withdraw(table, request, urgent)
            raise

    def _withdraw(self, table: Hashable, request: _Request, urgent: bool) -> None:
        if urgent:
            with contextlib.suppress(ValueError):
                self._urgent.remove(request)
            return
        lane = self._lanes.get(table)
        if lane is None:
            return
        with contextlib.suppress(ValueError):
            lane.remove(request)
        if not lane:
            del self._lanes[table]

    def _next(self) -> _Request | None:
        if self._urgent:
            return self._urgent.popleft()
        table = next(iter(self._lanes), None)
        if table is None:
            return None
        lane = self._lanes.pop(table)  # this table's turn is used...
        request = lane.popleft()
        if lane:
            self._lanes[table] = lane  # ...so it goes to the back
        return request

    def _pump(self) -> None:
        """Start queued requests while workers are free."""
        loop = asyncio.get_running_loop()
        while self._running < self.workers:
            request = self._next()
            if request is None:
                return
            args = request.args
            if request.hurry:
                ceiling = self.ceiling()
                if ceiling is not None:
                    self.hurried += 1
                if ceiling is not None and ceiling < self.fallback_below and request.fallback:
                    request.fell_back = True
                    args = (request.fallback, *args[1:], None)
                else:
                    args = (*args, ceiling)
            request.started = True
            self._running += 1
            work = loop.run_in_executor(self.executor, request.job, *args)
            work.add_done_callback(functools.partial(self._finished, request))

    def _finished(self, request: _Request, done: asyncio.Future[Any]) -> None:
        self._running -= 1
        if not request.answer.done():
            if done.cancelled():
                request.answer.cancel()
            elif (error := done.exception()) is not None:
                request.answer.set_exception(error)
            elif request.fell_back:
                request.answer.set_result(Choice(done.result().move, hurried=True))
            else:
                request.answer.set_result(done.result())
        # the next search starts at the loop's next turn, after whatever is
        # ready now (a person's move that has just arrived)
        asyncio.get_running_loop().call_soon(self._pump)


# ------------------------------------------------------------ the pools
# How much lower a computer's search runs than the screens and the server's
# event loop (nice levels, added to the process's own, at most 19): on a
# shared machine the people's side gets a core first, the searches take what
# is left.
SEARCH_NICENESS = 10


def _lower_priority(thread: bool) -> None:
    """Lower this worker's priority (``thread``: this thread only, where the
    system allows; Linux gives threads nice values of their own)."""
    with contextlib.suppress(AttributeError, OSError):
        if thread:  # relative to the process's own (an ssh-host visitor's is 10 already)
            me = threading.get_native_id()
            lower = min(19, os.getpriority(os.PRIO_PROCESS, me) + SEARCH_NICENESS)
            os.setpriority(os.PRIO_PROCESS, me, lower)
        else:
            os.nice(SEARCH_NICENESS)


def _start_process_worker() -> None:
    # Ctrl+C reaches the whole process group: the server stops its workers itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _lower_priority(thread=False)


def default_workers() -> int:
    """Every core but one: the event loop (the moves, the replies of every
    other table) keeps a core, however many tables of computers there are."""
    return max(1, (os.cpu_count() or 2) - 1)


def process_pool(workers: int | None = None) -> ProcessPoolExecutor:
    """A server's pool: processes of their own (off the event loop and off
    its GIL), started fresh (``spawn``, not forked from a process with
    threads and sockets), at a lower priority, ignoring Ctrl+C."""
    return ProcessPoolExecutor(
        max_workers=workers or default_workers(),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_process_worker,
    )


def thread_pool(workers: int = 4) -> ThreadPoolExecutor:
    """The app's pool: threads (no start-up, nothing to send: docs/bots.md,
    "Where computers think"), each at a lower priority than the screen's."""
    return ThreadPoolExecutor(
        max_workers=workers,
        thread_name_prefix="bot",
        initializer=functools.partial(_lower_priority, True),
    )


# ------------------------------------------------------------ one a process
_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, Thinkers]] = (
    weakref.WeakKeyDictionary()
)


def workers_of(executor: Executor | None) -> int:
    """How many jobs ``executor`` runs at once: its ``max_workers`` (None:
    the event loop's default threads, as many as asyncio gives them)."""
    if executor is None:
        return min(32, (os.cpu_count() or 1) + 4)
    # where ThreadPoolExecutor and ProcessPoolExecutor keep their size
    return max(1, int(getattr(executor, "_max_workers", 1)))


def thinkers_for(executor: Executor | None) -> Thinkers:
    """The one queue of ``executor`` (None: the loop's default threads) on the
    running loop: every table given the same executor shares it."""
    loop = asyncio.get_running_loop()
    pools = _pools.setdefault(loop, {})
    key = id(executor)
    pool = pools.get(key)
    if pool is None or pool.executor is not executor:
        pool = pools[key] = Thinkers(executor, workers_of(executor))
    return pool
