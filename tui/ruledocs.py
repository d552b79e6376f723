"""The players' rules pages (docs/play/<game>.md), shipped as package data.

They are written for players; ``docs/rules/<game>.md`` keeps, for developers,
each ruling beside the seed's words. A wheel carries the players' pages in
``rules/play/`` (pyproject force-include); a source checkout (``uv run``,
editable) reads ``docs/play/`` beside the packages.
Importing this module pulls in neither textual nor rich.
"""

from __future__ import annotations

from pathlib import Path

import rules

_CANDIDATES = (
    Path(rules.__file__).parent / "play",
    Path(rules.__file__).parent.parent / "docs" / "play",
)


def rules_markdown(game_id: str) -> str:
    """The rules page of a game as Markdown; FileNotFoundError if it has none."""
    for folder in _CANDIDATES:
        path = folder / f"{game_id}.md"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise FileNotFoundError(f"no rules page for '{game_id}'")
