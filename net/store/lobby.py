"""The lobby's rows: each listed table's row as ``list`` shows it, kept on
its table's row with the server that holds it (``owner``), so that any
server of a room can answer ``list`` (issue 36). On PostgreSQL a change is
also announced on the room's channel (NOTIFY, in the same transaction: a
server that LISTENs hears it once it is committed, never before), with the
row itself in the payload when it fits, so that a listener need not read it.

A server of a room writes only the rows of the tables it holds: the write is
guarded by the owner (a server that lost a table to another cannot write
its row back)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .engine import Engine, Stmt

LOBBY_CHANNEL = "cardtable_lobby"
# NOTIFY's payload is at most 8000 bytes; a longer row is read by the listener
MAX_PAYLOAD = 7900


def channel_for(schema: str) -> str:
    """The room's channel: one per schema, so that rooms in several schemas
    of one database (the tests' own) do not hear each other."""
    return LOBBY_CHANNEL if schema in ("", "public") else f"{LOBBY_CHANNEL}_{schema}"[:63]


def notice(table_id: str, owner: str | None, row: Mapping[str, Any] | None) -> str:
    """What a change announces: the table, its owner and its row (or no row
    when it does not fit: ``"read": true``)."""
    text = json.dumps({"id": table_id, "owner": owner, "row": row}, separators=(",", ":"))
    if len(text.encode()) <= MAX_PAYLOAD:
        return text
    return json.dumps({"id": table_id, "owner": owner, "read": True}, separators=(",", ":"))


class LobbyRows:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.channel = LOBBY_CHANNEL

    async def put(
        self, table_id: str, row: Mapping[str, Any] | None, owner: str | None = None
    ) -> None:
        """The table's row (None: not listed), and the server that holds it.
        With an ``owner``, only a row that is that server's or nobody's is
        written."""
        text = json.dumps(dict(row), separators=(",", ":")) if row is not None else None
        if owner is None:
            update = Stmt(
                "UPDATE game_tables SET lobby = ?, owner = ? WHERE id = ?", (text, owner, table_id)
            )
        else:
            update = Stmt(
                "UPDATE game_tables SET lobby = ?, owner = ? WHERE id = ? "
                "AND (owner IS NULL OR owner = ?)",
                (text, owner, table_id, owner),
            )
        op = [update]
        if self.engine.dialect == "postgresql":
            payload = notice(table_id, owner, None if row is None else dict(row))
            op.append(Stmt("SELECT pg_notify(?, ?)", (self.channel, payload)))
        await self.engine.write(op)

    async def rows(
        self, *, game: str | None = None, offset: int = 0, limit: int = 200
    ) -> list[dict[str, Any]]:
        """The listed tables' rows, by table id."""
        where, params = "lobby IS NOT NULL", []
        if game is not None:
            where, params = where + " AND game = ?", [game]
        found = await self.engine.read(
            [
                Stmt(
                    f"SELECT lobby FROM game_tables WHERE {where} ORDER BY id LIMIT ? OFFSET ?",
                    (*params, limit, offset),
                    rows=True,
                )
            ]
        )
        return [json.loads(row[0]) for row in found[0]]

    async def listed(
        self, table_ids: list[str] | None = None
    ) -> list[tuple[str, str | None, dict[str, Any]]]:
        """Every listed table (or those of ``table_ids`` that are) as (id,
        owner, row), by table id: what a server of a room starts from."""
        where, params = "lobby IS NOT NULL", list[str]()
        if table_ids is not None:
            marks = ", ".join("?" * len(table_ids)) or "NULL"
            where, params = f"{where} AND id IN ({marks})", list(table_ids)
        found = await self.engine.read(
            [
                Stmt(
                    f"SELECT id, owner, lobby FROM game_tables WHERE {where} ORDER BY id",
                    params,
                    rows=True,
                )
            ]
        )
        return [(str(i), None if o is None else str(o), json.loads(r)) for i, o, r in found[0]]
