"""trick: Five-Card Trick, the simultaneous duel of five actions (seed 004, RULINGS.md).

Each round both players secretly submit up to two of Score, Grow, Claim, Steal
and Block; the same action played by both cancels, Grow feeds the pot, Claim
takes it unless the opponent Steals, Block blocks an action next round, and five
lit lights pay a chip. Five presets follow the seed's five versions (standard,
original, dm12, setna, final). The player rules and the notation are in
docs/rules/trick.md.

Modules: ``notation`` (moves and their text), ``core`` (the public position and
one round's resolution, shared with the bots), ``options`` (Config, presets),
``view`` (TrickView and its revealed round, typed), ``words`` (every sentence:
moves, reasons, the reveal; the screen calls it too), ``state`` (the rules:
submissions, reveal, views), ``position`` (the position text, both ways),
``spec`` (the spec: new game, words, bounds, bots), ``events``, ``figures``,
``from_view`` (a state from a seat's view), ``bots`` (easy, medium, hard),
``engine`` (the search adapter), ``solver`` (the hard bot's matrix-game
solver), ``scripts`` (scripted strategies the arena can name).
"""

from __future__ import annotations

from .core import Position, disregarded, resolve
from .notation import (
    ACTION_IDS,
    BLOCK,
    CLAIM,
    EMPTY,
    GROW,
    MISSED,
    NO_TARGET,
    PRIORITY_MOVE,
    SCORE,
    STEAL,
    Missed,
    Submission,
    TrickMove,
    UsePriority,
    make_submission,
    parse_move,
)
from .options import PRESETS, TrickConfig
from .spec import SPEC, TrickSpec
from .state import TrickState, submissions_for

__all__ = [
    "ACTION_IDS",
    "BLOCK",
    "CLAIM",
    "EMPTY",
    "GROW",
    "MISSED",
    "NO_TARGET",
    "PRESETS",
    "PRIORITY_MOVE",
    "SCORE",
    "SPEC",
    "STEAL",
    "Missed",
    "Position",
    "Submission",
    "TrickConfig",
    "TrickMove",
    "TrickSpec",
    "TrickState",
    "UsePriority",
    "disregarded",
    "make_submission",
    "parse_move",
    "resolve",
    "submissions_for",
]
