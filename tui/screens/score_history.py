"""The scores round by round, during a game and after it: a small dialog over
the table (``s`` on a game screen), built from the events the seat has seen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.plain import plain, plain_text

# (round number, every seat's score after it)
RoundScores = tuple[int, Sequence[int]]


def score_rows(rounds: Sequence[RoundScores], names: Sequence[str]) -> list[str]:
    """A table in text: one row a round, each seat's score and what the round
    brought it ("+13"); a heading, and a line saying so when no round has ended."""
    names = [plain(n, 12) for n in names]
    width = max([len(n) for n in names] + [7]) + 1
    lines = ["Round " + "".join(n.rjust(width) + " " * 5 for n in names)]
    before = [0] * len(names)
    for number, scores in rounds:
        cells = []
        for i, score in enumerate(scores[: len(names)]):
            gain = score - before[i]
            cells.append(f"{score:>{width}}" + (f" {gain:+4d}" if gain else "     "))
        lines.append(f"{number:>5} " + "".join(cells))
        before = list(scores)
    if not rounds:
        lines.append("No round has ended yet.")
    return lines


class ScoreHistoryScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape,enter,s,space",
            "close",
            "Back to the table",
            key_display="Esc",
            id="scores.close",
        )
    ]

    def __init__(self, rounds: Sequence[RoundScores], names: Sequence[str]) -> None:
        super().__init__()
        self.rounds = list(rounds)
        self.names = list(names)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="score-history"):
            yield Static("Scores round by round", classes="title")
            with VerticalScroll(id="score-rows"):
                text = "\n".join(score_rows(self.rounds, self.names))
                yield Static(plain_text(text, None, newlines=True))

    def on_mount(self) -> None:
        rows = self.query_one("#score-rows", VerticalScroll)
        rows.focus()
        rows.scroll_end(animate=False)  # the latest rounds first in sight

    def action_close(self) -> None:
        self.dismiss()
