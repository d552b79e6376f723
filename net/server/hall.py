"""What the parts of the table server share: its limits and clocks, its
store, the tables it holds and the peers connected, its background tasks,
and the seats file kept up to date without blocking anyone."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import Executor
from typing import Any

from rules.plain import plain

from .. import protocol as p
from ..client import PLAYING
from .hosted import Hosted
from .limits import Clock, Limits
from .peer import Peer
from .store import KeptTable, ServerStore

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[Any]]
GONE_LEVEL = "medium"  # the computer player that takes over a seat left for good


class Hall:
    def __init__(
        self,
        store: ServerStore,
        limits: Limits,
        *,
        clock: Clock,
        sleep: Sleep,
        executor: Executor | None,
        pace: float,
    ) -> None:
        self.store = store
        self.limits = limits
        self.clock = clock
        self.sleep = sleep
        self.executor = executor
        # seconds between a move and a computer player's answer (people can
        # follow the play; a headless server for bots wants none)
        self.pace = pace
        self.wall: Clock = time.time  # the timestamps updates carry (Unix time)
        self.tables: dict[str, Hosted] = {}
        self.peers: set[Peer] = set()
        self.closing = False  # players who drop now keep their seats for the next run
        self._tasks: set[asyncio.Task[Any]] = set()
        self._seats_writer: asyncio.Task[None] | None = None
        # the changes asked to be written (counted by persist) and how many of
        # them are written: a waiter waits for its own change, not for the
        # writer to be idle (a storm of rejoins would wait for the whole storm)
        self._seats_asked = 0
        self._seats_kept = 0
        self._seats_waiters: list[tuple[int, asyncio.Future[None]]] = []
        # a server of a room (net/server/room.py): the tables the others hold,
        # as listed, and the names of those an address created there unfinished
        self.elsewhere: Callable[[], Iterable[p.TableSummary]] = lambda: ()
        self.created_elsewhere: Callable[[str], list[str]] = lambda address: []

    def spawn(self, work: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def cancel_tasks(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    def now_ms(self) -> int:
        """The server's time as updates carry it: Unix milliseconds."""
        return round(self.wall() * 1000)

    # ------------------------------------------------------------ the seats file
    def persist(self) -> None:
        """Keep who may take which seat back, soon: the changes of a moment
        are written together, in a thread (never on the event loop)."""
        self._seats_asked += 1
        if self._seats_writer is None or self._seats_writer.done():
            self._seats_writer = asyncio.ensure_future(self._write_seats())

    async def _write_seats(self) -> None:
        try:
            while self._seats_kept < self._seats_asked:
                asked = self._seats_asked
                await self.store.save_seats(self.kept())
                self._seats_kept = asked
                waiting, self._seats_waiters = self._seats_waiters, []
                for wanted, done in waiting:
                    if wanted > asked:
                        self._seats_waiters.append((wanted, done))
                    elif not done.done():
                        done.set_result(None)
        except asyncio.CancelledError:
            for _, done in self._seats_waiters:
                done.cancel()
            self._seats_waiters = []
            raise
        except Exception as err:
            # every waiter hears it (the writer stops; the next change starts it again)
            waiting, self._seats_waiters = self._seats_waiters, []
            for _, done in waiting:
                if not done.done():
                    done.set_exception(err)
            if not waiting:
                log.error("cannot keep who may take which seat back: %s", err)

    def kept(self) -> dict[str, KeptTable]:
        return {
            table_id: KeptTable(
                if_gone="resign" if hosted.if_gone == "resign" else "computer",
                open_seats=sorted(hosted.open_seats),
                tokens={str(seat): digest.hex() for seat, digest in hosted.tokens.items()},
                started=hosted.started,
                per_move=hosted.per_move,
                if_late=hosted.if_late,
                deadlines=correspondence_deadlines(hosted),
                named=sorted(hosted.named),
            )
            for table_id, hosted in self.tables.items()
            if hosted.table.status == PLAYING
        }

    async def seats_written(self) -> None:
        """Wait for the seats file to have every change made so far (the
        write that holds them, not the writes of changes made since)."""
        wanted = self._seats_asked
        writer = self._seats_writer
        if self._seats_kept >= wanted or writer is None or writer.done():
            return
        done = asyncio.get_running_loop().create_future()
        self._seats_waiters.append((wanted, done))
        await done


def correspondence_deadlines(hosted: Hosted) -> dict[str, tuple[int, float]]:
    """A correspondence table's running clocks, to keep (its turn keys are
    the numbers of moves each seat has made: clocks/per_move)."""
    if hosted.per_move is None:
        return {}
    return {
        str(seat): (held.turn, held.ends_at)
        for seat, held in hosted.table.clocks.deadlines().items()
        if isinstance(held.turn, int)
    }


def one_line(err: BaseException) -> str:
    text = str(err.args[0]) if isinstance(err, KeyError) and err.args else str(err)
    return plain(text, 300)
