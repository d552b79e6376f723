"""The discard grid: every card played so far, 4 suits by 13 ranks, as in Sevens."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from rich.text import Text
from textual.widget import Widget

from .cards import SUIT_SYMBOLS, card_style_of, suit_colour

RANK_HEADS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


class DiscardGrid(Widget):
    """Rows are suits, columns ranks A..K; a discarded card shows its rank."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "discardgrid--head",
        "discardgrid--missing",
        "discardgrid--black",
        "discardgrid--red",
        "discardgrid--blue",
        "discardgrid--green",
    }

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._discards: dict[str, tuple[int, ...]] = {s: () for s in "SHDC"}

    def set_discards(self, discards: Mapping[str, Sequence[int]]) -> None:
        new = {s: tuple(discards.get(s, ())) for s in "SHDC"}
        if new != self._discards:
            self._discards = new
            self.refresh()

    def render(self) -> Text:
        style = card_style_of(self.app)
        head = self.get_component_rich_style("discardgrid--head", partial=True)
        missing = self.get_component_rich_style("discardgrid--missing", partial=True)
        dot = "." if style.ascii else "·"
        out = Text("   ", head)
        out.append("".join(f"{r:>3}" for r in RANK_HEADS), head)
        for suit in "SHDC":
            colour = self.get_component_rich_style(
                f"discardgrid--{suit_colour(suit, style)}", partial=True
            )
            out.append("\n")
            out.append(f" {suit if style.ascii else SUIT_SYMBOLS[suit]} ", colour)
            played = set(self._discards[suit])
            for rank, text in enumerate(RANK_HEADS, start=1):
                if rank in played:
                    out.append(f"{text:>3}", colour)
                else:
                    out.append(f"{dot:>3}", missing)
        return out
