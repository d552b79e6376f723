"""Every game by its id. Adding a game = one import line here."""

from __future__ import annotations

from typing import Any

from .errors import UnknownGame
from .game import GameSpec

_GAMES: dict[str, GameSpec[Any, Any]] = {}


def register(spec: GameSpec[Any, Any]) -> GameSpec[Any, Any]:
    _GAMES[spec.id] = spec
    return spec


def _load() -> None:
    if _GAMES:
        return
    from . import domination

    for module in (domination,):
        register(module.SPEC)


def games() -> dict[str, GameSpec[Any, Any]]:
    _load()
    return dict(_GAMES)


def get_game(game_id: str) -> GameSpec[Any, Any]:
    _load()
    try:
        return _GAMES[game_id]
    except KeyError:
        raise UnknownGame(
            f"no game called '{game_id}'; games: {', '.join(sorted(_GAMES))}"
        ) from None
