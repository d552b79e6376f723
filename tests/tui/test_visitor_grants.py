"""An ssh-host visitor's app gets what the host granted (net/grants.py): no
Host anywhere (home screen, footer, palette, key, the app itself), and Join
only to the table servers the host offers, refused in one neutral sentence
wherever else it points, before any packet leaves."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from net.grants import ALLOW_JOIN_ENV, GUEST_NAME_RULE, NOT_ALLOWED, SERVER_ENV, VISITOR_ENV, Grants
from net.server import TableServer
from saves.store import SaveStore
from tui.commands import ScreenActions
from tui.screens.home import HomeScreen
from tui.screens.join import HostScreen, JoinScreen, connect

from .conftest import make_app, screen_text

VISITOR = Grants.for_visitor(["127.0.0.1:7999"])


def test_the_grants_come_from_the_environment_ssh_host_builds() -> None:
    assert Grants.from_environ({}) == Grants()  # a player's own app: everything
    assert Grants().may_host and Grants().may_join("192.0.2.7", 1)
    env = Grants.for_visitor(["127.0.0.1:7999", "[::1]:7420", "Tables.Example:7420"]).environ(
        "127.0.0.1:7999"
    )
    assert env[VISITOR_ENV] == "1" and env[SERVER_ENV] == "127.0.0.1:7999"
    grants = Grants.from_environ(env)
    assert grants.visitor and not grants.may_host
    assert grants.may_join("127.0.0.1", 7999)
    assert grants.may_join("0:0:0:0:0:0:0:1", 7420)  # one address, however it is spelled
    assert grants.may_join("tables.example.", 7420)
    assert not grants.may_join("127.0.0.1", 7998)
    assert not grants.may_join("localhost", 7999)  # names are not resolved: as allowed
    assert not grants.may_join("127.0.0.2", 7999)
    # a visitor marker with nothing readable allowed grants nothing: fail closed
    closed = Grants.from_environ({VISITOR_ENV: "1", ALLOW_JOIN_ENV: "nonsense,:0"})
    assert not closed.may_host and closed.join_only == frozenset()


async def test_a_visitors_home_screen_has_no_host(dirs: Any) -> None:
    app = make_app(dirs, grants=VISITOR)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen)
        shown = screen_text(app)
        assert "Join" in shown and "Host" not in shown  # not in the actions, nor the footer
        await pilot.press("o")
        await pilot.pause()
        assert app.screen is home  # the key does nothing
        palette = ScreenActions(home)
        offered = [hit.text for hit in [h async for h in palette.discover()]]
        assert "Join" in offered and "Host" not in offered
        # a click or a leftover palette entry reaches the action: it refuses
        await app.run_action("screen.host")
        await pilot.pause()
        assert not isinstance(app.screen, HostScreen)
        with pytest.raises(PermissionError):
            await app.host_server(0, everyone=True)
        assert app.hosted is None


async def test_a_players_own_home_screen_still_hosts(dirs: Any) -> None:
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Host (o)" in screen_text(app)
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, HostScreen)


async def test_a_visitor_joins_only_what_the_host_offers_with_one_neutral_error(
    tmp_path: Path,
) -> None:
    tables = TableServer(SaveStore(tmp_path / "tables"))
    host, port = await tables.start("127.0.0.1", 0)
    grants = Grants.for_visitor([f"{host}:{port}"])
    listening = socket.socket()  # something that answers, but is not offered
    listening.bind(("127.0.0.1", 0))
    listening.listen()
    closed = socket.socket()  # a port where nothing listens
    closed.bind(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]
    closed.close()
    try:
        refusals = []
        for where in [
            ("127.0.0.1", listening.getsockname()[1]),
            ("127.0.0.1", closed_port),
            ("192.0.2.1", 22),  # TEST-NET: nothing is sent, so nothing can time out
            ("localhost", port),  # the offered server by another name
        ]:
            with pytest.raises(ConnectionError) as refused:
                await connect(*where, "Ada", grants=grants)
            refusals.append(str(refused.value))
        assert refusals == [NOT_ALLOWED] * 4
        listening.setblocking(False)
        with pytest.raises(BlockingIOError):
            listening.accept()  # the refusal sent nothing there
        client = await connect(host, port, "Ada", grants=grants)  # the offered one: in
        assert client.connection == "connected"
        await client.close()
        # other spellings of the offered one pass the check, and the connection
        # goes where the check looked: no name lookup of "127.0.0.1." (L1)
        for spelling in ("127.0.0.1.", " 127.0.0.1 ", "[127.0.0.1]"):
            client = await connect(spelling, port, "Ada", grants=grants)
            assert client.address == f"127.0.0.1:{port}"
            await client.close()
    finally:
        listening.close()
        await tables.close()


async def test_the_visitors_join_form_says_the_one_sentence(
    dirs: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SERVER_ENV, "127.0.0.1:7999")
    app = make_app(dirs, grants=VISITOR)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("j")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, JoinScreen)
        assert "table server this host offers" in screen_text(app)
        address = form.query_one("#address", Input)
        assert address.value == "127.0.0.1:7999"  # the server ssh-host offers
        address.value = "127.0.0.1:22"
        await form.action_go()
        error = str(form.query_one("#form-error", Static).render())
        assert error == NOT_ALLOWED[0].upper() + NOT_ALLOWED[1:] + "."
        assert isinstance(app.screen, JoinScreen)
        # the name at a table follows the rules of login names (N16): the
        # login name is offered, another is checked the same way before anything
        # is sent, and a name is never what a long or odd one would make it
        name = form.query_one("#name", Input)
        address.value = "127.0.0.1:7999"
        name.value = "Host \U0001f480 admin \u2573 superlongname-sup"
        await form.action_go()
        error = str(form.query_one("#form-error", Static).render())
        assert error == f"Your name here: {GUEST_NAME_RULE}."
        name.value = "Bea-2"
        assert form.player_name() == "bea-2"
