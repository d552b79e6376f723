"""A game named on the command line: by its id or its title, in any case
(`play Domination`, `rules five-card trick`), as the screens write it."""

from __future__ import annotations

from typing import Any

from rules.errors import UnknownGame, shown_input
from rules.game import GameSpec
from rules.registry import games


def _folded(name: str) -> str:
    return " ".join(name.casefold().replace("-", " ").split())


def game_named(name: str) -> GameSpec[Any, Any]:
    """The game whose id or title is ``name`` (case, hyphens and spaces aside);
    UnknownGame, naming the games, if none."""
    wanted = _folded(name)
    known = games()
    for spec in known.values():
        if wanted in (_folded(spec.id), _folded(spec.title)):
            return spec
    raise UnknownGame(f"no game called {shown_input(name)}; games: {', '.join(sorted(known))}")


def game_option_names() -> set[str]:
    """Every option any game takes (`players`, `target_score`, …): for pointing
    a mistyped `--players 9` at `--option players=9`."""
    return {info.name for spec in games().values() for info in spec.Config.options()}
