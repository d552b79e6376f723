"""The result dialog at 80x24: its four buttons share the row evenly and
whole, at home ("Home (Esc)") as at a network table ("Lobby (Esc)"), and the
rating line's arrow follows the app's glyphs (→, in ASCII ->)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Button

from rules.game import Outcome
from tui.screens.game_over import GameOverScreen, rating_text

from .conftest import make_app, screen_text, settle

OUTCOME = Outcome(1, ((1,), (0,)), (13, 37), "{p0} resigned")


@pytest.mark.parametrize("back", ["Home", "Lobby"])
async def test_the_four_buttons_fit_whole_and_evenly(dirs: Any, back: str) -> None:
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)

        async def change() -> list[str]:
            return ["Your rating: 25.0 → 21.6 (-3.4)"]

        dialog = GameOverScreen(
            "domination", OUTCOME, ["You", "Computer"], you={0}, back=back, rating_change=change
        )
        await app.push_screen(dialog)
        await app.workers.wait_for_complete()
        await settle(pilot)
        box = dialog.query_one("#game-over").content_region
        buttons = list(dialog.query(Button))
        labels = [str(b.label) for b in buttons]
        assert labels == ["Rematch (r)", f"{back} (Esc)", "Table (v)", "Analyse (a)"]
        # one row, equal widths, each label whole, all inside the border
        assert {b.region.width for b in buttons} == {buttons[0].region.width}
        assert {b.region.y for b in buttons} == {buttons[0].region.y}
        assert all(b.region.height == 1 for b in buttons)
        assert all(
            len(label) <= b.content_region.width for label, b in zip(labels, buttons, strict=True)
        )
        assert buttons[0].region.x >= box.x and buttons[-1].region.right <= box.right
        row = next(line for line in screen_text(app).splitlines() if "Rematch (r)" in line)
        assert all(label in row for label in labels), row
        text = screen_text(app)
        assert "Your rating: 25.0 → 21.6 (-3.4)" in text
        assert "Place" in text and "Points" in text and "points" not in text


def test_the_rating_arrow_follows_the_glyphs() -> None:
    lines = ["Your rating: 25.0 → 21.6 (-3.4)", "Your rating at this server: 25.0 → 26.0 (+1.0)"]
    assert rating_text(lines, ascii=False).splitlines() == [
        "Your rating: 25.0 → 21.6 (-3.4)",
        "Your rating at this server: 25.0 → 26.0 (+1.0)",
    ]
    assert rating_text(lines, ascii=True).splitlines() == [
        "Your rating: 25.0 -> 21.6 (-3.4)",
        "Your rating at this server: 25.0 -> 26.0 (+1.0)",
    ]
