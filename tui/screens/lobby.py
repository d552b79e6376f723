"""The lobby of a table server: its tables, and create, join, watch.

The lobby keeps a connection of its own for listing and creating; each
table it opens gets a fresh connection (a :class:`net.remote.RemoteClient`,
handed to the game's own screen as any table client), so leaving a table
brings the player back here with the lobby still live. A server that goes
away sends the player home with one line; every refusal is one line.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from tui.network import (
    HeldSeats,
    connection_text,
    grace_left,
    joinable,
    named_seat,
    seat_choices,
    seat_taken_back,
    table_line,
)
from tui.plain import plain, plain_text
from tui.screens.lobby_choices import GameChoiceScreen, SeatChoiceScreen
from tui.services import SERVICES
from tui.styles import LISTS
from tui.widgets.footer import FittingFooter

if TYPE_CHECKING:
    from net.client import Update
    from net.protocol import TableSummary
    from net.remote import RemoteClient
    from tui.textual_seams import CSSPathType

REFRESH_SECONDS = 5.0
# tables asked for by id at each refresh: the seats this app holds (a list page at most)
MAX_HELD_ASKED = 200


def lobby_options(
    tables: list[TableSummary], titles: dict[str, str], mine: set[str], elapsed: float = 0.0
) -> list[Option]:
    """The tables, newest last; a table where this app holds a seat says so,
    and promises it back only where the server will give it back. An away
    player's countdown reads ``elapsed`` seconds after the list came."""
    options = []
    for summary in tables:
        line = table_line(summary, titles, elapsed)
        if summary.table in mine and seat_taken_back(summary):
            line = f"{line} · your seat: Enter takes it back"
        options.append(Option(plain_text(line, None), id=summary.table))
    return options


class LobbyScreen(Screen[None]):
    CSS_PATH: ClassVar[CSSPathType | None] = [LISTS]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,j", "join", "Join", key_display="⏎", id="lobby.join"),
        Binding("w", "watch", "Watch", id="lobby.watch"),
        Binding("c", "create", "Create table", id="lobby.create"),
        Binding("f5,ctrl+r", "refresh", "Refresh", key_display="F5", id="lobby.refresh"),
        Binding("b", "leaderboard", "Leaderboard", id="lobby.board"),  # issue 27
        Binding("question_mark,f1", "help", "Help", key_display="?", id="lobby.help"),
        Binding("escape", "close", "Leave", id="lobby.leave"),
    ]

    def __init__(
        self, client: RemoteClient, banner: str = "", *, open_table: str | None = None
    ) -> None:
        """``open_table``: a table to sit at as soon as it is listed (your
        own seat taken back, else an open seat, else watching)."""
        super().__init__()
        self.client = client
        self.banner = banner
        self.open_table = open_table
        self.tables: list[TableSummary] = []
        self.listed_at = 0.0  # when the list came (the event loop's clock)
        self._stop_watching: Callable[[], None] | None = None
        self._left = False
        self._mine: set[str] = set()  # the listed tables where this app holds a seat

    services = SERVICES  # the app, typed (tui/services.py)

    @property
    def held(self) -> HeldSeats:
        return HeldSeats.of(self.services.store.root)

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="lobby"):
            yield Static(plain_text(self.banner, None), id="lobby-banner")
            yield OptionList(id="lobby-tables")
            yield Static("", id="lobby-status")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.sub_title = f"lobby · {connection_text(self.client.connection, self.client.address)}"
        self.query_one("#lobby-banner").display = bool(self.banner)
        self._stop_watching = self.client.watch_connection(self._connection_changed)
        self.query_one(OptionList).focus()
        self.set_interval(REFRESH_SECONDS, self.action_refresh)
        self.set_interval(1.0, self._tick)
        self.action_refresh()

    def on_screen_resume(self) -> None:
        if self.client.connection == "closed" and not self._left:
            # lost while a table was on top: try once more before giving up
            self.run_worker(self._reconnect(), group="lobby", exclusive=True)
            return
        self.action_refresh()  # back from a table: things have moved on

    def _connection_changed(self, state: str) -> None:
        # a table's screen on top has its own connection: the lobby's is
        # looked at again when the player comes back here
        if state != "closed" or self._left or not self.is_mounted:
            return
        if self.app.screen_stack and self.app.screen is self:
            self.app.call_later(self._server_gone)

    async def on_unmount(self) -> None:
        # the app is closing (or we left): the lobby's connection goes with it
        self._left = True
        if self._stop_watching is not None:
            self._stop_watching()
        await self.client.close()

    async def _connect_again(self) -> RemoteClient:
        """Another connection to this lobby's server, under the name it gave
        us (its secret kept: tui/name_secrets.py); ConnectionError if not."""
        from .join import connect

        host, _, port = self.client.address.rpartition(":")
        name = self.client.welcome.name or "Player"
        return await connect(
            host.strip("[]"),
            int(port),
            name,
            grants=self.services.grants,
            config_dir=self.services.config_dir,
        )

    async def _reconnect(self) -> None:
        try:
            client = await self._connect_again()
        except ConnectionError:
            await self._server_gone()
            return
        if self._stop_watching is not None:
            self._stop_watching()
        self.client = client
        self._stop_watching = client.watch_connection(self._connection_changed)
        self.action_refresh()

    async def _server_gone(self) -> None:
        if self._left:
            return
        where = plain(self.client.address, 60)
        why = self.client.farewell  # the server said why before it went
        text = f"The server at {where} has gone away."
        if why is not None:
            text = f"The server at {where} has closed: {plain(why, 80)}."
        self.notify(text, severity="error", markup=False)
        await self._leave()

    def say(self, text: str, problem: bool = False) -> None:
        status = self.query_one("#lobby-status", Static)
        status.update(plain_text(text, None))
        status.set_class(problem, "-problem")

    # ------------------------------------------------------------ the list
    def action_refresh(self) -> None:
        if not self._left and self.client.connection == "connected":
            self.run_worker(self._refresh(), group="lobby", exclusive=True, exit_on_error=False)

    async def _refresh(self) -> None:
        from net.remote import RemoteError

        try:
            tables = await self.client.tables()
            # the list is paged: the tables where this app holds a seat are
            # asked for by id, so that a seat taken back is never out of sight
            listed = {t.table for t in tables}
            held = [t for t in self.held.tables_here(self.client.address) if t not in listed]
            if self.open_table is not None and self.open_table not in listed:
                held.append(self.open_table)
            if held:
                tables = await self.client.tables(held[:MAX_HELD_ASKED]) + tables
        except (RemoteError, ConnectionError) as err:
            self.say(f"Cannot list the tables: {err}", problem=True)
            return
        self.tables = tables
        self.listed_at = asyncio.get_running_loop().time()
        self._show()
        if self.open_table is not None:
            self._open_given_table(self.open_table)
            self.open_table = None

    def _open_given_table(self, table: str) -> None:
        ids = [t.table for t in self.tables]
        if table not in ids:
            self.say(f"There is no table {table} at this server now.", problem=True)
            return
        self.query_one(OptionList).highlighted = ids.index(table)
        summary = self.tables[ids.index(table)]
        mine = self.held.get(self.client.address, table) is not None
        mine = mine or named_seat(summary, self.client.welcome.name) is not None
        if mine or any(is_open for _, _, is_open in seat_choices(summary)):
            self.action_join()
        else:
            self.action_watch()

    @staticmethod
    def _titles() -> dict[str, str]:
        from rules.registry import games

        return {gid: spec.title for gid, spec in games().items()}

    def _tick(self) -> None:
        """Once a second while a listed player is away: their countdown runs
        (counted on this machine's clock from when the list came)."""
        if self._left or not any(
            grace_left(seat) is not None for table in self.tables for seat in table.seats
        ):
            return
        listing = self.query_one(OptionList)
        elapsed = asyncio.get_running_loop().time() - self.listed_at
        for option in lobby_options(self.tables, self._titles(), self._mine, elapsed):
            if option.id is not None:
                listing.replace_option_prompt(option.id, option.prompt)

    def _show(self) -> None:
        for summary in self.tables:
            if not seat_taken_back(summary):  # nothing left to take back
                self.held.forget(self.client.address, summary.table)
        ids = [t.table for t in self.tables]
        self._mine = self.held.tables_at(self.client.address, ids)
        # and a seat our claimed name sat at (from another data folder, or
        # with its token lost): the name takes it back
        name = self.client.welcome.name
        self._mine |= {t.table for t in self.tables if named_seat(t, name) is not None}
        listing = self.query_one(OptionList)
        keep = listing.highlighted_option.id if listing.highlighted_option else None
        listing.clear_options()
        listing.add_options(lobby_options(self.tables, self._titles(), self._mine))
        if keep in ids:
            listing.highlighted = ids.index(keep)
        elif ids:
            listing.highlighted = 0
        if not self.tables:
            self.say("No tables yet: c creates one.")
        elif not self.query_one("#lobby-status", Static).has_class("-problem"):
            self.say(f"{len(self.tables)} table{'s' if len(self.tables) != 1 else ''}.")

    def _summary(self, table: str) -> TableSummary | None:
        return next((t for t in self.tables if t.table == table), None)

    def selected(self) -> TableSummary | None:
        listing = self.query_one(OptionList)
        option = listing.highlighted_option
        return None if option is None or option.id is None else self._summary(option.id)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_join()

    # ------------------------------------------------------------ actions
    def action_join(self) -> None:
        summary = self.selected()
        if summary is None:
            self.say("Choose a table first (or c to create one).", problem=True)
            return
        table = summary.table
        token = self.held.get(self.client.address, table)
        if token is not None:  # our own seat, taken back
            self.run_worker(self.sit(table, token=token), group="sit", exclusive=True)
            return
        if named_seat(summary, self.client.welcome.name) is not None:  # ours by our name
            self.run_worker(self.sit(table, by_name=True), group="sit", exclusive=True)
            return
        choices = seat_choices(summary)
        free = [seat for seat, _, is_open in choices if is_open]
        if not free:
            self.say("That table has no open seat: w watches it.", problem=True)
            return
        if len(free) == 1:  # nothing to choose
            self.run_worker(self.sit(table, seat=free[0]), group="sit", exclusive=True)
            return

        def chosen(seat: int | None) -> None:
            if seat is not None:
                self.run_worker(self.sit(table, seat=seat), group="sit", exclusive=True)

        self.app.push_screen(SeatChoiceScreen(choices), chosen)

    def action_leaderboard(self) -> None:
        from .stats_leaderboard import LeaderboardScreen  # the server's standings

        summary = self.selected()
        game = summary.game if summary is not None else None
        self.app.push_screen(LeaderboardScreen(self.client, game))

    def action_watch(self) -> None:
        summary = self.selected()
        if summary is None:
            self.say("Choose a table first.", problem=True)
            return
        self.run_worker(self.sit(summary.table, watch=True), group="sit", exclusive=True)

    def action_create(self) -> None:
        from rules.registry import games

        offered = self.client.welcome.games
        known = games()
        choices = [(gid, known[gid].title) for gid in offered if gid in known]
        if not choices:
            self.say("This server offers no game this app knows.", problem=True)
            return

        def chosen(game_id: str | None) -> None:
            from .create_table import CreateTableScreen

            if game_id:
                self.app.push_screen(CreateTableScreen(game_id, self))

        self.app.push_screen(GameChoiceScreen(choices), chosen)

    async def sit(
        self,
        table: str,
        *,
        seat: int | None = None,
        token: str | None = None,
        watch: bool = False,
        by_name: bool = False,
    ) -> None:
        """A connection of its own for the table: join (``seat``, or the first
        open one), or take our seat back with its token (or ``by_name``: our
        claimed name's), or watch; then the game's own screen."""
        from net.remote import RemoteError

        try:
            client = await self._connect_again()
        except ConnectionError as err:
            self.say(f"{err}", problem=True)
            return
        try:
            if watch:
                await client.watch(table)
            elif by_name:
                await client.rejoin(table, None)
            elif token is not None:
                try:
                    await client.rejoin(table, token)
                except RemoteError:
                    self.held.forget(self.client.address, table)
                    self.action_refresh()
                    if not joinable(self._summary(table)):
                        await client.close()
                        self.say(
                            "Your seat there is gone (the server no longer knows it), "
                            "and no other seat is open: w watches.",
                            problem=True,
                        )
                        return
                    await client.join(table)  # the seat was given up: an open one
            else:
                await client.join(table, seat)
        except (RemoteError, ConnectionError) as err:
            await client.close()
            self.say(f"Cannot {'watch' if watch else 'join'} that table: {err}", problem=True)
            self.action_refresh()
            return
        keeper = SeatKeeper(self.held, self.client.address, client)
        client.subscribe(keeper.update)  # a rematch moves the client to a new table
        client.watch_connection(keeper.connection)  # each rejoin brings a fresh token
        keeper.note()
        self.say("")
        await self.services.show_table(client)

    def action_help(self) -> None:
        """Network play in a page (docs/play/network.md): seats, absent
        players, a host that quits."""
        from .rules import RulesScreen

        self.app.push_screen(RulesScreen("network"))

    async def action_close(self) -> None:
        await self._leave()

    async def _leave(self) -> None:
        self._left = True
        if self._stop_watching is not None:
            self._stop_watching()
        await self.client.close()
        self.app.call_later(self.services.go_home)


class SeatKeeper:
    """Keeps the newest token of a client's seat in the held seats (written
    only when the table or the token changes); a finished game's seat is
    forgotten."""

    def __init__(self, held: HeldSeats, address: str, client: RemoteClient) -> None:
        self.held = held
        self.address = address
        self.client = client
        self.kept: tuple[str | None, str | None] = (None, None)

    def note(self, over: bool = False) -> None:
        client = self.client
        table, token = client.table_id, client.token
        if table is None or token is None:
            return
        if over:
            if self.kept != (table, None):
                self.held.forget(self.address, table)
                self.kept = (table, None)
        elif self.kept != (table, token):
            seat = client.my_seats[0] if client.my_seats else None
            self.held.keep(self.address, table, token, seat)
            self.kept = (table, token)

    def update(self, update: Update) -> None:
        self.note(over=update.over)

    def connection(self, state: str) -> None:
        if state == "connected":
            self.note()
        elif state == "closed" and self.client.table_id is not None:
            # the seat could not be taken back: its token is dead
            self.held.forget(self.address, self.client.table_id)
            self.kept = (None, None)
