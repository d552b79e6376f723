"""Every game by its id. Adding a game = one import line here."""

from __future__ import annotations

from typing import Any

from .errors import UnknownGame
from .game import GameSpec

_GAMES: dict[str, GameSpec[Any, Any]] = {}
_loaded = False

# The table's games in the order the home screen lists them, with a title and a
# one-line pitch each: known without importing any game (the home screen's
# first paint uses it), and shown "coming soon" for a game not registered yet.
CATALOGUE: dict[str, tuple[str, str]] = {
    "domination": ("Domination", "A climbing duel: play equal or higher, chain a suit."),
    "stress": ("Stress", "Shed your hand, face-up and face-down cards; 2-8 players."),
    "territory": ("Territory", "Schmiedekamp's Domination: conquer regions on a grid."),
    "trick": ("Five-Card Trick", "Pick 2 of 5 actions a round; collect more chips."),
}


def register(spec: GameSpec[Any, Any]) -> GameSpec[Any, Any]:
    _GAMES[spec.id] = spec
    return spec


def _load() -> None:
    # a flag, not "is _GAMES empty": a game registered before the first lookup
    # (a test's or a plugin's) must not hide the built-in ones
    global _loaded
    if _loaded:
        return
    from . import domination, stress, trick

    for module in (domination, stress, trick):
        register(module.SPEC)
    _loaded = True


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
