"""The pause menu says what leaving does at this table, and offers Resign only
where there is something to resign."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from textual.pilot import Pilot

from tui.screens.pause import PauseScreen

from .conftest import make_app, screen_text, settle
from .shared_app import back_home, shared_app

# The menu's cases are shown one after another over the home screen of one
# app (issue 41 item 4); each closes its menu again. They run on the module's
# loop.
on_a_shared_app = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def menu_home_app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Pilot[Any]]:
    async with shared_app(tmp_path_factory.mktemp("menus")) as pilot:
        yield pilot


@pytest_asyncio.fixture(loop_scope="module")
async def menu_home(menu_home_app: Pilot[Any]) -> AsyncIterator[Pilot[Any]]:
    await back_home(menu_home_app)
    yield menu_home_app
    await back_home(menu_home_app)


@on_a_shared_app
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
    menu_home: Pilot[Any], menu: PauseScreen, says: str, never: str
) -> None:
    pilot = menu_home
    app = pilot.app
    await app.push_screen(menu)
    await settle(pilot)
    assert app.screen is menu
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
