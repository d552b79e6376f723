"""The table authority and its clients: one API (:mod:`net.client`), an
in-process transport (:mod:`net.local`); the TCP one comes later. Imports
rules and saves, never textual or rich."""

from .client import SeatInfo, TableClient, Update
from .local import LocalClient, open_table, resume_table
from .table import Table, move_timer_seconds

__all__ = [
    "LocalClient",
    "SeatInfo",
    "Table",
    "TableClient",
    "Update",
    "move_timer_seconds",
    "open_table",
    "resume_table",
]
