"""The table authority and its clients: one API (:mod:`net.client`), an
in-process transport (:mod:`net.local`); the TCP one comes later. Imports
rules and saves, never textual or rich.

The names below load on first use (PEP 562), so that importing one light
module of the package (``net.grants``, at the app's start) does not import
the table and every game with it (tests/perf/bench_startup.py)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .client import Notice, SeatInfo, StaleMove, TableClient, Update
    from .local import LocalClient, open_table, resume_table
    from .table import Table

_HOMES = {
    "LocalClient": "local",
    "Notice": "client",
    "SeatInfo": "client",
    "StaleMove": "client",
    "Table": "table",
    "TableClient": "client",
    "Update": "client",
    "open_table": "local",
    "resume_table": "local",
}

__all__ = [
    "LocalClient",
    "Notice",
    "SeatInfo",
    "StaleMove",
    "Table",
    "TableClient",
    "Update",
    "open_table",
    "resume_table",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'net' has no attribute {name!r}")
    return getattr(import_module(f".{home}", __name__), name)
