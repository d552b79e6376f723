"""What can go wrong with the server's database, each as one line that says
what is wrong and what to do (the server prints it; a player's move that
fails with it gets the line as its error). Nothing here carries a traceback
to the user: the driver's own error is kept as ``__cause__`` for the log."""

from __future__ import annotations


class StoreError(Exception):
    """The database could not do what was asked. ``str(err)`` is one line."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


class BadDatabaseUrl(StoreError):
    """``--database`` names nothing this server can open."""


class StoreUnavailable(StoreError):
    """The database is down, refuses the connection, or went away; the store
    tries again at the next operation, so this passes once it is back."""


class StoreFull(StoreError):
    """The disk (or the database's own limit) is full: nothing more is kept
    until room is made."""


class StoreConflict(StoreError):
    """The write contradicts what is kept (a move at a ply that already holds
    another move, a token another seat holds): nothing was changed."""


class TableMoved(StoreError):
    """Another server of the room holds the table now: this one keeps
    nothing more of it (net/store/room.py)."""


class StoreCorrupt(StoreError):
    """What is kept cannot be read back (a file that is no database, a
    schema newer than this program, a record whose moves have a gap)."""


def brief(err: BaseException, limit: int = 200) -> str:
    """A driver's message on one line, cut to ``limit`` characters."""
    text = " ".join(str(err).split()) or type(err).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"
