"""Outside text on screen: names, levels, presets, reasons, moves and file names
from a save (later from the network) are shown as plain text: never read as
markup (``[/]`` crashed the Resume screen, ``[@click=app.quit]`` was an action)
and never with their terminal escapes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import pytest
from rich.text import Text
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import DataTable

from net.replay import ReplayGame
from rules.game import Outcome
from rules.registry import games
from saves.record import GameRecord, SeatInfo
from saves.store import SaveEntry, SaveStore
from tests.saves.helpers import played_record
from tui.plain import PLACEHOLDER, plain, plain_text, quoted
from tui.screens.confirm import ConfirmScreen
from tui.screens.game_over import GameOverScreen, result_text
from tui.screens.handoff import HandoffScreen
from tui.screens.replay import ReplayTextScreen
from tui.screens.resume import ResumeScreen, entry_row
from tui.widgets.cards import CardStyle
from tui.widgets.event_log import EventLog, display_text
from tui.widgets.scoreboard import Scoreboard

from .conftest import make_app, screen_text, settle

ESCAPES = "Ada\x1b]2;PWNED\x07\x1b[2J\x1b[H"
MARKUP = ["[/]", "[/bold]", "[link=https://example.invalid]click[/link]", "[@click=app.quit]"]
LINK = "[link=https://example.invalid]c[/link]"  # short enough for a seat's name


def assert_plain(text: str) -> None:
    bad = [c for c in text if (c < " " and c != "\n") or "\x7f" <= c <= "\x9f"]
    assert not bad, f"raw control characters {bad!r} in {text!r}"


# ------------------------------------------------------------ tui.plain
def test_escapes_and_control_characters_become_a_placeholder() -> None:
    assert plain(ESCAPES) == f"Ada{PLACEHOLDER * 3}"  # whole sequences, not "]2;PWNED"
    assert plain("a\x1b") == f"a{PLACEHOLDER}"  # ESC and the character after it: one
    for raw in ("\x07", "\x00", "\x7f", "\x9b2J", "\x1b(", "\u202e", "\u2028", "\x1bP1;2|x\x1b\\"):
        shown = plain(f"a{raw}b")
        assert_plain(shown)
        assert shown == f"a{PLACEHOLDER}b", raw
    assert plain("a\tb") == "a b"
    assert plain("a\nb") == f"a{PLACEHOLDER}b"
    assert plain("a\nb", newlines=True) == "a\nb"
    assert plain("Zoë 🂡 José") == "Zoë 🂡 José"  # what is printable stays


def test_long_text_is_cut_and_anything_is_text() -> None:
    assert plain("x" * 100_000) == "x" * 199 + "…"
    assert len(plain("\x1b" * 100_000, 40)) == 40
    assert plain("x" * 500, None) == "x" * 500
    assert plain(12) == "12" and plain(None) == "None"
    shown = quoted("a\x1b[2Jb" * 50)
    assert shown.startswith(f"'a{PLACEHOLDER}b") and shown.endswith("…'") and len(shown) == 42


def test_plain_text_is_never_markup() -> None:
    for text in MARKUP:
        shown = plain_text(text)
        assert isinstance(shown, Text) and shown.plain == text and not shown.spans
    assert plain_text(ESCAPES).plain == plain(ESCAPES)


# ------------------------------------------------------------ screens' text, pure
def _entry(record: GameRecord | None, name: str = "0123abcd.json") -> SaveEntry:
    return SaveEntry("0123abcd", Path(name), record, "bad: " + ESCAPES, 0.0)


def test_resume_rows_are_plain_text() -> None:
    record = played_record(moves=3)
    record.seats = [SeatInfo(MARKUP[0], "human"), SeatInfo(ESCAPES, "bot", "hard")]
    record.result = {"winner": 0, "ranking": [[0], [1]], "scores": [1, 2], "reason": MARKUP[2]}
    for entry in (_entry(record), _entry(None, f"x{MARKUP[3]}\n{ESCAPES}.json")):
        row = entry_row(entry)
        assert all(isinstance(cell, Text) and not cell.spans for cell in row)
        assert_plain("".join(cell.plain for cell in row))
    assert entry_row(_entry(record))[1].plain == f"[/] vs Ada{PLACEHOLDER * 3} (hard)"


def test_result_and_event_text_are_plain() -> None:
    outcome = {"winner": 1, "ranking": [[1], [0]], "scores": [3, 5], "reason": ESCAPES + "[/]"}
    text = result_text(Outcome.from_json(outcome), [MARKUP[3], ESCAPES])
    assert_plain(text)
    assert f"Ada{PLACEHOLDER * 3} wins." in text and "[/]" in text
    with pytest.raises(ValueError):  # a result that is not one never reaches the screen
        Outcome.from_json({"winner": "0", "ranking": [[0]], "scores": 5, "reason": ""})
    shown = display_text(f"{ESCAPES} plays 10H.", CardStyle(ascii=True))
    assert_plain(shown)


# ------------------------------------------------------------ the app
def _hostile_store(data: Path) -> list[str]:
    """Saves holding markup and escapes in every string field; their ids."""
    store = SaveStore(data)
    readable = played_record(moves=4, record_id="aaaa0001")
    readable.seats = [SeatInfo(MARKUP[0], "human"), SeatInfo(MARKUP[3], "bot", "easy")]
    store.save(readable)
    finished = played_record(moves=4, record_id="aaaa0002")
    finished.seats = [SeatInfo(MARKUP[1], "human"), SeatInfo(LINK, "bot", "hard")]
    finished.preset = "short"
    finished.status = "finished"
    finished.result = {"winner": 1, "ranking": [[1], [0]], "scores": [0, 9], "reason": MARKUP[2]}
    store.save(finished)
    base = readable.to_json()
    seats = base["seats"]
    result = {"winner": 0, "ranking": [[0], [1]], "scores": [3, 1]}
    changes: list[dict[str, Any]] = []
    for value in [ESCAPES, *MARKUP]:
        changes += [
            {"seats": [{**seats[0], "name": value}, seats[1]]},
            {"seats": [seats[0], {**seats[1], "level": value}]},
            {"preset": value},
            {"status": "finished", "result": {**result, "reason": value}},
            {"moves": [*base["moves"], [0, value]]},
            {"config": {**base["config"], value: 1}},
        ]
    changes.append({"result": {"scores": 5}})
    ids = []
    for i, change in enumerate(changes):
        record_id = f"bbbb{i:04x}"
        path = store.games_dir / f"{record_id}.json"
        path.write_text(json.dumps({**base, "id": record_id, **change}), "utf-8")
        ids.append(record_id)
    weird = store.games_dir / f"x{MARKUP[3]}\n{ESCAPES}.json"
    weird.write_text("{}", "utf-8")
    return ["aaaa0001", "aaaa0002", *ids, weird.stem]


@pytest.mark.slow  # a whole flow through the screens: CI's slow step
async def test_the_resume_screen_draws_and_highlights_every_hostile_row(dirs: Any) -> None:
    data, _ = dirs
    ids = _hostile_store(data)
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await app.push_screen(ResumeScreen())
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ResumeScreen)
        table = screen.query_one(DataTable)
        assert table.row_count == len(ids)
        for row in range(table.row_count):
            table.move_cursor(row=row)
            await pilot.pause()
            cells = table.get_row_at(row)
            assert all(isinstance(cell, Text) and not cell.spans for cell in cells)
            if row % 3 == 0 or row == table.row_count - 1:  # the detail line, drawn
                assert_plain(screen_text(app))
        shown = "\n".join(
            " ".join(cell.plain for cell in table.get_row_at(r)) for r in range(table.row_count)
        )
        # names from the files drawn as written, never read as markup: a winner
        # named "[/]" in the Status column; the Seats column counts the players
        # where the hostile presets leave it no room for names (resume.py)
        assert "[/] won 3-1" in shown
        assert "2 players" in shown or "[/] vs a computer (easy)" in shown
        # an unreadable row: enter is a notice (plain), d asks with the file's name
        weird = next(i for i, e in enumerate(screen.entries) if e.id == ids[-1])
        table.move_cursor(row=weird)
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        assert_plain(screen_text(app))
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert_plain(screen_text(app))
        await pilot.press("n")
        await settle(pilot)
        assert app.is_running and app.screen is screen


class _Widgets(Screen[None]):
    """The shared widgets of a game screen, on their own."""

    CSS: ClassVar[str] = "EventLog { height: 8; } Scoreboard { height: 1; }"

    def compose(self) -> ComposeResult:
        yield Scoreboard()
        yield EventLog()


async def test_replay_game_over_handoff_and_widgets_show_hostile_names(dirs: Any) -> None:
    record = played_record(moves=6)
    record.seats = [SeatInfo(ESCAPES + "[/]", "human"), SeatInfo(LINK, "bot", "hard")]
    names = [s.name for s in record.seats]
    outcome = {"winner": 0, "ranking": [[0], [1]], "scores": [5, 3], "reason": MARKUP[2]}
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for screen in (
            ReplayTextScreen(ReplayGame.build(record), 6, 0),
            GameOverScreen("domination", Outcome.from_json({**outcome, "reason": ESCAPES}), names),
            HandoffScreen(ESCAPES + MARKUP[3]),
            ConfirmScreen(f"Delete {ESCAPES} {MARKUP[1]}?"),
        ):
            await app.push_screen(screen)
            await settle(pilot)
            text = screen_text(app)
            assert_plain(text)
            assert "Ada" in text
            await app.pop_screen()
            await settle(pilot)
        widgets = _Widgets()
        await app.push_screen(widgets)
        widgets.query_one(Scoreboard).set_scores(names, [1, 2], [ESCAPES])
        widgets.query_one(EventLog).add_line(f"{ESCAPES} plays 10H [/]")
        await settle(pilot)
        text = screen_text(app)
        assert_plain(text)
        assert "plays 10" in text and LINK[:10] in text
        assert app.is_running


@pytest.mark.parametrize("game_id", sorted(games()))
async def test_every_game_screen_shows_hostile_names_as_written(dirs: Any, game_id: str) -> None:
    """A saved game whose seats are named with markup (printable, so the schema lets
    them through) resumes into its game screen, which draws them as written."""
    from rules.registry import get_game

    data, _ = dirs
    spec = get_game(game_id)
    config = spec.config()
    names = [LINK, MARKUP[0], MARKUP[3], MARKUP[1]][: config.players]
    seats = [SeatInfo(names[0], "human")] + [SeatInfo(name, "bot", "easy") for name in names[1:]]
    record = GameRecord.new(game_id, config, 3, seats, record_id="cccc0001")
    SaveStore(data).save(record)
    app = make_app(dirs)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await app.resume_game("cccc0001")
        await settle(pilot)
        assert app.is_running and getattr(app.screen, "client", None) is not None
        text = screen_text(app)
        assert_plain(text)
        assert MARKUP[0] in text or LINK[:20] in text
        await pilot.press("escape")  # the pause menu names nobody, but draws over them
        await settle(pilot)
        assert app.is_running
