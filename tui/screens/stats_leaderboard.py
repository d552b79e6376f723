"""A server's leaderboard, game by game (``b`` in the lobby; docs/protocol.md,
"Standings"): the names that play there, best rating first, with their
record; Enter on a name shows that player's whole record in the game there
(``player_stats``). Names come from the server: plain text, never markup."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from net.remote import RemoteError
from rules.registry import games, get_game
from tui.glyphs import in_words
from tui.plain import plain, plain_text
from tui.services import SERVICES
from tui.stats_text import server_game_lines
from tui.widgets.footer import FittingFooter

if TYPE_CHECKING:
    from net.protocol import Leaderboard
    from net.remote import RemoteClient

COLUMNS = ("#", "Player", "Games", "Won", "Lost", "Drawn", "Rating")


def leaderboard_rows(reply: Leaderboard, me: str) -> list[tuple[str, ...]]:
    """The reply's rows as the table shows them; the player's own name marked."""
    rows: list[tuple[str, ...]] = []
    for row in reply.players:
        rating = row.rating
        shown = "-" if rating is None else f"{rating.mu:.1f} ± {rating.sigma:.1f}"
        name = plain(row.name, 32) + (" (you)" if row.name == me else "")
        rows.append(
            (
                str(row.place),
                name,
                str(row.games),
                str(row.wins),
                str(row.losses),
                str(row.draws),
                shown,
            )
        )
    return rows


class LeaderboardScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back to the lobby", id="board.back"),
        Binding("g,right", "next_game", "Next game", key_display="g", id="board.game"),
        Binding("f5,ctrl+r", "refresh", "Refresh", key_display="F5", id="board.refresh"),
    ]
    DEFAULT_CSS = """
    LeaderboardScreen #board-title { height: 1; padding: 0 1; text-style: bold; }
    LeaderboardScreen #board-note { height: auto; padding: 0 1; color: $text-muted; }
    LeaderboardScreen DataTable { height: 1fr; }
    LeaderboardScreen #board-record { height: auto; max-height: 9; padding: 0 1; }
    """

    services = SERVICES  # the app, typed (tui/services.py)

    def __init__(self, client: RemoteClient, game: str | None = None) -> None:
        super().__init__()
        self.client = client
        offered = [g for g in client.welcome.games if g in games()]
        self.games: list[str] = offered or sorted(games())
        self.game: str = game if game is not None and game in self.games else self.games[0]
        self.names: list[str] = []  # the rows' names, in order

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="board-title")
        yield DataTable(id="board", cursor_type="row", zebra_stripes=True)
        with VerticalScroll(id="board-record"):
            yield Static("", id="board-record-text")
        yield Static("", id="board-note")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.sub_title = f"leaderboard · {plain(self.client.address, 60)}"
        self.query_one(DataTable).add_columns(*COLUMNS)
        self.action_refresh()

    def action_refresh(self) -> None:
        self.run_worker(self._load(), group="board", exclusive=True, exit_on_error=False)

    def action_next_game(self) -> None:
        self.game = self.games[(self.games.index(self.game) + 1) % len(self.games)]
        self.action_refresh()

    def action_close(self) -> None:
        self.dismiss()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if 0 <= event.cursor_row < len(self.names):
            name = self.names[event.cursor_row]
            self.run_worker(self._show_record(name), group="record", exclusive=True)

    async def _show_record(self, name: str) -> None:
        shown = self.query_one("#board-record-text", Static)
        try:
            reply = await self.client.player_stats(name, self.game)
        except (RemoteError, OSError, ConnectionError) as err:
            shown.update(plain_text(f"No record: {err}"))
            return
        data = reply.games.get(self.game)
        if data is None:
            shown.update(plain_text(f"{name}: no finished games of it here."))
            return
        lines = [name, *server_game_lines(get_game(self.game).title, data)]
        shown.update(plain_text("\n".join(lines), None, newlines=True))

    async def _load(self) -> None:
        title = self.query_one("#board-title", Static)
        note = self.query_one("#board-note", Static)
        title.update(f"{get_game(self.game).title}: the players here, best rating first")
        table = self.query_one(DataTable)
        if not self.client.has_standings:
            table.clear()
            note.update("This server keeps no leaderboard (an older cardtable).")
            return
        try:
            reply = await self.client.leaderboard(self.game)
        except (RemoteError, OSError, ConnectionError) as err:  # in one line
            note.update(plain_text(f"No leaderboard: {err}"))
            return
        table.clear()
        self.query_one("#board-record-text", Static).update("")
        me = self.client.welcome.name
        self.names = [row.name for row in reply.players]
        for row in leaderboard_rows(reply, me):
            ascii = self.services.ascii
            table.add_row(*(plain_text(in_words(cell, ascii), 40) for cell in row))
        total = reply.total
        if not total:
            note.update("Nobody has finished a game of it here yet.")
        else:
            note.update(
                plain_text(
                    in_words(
                        f"{total} player{'s' if total != 1 else ''}. Ratings: openskill's mu ± "
                        "sigma (docs/stats.md). Enter: a player's record; g: next game.",
                        self.services.ascii,
                    )
                )
            )
