"""SVG snapshots of the Five-Card Trick screen at 80x24: the start, a reveal,
the hint dialog, the end, a light theme (the mid-round one is in
test_trick_screen.py). Deterministic as tests/tui/test_snapshots.py says.

After an intended change of looks: `uv run pytest tests/tui/test_trick_snapshots.py
--snapshot-update`, then look at the new SVGs before committing them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from textual.pilot import Pilot
from textual.widgets import Static

from .conftest import make_app, settle
from .pictures import Tour, take
from .shared_app import shared_app
from .test_trick_screen import play_to_the_end, trick_launch

SIZE = (80, 24)


def rating_line(pilot: Pilot[Any]) -> Static:
    return pilot.app.screen.query_one("#rating-change", Static)


async def _a_round_with_a_block(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("2", "5")  # Grow, and a Block: the picker asks its target
    await pilot.pause()
    await pilot.press("3", "enter")  # on Claim
    await settle(pilot)


@pytest.mark.slow  # a whole game through the keys: CI's slow step (the default run's time)
def test_trick_end_snapshot(dirs: Any, snap_compare: Any) -> None:
    async def play_it_out(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await play_to_the_end(pilot, seed=3)
        await settle(pilot)
        # the rating change (issue 27), worked out after the dialog shows
        await pilot.app.screen.workers.wait_for_complete()
        await settle(pilot, lambda: "rating" in str(rating_line(pilot).content))
        assert "rating" in str(rating_line(pilot).content)
        await settle(pilot)

    app = make_app(dirs, launch=trick_launch("standard", "computer:easy", seed=7))
    assert snap_compare(app, terminal_size=SIZE, run_before=play_it_out)


def test_trick_light_theme_snapshot(dirs: Any, snap_compare: Any) -> None:
    async def in_light(pilot: Pilot[Any]) -> None:
        pilot.app.theme = "textual-light"
        await _a_round_with_a_block(pilot)
        await pilot.press("1", "4")  # a choice on the cards, not locked in
        await settle(pilot)

    app = make_app(dirs, launch=trick_launch("final", "computer:medium", seed=7))
    assert snap_compare(app, terminal_size=SIZE, run_before=in_light)


def test_setna_snapshot(dirs: Any, snap_compare: Any) -> None:
    async def two_rounds(pilot: Pilot[Any]) -> None:
        await _a_round_with_a_block(pilot)
        await pilot.press("1", "3", "enter")
        await settle(pilot)

    app = make_app(dirs, launch=trick_launch("setna", "computer:medium", seed=11))
    assert snap_compare(app, terminal_size=SIZE, run_before=two_rounds)


# The standard game's pictures on one path (tests/tui/pictures.py), in one app
# (seed 7 against the medium computer): the start, a round with a Block
# revealed, and the hint asked after it (the dialog closed after).


async def start(pilot: Pilot[Any]) -> str:
    await settle(pilot)
    return await take(pilot)


async def reveal(pilot: Pilot[Any]) -> str:
    await _a_round_with_a_block(pilot)
    return await take(pilot)


async def hint(pilot: Pilot[Any]) -> str:
    table = pilot.app.screen
    await pilot.press("h")
    await settle(pilot)
    picture = await take(pilot)
    await pilot.press("escape")
    await settle(pilot, lambda: pilot.app.screen is table)
    return picture


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def standard_seed_7(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Tour]:
    folder = tmp_path_factory.mktemp("trick-seed-7")
    launch = trick_launch("standard", "computer:medium", seed=7)
    async with shared_app(folder, size=SIZE, launch=launch, notifications=True) as pilot:
        yield Tour(pilot, {"start": start, "reveal": reveal, "hint": hint})


@pytest.mark.asyncio(loop_scope="module")
async def test_trick_start_snapshot(standard_seed_7: Tour, compare_picture: Any) -> None:
    assert compare_picture(await standard_seed_7.picture("start"))


@pytest.mark.asyncio(loop_scope="module")
async def test_trick_reveal_snapshot(standard_seed_7: Tour, compare_picture: Any) -> None:
    assert compare_picture(await standard_seed_7.picture("reveal"))


@pytest.mark.asyncio(loop_scope="module")
async def test_trick_hint_snapshot(standard_seed_7: Tour, compare_picture: Any) -> None:
    # the advice is the round's solver, seeded by the position: the same
    # figures on every machine, whatever its speed
    assert compare_picture(await standard_seed_7.picture("hint"))
