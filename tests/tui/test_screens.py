"""Home, new game, settings, rules, resume/replay, too-small, palette: each screen
through the real app at 80x24."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, MarkdownViewer, Select

from rules.registry import games, shipped
from saves.record import SeatInfo
from tests.saves.helpers import finished_record, played_record
from tui.app import CardTableApp
from tui.commands import ScreenActions
from tui.games.domination import DominationScreen
from tui.games.generic import GenericGameScreen
from tui.screens.handoff import HandoffScreen
from tui.screens.home import HomeScreen
from tui.screens.new_game import NewGameScreen
from tui.screens.replay import ReplayTextScreen, open_replay
from tui.screens.resume import ResumeScreen
from tui.screens.rules import RulesScreen
from tui.screens.settings import SettingsScreen
from tui.screens.too_small import TooSmallScreen
from tui.settings import Settings, load_settings
from tui.table.screen import TableScreen
from tui.widgets.game_list import GameList

from .conftest import make_app, play_launch, screen_text, settle
from .shared_app import back_home, shared_app

# Tests that start on the home screen and only look share one app (`home`),
# which each leaves on home again; the others keep their own (issue 41 item 4).
# The shared app and the tests that use it run on the module's event loop.
on_the_home_app = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def home_app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Pilot[Any]]:
    folder = tmp_path_factory.mktemp("home-app")
    async with shared_app(folder, notifications=True) as pilot:
        yield pilot


@pytest_asyncio.fixture(loop_scope="module")
async def home(home_app: Pilot[Any]) -> AsyncIterator[Pilot[Any]]:
    """The shared app on its home screen, with no saved game and no notice;
    put back so after the test."""
    app = home_app.app
    assert isinstance(app, CardTableApp)
    await back_home(home_app)
    app.clear_notifications()
    assert not app.store.list(), "an earlier test left a saved game"
    yield home_app
    await back_home(home_app)
    app.clear_notifications()
    for record_id in [entry.id for entry in app.store.list()]:
        app.store.delete(record_id)


async def test_home_lists_the_four_games_and_no_dead_keys(dirs: Any) -> None:
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        text = screen_text(app)
        for title in ("Domination", "Stress", "Territory"):
            assert title in text
        registered = games()
        choices = app.screen.query_one("#games", GameList)
        for game_id in shipped():
            assert choices.choice(game_id).playable == (game_id in registered)
        # network play: Join a server, or Host one here
        assert "j" in app.screen._bindings.key_to_bindings
        assert "o" in app.screen._bindings.key_to_bindings
        for key in ("New game", "Resume", "Join", "Host", "Rules", "Settings", "Quit"):
            assert key in text  # in the footer, with their keys
        await pilot.press("q")
    assert app.return_value == 0


async def test_new_game_form_comes_from_the_config(dirs: Any) -> None:
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        spec = games()["domination"]
        for info in spec.Config.options():
            if info.name == "players":
                continue
            widget = screen.query_one(f"#opt-{info.name}")
            assert widget is not None
        assert screen.query_one("#opt-target_score", Input).value == "100"
        assert screen.query_one("#opt-allow_concede", Select).value is False
        assert isinstance(screen.query_one("#opt-first_leader"), Select)
        help_texts = " ".join(str(s.render()) for s in screen.query(".help"))
        assert "Points that win the match" in help_texts
        # a preset fills the form
        screen.query_one("#preset", Select).value = "short"
        await settle(pilot)
        assert screen.query_one("#opt-target_score", Input).value == "50"
        # a bad combination is refused with the rules' own sentence
        screen.query_one("#opt-target_score", Input).value = "0"
        screen.query_one("#opt-rounds", Input).value = "0"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen)
        error = str(screen.query_one("#form-error").render())
        assert "never ends" in error
        screen.query_one("#opt-target_score", Input).value = "abc"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "whole number" in str(screen.query_one("#form-error").render())
        # a good one starts the game, hot-seat with two people here
        screen.query_one("#opt-target_score", Input).value = "30"
        screen.query_one("#seat-1", Select).value = "person"
        screen.query_one("#seed", Input).value = "42"
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter")  # the first hand-off
        await settle(pilot)
        game = app.screen
        assert isinstance(game, DominationScreen)
        assert game.client.config["target_score"] == 30
        assert game.client.table.record.seed == 42
        assert game.client.table.record.preset == "short"
        assert [s.kind for s in game.client.seats] == ["human", "human"]
        assert [s.name for s in app.screen_stack] == [None, None]  # home, the game


@pytest.mark.slow  # the levels themselves are tested headless
async def test_new_game_seats_against_each_bot_level(dirs: Any) -> None:
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        screen = app.screen
        values = [v for _, v in screen.query_one("#seat-1", Select)._options]
        assert {"you", "person", "computer:easy", "computer:medium", "computer:hard"} <= set(values)
        screen.query_one("#seat-1", Select).value = "computer:hard"
        await pilot.press("ctrl+s")
        await settle(pilot)
        game = app.screen
        assert isinstance(game, DominationScreen)
        assert game.client.seats[1].kind == "bot" and game.client.seats[1].level == "hard"


async def test_settings_apply_and_persist(dirs: Any) -> None:
    _, config = dirs
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("comma")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        assert "♥" in screen_text(app)  # the preview draws Unicode suits
        screen.query_one("#card_style", Select).value = "ascii"
        screen.query_one("#theme", Select).value = "ansi-dark"
        screen.query_one("#four_colour", Select).value = True
        screen.query_one("#round_summary", Select).value = 8.0
        await settle(pilot)
        text = screen_text(app)
        assert "10H" in text and "♥" not in text.split("Preview")[1]
        assert app.theme == "ansi-dark"
    saved = json.loads((config / "settings.json").read_text())
    assert saved["card_style"] == "ascii" and saved["four_colour"] is True
    assert saved["round_summary"] == 8.0
    # a new run starts with them
    again = make_app(dirs)
    assert again.settings.card_style == "ascii" and again.card_style.ascii
    assert again.settings.theme == "ansi-dark"


async def test_corrupt_settings_mean_defaults_and_a_notice(dirs: Any) -> None:
    _, config = dirs
    (config / "settings.json").write_text("{ this is not json")
    settings, notice = load_settings(config)
    assert settings.card_style == "unicode" and notice and "using defaults" in notice
    (config / "settings.json").write_text(json.dumps({"bot_pace": "fast"}))
    assert "bot_pace" in (load_settings(config)[1] or "")
    (config / "settings.json").write_text(json.dumps({"theme": "textual-ansi"}))
    assert load_settings(config)[0].theme == "ansi-dark"  # the name for it
    (config / "settings.json").write_text("[1, 2]")
    app = CardTableApp(dirs[0], config)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        notes = [n.message for n in app._notifications]
        assert any("using defaults" in n for n in notes)


async def test_ascii_flag_draws_cards_with_letters(dirs: Any) -> None:
    app = make_app(dirs, ascii=True, launch=play_launch(seed=4))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = app.screen
        assert isinstance(game, DominationScreen)
        text = screen_text(app)
        assert not any(s in text for s in "♠♥♦♣")
        for card in game.hand:
            assert card in text
        assert "+---+" in text


@on_the_home_app
async def test_rules_render_markdown_from_home(home: Pilot[Any]) -> None:
    pilot = home
    app = pilot.app
    assert isinstance(app, CardTableApp)
    await pilot.press("question_mark")
    await settle(pilot)
    assert isinstance(app.screen, RulesScreen)
    viewer = app.screen.query_one(MarkdownViewer)
    assert viewer.document.source.lstrip().startswith("#")
    await pilot.press("escape")
    assert isinstance(app.screen, HomeScreen)


async def test_too_small_terminal_shows_a_notice_until_resized(dirs: Any) -> None:
    app = make_app(dirs)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TooSmallScreen)
        assert "Terminal too small: 60x20" in screen_text(app)
        await pilot.resize_terminal(70, 24)
        await settle(pilot)
        assert "Terminal too small: 70x24" in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)


async def test_palette_offers_what_the_screen_can_do(dirs: Any) -> None:
    app = make_app(dirs, launch=play_launch(seed=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = app.screen
        provider = ScreenActions(game)
        found = {hit.text: hit for hit in [h async for h in provider.discover()]}
        assert {"Menu", "Rules", "Play chosen"} <= set(found)
        assert "Concede" not in found  # off in this match
        hits = [h async for h in provider.search("rules")]
        assert hits and hits[0].text == "Rules"
        await hits[0].command()
        await settle(pilot)
        assert isinstance(app.screen, RulesScreen)


@on_the_home_app
async def test_generic_screen_plays_a_game_without_its_own_screen(home: Pilot[Any]) -> None:
    from net.local import open_table
    from rules.registry import get_game
    from tui.seating import build_seats

    pilot = home
    app = pilot.app
    assert isinstance(app, CardTableApp)
    spec = get_game("domination")
    config = spec.config(first_leader="0")
    seats, mine = build_seats(["you", "computer:easy"], spec.seat_names(config))
    client = open_table(app.store, "domination", config, seats, mine, seed=1)
    await app.push_screen(GenericGameScreen(client))
    await settle(pilot)
    screen = app.screen
    assert "legal moves" in screen_text(app).lower() or "Legal moves" in screen_text(app)
    hand = screen.view.hand
    # a typed move that is no card is explained, not a crash
    screen.query_one("#move-input", Input).value = "banana"
    await pilot.press("t", "enter")
    await settle(pilot)
    assert "not a domination move" in str(screen.query_one("#status").render())
    # choosing from the list plays
    screen.query_one("#moves").focus()
    await pilot.press("enter")
    await settle(pilot)
    assert client.table.record.moves[0] == (0, screen.client.table.record.moves[0][1])
    assert client.table.record.moves[0][1] in hand


async def _game_with_moves(app: CardTableApp, pilot: Any, moves: int) -> str:
    game = app.screen
    assert isinstance(game, DominationScreen)
    for _ in range(moves):
        if not game.my_turn or game.over:
            break
        idx = next(i for i, c in enumerate(game.hand) if c in game.legal)
        await pilot.press(str(idx + 1))
        await settle(pilot)
    return game.client.record_id


@pytest.mark.slow  # a whole flow through the screens: CI's slow step
async def test_save_quit_resume_continues_identically(dirs: Any) -> None:
    # uninterrupted: 4 of my moves
    straight = make_app(dirs, launch=play_launch(seed=21, vs="computer:medium", target_score=1000))
    async with straight.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        rid = await _game_with_moves(straight, pilot, 4)
        expected = list(straight.screen.client.table.record.moves)
        straight.store.delete(rid)
    # interrupted after 2: save and quit, resume from the list, 2 more
    app = make_app(dirs, launch=play_launch(seed=21, vs="computer:medium", target_score=1000))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await _game_with_moves(app, pilot, 2)
        game = app.screen
        view_before = game.view
        await pilot.press("escape", "q")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, ResumeScreen)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 1
        row = [str(cell) for cell in table.get_row_at(0)]  # cells are plain Text
        assert row[0] == "domination" and row[1] == "You vs Computer (medium)"
        assert row[4] == "playing"
        await pilot.press("enter")
        await settle(pilot)
        resumed = app.screen
        assert isinstance(resumed, DominationScreen) and resumed is not game
        assert resumed.view == view_before
        await _game_with_moves(app, pilot, 2)
        assert list(resumed.client.table.record.moves) == expected
        # the launch form: resume the latest unfinished game
        await pilot.press("escape", "q")
        await settle(pilot)
    again = make_app(dirs, launch={"action": "resume", "id": None})
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(again.screen, DominationScreen)
        assert list(again.screen.client.table.record.moves) == expected


@on_the_home_app
async def test_resume_lists_unreadable_files_and_deletes_with_confirmation(
    home: Pilot[Any],
) -> None:
    pilot = home
    app = pilot.app
    assert isinstance(app, CardTableApp)
    # a game saved part-way, as Save and quit leaves one (that flow through the
    # screens is test_save_quit_resume_continues_identically), and a damaged file
    app.store.save(played_record(moves=4))
    games_dir = app.store.root / "games"
    (games_dir / "deadbeef.json").write_text('{"format": "cardtable-game", "vers')
    await pilot.press("r")
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, ResumeScreen)
    table = screen.query_one(DataTable)
    assert table.row_count == 2
    statuses = [str(table.get_row_at(i)[4]) for i in range(2)]
    assert "unreadable" in statuses
    bad = statuses.index("unreadable")
    table.move_cursor(row=bad)
    await settle(pilot)
    assert "not valid JSON" in screen_text(app)
    await pilot.press("enter")  # cannot resume it: a notice, no crash
    await settle(pilot)
    assert isinstance(app.screen, ResumeScreen)
    await pilot.press("d")
    await settle(pilot)
    assert "Delete saved game deadbeef" in screen_text(app)
    await pilot.press("n")
    await settle(pilot)
    assert (games_dir / "deadbeef.json").exists()
    await pilot.press("d", "y")
    await settle(pilot)
    assert not (games_dir / "deadbeef.json").exists()
    assert table.row_count == 1


@on_the_home_app
async def test_replay_plays_a_finished_game_back_on_the_games_own_screen(home: Pilot[Any]) -> None:
    record = finished_record()
    moves = len(record.moves)
    pilot = home
    app = pilot.app
    assert isinstance(app, CardTableApp)
    open_replay(app, record)
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, DominationScreen) and screen.replay_keys is not None
    text = screen_text(app)
    assert f"Replay: {moves} of {moves} moves played · seen by Ada · the game is over" in text
    assert "Your hand" in text  # the game's own widgets, not a text dump
    await pilot.press("home")
    await settle(pilot)
    # the game's own count of the moment too, as the analysis names it (D15)
    assert f"Replay: Round 1, card 1 · 0 of {moves} moves played" in screen_text(app)
    await pilot.press("right")
    await settle(pilot)
    assert f"Replay: Round 1, card 2 · 1 of {moves} moves played" in screen_text(app)
    # the first move is in the log as Ada saw it
    first = screen.client.history(0)
    assert first and screen.narrate(first[-1]) in screen_text(app).replace("\n", " ")
    await pilot.press("1", "enter")  # the game's play keys do nothing in a replay
    await settle(pilot)
    assert screen.client.position == 1 and screen.client.game.last == moves
    await pilot.press("v")  # the next pair of eyes: the computer's
    await settle(pilot)
    other = app.screen
    assert isinstance(other, DominationScreen) and other is not screen
    assert other.replay_keys is not None and other.client.perspective == 1
    assert "1 of" in screen_text(app) and "seen by Computer" in screen_text(app)
    await pilot.press("t")  # as text, where everything may be revealed once over
    await settle(pilot)
    assert isinstance(app.screen, ReplayTextScreen)
    assert "seen by Computer" in screen_text(app)  # the eyes it was opened with
    await pilot.press("v")
    await settle(pilot)
    assert "everything revealed" in screen_text(app)
    await pilot.press("escape", "escape")
    await settle(pilot)
    assert not isinstance(app.screen, (DominationScreen, ReplayTextScreen))


async def test_bad_launch_requests_are_notices_on_home(dirs: Any) -> None:
    for launch, words in (
        ({"action": "resume", "id": "abcdef12"}, "no saved game"),
        ({"action": "resume", "id": None}, "no unfinished game"),
        (play_launch(target_score=-5), "target_score"),
        ({"action": "play", "game": "chess"}, "no game called 'chess'"),
    ):
        app = make_app(dirs, launch=launch)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, HomeScreen)
            notes = " ".join(str(n.message) for n in app._notifications)
            assert words in notes, (launch, notes)


async def test_ctrl_c_quits_at_once_and_the_game_is_all_there(dirs: Any) -> None:
    app = make_app(dirs, launch=play_launch(seed=21, vs="computer:medium", target_score=1000))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await _game_with_moves(app, pilot, 3)
        moves = list(app.screen.client.table.record.moves)
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.return_code == 0  # the app has exited, cleanly
    again = make_app(dirs, launch={"action": "resume", "id": None})
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(again.screen, DominationScreen)
        assert list(again.screen.client.table.record.moves) == moves


@on_the_home_app
async def test_an_unfinished_game_replays_only_as_its_person_saw_it(home: Pilot[Any]) -> None:
    record = played_record(moves=6)  # Ada (here) against the computer, still playing
    pilot = home
    app = pilot.app
    assert isinstance(app, CardTableApp)
    open_replay(app, record)
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, TableScreen) and screen.replay_keys is not None
    assert "6 of 6 moves played · seen by Ada" in screen_text(app)
    assert screen.view == screen.client.game.states[6].view(0)
    await pilot.press("v")  # no other perspective until the game is over
    await settle(pilot)
    assert app.screen is screen and "only your own view" in screen_text(app)
    await pilot.press("t", "v")  # nor in the text view
    await settle(pilot)
    assert "everything revealed" not in screen_text(app)


@on_the_home_app
async def test_an_unfinished_hot_seat_game_replays_each_seat_behind_the_hand_off(
    home: Pilot[Any],
) -> None:
    record = played_record(moves=6)
    record.seats = [SeatInfo("Ada", "human"), SeatInfo("Bea", "human")]
    pilot = home
    app = pilot.app
    assert isinstance(app, CardTableApp)
    open_replay(app, record)
    await settle(pilot)
    assert isinstance(app.screen, HandoffScreen)
    assert "Pass the keyboard to Ada" in screen_text(app)
    await pilot.press("space")
    await settle(pilot)
    assert isinstance(app.screen, TableScreen) and "seen by Ada" in screen_text(app)
    await pilot.press("v")
    await settle(pilot)
    assert isinstance(app.screen, HandoffScreen)
    assert "Pass the keyboard to Bea" in screen_text(app)
    await pilot.press("space")
    await settle(pilot)
    assert "seen by Bea" in screen_text(app)
    await pilot.press("v")  # back to Ada, never to everything revealed
    await settle(pilot)
    assert isinstance(app.screen, HandoffScreen)
    assert "Pass the keyboard to Ada" in screen_text(app)


@on_the_home_app
async def test_a_screenshot_goes_to_the_data_folder_and_says_where(home: Pilot[Any]) -> None:
    pilot = home
    app = pilot.app
    assert isinstance(app, CardTableApp)
    app.action_screenshot()  # what the palette's Screenshot runs
    await settle(pilot)
    shots = list((app.store.root / "screenshots").glob("*.svg"))
    assert len(shots) == 1 and shots[0].read_text("utf-8").startswith("<svg")
    assert "Screenshot saved:" in screen_text(app) or any(
        "Screenshot saved" in str(n.message) for n in app._notifications
    )


def test_an_old_settings_file_with_animations_still_reads() -> None:
    settings = Settings.from_json({"theme": "textual-light", "animations": False})
    assert settings.theme == "textual-light" and not hasattr(settings, "animations")


@on_the_home_app
async def test_an_empty_resume_list_says_so_where_the_list_would_be(home: Pilot[Any]) -> None:
    pilot = home
    app = pilot.app
    assert isinstance(app, CardTableApp)
    await pilot.press("r")
    await settle(pilot)
    assert isinstance(app.screen, ResumeScreen)
    lines = screen_text(app).splitlines()
    assert any("No saved games yet." in line for line in lines[1:5]), lines[:6]
    assert not app.screen.query_one(DataTable).display
    footer = lines[-1]
    assert "Resume" not in footer and "Delete" not in footer and "Back" in footer


@on_the_home_app
async def test_the_rules_contents_open_focused(home: Pilot[Any]) -> None:
    from textual.widgets import Tree

    from tui.screens.rules import RulesScreen

    pilot = home
    app = pilot.app
    assert isinstance(app, CardTableApp)
    await pilot.press("question_mark")
    await settle(pilot)
    assert isinstance(app.screen, RulesScreen) and app.screen.focused is not None
    await pilot.press("t")
    await settle(pilot)
    assert isinstance(app.screen.focused, Tree)  # the contents, ready for the arrows
    await pilot.press("t")
    await settle(pilot)
    assert app.screen.focused is not None and not isinstance(app.screen.focused, Tree)
