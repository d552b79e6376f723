"""SVG snapshots of the key screens at 80x24: deterministic (seeded deal,
instant bots, no clock in the header, no blinking cursor on screen).

After an intended change of looks: `uv run pytest tests/tui/test_snapshots.py
--snapshot-update`, then look at the new SVGs before committing them.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from textual.pilot import Pilot
from textual.widgets import Static

from net import table as table_module
from net.client import HintEstimate
from rules import registry
from rules.bots.review import Moment
from tui.screens import analysis
from tui.screens.analysis import AnalysisScreen
from tui.screens.game_over import GameOverScreen
from tui.screens.hint import HintScreen

from .conftest import make_app, play_launch, settle
from .pictures import Tour, take
from .shared_app import shared_app


@pytest.fixture(autouse=True)
def _real_games_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The home screen lists the games a user has, not the tests' toy game."""
    registry.games()  # the built-in games are registered first
    monkeypatch.delitem(registry._GAMES, "toy", raising=False)


def rating_line(pilot: Pilot[Any]) -> Static:
    return pilot.app.screen.query_one("#rating-change", Static)


def test_home(dirs: Any, snap_compare: Any) -> None:
    assert snap_compare(make_app(dirs), terminal_size=(80, 24), run_before=settle)


def test_new_game(dirs: Any, snap_compare: Any) -> None:
    async def open_form(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)

    assert snap_compare(make_app(dirs), terminal_size=(80, 24), run_before=open_form)


def test_domination_ascii(dirs: Any, snap_compare: Any) -> None:
    app = make_app(dirs, ascii=True, launch=play_launch(seed=7, vs="computer:easy"))
    assert snap_compare(app, terminal_size=(80, 24), run_before=settle)


def test_domination_start_in_a_light_theme(dirs: Any, snap_compare: Any) -> None:
    # the app takes its theme from the settings file (tui/settings.py)
    _, config = dirs
    path = config / "settings.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "theme": "textual-light"}))
    app = make_app(dirs, launch=play_launch(seed=7, vs="computer:easy"))
    assert snap_compare(app, terminal_size=(80, 24), run_before=settle)


def fixed_hint(situation: Any, rng: Any) -> tuple[HintEstimate, ...]:
    """The engine's answer made fixed (the search is seeded, but not worth a
    snapshot's time): the legal moves in order, each a little worse."""
    return tuple(
        HintEstimate(str(move), round(0.62 - 0.07 * i, 2)) for i, move in enumerate(situation.legal)
    )


def test_domination_result_after_a_resignation(dirs: Any, snap_compare: Any) -> None:
    async def resign(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        screen: Any = pilot.app.screen
        index = next(i for i, c in enumerate(screen.hand) if c in screen.legal)
        await pilot.press(str(index + 1))  # a move, so that the game is kept
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("r")  # Resign, in the menu
        await settle(pilot)
        await pilot.press("enter")  # yes
        await settle(pilot, lambda: isinstance(pilot.app.screen, GameOverScreen))
        # the rating change (issue 27), worked out after the dialog shows
        await pilot.app.screen.workers.wait_for_complete()
        await settle(pilot, lambda: "rating" in str(rating_line(pilot).content))
        assert "rating" in str(rating_line(pilot).content)
        await settle(pilot)

    app = make_app(dirs, launch=play_launch(seed=7, vs="computer:easy"))
    assert snap_compare(app, terminal_size=(80, 24), run_before=resign)


# One game (seed 7 against the easy computer) for the pictures on its path: the
# start, the hint asked there (the dialog closed after), two moves each and the
# cursor moved, then two more and the analysis of the game so far (closed after).


def fixed_review(spec: Any, config: Any, seed: int, moves: Any, seat: int, *_: Any) -> Any:
    """The analysis made fixed: the seat's first two moves, with figures."""
    mine = [ply for ply, (who, _) in enumerate(moves) if who == seat]
    return [
        Moment(mine[0], spec.parse_move(moves[mine[0]][1]), spec.parse_move("KS"), 0.31, 0.55),
        Moment(mine[1], spec.parse_move(moves[mine[1]][1]), spec.parse_move("5C"), 0.4, 0.48),
    ]


async def play_first_legal(pilot: Pilot[Any], moves: int) -> None:
    for _ in range(moves):
        screen: Any = pilot.app.screen
        index = next(i for i, c in enumerate(screen.hand) if c in screen.legal)
        await pilot.press(str(index + 1))
        await settle(pilot)


async def start(pilot: Pilot[Any]) -> str:
    await settle(pilot)
    return await take(pilot)


async def hint(pilot: Pilot[Any]) -> str:
    await pilot.press("h")
    await settle(pilot, lambda: isinstance(pilot.app.screen, HintScreen))
    picture = await take(pilot)
    await pilot.press("escape")
    await settle(pilot, lambda: not isinstance(pilot.app.screen, HintScreen))
    return picture


async def in_progress(pilot: Pilot[Any]) -> str:
    await play_first_legal(pilot, 2)
    await pilot.press("right")
    await settle(pilot)
    return await take(pilot)


async def analysis_of_the_game(pilot: Pilot[Any]) -> str:
    await play_first_legal(pilot, 2)  # four moves in all, two of each seat
    game: Any = pilot.app.screen
    record = game.services.store.load(game.client.record_id)
    pilot.app.push_screen(AnalysisScreen(record, 0))
    await settle(pilot, lambda: pilot.app.screen.query_one("#moments").option_count > 0)
    await pilot.pause()
    picture = await take(pilot)
    await pilot.press("escape")
    await settle(pilot, lambda: not isinstance(pilot.app.screen, AnalysisScreen))
    return picture


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def seed_7(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Tour]:
    with pytest.MonkeyPatch.context() as patch:
        registry.games()  # as `_real_games_only` does for a test's own app
        patch.delitem(registry._GAMES, "toy", raising=False)
        patch.setattr(table_module, "_hint", fixed_hint)
        patch.setattr(analysis, "review", fixed_review)
        folder = tmp_path_factory.mktemp("seed-7")
        launch = play_launch(seed=7, vs="computer:easy")
        async with shared_app(folder, launch=launch, notifications=True) as pilot:
            yield Tour(pilot, {
                "start": start, "hint": hint, "in progress": in_progress,
                "analysis": analysis_of_the_game,
            })  # fmt: skip


@pytest.mark.asyncio(loop_scope="module")
async def test_domination_start(seed_7: Tour, compare_picture: Any) -> None:
    assert compare_picture(await seed_7.picture("start"))


@pytest.mark.asyncio(loop_scope="module")
async def test_domination_hint(seed_7: Tour, compare_picture: Any) -> None:
    assert compare_picture(await seed_7.picture("hint"))


@pytest.mark.asyncio(loop_scope="module")
async def test_domination_in_progress(seed_7: Tour, compare_picture: Any) -> None:
    assert compare_picture(await seed_7.picture("in progress"))


@pytest.mark.asyncio(loop_scope="module")
async def test_analysis_of_a_domination_game(seed_7: Tour, compare_picture: Any) -> None:
    assert compare_picture(await seed_7.picture("analysis"))
