"""What the player has learnt: the lessons finished, and how many real games
of each game have shown tips. Kept in the data folder (``learn.json``), so an
ssh-host visitor's progress is their own; written with saves/atomic.py. A file
that cannot be read counts as no progress (and is replaced at the next write),
never a crash: nothing in it is worth more than a message."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from saves.atomic import write_json_atomically
from saves.errors import SaveError
from saves.regular_file import read_small_text

PROGRESS_FILE = "learn.json"
MAX_PROGRESS_BYTES = 64 * 1024  # a few hundred bytes are ours; far more is not
# real games of each game that show tips (Settings can turn them off sooner)
TIP_GAMES = 3


@dataclass
class LearnProgress:
    finished: set[str] = field(default_factory=set)  # game ids whose lesson was played to its end
    tip_games: dict[str, int] = field(default_factory=dict)  # game id -> games shown with tips

    def to_json(self) -> dict[str, Any]:
        return {"version": 1, "finished": sorted(self.finished), "tip_games": self.tip_games}

    @classmethod
    def from_json(cls, data: Any) -> LearnProgress:
        if not isinstance(data, dict):
            return cls()
        finished = data.get("finished")
        games = data.get("tip_games")
        return cls(
            {g for g in finished if isinstance(g, str)} if isinstance(finished, list) else set(),
            {g: n for g, n in games.items() if isinstance(n, int) and not isinstance(n, bool)}
            if isinstance(games, dict)
            else {},
        )


def load_progress(folder: Path) -> LearnProgress:
    try:  # never blocking on a FIFO nor following a link: odd counts as no progress
        text = read_small_text(folder / PROGRESS_FILE, MAX_PROGRESS_BYTES)
        return LearnProgress.from_json(json.loads(text))
    except (OSError, SaveError, ValueError):
        return LearnProgress()


def save_progress(folder: Path, progress: LearnProgress) -> str | None:
    """Write it; None, or why it could not be written (one line, for a notice)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_json_atomically(folder / PROGRESS_FILE, progress.to_json(), indent=2)
    except OSError as err:
        return f"Could not save your lesson progress: {err.strerror or err} ({folder})"
    return None
