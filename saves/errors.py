"""The one error the record store raises: a file or a record it cannot use."""

from __future__ import annotations


class SaveError(Exception):
    """A save that cannot be read, written, found or replayed.

    ``str(error)`` is one line a person can read: what went wrong and with
    which saved game, never a traceback.
    """
