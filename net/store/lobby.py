"""The lobby's rows: each listed table's row as ``list`` shows it, kept on
its table's row with the server that holds it (``owner``), so that any
server of a room can answer ``list`` (issue 36). On PostgreSQL a change is
also announced on the ``cardtable_lobby`` channel (NOTIFY, in the same
transaction), for the servers that LISTEN."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .engine import Engine, Stmt

LOBBY_CHANNEL = "cardtable_lobby"


class LobbyRows:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    async def put(
        self, table_id: str, row: Mapping[str, Any] | None, owner: str | None = None
    ) -> None:
        """The table's row (None: not listed), and the server that holds it."""
        text = json.dumps(dict(row), separators=(",", ":")) if row is not None else None
        op = [
            Stmt(
                "UPDATE game_tables SET lobby = ?, owner = ? WHERE id = ?", (text, owner, table_id)
            )
        ]
        if self.engine.dialect == "postgresql":
            op.append(Stmt("SELECT pg_notify(?, ?)", (LOBBY_CHANNEL, table_id)))
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
