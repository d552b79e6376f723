"""The table authority and its clients: one API (:mod:`net.client`), an
in-process transport (:mod:`net.local`); the TCP one comes later. Imports
rules and saves, never textual or rich."""

from .client import Notice, SeatInfo, StaleMove, TableClient, Update
from .local import LocalClient, open_table, resume_table
from .table import Table

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
