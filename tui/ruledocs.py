"""The players' rules pages (docs/rules/<game>.md), shipped as package data.

A wheel carries them in ``rules/docs/`` (pyproject force-include); a source
checkout (``uv run``, editable) reads ``docs/rules/`` beside the packages.
Importing this module pulls in neither textual nor rich.
"""

from __future__ import annotations

from pathlib import Path

import rules

_CANDIDATES = (
    Path(rules.__file__).parent / "docs",
    Path(rules.__file__).parent.parent / "docs" / "rules",
)


def rules_markdown(game_id: str) -> str:
    """The rules page of a game as Markdown; FileNotFoundError if it has none."""
    for folder in _CANDIDATES:
        path = folder / f"{game_id}.md"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise FileNotFoundError(f"no rules page for '{game_id}'")
