"""Network tables in line mode: ``cardtable --lines join HOST:PORT``.

The lobby's tables as a numbered list (the app's own line for each:
``tui.network.table_line``), a seat, then the game at a :class:`TableSession`
with chat lines (``say TEXT``) and notices. Every connection goes through
``tui.network_connect.connect``, so an ssh-host visitor has the same grants
here as in the app (net/grants.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from net.grants import Grants
from rules.plain import plain
from rules.registry import CATALOGUE, get_game
from tui.network import default_address, joinable, parse_address, seat_choices, table_line
from tui.network_connect import connect, default_name

from .menus import ask_text, choose

if TYPE_CHECKING:
    from net.protocol import TableSummary
    from net.remote import RemoteClient

    from .app import LineApp

SEAT_KINDS = (
    ("an open seat, for another person", "open"),
    ("the computer, easy", "computer:easy"),
    ("the computer, medium", "computer:medium"),
    ("the computer, hard", "computer:hard"),
)


class LineLobby:
    def __init__(self, app: LineApp, host: str, port: int, grants: Grants) -> None:
        self.app = app
        self.io = app.io
        self.host, self.port, self.grants = host, port, grants
        self.name = default_name(app.settings.player_name)

    async def connection(self) -> RemoteClient:
        return await connect(
            self.host, self.port, self.name, grants=self.grants, config_dir=self.app.config_dir
        )

    async def run(self) -> None:
        from net.remote import RemoteError

        lobby = await self.connection()
        self.io.say(
            f"Connected to {lobby.address} as {plain(lobby.welcome.name or self.name, 40)}."
        )
        try:
            while True:
                try:
                    tables = await lobby.tables()
                except (RemoteError, ConnectionError, OSError) as err:
                    self.io.say(f"The server is gone: {plain(err, 200)}.")
                    return
                titles = {g: get_game(g).title for g in CATALOGUE}
                lines = [table_line(t, titles) for t in tables]
                if not tables:
                    self.io.say("No tables yet.")
                choice = await choose(
                    self.io,
                    "Lobby.",
                    [*lines, "create a table", "refresh the list"],
                    back="leave the server",
                )
                if choice is None:
                    return
                if choice == len(tables):
                    table = await self.create(lobby)
                    if table is not None:
                        await self.sit(table, 0)
                elif choice < len(tables):
                    await self.table_chosen(tables[choice])
        finally:
            await lobby.close()

    async def table_chosen(self, summary: TableSummary) -> None:
        table = summary.table
        options: list[str] = []
        seats: list[int | None] = []
        if joinable(summary):
            for number, words, free in seat_choices(summary):
                if free:
                    options.append(f"sit as {words}")
                    seats.append(number)
        options.append("watch")
        seats.append(None)
        choice = await choose(self.io, f"Table {plain(table, 32)}.", options)
        if choice is not None:
            await self.sit(table, seats[choice])

    async def create(self, lobby: RemoteClient) -> str | None:
        from net.remote import RemoteError

        ids = list(CATALOGUE)
        specs = [get_game(g) for g in ids]
        choice = await choose(self.io, "A table for which game?", [s.title for s in specs])
        if choice is None:
            return None
        spec = specs[choice]
        preset = await self.app.choose_preset(spec)
        if preset is False:
            return None
        players = spec.config(preset if isinstance(preset, str) else None).players
        seats = ["open"]  # yours
        for n in range(2, players + 1):
            kind = await choose(self.io, f"Player {n}:", [label for label, _ in SEAT_KINDS])
            if kind is None:
                return None
            seats.append(SEAT_KINDS[kind][1])
        try:
            summary = await lobby.create(
                spec.id, seats, preset=preset if isinstance(preset, str) else None
            )
        except RemoteError as err:
            self.io.say(f"The server would not open it: {plain(err, 200)}.")
            return None
        return summary.table

    async def sit(self, table: str, seat: int | None) -> None:
        """A connection of its own for the table (as the app's lobby does),
        then the game."""
        from net.remote import RemoteError

        try:
            client = await self.connection()
            if seat is None:
                await client.watch(table)
            else:
                await client.join(table, seat)
        except (RemoteError, ConnectionError) as err:
            self.io.say(f"Cannot {'watch' if seat is None else 'join'} that table: {err}")
            return
        await self.app.play(client)


async def join(app: LineApp, address: str) -> None:
    """The lobby of the server at ``address`` (asked for when empty)."""
    grants = Grants.from_environ()
    if not address:
        address = await ask_text(
            app.io, "Server address, HOST:PORT", default_address(app.settings.last_server)
        )
    try:
        host, port = parse_address(address)
    except ValueError as err:
        app.io.say(f"{str(err)[:1].upper()}{str(err)[1:]}.")
        return
    try:
        await LineLobby(app, host, port, grants).run()
    except ConnectionError as err:
        app.io.say(f"Cannot join: {plain(err, 300)}.")
