"""The Join and Host forms say what will work: the addresses a friend can
use (or that only this machine can reach the server), a refused connection
in words, the last server joined offered again, one label for the Connect
key; and an app that hosts asks before quitting while others play there."""

from __future__ import annotations

import asyncio
import errno
import socket
from typing import Any

import pytest
from textual.widgets import Input, Static

from net.remote import RemoteClient
from tui.network import host_banner
from tui.screens.confirm import ConfirmScreen
from tui.screens.join import JoinScreen, default_name, unreachable

from .conftest import make_app, screen_text, settle
from .test_network_screens import _until


def test_the_host_banner_says_who_can_reach_the_server() -> None:
    lan = ["192.168.1.5:7420", "127.0.0.1:7420"]
    assert host_banner(lan, everyone=True) == (
        "Hosting: give a friend 192.168.1.5:7420 (on this machine: 127.0.0.1:7420)."
    )
    only_here = host_banner(["127.0.0.1:7420"], everyone=False)
    assert only_here.startswith("Hosting on 127.0.0.1:7420: only this machine can reach it.")
    assert "let other machines join" in only_here
    no_network = host_banner(["127.0.0.1:7420"], everyone=True)
    assert "only this machine can reach it" in no_network


def test_a_failed_connection_in_words() -> None:
    refused = ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused")
    assert unreachable("127.0.0.1", 43999, refused) == (
        "nothing is listening at 127.0.0.1:43999: is the server running, on that port?"
    )
    failed = OSError("Multiple exceptions: [Errno 111] Connect call failed ('::1', 43999, 0, 0)")
    assert unreachable("localhost", 43999, failed).startswith("nothing is listening at")
    unknown = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    assert unreachable("nowhere.invalid", 7420, unknown) == (
        "no machine called nowhere.invalid can be found: check the address"
    )


def test_the_name_offered_is_a_person_s(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("USER", "LOGNAME"):
        monkeypatch.setenv(variable, "root")
    assert default_name("") == "Player"
    assert default_name("Bea") == "Bea"


async def test_join_remembers_the_server_and_names_its_key_as_its_button(
    dirs: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CARDTABLE_SERVER", raising=False)
    with socket.socket() as free:  # a port where nothing listens
        free.bind(("127.0.0.1", 0))
        dead = free.getsockname()[1]
    app = make_app(dirs)
    port = await app.host_server(0, everyone=False)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("j")
            await settle(pilot)  # (the form laid out whole before it is read)
            assert isinstance(app.screen, JoinScreen)
            text = screen_text(app)
            assert "Connect (Ctrl+S)" in text and "^s Connect" in text and "Go" not in text
            app.screen.query_one("#address", Input).value = f"127.0.0.1:{dead}"
            await pilot.press("ctrl+s")
            error = app.screen.query_one("#form-error", Static)
            await _until(pilot, lambda: "Nothing is listening" in str(error.render()), "refused")
            said = str(error.render())
            assert said.startswith(f"Nothing is listening at 127.0.0.1:{dead}:")
            assert said.endswith("on that port?")
            app.screen.query_one("#address", Input).value = f"127.0.0.1:{port}"
            await pilot.press("ctrl+s")
            await _until(pilot, lambda: app.settings.last_server != "", "remembered")
            assert app.settings.last_server == f"127.0.0.1:{port}"
        again = make_app(dirs)  # a restarted app offers it again
        async with again.run_test(size=(80, 24)) as pilot:
            await pilot.press("j")
            await settle(pilot)
            assert again.screen.query_one("#address", Input).value == f"127.0.0.1:{port}"
    finally:
        if app.hosted is not None:  # (the app closes it as it quits)
            await app.hosted.close()
        app.bot_threads.shutdown(wait=False)


async def test_the_host_is_asked_before_quitting_while_others_play(dirs: Any) -> None:
    app = make_app(dirs)
    port = await app.host_server(0, everyone=False)
    bea = await RemoteClient.connect("127.0.0.1", port, "Bea")
    told = asyncio.Event()
    bea.watch_connection(lambda state: told.set() if state == "closed" else None)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            assert app.guests_at_hosted_tables() == 0
            table = await bea.create("domination", ["open", "computer:easy"])
            await bea.join(table.table)
            assert app.guests_at_hosted_tables() == 1
            await pilot.press("ctrl+q")
            await settle(pilot)
            assert isinstance(app.screen, ConfirmScreen)
            assert "1 other person is at tables of the server you host" in screen_text(app)
            await pilot.press("n")  # stay
            await pilot.pause()
            assert not isinstance(app.screen, ConfirmScreen) and app.is_running
            await pilot.press("ctrl+q")
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
        await asyncio.wait_for(told.wait(), 10)  # Bea is told as the app quits
        assert bea.farewell == "the host closed the table"
    finally:
        await bea.close()
        if app.hosted is not None:
            await app.hosted.close()
        app.bot_threads.shutdown(wait=False)


def test_the_lobby_s_help_page_states_the_policy() -> None:
    from tui.screens.lobby import LobbyScreen
    from tui.screens.rules import rules_text

    assert any(getattr(b, "action", "") == "help" for b in LobbyScreen.BINDINGS)
    page = rules_text("network")
    assert "Only that player takes the seat back" in page
    assert "The host closed the table" in page
