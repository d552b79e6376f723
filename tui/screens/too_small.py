"""Shown instead of everything else while the terminal is smaller than 80x24."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

from tui.styles import DIALOGS

if TYPE_CHECKING:
    from tui.textual_seams import CSSPathType


class TooSmallScreen(Screen[None]):
    # nothing underneath may be used while it cannot be seen whole
    BINDINGS: ClassVar[list[BindingType]] = []
    CSS_PATH: ClassVar[CSSPathType | None] = [DIALOGS]

    def compose(self) -> ComposeResult:
        width, height = self.app.size
        with Middle(), Center():
            yield Static(self.text(width, height), id="too-small-text")

    @staticmethod
    def text(width: int, height: int) -> str:
        return (
            f"Terminal too small: {width}x{height}.\n"
            "cardtable needs at least 80x24.\n"
            "Make the window bigger to go on (Ctrl+Q quits)."
        )

    def show_size(self, width: int, height: int) -> None:
        self.query_one("#too-small-text", Static).update(self.text(width, height))
