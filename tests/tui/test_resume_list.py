"""The saved-games list at 80 columns: whole columns, the computer's level and
the preset, Enter on a finished game opens its replay; a game opened and left
unplayed is not kept (the menu says so first), a resumed one always is."""

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
    assert cells[1] == "You vs Computer (hard)"
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
        assert "finished 60-114" in text and "You vs Computer (hard)" in text, text
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
        await pilot.press("escape")
        await settle(pilot)
        # the menu says so before, not after
        text = screen_text(app)
        assert "Quit (nothing played yet: not kept)" in text
        assert "No move yet: this game is not kept if you quit now." in text
        assert "Save and quit" not in text and "saved after every move" not in text
        await pilot.press("q")
        await settle(pilot)
        assert not list((Path(data) / "games").glob("*.json"))
        assert game.forgotten
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, ResumeScreen)
        assert not app.screen.query_one(DataTable).display


async def test_a_resumed_game_with_no_moves_is_kept_by_quitting(dirs: Any) -> None:
    data, _ = dirs
    # a hand-made puzzle, a bug report, a game that stopped before its first move
    spec = get_game("domination")
    seats = [SeatInfo("You", "human"), SeatInfo("Computer", "bot", "hard")]
    # you lead: nothing is played before you quit
    record = GameRecord.new("domination", spec.config(first_leader="0"), 5, seats)
    app = make_app(dirs, launch={"action": "resume", "id": record.id})
    app.store.save(record)
    saved = Path(data) / "games" / f"{record.id}.json"
    assert saved.exists()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen) and not game.client.table.record.moves
        await pilot.press("escape")
        await settle(pilot)
        text = screen_text(app)
        assert "Save and quit to home" in text and "saved after every move" in text
        assert "not kept" not in text
        await pilot.press("q")
        await settle(pilot)
        assert saved.exists() and not game.forgotten
        assert app.store.load(record.id).moves == []
        # nor by quitting the app
    assert saved.exists()


async def test_a_rematch_left_unplayed_is_not_kept_and_the_menu_says_so(dirs: Any) -> None:
    data, _ = dirs
    app = make_app(dirs, launch=play_launch(seed=2, first_leader="0"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        first = app.screen
        assert isinstance(first, DominationScreen)
        await pilot.press("escape", "r")
        await settle(pilot)
        await pilot.press("y")  # resign: the game is over
        await settle(pilot)
        await pilot.press("r")  # rematch: a new game, opened in this sitting
        await settle(pilot)
        rematch = app.screen
        assert isinstance(rematch, DominationScreen) and rematch is not first
        assert rematch.new_game and not rematch.client.table.record.moves
        await pilot.press("escape")
        await settle(pilot)
        assert "Quit (nothing played yet: not kept)" in screen_text(app)
        await pilot.press("q")
        await settle(pilot)
        kept = {p.stem for p in (Path(data) / "games").glob("*.json")}
        assert kept == {first.client.record_id}
