"""The computer players at a table.

A bot seat's decision goes to the pool of the executor the table was given
(net/thinkers.py: threads in the app, processes on a server), shared with
every other table there and served in turn; the worker gets a
:class:`~net.thinkers.SeatPosition` (a state sampled for the seat, never the
table's), so the event loop never freezes and no hidden card leaves it. A
search the busy pool cut short is said once, in a ``hurried`` notice. Every
bot that must act thinks at once (a simultaneous phase). ``pace`` seconds
pass between a move and a bot's reply (the bot thinks meanwhile); 0 in
tests. A bot's random generator is seeded from (game seed, seat, state id),
so a game resumed from its record goes on exactly as it would have without
the interruption. Closing the table cancels a bot that is still thinking
(one queued leaves the queue; a running one's answer is dropped).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING

from rules.bots import Bot
from rules.events import Event

from ..client import PLAYING, Hint, HintEstimate, Notice
from ..thinkers import SeatPosition, Thinkers, thinkers_for

if TYPE_CHECKING:
    from ..table import Table

log = logging.getLogger("net.table")

HURRIED = (
    "The server is busy: the computer takes less time over its moves to keep every game going."
)


class Computers:
    """The bots of ``table``'s computer seats, and their turns in flight;
    ``make`` makes a game's bot of a level (rules.bots.make_bot)."""

    def __init__(self, table: Table, make: Callable[[str, str], Bot]) -> None:
        self.table = table
        self.make = make
        record = table.record
        self.bots: dict[int, Bot] = {
            i: make(record.game, seat.level or "medium")
            for i, seat in enumerate(record.seats)
            if seat.kind == "bot"
        }
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._thinkers: Thinkers | None = None  # the executor's shared queue, on first use
        self._told_hurried = False
        self.errors: list[str] = []  # bot bugs the table worked around

    def __contains__(self, seat: int) -> bool:
        return seat in self.bots

    def use(self, seat: int, bot: Bot) -> None:
        """``bot`` plays the computer's ``seat``, before the table starts."""
        if seat not in self.bots or self.table.started:
            raise ValueError(f"seat {seat + 1} is no computer seat of a table not yet started")
        self.bots[seat] = bot

    def pool(self) -> Thinkers:
        if self._thinkers is None:
            self._thinkers = thinkers_for(self.table.executor)
        return self._thinkers

    async def hint(
        self, seat: int, job: Callable[[SeatPosition, str], tuple[HintEstimate, ...]]
    ) -> Hint:
        """``job`` (the advice) run in the pool from what ``seat`` has seen,
        ahead of every computer's search; counted in the record and saved."""
        table = self.table
        state_id = table.state_id
        seed = f"{table.record.seed}:hint:{seat}:{state_id}"
        position = SeatPosition.of(table.state, seat, self.seen(seat), seed)
        # a person is waiting: ahead of every computer's search
        moves = await self.pool().think(table, job, position, seed, urgent=True)
        hints = table.record.hints or [0] * len(table.seats)
        hints[seat] += 1
        table.record.hints = hints
        await table.autosave.save()
        return Hint(state_id, seat, moves, hints[seat])

    async def one_move_for(self, seat: int, level: str) -> Hashable:
        """The move a computer of ``level`` would play at a person's ``seat``
        now (a correspondence clock ran out): searched in the pool from what
        the seat has seen, as any computer's move."""
        table = self.table
        seed = f"{table.record.seed}:late:{seat}:{table.state_id}"
        legal = table.state.legal_moves(seat)
        position = SeatPosition.of(table.state, seat, self.seen(seat), seed)
        bot = self.make(table.record.game, level)
        try:
            move = (await self.pool().choose(table, bot, position, seed, None)).move
        except asyncio.CancelledError:
            raise
        except Exception as err:
            return self._fallback(seat, legal, random.Random(seed), f"raised {err!r}")
        if move not in legal:
            return self._fallback(
                seat, legal, random.Random(seed), f"chose the illegal move {move}"
            )
        return move

    def seen(self, seat: int) -> tuple[Event, ...]:
        """Every event ``seat`` may see, for a search from its position."""
        return tuple(self.table.history(seat))

    def kick(self) -> None:
        """Every bot that must act and is not yet thinking starts to."""
        for seat in self.table.thinking():
            running = self._tasks.get(seat)
            # a task that has just finished is still listed until its done
            # callback runs: it will not look at the state again
            if running is not None and not running.done():
                continue
            self.table.in_flight.enter()  # busy from now, before the task first runs
            task = asyncio.get_running_loop().create_task(self._turn(seat))
            self._tasks[seat] = task
            # a callback, not a `finally`: a task cancelled before its first
            # step never runs its body
            task.add_done_callback(functools.partial(self._done, seat))

    def drop(self, seat: int) -> None:
        """Forget the choice the computer is still making for ``seat``."""
        task = self._tasks.get(seat)
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()

    def running(self) -> list[asyncio.Task[None]]:
        return list(self._tasks.values())

    def _done(self, seat: int, task: asyncio.Task[None]) -> None:
        if self._tasks.get(seat) is task:
            del self._tasks[seat]
        self.table.in_flight.leave()

    async def _turn(self, seat: int) -> None:
        try:
            while seat in self.table.thinking():
                await self._move(seat)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # a bug: surface it through idle()
            log.exception("a bot of seat %d stopped", seat)
            self.table.in_flight.failure = err

    async def _move(self, seat: int) -> None:
        table = self.table
        state_id = table.state_id
        seed = f"{table.record.seed}:{seat}:{state_id}"
        rng = random.Random(seed)  # the worker's bot draws the same numbers from the seed
        legal = table.state.legal_moves(seat)
        # the worker gets a sample drawn for the seat: never the table's state,
        # nor any event hidden from the seat (net/thinkers.py)
        position = SeatPosition.of(table.state, seat, self.seen(seat), seed)
        # a hard computer's medium self plays when the busy pool has no time for a search
        hard = table.record.seats[seat].level == "hard"
        fallback = self.make(table.record.game, "medium") if hard else None
        think = asyncio.ensure_future(
            self.pool().choose(table, self.bots[seat], position, seed, fallback)
        )
        try:
            if table.pace > 0:
                choice, _ = await asyncio.gather(think, table.sleep(table.pace))
            else:
                choice = await think
            move = choice.move
            if choice.hurried and not self._told_hurried:
                self._told_hurried = True  # once a game: it is the server's state, not news
                table.audience.queue(Notice("hurried", HURRIED))
        except asyncio.CancelledError:
            think.cancel()
            raise
        except Exception as err:
            move = self._fallback(seat, legal, rng, f"raised {err!r}")
        if table.status != PLAYING or table.closed or seat not in self.bots:
            return  # (the seat's person took it back meanwhile)
        if table.state_id != state_id:
            # another seat moved while the bot thought (a simultaneous phase):
            # keep its choice if it still stands, else think again
            if move not in table.state.legal_moves(seat):
                return
        elif move not in legal:
            move = self._fallback(seat, legal, rng, f"chose the illegal move {move}")
        await table.apply_move(seat, str(move))

    def _fallback(
        self, seat: int, legal: Sequence[Hashable], rng: random.Random, what: str
    ) -> Hashable:
        message = f"the {self.table.record.game} bot of seat {seat + 1} {what}; playing at random"
        log.error(message)
        self.errors.append(message)
        return rng.choice(legal)
