"""The scores round by round, during a game and after it: a small dialog over
the table (``s`` on a game screen), built from the events the seat has seen.

Once two rounds have ended, a chart of every seat's score after each round
sits above the table (a textual-plotext plot: Domination's race to the
target, Trick's chips by round): a race reads at a glance in a chart, the
exact figures stay in the table under it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from tui.glyphs import chart_marker
from tui.plain import plain, plain_text
from tui.screens.dialog import Dialog

CHART_FROM = 2  # rounds ended before a chart says more than the table

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


class ScoreHistoryScreen(Dialog[None]):
    # the chart's and the rows' heights: tui/styles/dialogs.tcss, "#score-rows"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape,enter,s,space",
            "close",
            "Back to the table",
            key_display="esc",
            id="scores.close",
        )
    ]

    def __init__(
        self,
        rounds: Sequence[RoundScores],
        names: Sequence[str],
        target: int | None = None,
        ascii: bool = False,
    ) -> None:
        super().__init__()
        self.ascii = ascii  # the chart's marks: braille dots, or a character a player
        self.target = target  # the score that ends the game: the chart's finishing line
        self.rounds = list(rounds)
        self.names = list(names)

    def compose(self) -> ComposeResult:
        charted = len(self.rounds) >= CHART_FROM
        with Vertical(classes="dialog charted" if charted else "dialog", id="score-history"):
            yield Static("Scores round by round", classes="title")
            if charted:
                from textual_plotext import PlotextPlot  # only once there is a race to draw

                yield PlotextPlot(id="score-chart")
            heading, *rows = score_rows(self.rounds, self.names)
            yield Static(plain_text(heading, None))  # in sight while the rows scroll
            with VerticalScroll(id="score-rows"):
                yield Static(plain_text("\n".join(rows), None, newlines=True))
            # the game's footer is behind the dialog: the way back here
            yield Static("Esc or Enter: back to the table", classes="hint")

    def on_mount(self) -> None:
        if len(self.rounds) >= CHART_FROM:
            self._draw_chart()
        rows = self.query_one("#score-rows", VerticalScroll)
        rows.focus()
        # the latest rounds first in sight, once the rows have their height
        self.call_after_refresh(rows.scroll_end, animate=False, immediate=True)

    def _draw_chart(self) -> None:
        from textual_plotext import PlotextPlot

        plt = self.query_one("#score-chart", PlotextPlot).plt
        numbers = [0] + [number for number, _ in self.rounds]
        for seat, name in enumerate(self.names):
            scores = [0] + [scores[seat] if seat < len(scores) else 0 for _, scores in self.rounds]
            marker = chart_marker(seat, self.ascii)
            plt.plot(numbers, scores, marker=marker, label=plain(name, 12))
        if self.target is not None:  # the race to the target: the whole way up
            highest = max(max(scores, default=0) for _, scores in self.rounds)
            plt.ylim(0, max(self.target, highest))
            plt.hline(self.target, color="red")
            plt.title(f"first to {self.target}")
        plt.xlabel("round")
        top = max(numbers)
        step = max(1, -(-top // 8))
        plt.xticks([float(n) for n in range(0, top + 1, step)])
        # scores are whole: no "0.83" between 0 and 1 chip
        highest = max((max(scores, default=0) for _, scores in self.rounds), default=0)
        ceiling = max(self.target or 0, highest, 1)
        rise = max(1, -(-ceiling // 5))
        plt.yticks([float(n) for n in range(0, ceiling + 1, rise)])

    def action_close(self) -> None:
        self.dismiss()
