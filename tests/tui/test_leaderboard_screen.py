"""The lobby's leaderboard (``b``) and the name kept at a server with the
secret the app keeps (tui/screens/stats_leaderboard.py, tui/name_secrets.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import DataTable, Input

from net.remote import RemoteClient
from net.server import TableServer
from saves.store import SaveStore
from tui.name_secrets import secret_for
from tui.screens.lobby import LobbyScreen
from tui.screens.stats_leaderboard import LeaderboardScreen

from .conftest import make_app, screen_text
from .test_network_screens import _join, _until


async def _finish_a_game(host: str, port: int) -> None:
    """Bo beats Cy at the server: Cy resigns at once."""
    bo = await RemoteClient.connect(host, port, "Bo")
    cy = await RemoteClient.connect(host, port, "Cy")
    table = (await bo.create("domination", ["open", "open"])).table
    await bo.join(table, 0)
    await cy.join(table, 1)
    await cy.wait_for(lambda u: bool(u.to_act))
    await cy.resign(1)
    await bo.wait_for(lambda u: u.over)
    await bo.close()
    await cy.close()


async def test_the_lobby_opens_the_servers_leaderboard(dirs: Any, tmp_path: Path) -> None:
    server = TableServer(SaveStore(tmp_path / "server"))
    host, port = await server.start("127.0.0.1", 0)
    await _finish_a_game(host, port)
    for hosted in server.tables.values():
        await hosted.table.idle()
    app = make_app(dirs)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await _join(pilot, host, port, "Ada")
            # the app claimed the name, and keeps its secret beside the settings
            assert len(secret_for(dirs[1], f"{host}:{port}", "Ada")) == 32
            await pilot.press("b")
            await _until(pilot, lambda: isinstance(app.screen, LeaderboardScreen), "the board")
            board = app.screen
            table = board.query_one(DataTable)
            await _until(pilot, lambda: table.row_count == 2, "two players")
            assert [str(c) for c in table.get_row_at(0)][:4] == ["1", "Bo", "1", "1"]
            assert [str(c) for c in table.get_row_at(1)][:5] == ["2", "Cy", "1", "0", "1"]
            text = screen_text(app)
            assert "Domination: the players here, best rating first" in text
            assert "2 players." in text
            table.focus()
            await pilot.press("down", "enter")  # Cy's whole record there
            await _until(
                pilot, lambda: "1 game: 0 wins, 1 loss, 1 resignation" in screen_text(app), "Cy"
            )
            assert "Bo: 0-1-0 (0%)" in screen_text(app)
            await pilot.press("escape")
            await _until(pilot, lambda: not isinstance(app.screen, LeaderboardScreen), "lobby")
        # another computer's app (no secret) cannot say hello as Ada there now
        other_config = tmp_path / "other-config"
        other_config.mkdir()
        other = make_app((dirs[0], other_config))
        async with other.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("j")
            await pilot.pause()
            other.screen.query_one("#address", Input).value = f"{host}:{port}"
            other.screen.query_one("#name", Input).value = "Ada"
            await pilot.press("ctrl+s")
            await _until(
                pilot, lambda: "kept by another player" in screen_text(other), "the refusal"
            )
            assert not isinstance(other.screen, LobbyScreen)
    finally:
        await server.close()


def test_a_broken_secrets_file_is_as_good_as_none(tmp_path: Path) -> None:
    from tui.name_secrets import FILE, keep_secret

    (tmp_path / FILE).write_text("{not json")
    assert secret_for(tmp_path, "h:1", "Ada") == ""  # claim the name afresh
    keep_secret(tmp_path, "h:1", "Ada", "s" * 32)
    keep_secret(tmp_path, "h:2", "Bo", "t" * 32)
    assert secret_for(tmp_path, "h:1", "ADA") == "s" * 32  # names without regard to case
    assert secret_for(tmp_path, "h:2", "Ada") == ""  # one server's secret is not another's
    assert (tmp_path / FILE).stat().st_mode & 0o077 == 0  # the owner's only
