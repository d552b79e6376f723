"""The Statistics screen (``t`` at home): the record, opponents and charts
from the saved games, at 80x24 (tui/screens/stats.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from textual.pilot import Pilot
from textual.widgets import DataTable
from textual_plotext import PlotextPlot

from saves.stats import compute_store
from saves.store import SaveStore
from tests.saves.stats_records import at, computer, person, played_record, you
from tui.screens.game_over import GameOverScreen
from tui.screens.stats import StatisticsScreen
from tui.stats_text import plural

from .conftest import glides_at_once, make_app, play_launch, screen_text, settle
from .shared_app import back_home, shared_app
from .test_game_flows import play_first_legal


def _save_games(data: Any) -> list[Any]:
    store = SaveStore(data)
    records = [
        played_record("domination", [you(), computer("hard")], s, when=at(s)) for s in range(3)
    ]
    records.append(played_record("trick", [person("[b]Ann[/b]"), you()], 5, when=at(5)))
    for record in records:
        store.save(record)
    store.games_dir.joinpath("0bad0bad.json").write_text("not a game")
    return records


# The two tests that read the same saved games share one app at home (issue 41
# item 4), the games saved before it starts; each opens the statistics from
# home and leaves home in front. They run on the module's loop.
on_a_shared_app = pytest.mark.asyncio(loop_scope="module")
Saved = tuple[Pilot[Any], list[Any]]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def saved_games_app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Saved]:
    folder = tmp_path_factory.mktemp("stats")
    records = _save_games(folder / "data")  # the folder shared_app gives the app
    async with shared_app(folder) as pilot:
        with glides_at_once(pilot.app):  # the tabs' underlines: where they end
            yield pilot, records


@pytest_asyncio.fixture(loop_scope="module")
async def saved_games(saved_games_app: Saved) -> AsyncIterator[Saved]:
    await back_home(saved_games_app[0])
    yield saved_games_app
    await back_home(saved_games_app[0])


async def _stats_screen(pilot: Any) -> StatisticsScreen:
    await settle(pilot)
    await pilot.press("t")
    await settle(pilot)
    await pilot.app.workers.wait_for_complete()
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, StatisticsScreen)
    return screen


@on_a_shared_app
async def test_the_record_of_the_highlighted_game_from_the_saves(saved_games: Saved) -> None:
    pilot, records = saved_games
    app = pilot.app
    wins = sum(1 for r in records[:3] if r.result["winner"] == 0)
    screen = await _stats_screen(pilot)
    text = screen_text(app)
    assert "You: Domination" in text
    assert f"3 games: {plural(wins, 'win')}, {plural(3 - wins, 'loss', 'losses')}" in text
    assert "From 4 finished games (1 file skipped" in text
    assert "Biggest round" in text and "Rating " in text
    await pilot.press("2")
    await settle(pilot)
    table = screen.query_one("#stats-opponents", DataTable)
    assert str(table.get_row_at(0)[0]) == "Computer (hard)"
    assert table.get_row_at(0)[1] == f"{wins}-{3 - wins}-0"
    await pilot.press("g")  # the next game of this player: Trick, against a name
    await settle(pilot)
    assert screen.game == "trick"
    assert str(table.get_row_at(0)[0]) == "[b]Ann[/b]"  # plain text, not markup
    await pilot.press("escape")
    await settle(pilot)
    assert not isinstance(app.screen, StatisticsScreen)


@on_a_shared_app
async def test_the_charts_are_plots_of_the_ratings_and_results(saved_games: Saved) -> None:
    pilot, records = saved_games
    app = pilot.app
    screen = await _stats_screen(pilot)
    await pilot.press("3")
    await settle(pilot)
    assert screen.query_one("#stats-rating", PlotextPlot).display
    text = screen_text(app)
    assert "Rating after each game" in text
    assert any("\u2800" < c <= "\u28ff" for c in text)  # the line, drawn in braille
    game = screen.stats.players["You"].games["domination"]  # type: ignore[union-attr]
    assert len(game.played) == len(records) - 1
    await pilot.press("4")
    await settle(pilot)
    text = screen_text(app)
    assert "Results per opponent" in text and "Computer (hard)" in text
    assert "won" in text and "lost" in text  # the legend
    await pilot.press("p")  # the next player: Ann
    await settle(pilot)
    assert screen.player == "[b]Ann[/b]" and screen.game == "trick"


async def test_no_games_yet_says_what_to_do(dirs: Any) -> None:
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await _stats_screen(pilot)
        assert "No finished games yet." in screen_text(app)


async def test_the_result_dialog_shows_the_rating_change(dirs: Any) -> None:
    app = make_app(dirs, launch=play_launch(seed=11, target_score=20))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        for _ in range(400):
            if isinstance(app.screen, GameOverScreen):
                break
            assert await play_first_legal(pilot), "the table waits on nobody"
        dialog = app.screen
        assert isinstance(dialog, GameOverScreen)
        await app.workers.wait_for_complete()
        await settle(pilot)
        stats = compute_store(app.store)
        played = stats.played(screen.client.record_id, "You")  # type: ignore[attr-defined]
        assert played is not None and played.rating_after is not None
        after = played.rating_after.mu
        change = f"Your rating: 25.0 → {after:.1f} ({after - 25:+.1f})"
        assert change in screen_text(app)
        assert (after > 25) == (played.result == "win")
