"""The store: everything a table server keeps, behind one async interface,
on SQLite (the default: one file in the data dir) or PostgreSQL (shared by
several servers). ``await open_store(url, data_dir)`` opens it and brings
its schema up to date; then

- ``store.tables``: records and their moves (``record_move`` returns once the
  move is committed) (net/store/tables.py);
- ``store.seats``: who may take which seat back, by token hash (net/store/seats.py);
- ``store.lobby``: the lobby's rows (net/store/lobby.py);
- ``store.names``: claimed names and their secrets (net/store/names.py);
- ``store.standings``: the leaderboards (net/store/standings.py);
- ``store.room``: the servers of a room and their tables (net/store/room.py);

and ``await store.close()``. Every failure is a StoreError whose text is one
line saying what is wrong and what to do (net/store/errors.py).
"""

from __future__ import annotations

from pathlib import Path

from .engine import Engine, Stmt
from .errors import BadDatabaseUrl, StoreCorrupt
from .lobby import LobbyRows, channel_for
from .names import NameClaims
from .room import RoomRows
from .schema import STEPS, VERSION
from .seats import SeatRows
from .sqlite_engine import SqliteEngine
from .standings import StandingRows
from .tables import TableRows

DATABASE_FILE = "cardtable.db"  # in <data>/server/


class Store:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.tables = TableRows(engine)
        self.seats = SeatRows(engine)
        self.names = NameClaims(engine)
        self.standings = StandingRows(engine)
        self.lobby = LobbyRows(engine)
        self.room = RoomRows(engine)

    @property
    def where(self) -> str:
        return self.engine.where

    async def close(self) -> None:
        """Commit what is queued, then let go of the database."""
        await self.engine.close()


def engine_for(url: str | None, data_dir: Path, *, linger: float = 0.0) -> Engine:
    """The engine ``--database`` names: none, the SQLite file in the data
    dir; ``sqlite:///PATH``; ``postgresql://...``. BadDatabaseUrl otherwise."""
    if url is None or not url.strip():
        return SqliteEngine(Path(data_dir) / "server" / DATABASE_FILE, linger=linger)
    url = url.strip()
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    if scheme == "sqlite":
        path = url.removeprefix(url[: len("sqlite:")]).removeprefix("//")
        if not path:
            raise BadDatabaseUrl("--database sqlite: names no file: write sqlite:///PATH")
        return SqliteEngine(Path(path), linger=linger)
    if scheme in ("postgresql", "postgres"):
        # imported here: psycopg and libpq load only for a server that uses them
        from .postgres_engine import PostgresEngine

        return PostgresEngine(url, linger=linger)
    raise BadDatabaseUrl(
        f"--database {url[:80]!r} is not a database this server uses: give "
        "postgresql://USER@HOST/DATABASE, or sqlite:///PATH, or leave it out for the "
        "data dir's own file"
    )


async def open_store(url: str | None, data_dir: Path, *, linger: float = 0.0) -> Store:
    """The store ``--database`` names, its schema brought up to date."""
    engine = engine_for(url, data_dir, linger=linger)
    try:
        version = await engine.migrate(STEPS)
    except BaseException:
        await engine.close()
        raise
    if version > VERSION:
        await engine.close()
        raise StoreCorrupt(
            f"{engine.where} was written by a newer cardtable (schema {version}; this one "
            f"knows {VERSION}): upgrade cardtable, or give another --database"
        )
    store = Store(engine)
    if engine.dialect == "postgresql":
        try:
            found = await engine.read([Stmt("SELECT current_schema()", rows=True)])
        except BaseException:
            await engine.close()
            raise
        store.lobby.channel = channel_for(str(found[0][0][0] or ""))
    return store
