"""The pause menu says what leaving does at this table, and offers Resign only
where there is something to resign."""

from __future__ import annotations

from typing import Any

import pytest

from tui.screens.pause import PauseScreen

from .conftest import make_app, screen_text, settle


@pytest.mark.parametrize(
    ("menu", "says", "never"),
    [
        (PauseScreen(), "The game is saved after every move.", "not saved"),
        (PauseScreen(saves=False), "This table is not saved: leaving ends it.", "saved after"),
        (
            PauseScreen(can_resign=False, can_pause=False, seated=False),
            "you may watch again from the lobby",
            "a seat you leave",
        ),
        (PauseScreen(can_pause=False), "a seat you leave is held for a while", "watch again"),
        # N04: a lesson is never kept: nothing promises to save it
        (PauseScreen(saves=False), "Leave the table", "Save and quit"),
        # N22: after the end, nothing is paused and nothing more is saved
        (PauseScreen(can_resign=False, over=True), "Game over", "Game paused"),
        (PauseScreen(can_resign=False, over=True), "Back to home", "Save and quit"),
    ],
)
async def test_the_menu_says_what_leaving_does_here(
    dirs: Any, menu: PauseScreen, says: str, never: str
) -> None:
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await app.push_screen(menu)
        await settle(pilot)
        text = " ".join(screen_text(app).replace("│", " ").split())  # lines of the dialog
        assert says in text and never not in text
        assert ("Resign" in text) == menu.can_resign


async def test_leaving_a_lesson_promises_no_save(dirs: Any) -> None:
    """N04: q from a lesson's menu leaves without "Game saved" (a lesson is
    never kept: Resume would then say "No saved games yet")."""
    from tui.learn.coach import LessonIntroScreen

    app = make_app(dirs, launch={"action": "learn", "game": "stress"})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, LessonIntroScreen))
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, PauseScreen))
        assert "Save and quit" not in screen_text(app)
        await pilot.press("q")
        await settle(pilot)
        assert not isinstance(app.screen, PauseScreen)
        assert not any("saved" in n.message for n in app._notifications)
