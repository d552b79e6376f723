"""Calling a player who looks at another window (tui/notify.py): which escape
sequence each terminal gets, that other players' text cannot break out of it,
and, through the real app at a real table server, that the bell and the
notification go out when the opponent moves and the terminal has no focus,
and not when it has or the settings say no."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from textual import events

from net.server import TableServer
from saves.store import SaveStore
from tui.notify import (
    desktop_protocols,
    notification,
    terminal_bytes,
    through_tmux,
)

from .conftest import make_app

if TYPE_CHECKING:
    from net.remote import RemoteClient

ESC, BEL = "\x1b", "\x07"


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"TERM": "xterm-kitty"}, ("osc99",)),
        ({"TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"}, ("osc99",)),
        ({"TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"}, ("osc9",)),
        ({"TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"}, ("osc9",)),
        ({"TERM": "xterm-ghostty"}, ("osc9",)),
        ({"TERM": "foot"}, ("osc777",)),
        ({"TERM": "rxvt-unicode-256color"}, ("osc777",)),
        ({"TERM": "xterm-256color", "VTE_VERSION": "7600"}, ("osc777",)),
        # a terminal we cannot tell (xterm, the Linux console, over SSH): bell only
        ({"TERM": "xterm-256color"}, ()),
        ({"TERM": "linux"}, ()),
        ({}, ()),
        # the player knows better
        ({"TERM": "xterm-256color", "CARDTABLE_NOTIFY": "osc777, osc9"}, ("osc9", "osc777")),
        ({"TERM": "xterm-kitty", "CARDTABLE_NOTIFY": "none"}, ()),
    ],
)
def test_each_terminal_gets_the_sequence_it_shows(
    env: dict[str, str], expected: tuple[str, ...]
) -> None:
    assert desktop_protocols(env) == expected


def test_the_three_sequences() -> None:
    assert notification("cardtable", "Your turn", "osc9") == f"{ESC}]9;cardtable: Your turn{BEL}"
    assert (
        notification("cardtable", "Your turn", "osc777")
        == f"{ESC}]777;notify;cardtable;Your turn{BEL}"
    )
    kitty = notification("cardtable", "Your turn", "osc99")
    assert kitty.count(f"{ESC}]99;") == 2 and kitty.endswith(f"p=body;Your turn{ESC}\\")


@pytest.mark.parametrize("protocol", ["osc9", "osc777", "osc99"])
def test_a_hostile_name_cannot_end_the_sequence_or_start_another(protocol: Any) -> None:
    name = f"Bo{BEL}{ESC}]0;pwned{BEL};x{ESC}\\\x9c\u202e"
    sent = notification("cardtable", f"Your turn: Ada vs {name}", protocol)
    framing = {"osc9": (1, 1), "osc777": (1, 1), "osc99": (4, 0)}[protocol]
    assert (sent.count(ESC), sent.count(BEL)) == framing
    assert "\x9c" not in sent and "\u202e" not in sent
    if protocol == "osc777":  # its fields are split at ';': the name adds none
        assert sent.count(";") == 3


def test_inside_tmux_the_sequence_passes_through_with_its_escapes_doubled() -> None:
    env = {"TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "KITTY_WINDOW_ID": "3"}
    sent = terminal_bytes("cardtable", "Your turn", env, bell=True, desktop=True)
    assert sent.startswith(BEL + f"{ESC}Ptmux;{ESC}{ESC}]99;")
    assert through_tmux(f"{ESC}]9;x{BEL}") == f"{ESC}Ptmux;{ESC}{ESC}]9;x{BEL}{ESC}\\"


def test_each_can_be_turned_off() -> None:
    env = {"TERM": "foot"}
    assert terminal_bytes("t", "b", env, bell=False, desktop=False) == ""
    assert terminal_bytes("t", "b", env, bell=True, desktop=False) == BEL
    assert terminal_bytes("t", "b", env, bell=False, desktop=True).startswith(f"{ESC}]777;")


async def _until(pilot: Any, condition: Any, what: str) -> None:
    for _ in range(400):
        if condition():
            return
        await pilot.pause()
        await asyncio.sleep(0)
    raise AssertionError(f"never happened: {what}")


@asynccontextmanager
async def ada_and_bo(
    tmp_path: Path, options: dict[str, Any] | None = None
) -> AsyncIterator[tuple[RemoteClient, RemoteClient]]:
    """A server with Ada and Bo seated at a Domination table."""
    from net.remote import RemoteClient

    server = TableServer(SaveStore(tmp_path / "server"))
    host, port = await server.start("127.0.0.1", 0)
    ada = await RemoteClient.connect(host, port, "Ada")
    bo = await RemoteClient.connect(host, port, "Bo")
    try:
        summary = await ada.create("domination", ["open", "open"], options=options)
        await ada.join(summary.table)
        await bo.join(summary.table)
        yield ada, bo
    finally:
        await ada.close()
        await bo.close()
        await server.close()


async def test_an_unfocused_app_calls_the_player_when_the_opponent_moves(
    dirs: Any, tmp_path: Path, sent_to_terminal: list[str]
) -> None:
    sent = sent_to_terminal
    app = make_app(dirs)
    # a match of 50 rounds: the turn comes back to Ada however the cards fall
    # (to the default target score, a deal now and then ended the game first:
    # nobody was left to act)
    match = {"target_score": 0, "rounds": 50}
    async with ada_and_bo(tmp_path, match) as (ada, bo), app.run_test(size=(80, 24)) as pilot:
        await app.show_table(ada)
        screen: Any = app.screen
        await _until(pilot, lambda: screen.is_mounted, "the game screen")

        async def bo_moves() -> None:
            """Play on (Ada by the screen, Bo by his client) until Bo's
            move gives the turn back to Ada."""
            for _ in range(40):
                await _until(
                    pilot,
                    lambda: screen.my_turn or bo.snapshot(1).must_act(1),
                    "someone to act",
                )
                if screen.my_turn:
                    before = screen.update.state_id
                    await screen.submit(screen.legal[0])
                    await _until(pilot, lambda b=before: screen.update.state_id > b, "Ada's move")
                    continue
                update = bo.snapshot(1)
                await bo.play(1, update.legal[0], update.state_id)
                await _until(
                    pilot, lambda b=update.state_id: screen.update.state_id > b, "Bo's move"
                )
                if screen.my_turn:
                    return
            raise AssertionError("the turn never came back to Ada")

        await bo_moves()
        assert sent == []  # the terminal has focus: Ada is looking
        app.post_message(events.AppBlur())
        await _until(pilot, lambda: not app.app_focus, "the terminal losing focus")
        await bo_moves()
        assert len(sent) == 1
        assert sent[0].startswith(BEL + f"{ESC}]9;cardtable: Your turn at Domination: ")
        assert "Bo" in sent[0]
        app.update_settings(away_bell=False, away_notifications=False)
        await bo_moves()
        assert len(sent) == 1  # both turned off: nothing
        app.update_settings(away_bell=True)
        await bo_moves()
        assert sent[1] == BEL


async def test_an_unfocused_app_calls_the_player_when_a_rematch_is_asked_for(
    dirs: Any, tmp_path: Path, sent_to_terminal: list[str]
) -> None:
    import random

    from ..net.test_server_games import play_out

    sent = sent_to_terminal
    app = make_app(dirs)
    async with (
        ada_and_bo(tmp_path, {"target_score": 20}) as (ada, bo),
        app.run_test(size=(80, 24)) as pilot,
    ):
        await app.show_table(ada)
        screen: Any = app.screen
        await _until(pilot, lambda: screen.is_mounted, "the game screen")
        app.post_message(events.AppBlur())
        await _until(pilot, lambda: not app.app_focus, "the terminal losing focus")
        await play_out([ada, bo], random.Random(5))  # Ada's moves through her client
        await _until(pilot, lambda: screen.over, "the game's end on Ada's screen")
        before = len(sent)
        await bo.rematch()
        await _until(pilot, lambda: len(sent) > before, "a call for the rematch")
        assert sent[-1].startswith(BEL + f"{ESC}]9;cardtable: Bo asks for a rematch at ")
