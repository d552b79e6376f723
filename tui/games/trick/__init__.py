"""The Five-Card Trick screen (tui/games/__init__.py finds ``SCREEN`` and
``describe`` here by the game's id).

Modules: ``words`` (the screen's lines, every sentence from rules/trick/words.py),
``widgets`` (the action cards, the Block-target picker), ``screen`` (TrickScreen),
``replay`` (``describe``, for the replay viewer).
"""

from __future__ import annotations

from .replay import describe
from .screen import TrickScreen

SCREEN = TrickScreen

__all__ = ["SCREEN", "TrickScreen", "describe"]
