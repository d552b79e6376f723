"""The Stress screen (``tui.games`` finds ``SCREEN`` and ``describe`` here by
the game's id).

- ``words``: the screen's captions, pure functions of the typed view;
- ``groups``: the cards as rows of faces, and which play a choice makes;
- ``widgets``: the list of every legal move;
- ``screen``: ``StressScreen``, which only lays these out and keeps the cursor;
- ``replay``: ``describe``, a position as text for the replay viewer.

What a move is called is the rules' (``rules.stress.words``).
"""

from __future__ import annotations

from .replay import describe
from .screen import StressScreen
from .widgets import MovesPicker

SCREEN = StressScreen

__all__ = ["SCREEN", "MovesPicker", "StressScreen", "describe"]
