"""Every game by its id, and the games cardtable ships.

A shipped game is a package ``rules/<id>/`` whose ``__init__`` exports
``SPEC``, named in :data:`CATALOGUE` with its title and pitch: that line is
how the registry, the home screen and every test over the shipped games
(:func:`shipped`) know it (docs/contract.md, "Adding a game")."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .errors import UnknownGame

if TYPE_CHECKING:  # the contract (and msgspec) load with the first game, not the catalogue
    from .game import GameSpec

_GAMES: dict[str, GameSpec[Any, Any]] = {}
_loaded = False

# The table's games in the order the home screen lists them, with a title and a
# one-line pitch each: known without importing any game (the home screen's
# first paint uses it), and shown "coming soon" for a game not registered yet.
# Each game's spec takes its title and summary from here: one text, not two.
CATALOGUE: dict[str, tuple[str, str]] = {
    "domination": (
        "Domination",
        "A climbing duel: play equal or higher, chain a suit for Domination multipliers.",
    ),
    "stress": (
        "Stress",
        "Shed every card: beat the top card or pick up the stack; 2-8 players.",
    ),
    "territory": (
        "Territory",
        "Schmiedekamp's Domination: explore and conquer a grid until one region holds A to 10.",
    ),
    "trick": (
        "Five-Card Trick",
        "A simultaneous duel: pick 2 of 5 actions each round to out-chip your opponent.",
    ),
}


def shipped() -> tuple[str, ...]:
    """The ids of the games cardtable ships, in the home screen's order, without
    loading any: what every test over "all the games" runs over, so a game
    added to the catalogue is in each of them."""
    return tuple(CATALOGUE)


def register(spec: GameSpec[Any, Any]) -> GameSpec[Any, Any]:
    _GAMES[spec.id] = spec
    return spec


def registered_beyond_catalogue() -> dict[str, tuple[str, str]]:
    """A game registered beyond the catalogue's (a plugin's, a test's): id ->
    (title, pitch), without loading the built-in games."""
    return {i: (s.title, s.summary) for i, s in _GAMES.items() if i not in CATALOGUE}


def _load() -> None:
    # a flag, not "is _GAMES empty": a game registered before the first lookup
    # (a test's or a plugin's) must not hide the built-in ones
    global _loaded
    if _loaded:
        return
    for game_id in CATALOGUE:
        register(import_module(f"{__package__}.{game_id}").SPEC)
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
