"""The figure samples of every finished game, kept beside the saved games so
that a replay is paid once per game (saves/stats.py uses it; docs/stats.md).

``stats-cache.json`` maps each record id to the record's last update, its
number of moves and every seat's samples (``GameSpec.figure_samples``). A
changed record is replayed again, a deleted one forgotten; a cache that
cannot be read (missing, corrupt, of another version) is rebuilt, and one
that cannot be written is only lost time. Nothing here is the truth: the
records are.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.errors import UnknownGame
from rules.figures import Samples
from rules.registry import get_game

from .atomic import write_json_atomically
from .errors import SaveError
from .record import GameRecord
from .regular_file import read_small_text

CACHE_FILE = "stats-cache.json"
CACHE_FORMAT = "cardtable-stats-cache"
# far more than the samples of thousands of games; a larger file is not ours
MAX_CACHE_BYTES = 32 * 1024 * 1024
CACHE_VERSION = 1  # bump when a game's samples change meaning: the cache is then rebuilt


@dataclass
class SampleCache:
    """Each finished game's figure samples per seat, so that a replay is paid
    once per game: ``record id -> (updated, moves, samples per seat)``."""

    entries: dict[str, tuple[str, int, list[Samples]]] = field(default_factory=dict)
    changed: bool = False

    @classmethod
    def load(cls, path: Path) -> SampleCache:
        """The cache at ``path``; an empty one if it is missing, unreadable,
        not a regular file, too large or of another version (it is rebuilt
        from the records, and written over the odd file)."""
        try:
            # a FIFO, a link to /dev/zero, a huge file: odd means "rebuild", never a hang
            data = json.loads(read_small_text(path, MAX_CACHE_BYTES))
            if data.get("format") != CACHE_FORMAT or data.get("version") != CACHE_VERSION:
                return cls(changed=True)
            entries = {
                str(key): (str(value[0]), int(value[1]), _read_samples(value[2]))
                for key, value in data["games"].items()
            }
        except (OSError, SaveError, ValueError, TypeError, KeyError, IndexError, AttributeError):
            return cls(changed=True)
        return cls(entries)

    def save(self, path: Path) -> None:
        data = {
            "format": CACHE_FORMAT,
            "version": CACHE_VERSION,
            "games": {key: list(value) for key, value in self.entries.items()},
        }
        try:
            os.makedirs(path.parent, exist_ok=True)
            write_json_atomically(path, data)
        except OSError:
            return  # a cache that cannot be written is rebuilt next time
        self.changed = False

    def keep_only(self, ids: set[str]) -> None:
        """Forget the games no longer in the store (deleted ones)."""
        gone = [key for key in self.entries if key not in ids]
        for key in gone:
            del self.entries[key]
        self.changed = self.changed or bool(gone)

    def samples(self, record: GameRecord) -> list[Samples]:
        """Every seat's samples of a finished game: from the cache if the
        record is unchanged, else by replaying it (SaveError if it does not)."""
        known = self.entries.get(record.id)
        if known is not None and known[0] == record.updated and known[1] == len(record.moves):
            return known[2]
        try:
            spec = get_game(record.game)
        except UnknownGame as err:
            raise SaveError(str(err)) from None
        state, events = record.replay_with_events()
        outcome = state.outcome()
        if outcome is None:
            raise SaveError("the moves do not end the game its result says is over")
        samples = [spec.figure_samples(s, events, outcome) for s in range(len(record.seats))]
        self.entries[record.id] = (record.updated, len(record.moves), samples)
        self.changed = True
        return samples


def _read_samples(value: Any) -> list[Samples]:
    if not isinstance(value, list):
        raise TypeError("samples are a list")
    out: list[Samples] = []
    for seat in value:
        if not isinstance(seat, Mapping):
            raise TypeError("a seat's samples are an object")
        out.append({str(k): [float(x) for x in v] for k, v in seat.items()})
    return out
