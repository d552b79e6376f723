"""cardtable's rules: the game contract, the four games and their bots.

Pure Python: no I/O, and nothing from textual or rich (a test checks).

The names below load on first use (PEP 562): importing one light module
(``rules.registry``'s catalogue, ``rules.plain``) at the app's start does not
import the contract and msgspec with it (tests/perf/bench_startup.py).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .errors import IllegalMove, NotationError, UnknownGame
    from .events import Event, visible_events
    from .game import GameSpec, GameState, Outcome
    from .registry import games, get_game

_HOMES = {
    "Event": "events",
    "GameSpec": "game",
    "GameState": "game",
    "IllegalMove": "errors",
    "NotationError": "errors",
    "Outcome": "game",
    "UnknownGame": "errors",
    "games": "registry",
    "get_game": "registry",
    "visible_events": "events",
}

__all__ = [
    "Event",
    "GameSpec",
    "GameState",
    "IllegalMove",
    "NotationError",
    "Outcome",
    "UnknownGame",
    "games",
    "get_game",
    "visible_events",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'rules' has no attribute {name!r}")
    return getattr(import_module(f".{home}", __name__), name)
