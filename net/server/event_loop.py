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


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)``, on uvloop where it is installed."""
    if loop_name() == "uvloop":
        import uvloop

        return uvloop.run(main)
    return asyncio.run(main)
