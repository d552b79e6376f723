"""What the screens say of a table elsewhere (issue 38: N11, N12, N14, N15,
N16, D25): no Rematch for a spectator; a rematch seat kept for the player
who has not accepted yet is theirs, not an open seat; a closed table's
menu; a name that cannot push the scores off the line; titles that fit the
header's real room."""

from __future__ import annotations

from typing import Any

import msgspec
from rich.cells import cell_len
from textual.app import App
from textual.widgets import Button, Static

from net import protocol as p
from rules.game import Outcome
from saves.record import SeatInfo
from tui.network import invited_label
from tui.players_title import TITLE_ROOM, players_title
from tui.screens.game_over import GameOverScreen
from tui.screens.pause import PauseScreen
from tui.widgets.scoreboard import SHORTEST_NAME, fitted_names


def test_a_long_name_is_cut_so_the_scores_and_the_rest_of_the_line_fit() -> None:
    host = " Host 💀 admin ╳ superlongname-sup"  # (a mark's column first, as shown)
    room = 78 - len("  │ difference 0 │ to 100 │ deck 38 │ round 3")
    names = fitted_names([host, " Host"], [0, 0], room)
    line = f"{names[0]} 0 {names[1]} 0"
    assert cell_len(line) <= room and names[1] == " Host" and names[0].endswith("…")
    # however many seats and however long: never under a few letters each
    many = fitted_names([" " + "x" * 32] * 8, [100] * 8, 40)
    assert all(len(n) == SHORTEST_NAME for n in many)
    assert fitted_names([" Ada", " Bea"], [3, 4], 80) == [" Ada", " Bea"]  # room: as is


def test_the_title_room_is_what_the_header_leaves_at_80_columns() -> None:
    # 80 less the header's icon (8) and clock (10) columns and "cardtable — "
    assert 80 - 8 - 10 - len("cardtable — ") == TITLE_ROOM
    seats = [SeatInfo("Ada", "remote"), SeatInfo("Bea", "remote"), SeatInfo("C", "bot", "medium")]
    link = "at 127.0.0.1:24201 · "
    title = players_title(["Ada", "Bea", "Computer"], seats, TITLE_ROOM - len(link))
    assert len(link + title) <= TITLE_ROOM and not title.endswith("…")


def test_a_rematch_seat_waits_for_its_player_by_name() -> None:
    assert invited_label("Bea") == "Bea (invited)"
    assert invited_label("Bea", short=True) == "Bea (invited)"


class Harness(App[None]):
    def __init__(self, screen: Any) -> None:
        super().__init__()
        self.dialog = screen
        self.chosen: list[object] = []

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.chosen.append)


async def test_no_rematch_for_a_spectator_and_a_closed_table_s_menu_says_closed() -> None:
    outcome = Outcome(0, ((0,), (1,)), (100, 60), "{p0} reached 100")
    watching = GameOverScreen("domination", outcome, ["Ada", "Bea"], can_rematch=False)
    app = Harness(watching)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        ids = [b.id for b in watching.query(Button)]
        assert "rematch" not in ids and "home" in ids
        await pilot.press("r")  # the key does nothing either
        await pilot.pause()
        assert app.chosen == [] and app.screen is watching
        playing = GameOverScreen("domination", outcome, ["Ada", "Bea"])
        await app.push_screen(playing)
        assert "rematch" in [b.id for b in playing.query(Button)]
        menu = PauseScreen(can_resign=False, can_pause=False, closed="the host closed the table")
        await app.push_screen(menu)
        hints = " ".join(str(s.render()) for s in menu.query(Static))
        assert "This table is closed (the host closed the table)" in hints
        assert "cannot be paused" not in hints and "held for a while" not in hints


def test_a_seat_summary_reads_as_the_protocol_declares_it() -> None:
    # (the fixtures of the words above are typed as the client decodes them)
    seat = msgspec.convert({"seat": 1, "kind": "open", "name": None, "level": None}, p.SeatSummary)
    assert seat.kind == "open" and seat.grace is None and not seat.stands_in
