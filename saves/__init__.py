"""Game records on disk: :class:`GameRecord` (what a saved game is) and
:class:`SaveStore` (where they live, written atomically). Imports only rules.

The names below load on first use: the settings read their file through
``saves.regular_file`` at start-up, which must not pull in the record store
(tests/perf/bench_startup.py)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .errors import SaveError
    from .record import FORMAT_VERSION, GameRecord, SeatInfo
    from .store import SaveEntry, SaveStore

__all__ = ["FORMAT_VERSION", "GameRecord", "SaveEntry", "SaveError", "SaveStore", "SeatInfo"]

_HOME = {
    "SaveError": ".errors",
    "FORMAT_VERSION": ".record",
    "GameRecord": ".record",
    "SeatInfo": ".record",
    "SaveEntry": ".store",
    "SaveStore": ".store",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_HOME[name], __name__), name)
