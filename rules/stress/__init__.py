"""stress: the shedding game for 2-8 players (seed 001, RULINGS.md).

Each player has 4 cards face down, 4 face up on them and 4 in hand; before
the first turn everyone may swap hand cards with face-up ones, all at once and
in secret. Then, in turn, play one or more cards of one rank at least as high
as the top of the stack (2 < 3 < ... < K < A), or pick the stack up. 2 resets,
3 is see-through, 8 skips the next player, 9 asks for a rank below 9, 10 burns
the stack. Hand first (refilled to 4 from the stock), then the face-up cards,
then the face-down ones, blind. The first to play every card wins; the last
one holding cards loses. The player rules are in docs/rules/stress.md.

Modules: ``notation`` (moves and their text), ``options`` (Config, presets),
``knowledge`` (what the table knows of each hand, for sampling), ``state``
(the rules: the deal, swaps, play, views), ``view`` (StressView, typed),
``position`` (the position text, both ways), ``spec`` (the spec: new game,
words, bounds, bots), ``events``, ``words``, ``figures``, ``from_view`` (a
state from a seat's view), ``bots`` (easy, medium, hard and the search
adapter).
"""

from __future__ import annotations

from .knowledge import ALL_RANKS, Facts
from .notation import (
    BLINDS,
    PICKUP,
    READY,
    SINGLE,
    SWAPS,
    Blind,
    PickUp,
    Play,
    Ready,
    StressMove,
    Swap,
    make_play,
    parse_move,
    plays_of,
)
from .options import PRESETS, StressConfig
from .spec import SPEC, StressSpec
from .state import FOLLOWS, HAND_SIZE, PLAY_LIMIT, POWER, SWAP_LIMIT, StressState
from .view import StressView

__all__ = [
    "ALL_RANKS",
    "BLINDS",
    "FOLLOWS",
    "HAND_SIZE",
    "PICKUP",
    "PLAY_LIMIT",
    "POWER",
    "PRESETS",
    "READY",
    "SINGLE",
    "SPEC",
    "SWAPS",
    "SWAP_LIMIT",
    "Blind",
    "Facts",
    "PickUp",
    "Play",
    "Ready",
    "StressConfig",
    "StressMove",
    "StressSpec",
    "StressState",
    "StressView",
    "Swap",
    "make_play",
    "parse_move",
    "plays_of",
]
