"""D18: no half words of the table beside a dialog. Every dialog is a
``Dialog`` (tui/screens/dialog.py), its box on a band as wide as the screen;
without colour, where nothing can be dimmed, every one covers what is behind
it; with colour, a dialog about the table (a hint, a chooser, a round's
summary) keeps the table in view above and below the band, dimmed."""

from __future__ import annotations

import re
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tui.screens.dialog import Dialog
from tui.screens.too_small import TooSmallScreen

from .conftest import make_app, screen_text, settle

TABLE_LINE = "the log of the table says who played what " * 2


class Question(Dialog[None]):
    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("A question", classes="title")


class TableApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("\n".join([TABLE_LINE] * 24))


def beside_the_dialog(app: App[Any]) -> list[str]:
    """The text of every row outside the dialog's box, left and right of it."""
    box = app.screen.query_one(".dialog").region
    rows = screen_text(app).splitlines()
    return [
        row[: box.x] + row[box.right :]
        for row in rows[box.y : box.bottom]
        if (row[: box.x] + row[box.right :]).strip()
    ]


async def test_without_colour_a_dialog_covers_the_table_behind_it(monkeypatch: Any) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = TableApp()
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.no_color
        await app.push_screen(Question())
        await pilot.pause()
        assert "A question" in screen_text(app)
        assert beside_the_dialog(app) == []
        assert "the log" not in screen_text(app)


async def test_with_colour_a_dialog_about_the_table_keeps_it_in_view(monkeypatch: Any) -> None:
    """D18: the table stays in view above and below the box, and nothing of
    it shows beside the box (half words, even dimmed, read as garbage)."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    app = TableApp()
    async with app.run_test(size=(80, 24)) as pilot:
        assert not app.no_color
        await app.push_screen(Question())
        await pilot.pause()
        await pilot.pause()  # the band takes the box's height once it is laid out
        box = app.screen.query_one(".dialog").region
        rows = screen_text(app).splitlines()
        assert beside_the_dialog(app) == []
        assert any("the log" in row for row in rows[: box.y])  # above the box
        assert any("the log" in row for row in rows[box.bottom :])  # and below it


async def test_the_territory_move_list_without_colour_leaves_no_half_words(
    dirs: Any, monkeypatch: Any
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    launch = {"action": "play", "game": "territory", "vs": "computer:easy", "seed": 3}
    app = make_app(dirs, launch=launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("m")  # every legal move, in a dialog over the grid
        await settle(pilot)
        assert isinstance(app.screen, Dialog)
        assert re.search(r"Explore an? \S+ at", screen_text(app))
        assert beside_the_dialog(app) == []


def test_the_screens_between_turns_share_the_dialogs_style_sheet() -> None:
    # the size warning is drawn boxed and centred from the same sheet
    assert TooSmallScreen.CSS_PATH == Dialog.CSS_PATH
