"""The saved-games list at 80 columns: whole columns, the computer's level and
the preset, Enter on a finished game opens its replay; a game opened and left
unplayed is not kept (the menu says so first), a resumed one always is."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from textual.pilot import Pilot
from textual.widgets import DataTable

from rules.registry import get_game
from saves.record import GameRecord, SeatInfo
from saves.store import SaveEntry
from tui.games.domination import DominationScreen
from tui.screens.resume import ResumeScreen, entry_row
from tui.table.screen import TableScreen

from .conftest import make_app, play_launch, screen_text, settle
from .shared_app import from_home, shared_app

# The two tests that save games and read the list from home share one app
# (issue 41 item 4): each finds home in front with no saved game, and leaves
# it so (the games it saved deleted). They run on the module's loop.
on_the_home_app = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def home_app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Pilot[Any]]:
    async with shared_app(tmp_path_factory.mktemp("resume-home")) as pilot:
        yield pilot


@pytest_asyncio.fixture(loop_scope="module")
async def home(home_app: Pilot[Any]) -> AsyncIterator[Pilot[Any]]:
    async with from_home(home_app) as pilot:
        yield pilot


def _record(status: str = "playing") -> GameRecord:
    spec = get_game("trick")
    seats = [SeatInfo("You", "human"), SeatInfo("Computer", "bot", "hard")]
    record = GameRecord.new("trick", spec.config("setna"), 5, seats, preset="setna")
    if status == "finished":
        record.status = "finished"
        record.result = {
            "winner": 1, "ranking": [[1], [0]], "scores": [60, 114], "reason": "more chips",
        }  # fmt: skip
    return record


def test_a_row_names_the_preset_and_the_computers_level() -> None:
    entry = SaveEntry("x", Path("x.json"), _record("finished"), None, 0.0)
    cells = [cell.plain for cell in entry_row(entry)]
    assert cells[0] == "trick (setna)"
    assert cells[1] == "You vs Computer (hard)"
    assert cells[-1] == "lost 60-114"  # from your side, in words
    # the game's usual rules go unnamed, from the form ("standard") as without one
    for usual in ("standard", None):
        record = _record("finished")
        record.preset = usual
        usual_entry = SaveEntry("x", Path("x.json"), record, None, 0.0)
        assert entry_row(usual_entry)[0].plain == "trick"


@on_the_home_app
async def test_at_80_columns_no_column_is_cut_and_enter_replays_a_finished_game(
    home: Pilot[Any],
) -> None:
    pilot = home
    app: Any = pilot.app
    await settle(pilot)
    app.store.save(_record("finished"))
    await pilot.press("r")
    await settle(pilot)
    assert isinstance(app.screen, ResumeScreen)
    text = screen_text(app)
    assert "lost 60-114" in text and "You vs Computer (hard)" in text, text
    # who won and why, with the names filled in, under the list
    assert "Computer won (more chips)." in text, text
    assert "trick (setna)" in text
    assert "⏎ Replay" in text.splitlines()[-1]  # the footer says what Enter does
    await pilot.press("enter")
    await settle(pilot)
    assert isinstance(app.screen, TableScreen) and app.screen.replay_keys is not None


def _stress(names: list[str], preset: str, result: dict[str, Any]) -> GameRecord:
    spec = get_game("stress")
    seats = [SeatInfo(names[0], "human"), *(SeatInfo(n, "bot", "medium") for n in names[1:])]
    record = GameRecord.new("stress", spec.config(preset, players=4), 5, seats, preset=preset)
    record.moves = [(0, "x")] * 12345  # a long game: a wide Moves column
    record.status, record.result = "finished", result
    return record


@on_the_home_app
async def test_every_row_fits_80_columns_whole_with_long_values(home: Pilot[Any]) -> None:
    """The widest preset, long names, a long game and every kind of status:
    each row ends inside 80 columns, its status whole (it used to be cut to
    "finished 12-0-0-1"), and the template reason is filled with the names."""
    stress = {
        "winner": 1, "ranking": [[1], [2], [0], [3]], "scores": [12, 0, 0, 13],
        "reason": "{p1} finished first; {p3 is|are} left holding cards",
    }  # fmt: skip
    long = ["Bartholomew-Maximilian", "Computer 1", "Computer 2", "Computer 3"]
    records = [
        _stress(["You", "Computer 1", "Computer 2", "Computer 3"], "literal", stress),
        _stress(
            long,
            "literal",
            {
                **stress,
                "winner": 0,
                "ranking": [[0], [1], [2], [3]],
                "reason": "{p0} finished first",
            },
        ),
        _record("finished"),
    ]
    pilot = home
    app: Any = pilot.app
    await settle(pilot)
    for record in records:
        app.store.save(record)
    await pilot.press("r")
    await settle(pilot)
    assert isinstance(app.screen, ResumeScreen)
    table = app.screen.query_one(DataTable)
    # the columns as drawn: a cell of padding either side, and the scrollbar
    drawn = sum(column.get_render_width(table) for column in table.columns.values())
    assert drawn + 1 <= 80, drawn
    text = screen_text(app)
    rows = text.splitlines()
    for words in ("3rd of 4", "Bartholome… won", "lost 60-114"):
        row = next((line for line in rows if words in line), None)
        assert row is not None and len(row.rstrip()) <= 80, (words, text)
    assert "stress (literal)" in text and "12345" in text
    # the long-named player's game (the rows' order among equal times is the store's)
    row = next(i for i, e in enumerate(app.screen.entries) if e.id == records[1].id)
    table.move_cursor(row=row)
    await settle(pilot)
    text = screen_text(app)
    assert "Bartholomew-Maximilian won (Bartholomew-Maximilian finished first)." in text
    assert "{p" not in text, text


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
        assert game.ending.forgotten
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
        assert isinstance(game, TableScreen) and not game.client.table.record.moves
        await pilot.press("escape")
        await settle(pilot)
        text = screen_text(app)
        assert "Save and quit to home" in text and "saved after every move" in text
        assert "not kept" not in text
        await pilot.press("q")
        await settle(pilot)
        assert saved.exists() and not game.ending.forgotten
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
