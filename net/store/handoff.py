"""Writes handed from the server's event loop to a writer thread, and their
outcomes handed back: each engine's grouped writer runs in a thread of its
own (net/store/sqlite_engine.py, net/store/pg_writer.py), so a commit never
waits for turns of a busy event loop, and the loop never waits for a disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import queue
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .engine import MAX_GROUP, Op, Result
from .errors import StoreError, brief

log = logging.getLogger(__name__)


@dataclass
class Pending:
    """One operation waiting for its commit, and where its caller waits."""

    op: Op
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Result]


def hand_over(writes: queue.SimpleQueue[Pending | None], op: Op) -> asyncio.Future[Result]:
    """Queue ``op`` for the writer thread; the future its outcome settles."""
    loop = asyncio.get_running_loop()
    pending = Pending(op, loop, loop.create_future())
    writes.put(pending)
    return pending.future


def next_group(
    writes: queue.SimpleQueue[Pending | None], first: Pending
) -> tuple[list[Pending], bool]:
    """``first`` and what queued up behind it (at most MAX_GROUP), and
    whether the writer was told to stop meanwhile."""
    group = [first]
    while len(group) < MAX_GROUP:
        try:
            more = writes.get_nowait()
        except queue.Empty:
            break
        if more is None:
            return group, True
        group.append(more)
    return group, False


def settle_all(group: Sequence[Pending], outcomes: Sequence[Result | StoreError]) -> None:
    """Hand the group's outcomes to their futures, in one call into each
    loop: each ``call_soon_threadsafe`` wakes the loop through its self-pipe
    (a system call both sides), so one a group, not one a write."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[Pending, Result | StoreError]]] = {}
    for pending, outcome in zip(group, outcomes, strict=True):
        by_loop.setdefault(pending.loop, []).append((pending, outcome))
    for loop, settled in by_loop.items():
        _call_soon(loop, functools.partial(_settle, settled))


def settle_failed(group: Sequence[Pending], where: str, err: Exception) -> None:
    """A writer's commit raised (a bug): its group fails with one line each,
    logged with the traceback, and the writer goes on (nobody waits for ever)."""
    log.exception("the store's writer failed")
    failed = StoreError(f"{where} failed: {brief(err)}")
    settle_all(group, [failed] * len(group))


def _settle(settled: list[tuple[Pending, Result | StoreError]]) -> None:
    for pending, outcome in settled:
        if pending.future.done():  # its caller was cancelled
            continue
        if isinstance(outcome, StoreError):
            pending.future.set_exception(outcome)
        else:
            pending.future.set_result(outcome)


def _call_soon(loop: asyncio.AbstractEventLoop, fn: Callable[[], Any]) -> None:
    with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits any more
        loop.call_soon_threadsafe(fn)
