"""The saved-games list at 80 columns: whole columns, the computer's level and
the preset, Enter on a finished game opens its replay; an unplayed game is not
kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import DataTable

from rules.registry import get_game
from saves.record import GameRecord, SeatInfo
from saves.store import SaveEntry
from tui.games.base import GameScreen
from tui.games.domination import DominationScreen
from tui.screens.resume import ResumeScreen, entry_row

from .conftest import make_app, play_launch, screen_text, settle


def _record(status: str = "playing") -> GameRecord:
    spec = get_game("trick")
    seats = [SeatInfo("You", "human"), SeatInfo("Computer", "bot", "hard")]
    record = GameRecord.new("trick", spec.config("setna"), 5, seats, preset="setna")
    if status == "finished":
        record.status = "finished"
        record.result = {"winner": 1, "ranking": [[1], [0]], "scores": [60, 114], "reason": ""}
    return record


def test_a_row_names_the_preset_and_the_computers_level() -> None:
    entry = SaveEntry("x", Path("x.json"), _record("finished"), None, 0.0)
    cells = [cell.plain for cell in entry_row(entry)]
    assert cells[0] == "trick (setna)"
    assert cells[1] == "You v Computer (hard)"
    assert cells[-1] == "finished 60-114"


async def test_at_80_columns_no_column_is_cut_and_enter_replays_a_finished_game(
    dirs: Any,
) -> None:
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.store.save(_record("finished"))
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, ResumeScreen)
        text = screen_text(app)
        assert "finished 60-114" in text and "You v Computer (hard)" in text, text
        assert "trick (setna)" in text
        assert "⏎ Replay" in text.splitlines()[-1]  # the footer says what Enter does
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.screen.replay is not None


async def test_a_game_left_before_any_move_is_not_kept(dirs: Any) -> None:
    data, _ = dirs
    # the computer never leads here: seat 0 (you) leads the first round
    app = make_app(dirs, launch=play_launch(seed=8, first_leader="0"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = app.screen
        assert isinstance(game, DominationScreen) and game.my_turn
        assert list((Path(data) / "games").glob("*.json"))  # saved from the start
        await pilot.press("escape", "s")
        await settle(pilot)
        assert not list((Path(data) / "games").glob("*.json"))
        assert game.forgotten
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, ResumeScreen)
        assert not app.screen.query_one(DataTable).display
