"""A server's standings: the statistics and ratings of the names that play at
it (docs/protocol.md, "Standings"; docs/stats.md).

The figures are those of the app (saves/stats.py), counted from the games the
server saved: the records are the truth here too. A name is a seat's name;
to keep a name's record its own, a client may claim the name
(net/server/names.py keeps who claimed which).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from typing import Any

from saves.stats import Statistics, compute_store
from saves.store import SaveStore

LEADERBOARD_ROWS = 50  # rows of one leaderboard reply at most


class Standings:
    """The statistics of a server's saved games, counted in a thread, and
    counted again only when a game has been saved since (the games folder
    changed): many clients asking at once cost one count."""

    def __init__(self, store: SaveStore, is_claimed: Callable[[str], bool]) -> None:
        self.store = store
        self.is_claimed = is_claimed
        self._stats: Statistics | None = None
        self._counted: int | None = None  # the folder's mtime when last counted
        self._counted_at = 0.0  # and when (time.monotonic)
        self._lock = asyncio.Lock()

    def _folder_version(self) -> int | None:
        try:  # a save renames a file into the folder: its mtime moves
            return os.stat(self.store.games_dir).st_mtime_ns
        except OSError:
            return None

    async def statistics(self) -> Statistics:
        async with self._lock:
            version = self._folder_version()
            # an mtime has a coarse tick on some file systems: a count is also
            # only trusted for a second
            stale = time.monotonic() - self._counted_at > 1.0
            if self._stats is None or version != self._counted or version is None or stale:
                self._stats = await asyncio.to_thread(compute_store, self.store)
                self._counted, self._counted_at = version, time.monotonic()
            return self._stats


def leaderboard(
    stats: Statistics,
    game: str,
    limit: int = LEADERBOARD_ROWS,
    is_claimed: Callable[[str], bool] = lambda name: False,
) -> dict[str, Any]:
    """The ``leaderboard`` reply's fields: the players of ``game``, best first."""
    rows = []
    for place, (name, played) in enumerate(stats.leaderboard(game)[:limit], start=1):
        rating = played.rating
        rows.append(
            {
                "place": place,
                "name": name,
                "games": played.tally.games,
                "wins": played.tally.wins,
                "losses": played.tally.losses,
                "draws": played.tally.draws,
                "rating": rating.to_json() if rating else None,
                "claimed": is_claimed(name),
            }
        )
    return {"game": game, "players": rows, "total": len(stats.leaderboard(game))}


def player(stats: Statistics, name: str, game: str | None) -> dict[str, Any]:
    """The ``player_stats`` reply's fields: one name's record, per game."""
    found = stats.player(name)
    games = {} if found is None else found.games
    return {
        "name": name,
        "games": {g: s.to_json() for g, s in sorted(games.items()) if game in (None, g)},
    }
