"""What a game screen asks of a coach: a lesson's guide (tui/learn/coach.py)
or the tips of a real game (tui/learn/tips.py).

A screen with a coach asks it before a move is sent (it may hold the move
back and say why) and tells it after every update of the seat on screen. The
screen knows nothing else of lessons or tips, so every game's screen gets
them through these few lines (tui/table/screen.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from net.client import Update

    from .screen import TableScreen


class Coach(Protocol):
    def attach(self, screen: TableScreen) -> None:
        """The screen is mounted: the coach may add its own widgets."""

    def before_move(self, move: str) -> str | None:
        """None to send ``move``; else why not, and the move is not sent."""

    def moved(self, move: str) -> None:
        """``move`` was played."""

    def after_update(self, update: Update) -> None:
        """A new update for the seat on screen, already drawn."""
