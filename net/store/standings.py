"""The leaderboards: each game's players in order, with their figures, as
the server counted them from the finished records (saves/stats.py). Kept so
that every server of a room answers ``leaderboard`` and ``player_stats``
alike without counting every record itself; counted again when a game ends.
"""

from __future__ import annotations

import json
from typing import Any

from saves.stats import Statistics

from .engine import Engine, Stmt

LEADERBOARD_ROWS = 50  # rows of one leaderboard reply at most


class StandingRows:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    async def put(self, stats: Statistics) -> int:
        """Keep the standings of every game in ``stats`` (in place of what
        was kept); returns how many rows."""
        rows = []
        games = sorted({game for player in stats.players.values() for game in player.games})
        for game in games:
            for place, (name, played) in enumerate(stats.leaderboard(game), start=1):
                figures = json.dumps(played.to_json(), separators=(",", ":"))
                rows.append((game, name, name.casefold(), place, figures))
        await self.engine.write(
            [
                Stmt("DELETE FROM standings"),
                Stmt(
                    "INSERT INTO standings (game, name, name_key, place, figures) "
                    "VALUES (?, ?, ?, ?, ?)",
                    many=rows,
                ),
            ]
        )
        return len(rows)

    async def leaderboard(self, game: str, limit: int = LEADERBOARD_ROWS) -> dict[str, Any]:
        """The ``leaderboard`` reply's fields: the players of ``game``, best first."""
        rows, total = await self.engine.read(
            [
                Stmt(
                    "SELECT s.place, s.name, s.figures, c.name_key FROM standings s "
                    "LEFT JOIN name_claims c ON c.name_key = s.name_key "
                    "WHERE s.game = ? ORDER BY s.place LIMIT ?",
                    (game, limit),
                    rows=True,
                ),
                Stmt("SELECT count(*) FROM standings WHERE game = ?", (game,), rows=True),
            ]
        )
        players = []
        for place, name, figures, claimed in rows:
            kept = json.loads(figures)
            players.append(
                {
                    "place": int(place),
                    "name": name,
                    "games": kept["games"],
                    "wins": kept["wins"],
                    "losses": kept["losses"],
                    "draws": kept["draws"],
                    "rating": kept["rating"],
                    "claimed": claimed is not None,
                }
            )
        return {"game": game, "players": players, "total": int(total[0][0])}

    async def player(self, name: str, game: str | None = None) -> dict[str, Any]:
        """The ``player_stats`` reply's fields: one name's record, per game."""
        found = await self.engine.read(
            [
                Stmt(
                    "SELECT game, figures FROM standings WHERE name = ? ORDER BY game",
                    (name,),
                    rows=True,
                )
            ]
        )
        return {
            "name": name,
            "games": {g: json.loads(f) for g, f in found[0] if game in (None, g)},
        }
