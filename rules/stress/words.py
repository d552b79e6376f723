"""Stress moves and scores in a person's words (``GameSpec.move_words``,
``GameSpec.score_label``).

The notation (``notation.py``) is for saves and the wire; these are the words
a hint, a list of moves or a replay shows: "play 5S 5H 5C", "turn up
face-down card 2", "pick up the stack (6 cards)". Cards stay card texts
(``5S``): how they are drawn is the screen's choice.

A move alone does not say where its cards come from (a play is from the hand,
or from the face-up row once the hand is empty) or how big the stack is: given
the seat's view, the words say so too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import card_text
from ..game import Resign
from .notation import Blind, PickUp, Play, Ready, StressMove, Swap

if TYPE_CHECKING:  # the state imports these words: no cycle at run time
    from .state import StressView

SCORE_LABEL = "cards left (fewer is better)"


def move_words(move: StressMove | Resign, view: StressView | None = None) -> str:
    """``move`` in words; with ``view`` (its seat's, before the move) also
    where the cards come from and how many a pick-up takes."""
    match move:
        case Play(cards=cards):
            played = "play " + " ".join(card_text(c) for c in cards)
            if _source(view) == "face_up":
                return f"{played} from the face-up cards"
            return played
        case Blind(position=position):
            return f"turn up face-down card {position}"
        case PickUp():
            if view is None:
                return "pick up the stack"
            size = len(view.stack)
            return f"pick up the stack ({size} card{'' if size == 1 else 's'})"
        case Swap(hand_card=hand, up_card=up):
            return f"swap {card_text(hand)} from the hand for face-up {card_text(up)}"
        case Ready():
            return "ready (done swapping)"
        case Resign():
            return "resign"


def _source(view: StressView | None) -> str | None:
    """Where the view's seat plays from now, if the view says."""
    if view is None or view.seat is None or not 0 <= view.seat < len(view.sources):
        return None
    return view.sources[view.seat]
