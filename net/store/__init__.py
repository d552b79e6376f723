"""What a table server keeps, in a database: docs/store.md."""

from .errors import (
    BadDatabaseUrl,
    StoreConflict,
    StoreCorrupt,
    StoreError,
    StoreFull,
    StoreUnavailable,
)
from .names import NameKept
from .seats import KeptTable
from .store import Store, open_store

__all__ = [
    "BadDatabaseUrl",
    "KeptTable",
    "NameKept",
    "Store",
    "StoreConflict",
    "StoreCorrupt",
    "StoreError",
    "StoreFull",
    "StoreUnavailable",
    "open_store",
]
