"""A server's standings: the statistics and ratings of the names that play at
it, each name kept for the client that first claimed it (docs/protocol.md,
"Standings"; docs/stats.md).

The figures are those of the app (saves/stats.py), counted from the games the
server saved: the records are the truth here too. A name is a seat's name;
to keep a name's record its own, a client may claim the name: the first
client to use a name with ``name_secret`` in its ``hello`` gets a secret in
the ``welcome`` and keeps it; from then on a ``hello`` with that name must
carry the secret (else ``name_taken``). Only a SHA-256 of each secret is
kept, in ``<data>/server/names.json``, written atomically. Names are compared
without regard to case ("Ada" and "ada" are one name).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from pathlib import Path
from typing import Any

from saves.atomic import write_json_atomically
from saves.stats import Statistics, compute_store
from saves.store import SaveStore

NAMES_FORMAT = "cardtable-names"
MAX_NAMES = 100_000  # names a server keeps secrets for
LEADERBOARD_ROWS = 50  # rows of one leaderboard reply at most


class NameTaken(Exception):
    """The name is claimed by another client (a sentence for the error reply)."""


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


class NameBook:
    """Which names are claimed, and the hash of each one's secret."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._digests: dict[str, str] = self._load()

    def _load(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text("utf-8"))
            names = data["names"] if data.get("format") == NAMES_FORMAT else {}
            return {str(k): str(v) for k, v in names.items() if isinstance(v, str)}
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return {}  # none yet, or unreadable: names are claimed afresh

    def is_claimed(self, name: str) -> bool:
        return name.casefold() in self._digests

    def check(self, name: str, secret: str | None) -> str | None:
        """Let ``name`` in with ``secret`` (None: a client that does not claim
        names; "": one that has no secret for it yet). Returns a new secret
        to give the client when it claims a free name; NameTaken if the name
        is another's."""
        key = name.casefold()
        with self._lock:
            kept = self._digests.get(key)
            if kept is not None:
                if secret and hmac.compare_digest(kept, _digest(secret)):
                    return None
                raise NameTaken(
                    f"the name {name!r} is kept by another player here: choose another "
                    "name, or play from the computer that holds its secret"
                )
            if secret is None or len(self._digests) >= MAX_NAMES:
                return None  # played under, not claimed
            # a secret the client brings (this server lost its names) is kept as it is
            given = secret or secrets.token_hex(16)
            self._digests[key] = _digest(given)
            self._save()
            return None if secret else given

    def _save(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_json_atomically(self.path, {"format": NAMES_FORMAT, "names": self._digests})
        except OSError:
            pass  # kept in memory for this run; the next one asks the names afresh


class Standings:
    """The statistics of a server's saved games, counted in a thread, and
    counted again only when a game has been saved since (the games folder
    changed): many clients asking at once cost one count."""

    def __init__(self, store: SaveStore) -> None:
        self.store = store
        self.names = NameBook(Path(store.root) / "server" / "names.json")
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

    async def leaderboard(self, game: str, limit: int = LEADERBOARD_ROWS) -> dict[str, Any]:
        """The ``leaderboard`` reply's fields: the players of ``game``, best first."""
        stats = await self.statistics()
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
                    "claimed": self.names.is_claimed(name),
                }
            )
        return {"game": game, "players": rows, "total": len(stats.leaderboard(game))}

    async def player(self, name: str, game: str | None) -> dict[str, Any]:
        """The ``player_stats`` reply's fields: one name's record, per game."""
        stats = await self.statistics()
        found = stats.player(name)
        games = {} if found is None else found.games
        return {
            "name": name,
            "games": {g: s.to_json() for g, s in sorted(games.items()) if game in (None, g)},
        }
