"""What a table is still doing: moves, computers' turns and saves in flight.

:meth:`InFlight.idle` returns once none is (tests and an orderly stop wait
for it); an error that stopped a computer's turn (a bug) is raised there
instead of hanging.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable


class InFlight:
    def __init__(self) -> None:
        self._count = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.failure: BaseException | None = None

    def enter(self) -> None:
        self._count += 1
        self._idle.clear()

    def leave(self) -> None:
        self._count -= 1
        if self._count == 0:
            self._idle.set()

    async def idle(self) -> None:
        await self._idle.wait()
        if self.failure is not None:
            raise self.failure


async def cancel_and_wait(tasks: Iterable[asyncio.Task[None] | None]) -> None:
    """Cancel these tasks (but the one running this) and wait until each has
    stopped."""
    for task in tasks:
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
