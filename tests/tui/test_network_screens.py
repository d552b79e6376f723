"""Network play in the app: the lobby's words and the connection's (pure
functions), and the whole flow through the real app against a server on
127.0.0.1: home, Join, the lobby, a new table against a computer, a move."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest
import pytest_asyncio
from textual.widgets import Input, Select, Static

from net import protocol as p
from net.remote import RemoteClient
from net.server import TableServer
from saves.store import SaveStore
from tui import network
from tui.clock_words import DAY
from tui.name_secrets import keep_secret
from tui.network import (
    HeldSeats,
    connection_text,
    machine_addresses,
    parse_address,
)
from tui.screens import lobby
from tui.screens.lobby import LobbyScreen
from tui.screens.lobby_choices import SeatChoiceScreen
from tui.table.screen import TableScreen

from .conftest import make_app, screen_text
from .shared_app import shared_app


# The fixtures below are written as the wire carries them (JSON objects, the
# fields a test does not care about left out); the functions take the typed
# Structs the client decodes them into (net/remote_wire.py).
def seat(data: dict[str, Any]) -> p.SeatSummary:
    return msgspec.convert({"seat": 0, "name": None, "level": None, **data}, p.SeatSummary)


def summary(data: dict[str, Any]) -> p.TableSummary:
    typed = {"table": "a47c3e57", "game": "domination", "options": {}, "if_gone": "computer"}
    typed |= {"status": "waiting", "spectators": 0, **data, "preset": data.get("preset") or ""}
    typed["seats"] = [msgspec.to_builtins(seat(s)) for s in data.get("seats", [])]
    return msgspec.convert(typed, p.TableSummary)


def table_line(data: dict[str, Any], titles: dict[str, str], elapsed: float = 0.0) -> str:
    return network.table_line(summary(data), titles, elapsed)


def joinable(data: dict[str, Any]) -> bool:
    return network.joinable(summary(data))


def seat_taken_back(data: dict[str, Any]) -> bool:
    return network.seat_taken_back(summary(data))


def seat_choices(data: dict[str, Any]) -> list[tuple[int, str, bool]]:
    return network.seat_choices(summary(data))


def presence_label(name: str, data: dict[str, Any], **options: Any) -> str:
    return network.presence_label(name, seat(data), **options)


def lobby_options(tables: list[dict[str, Any]], titles: dict[str, str], mine: set[str]) -> Any:
    return lobby.lobby_options([summary(t) for t in tables], titles, mine)


WAITING = {
    "table": "a47c3e57",
    "game": "domination",
    "preset": "short",
    "status": "waiting",
    "seats": [
        {"seat": 0, "kind": "person", "name": "Ada", "level": None, "state": "connected"},
        {"seat": 1, "kind": "open", "name": None, "level": None},
        {"seat": 2, "kind": "computer", "name": "Computer 3", "level": "hard"},
    ],
    "spectators": 0,
}


def test_a_table_in_one_line() -> None:
    titles = {"domination": "Domination"}
    assert table_line(WAITING, titles) == (
        "a47c3e57  Domination (short) · Ada vs (open seat) vs Computer 3 (hard) · "
        "waiting: 1 open seat"
    )
    playing = {
        **WAITING,
        "preset": None,
        "status": "playing",
        "spectators": 2,
        "seats": [
            {"seat": 0, "kind": "person", "name": "Ada", "state": "reconnecting", "grace": 42},
            {"seat": 1, "kind": "person", "name": "Bo\x1b[31m", "state": "connected"},
        ],
    }
    # a name from the network is cleaned of escapes; an unknown game shows its id
    assert table_line(playing, {}) == (
        "a47c3e57  domination · Ada (away, 0:42) vs Bo\ufffd · playing, 2 watching"
    )
    # whose turn it is, when the list came (acts); a Trick round waits for both
    playing["seats"][1]["acts"] = True
    assert table_line(playing, {}).endswith("· playing, Bo\ufffd to move, 2 watching")
    playing["seats"][0]["acts"] = True
    assert table_line(playing, {}).endswith("· playing, Ada and Bo\ufffd to move, 2 watching")
    assert joinable(WAITING) and not joinable(playing)
    assert table_line({**WAITING, "status": "finished"}, titles).endswith("· finished")


def test_an_absent_player_s_seat_says_so_in_words() -> None:
    away = {"seat": 1, "kind": "person", "name": "Bea", "state": "reconnecting", "grace": 42}
    assert presence_label("Bea", away) == "Bea (away, 0:42)"
    assert presence_label("Bea", away, elapsed=30.5) == "Bea (away, 0:12)"
    assert presence_label("Bea", away, elapsed=99) == "Bea (away, 0:00)"
    stand_in = {"seat": 1, "kind": "computer", "name": "Bea", "level": "medium"}
    assert presence_label("Bea", {**stand_in, "stands_in": True}) == "Computer for Bea"
    assert presence_label("Bea", stand_in) == "Bea"
    assert presence_label("Bea", {"kind": "person", "state": "connected"}) == "Bea"
    assert presence_label("Player 2", {"kind": "open"}) == "Player 2 (open seat)"
    playing = {**WAITING, "status": "playing", "seats": [{**stand_in, "stands_in": True}]}
    assert "· Computer for Bea ·" in table_line(playing, {})


def test_the_lobby_promises_a_seat_back_only_where_the_server_gives_it() -> None:
    person = {"seat": 0, "kind": "person", "name": "Ada", "state": "connected"}
    stand_in = {"seat": 1, "kind": "computer", "name": "Bea", "stands_in": True}
    playing = {**WAITING, "status": "playing", "seats": [person, stand_in]}
    promise = "your seat: Enter takes it back"

    def line(summary: dict[str, Any]) -> str:
        [option] = lobby_options([summary], {}, {"a47c3e57"})
        return str(option.prompt)

    # the computer plays for Bea until she is back: her token takes the seat back
    assert seat_taken_back({**playing, "if_gone": "computer"})
    assert line({**playing, "if_gone": "computer"}).endswith(promise)
    # at a table whose absent seats resign, nothing is left once the grace is over
    assert not seat_taken_back({**playing, "if_gone": "resign"})
    assert promise not in line({**playing, "if_gone": "resign"})
    held = {**person, "state": "reconnecting", "grace": 10}
    assert seat_taken_back({**playing, "if_gone": "resign", "seats": [held, stand_in]})
    assert not seat_taken_back({**playing, "if_gone": "computer", "status": "finished"})


def test_the_seat_chooser_lists_every_seat_with_who_sits_there() -> None:
    seats: list[Any] = list(WAITING["seats"])  # type: ignore[call-overload]
    two_open = {**WAITING, "seats": [*seats, {"seat": 3, "kind": "open", "name": None}]}
    assert seat_choices(two_open) == [
        (0, "Player 1 · taken by Ada", False),
        (1, "Player 2 · open", True),
        (2, "Player 3 · taken by Computer 3 (hard)", False),
        (3, "Player 4 · open", True),
    ]
    assert seat_choices({"seats": []}) == []


async def test_the_seat_chooser_offers_only_open_seats() -> None:
    from textual.app import App
    from textual.widgets import OptionList

    choices = [(0, "Player 1 · Ada", False), (1, "Player 2 · open", True)]
    choices.append((2, "Player 3 · open", True))
    picked: list[int | None] = []

    class Harness(App[None]):
        def on_mount(self) -> None:
            self.push_screen(SeatChoiceScreen(choices), picked.append)

    async with Harness().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        listing = pilot.app.screen.query_one(OptionList)
        assert listing.highlighted == 1  # the first open seat, not Ada's
        assert listing.get_option_at_index(0).disabled  # Ada's cannot be chosen
        await pilot.press("down", "enter")
        await pilot.pause()
    assert picked == [2]


def test_a_held_seat_is_marked_in_the_lobby() -> None:
    options = lobby_options([WAITING], {"domination": "Domination"}, {"a47c3e57"})
    assert options[0].id == "a47c3e57"
    assert str(options[0].prompt).endswith("your seat: Enter takes it back")


def test_the_connection_in_a_few_words() -> None:
    assert connection_text(None, "") == ""
    assert connection_text("connected", "10.0.0.2:7420") == "connected to 10.0.0.2:7420"
    assert connection_text("reconnecting", "h:1") == "reconnecting to h:1…"
    assert connection_text("closed", "h:1") == "connection to h:1 lost"


def test_an_address_is_host_and_port() -> None:
    assert parse_address(" example.org:7000 ") == ("example.org", 7000)
    assert parse_address("10.0.0.2") == ("10.0.0.2", 7420)
    assert parse_address("[::1]:7421") == ("::1", 7421)
    for bad in ("host:0", "host:99999", ":7420", "host:port"):
        with pytest.raises(ValueError, match="HOST:PORT"):
            parse_address(bad)


async def _until(pilot: Any, condition: Any, what: str) -> None:
    """Let the app and the server run until ``condition()`` (no wall-clock
    sleeping: each pause is one turn of the event loop and the screen)."""
    for _ in range(400):
        if condition():
            return
        await pilot.pause()
        await asyncio.sleep(0)
    raise AssertionError(f"never happened: {what}")


async def _join(pilot: Any, host: str, port: int, name: str) -> LobbyScreen:
    """From the home screen, Join the server at ``host:port`` as ``name``: its lobby."""
    app = pilot.app
    await pilot.press("j")
    await pilot.pause()
    app.screen.query_one("#address", Input).value = f"{host}:{port}"
    app.screen.query_one("#name", Input).value = name
    await pilot.press("ctrl+s")
    await _until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    lobby = app.screen
    assert isinstance(lobby, LobbyScreen)
    return lobby


@dataclass
class SharedLobby:
    """One server on 127.0.0.1 and one app joined to it as Ada, for the tests
    that each sit at a table of their own (issue 41 item 4: the app's start,
    the Join form and the first list are paid once a module, not once a test)."""

    pilot: Any
    lobby: LobbyScreen
    server: TableServer
    host: str
    port: int


# Tests that share the lobby find it in front and leave it in front; each
# checks only its own table's line (the others' tables are listed too). They
# run on the module's loop.
on_the_shared_lobby = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_lobby_app(
    tmp_path_factory: pytest.TempPathFactory,
) -> AsyncIterator[SharedLobby]:
    folder = tmp_path_factory.mktemp("network")
    server = TableServer(SaveStore(folder / "server"))
    host, port = await server.start("127.0.0.1", 0)
    try:
        async with shared_app(folder / "app") as pilot:
            app = pilot.app
            # test_join_a_server_create_a_table_and_play_a_move's join, made
            # once for the module: Join from home, the empty list, connected
            lobby = await _join(pilot, host, port, "Ada")
            status = lobby.query_one("#lobby-status", Static)
            await _until(pilot, lambda: "No tables yet" in str(status.render()), "an empty list")
            assert f"connected to {host}:{port}" in screen_text(app)
            yield SharedLobby(pilot, lobby, server, host, port)
    finally:
        await server.close()


@pytest_asyncio.fixture(loop_scope="module")
async def shared_lobby(shared_lobby_app: SharedLobby) -> AsyncIterator[SharedLobby]:
    await _back_to_the_lobby(shared_lobby_app)
    yield shared_lobby_app
    await _back_to_the_lobby(shared_lobby_app)


async def _back_to_the_lobby(shared: SharedLobby) -> None:
    """Leave whatever table is in front as a player would (Esc, then q: Leave
    the table), so the next test finds the lobby."""
    pilot, lobby = shared.pilot, shared.lobby
    app = pilot.app
    for _ in range(4):
        if app.screen is lobby:
            return
        if isinstance(app.screen, TableScreen):
            await pilot.press("escape")
            await _until(pilot, lambda: not isinstance(app.screen, TableScreen), "the menu")
        await pilot.press("q")  # the menu's Leave the table
        await _until(
            pilot, lambda: app.screen is lobby or isinstance(app.screen, TableScreen), "a way back"
        )
    assert app.screen is lobby, f"the shared app ended on {app.screen!r}"


def read(app: Any) -> str:
    """The screen's words as one line (a long line wraps at 80 columns)."""
    rows = screen_text(app).splitlines()
    return " ".join(" ".join(row.strip(" ▊▎│").split()) for row in rows)


def listed(app: Any, table: str) -> str:
    """The lobby's line for ``table`` as the screen shows it (up to the next
    table's id), its wrapped rows joined."""
    text = read(app)
    assert table in text, f"table {table} is not on the screen: {text}"
    after = text.split(table, 1)[1]
    return table + re.split(r"\b[0-9a-f]{8}\b", after, maxsplit=1)[0]


async def _sit_at(shared: SharedLobby, table: str) -> None:
    """Highlight ``table`` in the lobby with the arrow keys and press Enter."""
    pilot, lobby = shared.pilot, shared.lobby
    await _until(pilot, lambda: table in {t.table for t in lobby.tables}, f"table {table}")
    for _ in range(len(lobby.tables)):
        chosen = lobby.selected()
        if chosen is not None and chosen.table == table:
            break
        await pilot.press("down")
        await pilot.pause()
    chosen = lobby.selected()
    assert chosen is not None and chosen.table == table
    await pilot.press("enter")


@on_the_shared_lobby
async def test_join_a_server_create_a_table_and_play_a_move(shared_lobby: SharedLobby) -> None:
    pilot, lobby, server = shared_lobby.pilot, shared_lobby.lobby, shared_lobby.server
    host, port = shared_lobby.host, shared_lobby.port
    app = pilot.app
    # the join, the empty list and "connected to" are checked once, in the fixture
    await pilot.press("c")
    await pilot.pause()
    await pilot.press("enter")  # the first game: Domination
    await pilot.pause()
    # the form's defaults: seat 1 open (for us), seat 2 a computer
    await pilot.press("ctrl+s")
    await _until(pilot, lambda: isinstance(app.screen, TableScreen), "the game screen")
    screen: Any = app.screen
    assert type(screen).__name__ == "DominationScreen"
    client = screen.client
    assert client.my_seats == (0,) and client.seats[1].kind == "bot"
    assert server.tables[client.table_id].started
    await _until(pilot, lambda: screen.my_turn, "our turn")
    text = screen_text(app)
    # the whole title at 80 columns, the one computer named as at a local table
    assert f"cardtable — at {host}:{port} · Ada vs Computer (medium)" in text
    before = screen.update.state_id
    legal = screen.legal
    index = next(i for i, c in enumerate(screen.hand) if c in legal)
    card = screen.hand[index]
    await pilot.press(str(index + 1))
    await _until(pilot, lambda: screen.update.state_id > before, "the move")
    # the server's table took our move
    assert (0, card) in server.tables[client.table_id].table.record.moves
    # the table is in the lobby, with our name at it
    await pilot.press("escape")
    await pilot.pause()
    await pilot.press("q")  # leave the table: back to the lobby
    await _until(pilot, lambda: app.screen is lobby, "back in the lobby")
    table = client.table_id
    await _until(pilot, lambda: table in {t.table for t in lobby.tables}, "the table in the list")
    # our seat is held for us, and the lobby offers it back
    line = listed(app, table)
    assert re.search(r"Ada \(away, [01]:\d\d\) vs Computer \(medium\)", line), line
    assert "your seat: Enter takes it back" in line


@on_the_shared_lobby
async def test_a_table_that_plays_a_move_a_day_is_made_in_the_form_and_waits_for_you(
    shared_lobby: SharedLobby,
) -> None:
    pilot, lobby, server = shared_lobby.pilot, shared_lobby.lobby, shared_lobby.server
    app = pilot.app
    await pilot.press("c")
    await pilot.pause()
    await pilot.press("enter")  # Domination
    await pilot.pause()
    form = app.screen
    assert not form.query_one("#if-late-row").display  # play now: the usual rows
    form.query_one("#per-move", Select).value = DAY
    await _until(pilot, lambda: form.query_one("#if-late-row").display, "the late row")
    assert not form.query_one("#if-gone-row").display  # a seat is kept all game
    form.query_one("#if-late", Select).value = "lose"
    await pilot.press("ctrl+s")
    await _until(pilot, lambda: isinstance(app.screen, TableScreen), "the game screen")
    screen: Any = app.screen
    table = screen.client.table_id
    hosted = server.tables[table]
    assert (hosted.per_move, hosted.if_late) == (DAY, "lose")
    await _until(pilot, lambda: screen.my_turn, "our turn")
    # the title names the pace, whole at 80 columns
    assert "a move a day · Ada vs Computer (medium)" in screen.sub_title
    # the day runs: the status line says how long is left
    await _until(pilot, lambda: "left)" in screen_text(app), "the clock in the status")
    assert re.search(r"\((1 day|23 h 59 min) left\)", screen_text(app))
    await pilot.press("escape")
    await _until(pilot, lambda: "yours until the game ends" in read(app), "the menu")
    await pilot.press("q")  # leave the table: the seat stays ours
    await _until(pilot, lambda: app.screen is lobby, "back in the lobby")
    await _until(pilot, lambda: table in {t.table for t in lobby.tables}, "the table in the list")
    line = listed(app, table)
    assert "Ada (away) vs Computer (medium)" in line
    assert "a move a day, playing, Ada to move" in line
    assert "your seat: Enter takes it back" in line


async def test_a_seat_comes_back_by_the_claimed_name_in_an_app_without_its_token(
    dirs: Any, tmp_path: Path
) -> None:
    """Another terminal, another data folder: no token, but the name's
    secret (copied over): the lobby offers the seat, and Enter takes it."""
    server = TableServer(SaveStore(tmp_path / "server"))
    host, port = await server.start("127.0.0.1", 0)
    try:
        elsewhere = await RemoteClient.connect(host, port, "Ada", name_secret="")
        secret = elsewhere.welcome.name_secret
        assert secret
        table = (await elsewhere.create("domination", ["open", "open"], per_move=DAY)).table
        await elsewhere.join(table, 0)
        await elsewhere.close()
        keep_secret(dirs[1], f"{host}:{port}", "Ada", secret)
        app = make_app(dirs)
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = await _join(pilot, host, port, "Ada")
            await _until(pilot, lambda: bool(lobby.tables), "the table in the list")
            assert "Enter takes it back" in screen_text(app)
            await pilot.press("enter")
            await _until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
            screen: Any = app.screen
            assert screen.client.my_seats == (0,)
            assert server.tables[table].occupants[0].name == "Ada"
    finally:
        await server.close()


def test_held_seats_are_kept_per_server_and_table(tmp_path: Path) -> None:
    held = HeldSeats(tmp_path / "network" / "seats.json")
    assert held.get("h:1", "t1") is None
    held.keep("h:1", "t1", "secret-1")
    held.keep("h:2", "t1", "secret-2")
    held.keep("h:1", "t1", "secret-3")  # a rejoin brings a fresh token
    assert held.get("h:1", "t1") == "secret-3" and held.get("h:2", "t1") == "secret-2"
    assert held.tables_at("h:1", ["t1", "t2"]) == {"t1"}
    assert held.tables_here("h:1") == ["t1"] and held.tables_here("h:3") == []
    held.forget("h:1", "t1")
    assert held.get("h:1", "t1") is None
    # the tokens are secrets: only the user may read the file
    assert (tmp_path / "network" / "seats.json").stat().st_mode & 0o077 == 0
    (tmp_path / "network" / "seats.json").write_text("not json")
    assert held.get("h:2", "t1") is None  # a broken file holds nothing, and breaks nothing


def test_the_addresses_to_give_a_friend() -> None:
    assert machine_addresses(7420, everyone=False) == ["127.0.0.1:7420"]
    shared = machine_addresses(7421, everyone=True)
    assert shared[-1] == "127.0.0.1:7421" and all(a.endswith(":7421") for a in shared)


@pytest.mark.slow  # kept out of the 90-second default run; CI's slow step runs it
async def test_a_dropped_connection_shows_and_recovers_on_the_game_screen(
    dirs: Any, tmp_path: Path
) -> None:
    from net.remote import RemoteClient

    server = TableServer(SaveStore(tmp_path / "server"))
    host, port = await server.start("127.0.0.1", 0)
    app = make_app(dirs)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            client = await RemoteClient.connect(host, port, "Ada")
            summary = await client.create("domination", ["open", "computer:easy"])
            await client.join(summary.table)
            gate = asyncio.Event()

            async def held(_: float) -> None:
                await gate.wait()  # the test says when the retry may go

            client.sleep = held
            await app.show_table(client)
            screen: Any = app.screen
            await _until(pilot, lambda: screen.is_mounted, "the game screen")
            assert screen.sub_title.startswith(f"at {host}:{port} · Ada vs")
            for conn in list(server.connections):
                conn.writer.transport.abort()  # the network drops
            await _until(
                pilot, lambda: screen.sub_title.startswith("reconnecting…"), "reconnecting"
            )
            assert "reconnecting" in str(screen.query_one("#status", Static).render())
            with pytest.raises(Exception, match="connection"):
                await client.play(0, "2C", screen.update.state_id)
            gate.set()
            await _until(pilot, lambda: screen.sub_title.startswith("at "), "back")
            assert client.my_seats == (0,) and client.connection == "connected"
            await _until(pilot, lambda: screen.my_turn, "our turn")
            before = screen.update.state_id
            await screen.submit(screen.legal[0])
            await _until(pilot, lambda: screen.update.state_id > before, "the move")
    finally:
        await server.close()


def test_the_join_form_offers_the_ssh_hosts_server_and_the_login_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tui.network import default_address
    from tui.screens.join import default_name

    monkeypatch.delenv("CARDTABLE_SERVER", raising=False)
    assert default_address() == "127.0.0.1:7420"
    monkeypatch.setenv("CARDTABLE_SERVER", "127.0.0.1:7999")  # set by `cardtable ssh-host`
    assert default_address() == "127.0.0.1:7999"
    monkeypatch.setenv("USER", "ada")
    monkeypatch.setenv("LOGNAME", "ada")
    assert default_name("") == "ada"
    assert default_name("  Ada L. ") == "Ada L."  # the name saved in the settings wins


async def test_hosting_starts_one_server_keeps_its_tables_in_the_data_folder(
    dirs: Any,
) -> None:
    import socket

    from net.remote import RemoteClient

    app = make_app(dirs)
    port = await app.host_server(0, everyone=False)
    try:
        assert await app.host_server(0, everyone=False) == port  # the same one, once
        client = await RemoteClient.connect("127.0.0.1", port, "Ada")
        table = await client.create("domination", ["open", "computer:easy"])
        await client.close()
        data, _ = dirs
        assert (data / "hosted" / "games" / f"{table.table}.json").exists()
    finally:
        assert app.hosted is not None
        await app.hosted.close()
        app.bot_threads.shutdown(wait=False)
    # a busy port is an OSError for the form to explain
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        other = make_app(dirs)
        with pytest.raises(OSError):
            await other.host_server(busy.getsockname()[1], everyone=False)
        assert other.hosted is None


async def test_the_lobby_shows_a_held_seat_beyond_the_first_page(dirs: Any, tmp_path: Path) -> None:
    from net.remote import RemoteClient
    from net.server import Limits

    server = TableServer(SaveStore(tmp_path / "server"), limits=Limits(list_page=1))
    host, port = await server.start("127.0.0.1", 0)
    bo = await RemoteClient.connect(host, port, "Bo")
    ada = await RemoteClient.connect(host, port, "Ada")
    try:
        first = (await bo.create("domination", ["open", "computer:easy"])).table
        mine = (await bo.create("domination", ["open", "computer:easy"])).table
        await ada.join(mine)
        assert ada.token is not None
        # the app that sat there kept the seat's token, then closed
        HeldSeats(dirs[0] / "network" / "seats.json").keep(f"{host}:{port}", mine, ada.token)
        await ada.close()
        app = make_app(dirs)
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = await _join(pilot, host, port, "Ada")
            await _until(pilot, lambda: len(lobby.tables) == 2, "both tables")
            # a page holds one table: the first, and ours asked for by id
            assert {t.table for t in lobby.tables} == {first, mine}
            assert "your seat: Enter takes it back" in screen_text(app)
    finally:
        await bo.close()
        await server.close()


@on_the_shared_lobby
@pytest.mark.parametrize(
    ("game", "options", "mine"),
    [("stress", {"players": 2}, "your hand ("), ("territory", {}, "you play")],
)
async def test_across_the_network_the_person_at_the_screen_is_addressed_as_you(
    shared_lobby: SharedLobby, game: str, options: dict[str, Any], mine: str
) -> None:
    from net.remote import RemoteClient

    pilot, lobby = shared_lobby.pilot, shared_lobby.lobby
    app = pilot.app
    bo = await RemoteClient.connect(shared_lobby.host, shared_lobby.port, "Bo")
    try:
        table = (await bo.create(game, ["open", "computer:easy"], options=options)).table
        lobby.action_refresh()  # as F5 does (the list also comes again on a timer)
        await _sit_at(shared_lobby, table)  # at its open seat
        await _until(pilot, lambda: isinstance(app.screen, TableScreen), "the game screen")
        await _until(pilot, lambda: mine in screen_text(app).lower(), f"{mine!r} on screen")
        text = screen_text(app)
        # the captions of the seat's own cards (a turn line may still name Ada)
        assert "Ada's hand" not in text and "Ada's face up" not in text
        assert not re.search(r"Ada plays [-|]", text)
    finally:
        await bo.close()


def test_a_table_of_open_seats_holds_nobody_s_seat() -> None:
    # before the start a seat left is open again and its token dead: the
    # lobby must not promise it back ("(open seat) vs (open seat) · your seat")
    open_seat = {"kind": "open", "name": None, "level": None}
    all_open = {**WAITING, "seats": [open_seat, open_seat, open_seat]}
    assert not seat_taken_back(all_open)
    line = str(lobby_options([all_open], {}, {"a47c3e57"})[0].prompt)
    assert "your seat" not in line and line.endswith("waiting: 3 open seats")
    # a person still seated before the start: that seat may be ours
    assert seat_taken_back(WAITING)


def test_the_short_words_for_a_title_and_a_score_line() -> None:
    assert connection_text("connected", "h:1", short=True) == "at h:1"
    assert connection_text("reconnecting", "h:1", short=True) == "reconnecting…"
    assert connection_text("closed", "h:1", short=True) == "connection lost"
    open_seat = {"seat": 1, "kind": "open"}
    assert presence_label("Player 2", open_seat) == "Player 2 (open seat)"
    assert presence_label("Player 2", open_seat, short=True) == "Player 2 (open)"
