"""The event loop a table server runs on: uvloop where it is installed.

Why: a loaded server spends about a fifth of its time in asyncio's own
machinery (a handle a callback, a future a write) and another tenth in
socket sends (docs/store.md, the profile at 600 tables); uvloop does both in
C on libuv. The games, the store and the protocol are the same on either
loop: every test runs the server on the standard loop, and the command-line
tests run `cardtable serve` on this one. ``CARDTABLE_LOOP=asyncio`` keeps the
standard loop (to compare, or where uvloop misbehaves)."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def loop_name() -> str:
    """``uvloop`` or ``asyncio``: what `run` would use."""
    if os.environ.get("CARDTABLE_LOOP", "").strip().lower() == "asyncio":
        return "asyncio"
    try:
        import uvloop  # noqa: F401
    except ImportError:  # a platform without it (Windows): the standard loop
        return "asyncio"
    return "uvloop"


# How long a thread may hold the interpreter while another waits for it.
# The store's commit thread needs it twice a commit (to take its group, to
# hand back the results): at Python's 5 ms, each hand-over could wait that
# long behind a busy loop, and a move's `ok` waits for up to two commits.
# At 1,000 tables on SQLite (docs/store.md, the seventh session), 1 ms cut
# the commit wait's p99 from 62.0 to 42.1 and from 46.4 to 32.3 ms.
SWITCH_INTERVAL = 0.001


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)``, on uvloop where it is installed, with the
    interpreter handed between threads every ``SWITCH_INTERVAL`` seconds
    (as it was after)."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        if loop_name() == "uvloop":
            import uvloop

            return uvloop.run(main)
        return asyncio.run(main)
    finally:
        sys.setswitchinterval(before)
