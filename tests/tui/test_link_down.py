"""A network table whose connection is down refuses a move or a resignation
with a sentence on the status line; the app stays up (a resignation there
once ended the app with a traceback)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from net.client import LinkDown
from tui.table.screen import TableScreen

from .conftest import make_app, play_launch, settle

DOWN = "the connection to the server is down: wait until it is back"


async def _link_down(*_: Any) -> None:
    raise LinkDown(DOWN)


async def test_resigning_and_playing_while_the_link_is_down_are_refused_in_words(
    dirs: Any,
) -> None:
    app = make_app(dirs, launch=play_launch(seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        # as a network client behaves while it reconnects (net/remote.py)
        screen.client.resign = _link_down  # type: ignore[method-assign]
        screen.client.play = _link_down  # type: ignore[method-assign]
        await pilot.press("escape")  # the menu
        await settle(pilot)
        await pilot.press("r")  # Resign
        await settle(pilot)
        await pilot.press("y")  # yes
        await settle(pilot)
        assert app.is_running and app.screen is screen and not screen.over
        status = str(screen.query_one("#status", Static).render())
        assert "Not resigned: the connection to the server is down. Wait until it is back." in (
            status
        )
        assert not await screen.submit(screen.legal[0])
        status = str(screen.query_one("#status", Static).render())
        assert "Not played: the connection to the server is down." in status
        assert screen.legal[0] not in status  # about the link, not the move
