"""The scores round by round (s on a game screen) and the turn marker on the
scoreboard."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from textual.pilot import Pilot

from tui.games.domination import DominationScreen
from tui.screens.score_history import ScoreHistoryScreen, score_rows
from tui.widgets.scoreboard import Scoreboard

from .conftest import glides_at_once, make_app, play_launch, screen_text, settle
from .shared_app import at_the_table, shared_app

# The two tests that open the scores over a game share one (seed 11 against
# the computer; issue 41 item 4): each finds the game in front and still
# being played, and leaves it in front. They run on the module's loop.
on_a_shared_app = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def game11_app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Pilot[Any]]:
    async with shared_app(tmp_path_factory.mktemp("seed11"), launch=play_launch(seed=11)) as pilot:
        yield pilot


@pytest_asyncio.fixture(loop_scope="module")
async def game11(game11_app: Pilot[Any]) -> AsyncIterator[Pilot[Any]]:
    async with at_the_table(game11_app) as pilot:
        yield pilot


def test_score_rows_give_each_round_its_scores_and_gains() -> None:
    rows = score_rows([(1, [13, 0]), (2, [13, 4]), (3, [20, 4])], ["You", "Computer"])
    assert rows[0].split() == ["Round", "You", "Computer"]
    assert rows[1].split() == ["1", "13", "+13", "0"]
    assert rows[2].split() == ["2", "13", "4", "+4"]
    assert rows[3].split() == ["3", "20", "+7", "4"]
    assert score_rows([], ["You", "Computer"])[-1] == "No round has ended yet."


def test_the_seats_to_act_are_marked_on_the_scoreboard() -> None:
    names = ["You", "Computer"]
    assert Scoreboard.marked_names(names, (1,), ascii=False) == [" You", "▸Computer"]
    assert Scoreboard.marked_names(names, (0, 1), ascii=True) == [">You", ">Computer"]
    assert Scoreboard.marked_names(names, (), ascii=False) == [" You", " Computer"]


@on_a_shared_app
async def test_s_shows_the_scores_of_every_round_so_far(game11: Pilot[Any]) -> None:
    pilot = game11
    app = pilot.app
    game = app.screen
    assert isinstance(game, DominationScreen)
    assert game.view.round == 1, "an earlier test played the shared game on"
    assert "▸" in screen_text(app).splitlines()[1]  # someone's turn, on the scoreboard
    while game.view.round < 3:
        if game.my_turn:
            legal = game.legal
            await pilot.press(str(1 + next(i for i, c in enumerate(game.hand) if c in legal)))
        await settle(pilot)
    await pilot.press("s")
    await settle(pilot)
    assert isinstance(app.screen, ScoreHistoryScreen)
    assert [n for n, _ in app.screen.rounds] == [1, 2]
    assert app.screen.rounds[-1][1] == list(game.update.scores)
    text = screen_text(app)
    assert "Scores round by round" in text and "Computer" in text
    await pilot.press("escape")
    await settle(pilot)
    assert app.screen is game


@pytest.mark.slow  # a whole flow through the screens: CI's slow step
async def test_after_the_game_s_shows_the_scores_then_the_result_again(dirs: Any) -> None:
    from tui.screens.game_over import GameOverScreen

    app = make_app(dirs, launch=play_launch(seed=11))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = app.screen
        assert isinstance(game, DominationScreen)
        while game.view.round < 2:
            if game.my_turn:
                legal = game.legal
                await pilot.press(str(1 + next(i for i, c in enumerate(game.hand) if c in legal)))
            await settle(pilot)
        await pilot.press("escape", "r", "y")  # resign: the game is over
        await settle(pilot)
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, ScoreHistoryScreen)
        assert [n for n, _ in app.screen.rounds] == [1]
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, GameOverScreen)


@on_a_shared_app
async def test_nine_rounds_at_80x24_scroll_and_keep_the_way_back_in_view(
    game11: Pilot[Any],
) -> None:
    """N08: after round 9 the box showed rounds 1-5 only, did not scroll, and
    its "Esc or Enter" was cut off. (Nine rounds of scores given, over the
    shared game, as `s` would show them after nine rounds.)"""
    pilot = game11
    app = pilot.app
    rounds = [(n, [n, 2 * n]) for n in range(1, 10)]
    await app.push_screen(ScoreHistoryScreen(rounds, ["You", "Computer"], None))
    await settle(pilot)
    text = screen_text(app)
    assert "Esc or Enter: back to the table" in text
    assert re.search(r"^\s*│\s+9\s+9 ", text, re.M)  # the latest round in sight
    with glides_at_once(app):  # where the scroll ends, not how it glides there
        await pilot.press("home")
        await settle(pilot)
        assert re.search(r"^\s*│\s+1\s+1 ", screen_text(app), re.M)
        await pilot.press("end")
        await settle(pilot)
        assert re.search(r"^\s*│\s+9\s+9 ", screen_text(app), re.M)
