"""SVG snapshots of the Stress screen at 80x24 (deterministic as in
tests/tui/test_snapshots.py: a seeded deal, instant bots, no clock): the
swaps, a game under way, a turn where only picking up is left, the hint,
the result, and a light theme.

After an intended change of looks: `uv run pytest tests/tui/test_stress_snapshots.py
--snapshot-update`, then look at the new SVGs before committing them.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from textual.pilot import Pilot
from textual.widgets import Static

from tui.games.stress import StressScreen
from tui.screens.game_over import GameOverScreen

from .conftest import make_app, settle
from .pictures import Tour, take
from .shared_app import shared_app


def stress_launch(seed: int) -> dict[str, Any]:
    return {"action": "play", "game": "stress", "vs": "computer:easy", "seed": seed,
            "options": {"players": 2, "first_player": "0"}}  # fmt: skip


def stress_screen(pilot: Pilot[Any]) -> StressScreen:
    for screen in reversed(pilot.app.screen_stack):
        if isinstance(screen, StressScreen):
            return screen
    raise AssertionError("no stress screen")


async def ready_and_play_two(pilot: Pilot[Any]) -> None:
    """No swaps; then the card the cursor starts on, twice."""
    await settle(pilot)
    await pilot.press("r")
    await settle(pilot)
    for _ in range(2):
        await pilot.press("enter")
        await settle(pilot)


def test_stress_nothing_goes_so_pick_up(dirs: Any, snap_compare: Any) -> None:
    async def ready(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert stress_screen(pilot).legal == ("pickup",)

    # seed 29: an A starts the stack, and the hand holds 4 4 7 8
    app = make_app(dirs, launch=stress_launch(seed=29))
    assert snap_compare(app, terminal_size=(80, 24), run_before=ready)


@pytest.mark.slow  # a whole game through the screen (8 s): CI's slow step runs it
def test_stress_result(dirs: Any, snap_compare: Any) -> None:
    async def play_to_the_end(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        screen = stress_screen(pilot)
        while not screen.over:
            legal = screen.legal
            assert legal, "the seat on screen must act while the game goes on"
            await screen.submit("ready" if "ready" in legal else legal[0])
            await settle(pilot)
        # the rating change (issue 27), worked out after the result shows
        await settle(pilot, lambda: isinstance(pilot.app.screen, GameOverScreen))
        await pilot.app.screen.workers.wait_for_complete()
        rating = pilot.app.screen.query_one("#rating-change", Static)
        await settle(pilot, lambda: "rating" in str(rating.content))
        assert "rating" in str(rating.content)

    app = make_app(dirs, launch=stress_launch(seed=3))
    assert snap_compare(app, terminal_size=(80, 24), run_before=play_to_the_end)


def test_stress_light_theme(dirs: Any, snap_compare: Any) -> None:
    settings = Path(dirs[1]) / "settings.json"
    settings.write_text(json.dumps({**json.loads(settings.read_text()), "theme": "textual-light"}))
    app = make_app(dirs, launch=stress_launch(seed=3))
    assert snap_compare(app, terminal_size=(80, 24), run_before=ready_and_play_two)


# The pictures on one path of seed 3 (tests/tui/pictures.py), in one app: a
# card marked for a swap; then ready (the mark dropped, no swap) and two cards
# played; then the hint asked there (the dialog closed after).


async def swaps(pilot: Pilot[Any]) -> str:
    await settle(pilot)
    await pilot.press("2", "enter")  # the second hand card, marked for a swap
    await settle(pilot)
    return await take(pilot)


async def mid_game(pilot: Pilot[Any]) -> str:
    await ready_and_play_two(pilot)
    return await take(pilot)


async def hint(pilot: Pilot[Any]) -> str:
    await pilot.press("h")
    await settle(pilot, lambda: not isinstance(pilot.app.screen, StressScreen))
    picture = await take(pilot)
    await pilot.press("escape")
    await settle(pilot, lambda: isinstance(pilot.app.screen, StressScreen))
    return picture


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def seed_3(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Tour]:
    folder = tmp_path_factory.mktemp("stress-seed-3")
    async with shared_app(folder, launch=stress_launch(seed=3), notifications=True) as pilot:
        yield Tour(pilot, {"swaps": swaps, "mid-game": mid_game, "hint": hint})


@pytest.mark.asyncio(loop_scope="module")
async def test_stress_swaps(seed_3: Tour, compare_picture: Any) -> None:
    assert compare_picture(await seed_3.picture("swaps"))


@pytest.mark.asyncio(loop_scope="module")
async def test_stress_mid_game(seed_3: Tour, compare_picture: Any) -> None:
    assert compare_picture(await seed_3.picture("mid-game"))


@pytest.mark.asyncio(loop_scope="module")
async def test_stress_hint(seed_3: Tour, compare_picture: Any) -> None:
    assert compare_picture(await seed_3.picture("hint"))
