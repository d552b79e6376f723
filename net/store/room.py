"""The servers of one card room on one PostgreSQL (issue 36): each one's
heartbeat, which server holds which table, and the take-over of the tables
of a server that stopped.

Time is the database's (``clock_timestamp()``): the servers' machines need
not agree on the hour. A server is *live* while its last beat is younger
than ``dead_after`` seconds. A table is taken over by one row update guarded
by the old owner and by that owner being still dead at that moment, so two
servers never take the same table, and a server that beats again keeps
what it has not lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .engine import Engine, Stmt

_NOW = "extract(epoch from clock_timestamp())"


@dataclass(frozen=True)
class RoomServer:
    id: str
    address: str
    tables: int
    age: float  # seconds since its last beat

    def live(self, dead_after: float) -> bool:
        return self.age < dead_after


class RoomRows:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    async def beat(self, server_id: str, address: str, tables: int) -> None:
        """This server is alive, at ``address``, holding ``tables``."""
        await self.engine.write(
            [
                Stmt(
                    "INSERT INTO room_servers (id, address, tables, beat) "
                    f"VALUES (?, ?, ?, {_NOW}) ON CONFLICT (id) DO UPDATE SET "
                    "address = excluded.address, tables = excluded.tables, beat = excluded.beat",
                    (server_id, address, tables),
                )
            ]
        )

    async def stopped(self, server_id: str) -> None:
        """The server stopped on purpose: its tables may be taken over now."""
        await self.engine.write(
            [Stmt("UPDATE room_servers SET beat = 0 WHERE id = ?", (server_id,))]
        )

    async def servers(self) -> list[RoomServer]:
        found = await self.engine.read(
            [Stmt(f"SELECT id, address, tables, {_NOW} - beat FROM room_servers", rows=True)]
        )
        return [RoomServer(str(i), str(a), int(t), float(age)) for i, a, t, age in found[0]]

    async def owner_of(self, table_id: str) -> str | None:
        """The server that holds ``table_id`` (None: none, or no such table)."""
        found = await self.engine.read(
            [Stmt("SELECT owner FROM game_tables WHERE id = ?", (table_id,), rows=True)]
        )
        return None if not found[0] or found[0][0][0] is None else str(found[0][0][0])

    async def orphans(self, dead_after: float) -> list[tuple[str, str | None]]:
        """The unfinished tables held by a server that stopped beating (or
        by none): (table, owner)."""
        found = await self.engine.read(
            [
                Stmt(
                    "SELECT t.id, t.owner FROM game_tables t LEFT JOIN room_servers s "
                    "ON s.id = t.owner WHERE t.if_gone IS NOT NULL AND t.status = 'playing' "
                    f"AND (s.id IS NULL OR {_NOW} - s.beat >= ?) ORDER BY t.id",
                    (dead_after,),
                    rows=True,
                )
            ]
        )
        return [(str(i), None if o is None else str(o)) for i, o in found[0]]

    async def take(self, table_id: str, old: str | None, me: str, dead_after: float) -> bool:
        """Take ``table_id`` over from ``old`` (which must still be dead, and
        still hold it): True if this server holds it now."""
        if old is None:
            guard, params = "owner IS NULL", list[object]([me, table_id])
        else:
            guard = (
                "owner = ? AND NOT EXISTS (SELECT 1 FROM room_servers WHERE id = ? "
                f"AND {_NOW} - beat < ?)"
            )
            params = list[object]([me, table_id, old, old, dead_after])
        found = await self.engine.write(
            [
                Stmt(
                    "UPDATE game_tables SET owner = ? WHERE id = ? AND if_gone IS NOT NULL "
                    f"AND status = 'playing' AND {guard} RETURNING id",
                    params,
                    rows=True,
                )
            ]
        )
        return bool(found[0])

    async def take_share(
        self,
        old: str,
        me: str,
        dead_after: float,
        *,
        most: int,
        among: Sequence[str] | None = None,
    ) -> list[str]:
        """Take over up to ``most`` of the unfinished tables of ``old`` (which
        must still be dead), or of those ``among`` these: the tables this
        server holds now. One statement for them all: each row's update is
        guarded by its old owner, as :meth:`take`'s, and rows another server
        is taking at that moment are skipped (SKIP LOCKED), so servers taking
        over at once share the tables and never take one twice."""
        if among is not None and not among:
            return []
        mine = "owner = ? AND if_gone IS NOT NULL AND status = 'playing'"
        these = "" if among is None else f" AND id IN ({', '.join('?' * len(among))})"
        # (a WITH: it is run once; a LIMIT in an IN (...) may be run again
        # by the plan, and take more than ``most``)
        found = await self.engine.write(
            [
                Stmt(
                    f"WITH share AS (SELECT id FROM game_tables WHERE {mine}{these} "
                    "ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED) "
                    "UPDATE game_tables t SET owner = ? FROM share WHERE t.id = share.id "
                    f"AND {mine} AND NOT EXISTS (SELECT 1 FROM room_servers "
                    f"WHERE id = ? AND {_NOW} - beat < ?) RETURNING t.id",
                    (old, *(among or ()), max(1, most), me, old, old, dead_after),
                    rows=True,
                )
            ]
        )
        return sorted(str(row[0]) for row in found[0])

    async def lost(self, me: str, table_ids: list[str]) -> list[str]:
        """Those of ``table_ids`` another server holds now (taken over while
        this one was too slow to beat)."""
        if not table_ids:
            return []
        marks = ", ".join("?" * len(table_ids))
        found = await self.engine.read(
            [
                Stmt(
                    f"SELECT id FROM game_tables WHERE id IN ({marks}) AND owner IS NOT NULL "
                    "AND owner <> ?",
                    (*table_ids, me),
                    rows=True,
                )
            ]
        )
        return [str(row[0]) for row in found[0]]

    async def listed_by(self, owner: str) -> list[str]:
        """The tables a (dead) server still lists that nobody will take
        over (finished, or never begun): their rows are to be cleared."""
        found = await self.engine.read(
            [
                Stmt(
                    "SELECT id FROM game_tables WHERE owner = ? AND lobby IS NOT NULL "
                    "AND NOT (if_gone IS NOT NULL AND status = 'playing')",
                    (owner,),
                    rows=True,
                )
            ]
        )
        return [str(row[0]) for row in found[0]]
