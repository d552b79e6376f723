"""The score history's chart (``s`` in a game): a line per seat once two
rounds have ended, above the table (tui/screens/score_history.py)."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual_plotext import PlotextPlot

from tui.screens.score_history import ScoreHistoryScreen

from .conftest import screen_text

ROUNDS = [(1, [13, 0]), (2, [13, 24]), (3, [40, 24]), (4, [61, 30])]


class _Table(App[None]):
    def __init__(self, rounds: Any, target: int | None = None) -> None:
        super().__init__()
        self.rounds = rounds
        self.target = target

    def on_mount(self) -> None:
        names = ["You", "[red]Computer"]
        self.push_screen(ScoreHistoryScreen(self.rounds, names, self.target))


async def test_two_rounds_and_more_are_charted_above_the_table() -> None:
    app = _Table(ROUNDS)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ScoreHistoryScreen)
        assert screen.query(PlotextPlot)
        text = screen_text(app)  # type: ignore[arg-type]
        assert any("\u2800" < c <= "\u28ff" for c in text)  # the lines, in braille
        assert "[red]Comput" in text  # the legend: a name as it is, never markup
        assert "61" in text and "round" in text  # the table still under it; the axis


async def test_one_round_is_a_table_alone() -> None:
    app = _Table(ROUNDS[:1])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app.screen.query(PlotextPlot)


async def test_a_race_to_a_target_is_drawn_the_whole_way_up() -> None:
    app = _Table(ROUNDS, target=100)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)  # type: ignore[arg-type]
        assert "first to 100" in text
        assert "100" in text.split("first to 100", 1)[1]  # the axis reaches the target
