"""domination: the two-player climbing duel (seed 000, RULINGS.md).

Each card played must rank >= the card before it, any suit. Two cards of one
suit in a row start Domination, which lasts to the end of the round: every
further card must be of that suit and higher, and the round's score is the
last card's rank times the length of the same-suit chain. The player to move
who cannot play ends the round; whoever played last wins it. A lead that is
the highest card of its suit not yet discarded is Inelegant: unanswered, it
scores 1. The player rules live in docs/rules/domination.md.

Modules, as in every game (docs/contract.md, "Adding a game"): ``notation``
(moves and their text), ``options`` (Config, presets), ``view`` (the typed
view), ``state`` (the rules), ``position`` (the position text read back),
``spec`` (the spec: new game, words, bounds, bots), ``events``, ``words``,
``figures``, ``from_view`` (a state from a seat's view), ``bots`` (easy,
medium, hard and the search adapter).
"""

from __future__ import annotations

from .notation import CONCEDE, Concede, DominationMove, Play, parse_move
from .options import PRESETS, DominationConfig
from .spec import SPEC, DominationSpec
from .state import HAND_SIZE, DominationState
from .view import DominationView

__all__ = [
    "CONCEDE",
    "HAND_SIZE",
    "PRESETS",
    "SPEC",
    "Concede",
    "DominationConfig",
    "DominationMove",
    "DominationSpec",
    "DominationState",
    "DominationView",
    "Play",
    "parse_move",
]
