"""cardtable's rules: the game contract, the four games and their bots.

Pure Python: no I/O, and nothing from textual or rich (a test checks).
"""

from .errors import IllegalMove, NotationError, UnknownGame
from .events import Event, visible_events
from .game import GameSpec, GameState, Outcome
from .registry import games, get_game

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
