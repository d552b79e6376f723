"""What a game screen at a table elsewhere offers works there: the move
clock shows from the first round even when the game began before the screen
came up; no Hint key at a table that gives none, nor for a spectator; no
Resign for a spectator (a real server on 127.0.0.1)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from net.remote import RemoteClient
from net.server import TableServer
from saves.store import SaveStore
from tui.screens.pause import PauseScreen

from .conftest import make_app, screen_text
from .test_network_screens import _until

SPECTATING = {"pause", "rules", "score_history", "chat"}


def actions(screen: Any) -> set[str]:
    """What the screen's keys do now (the footer's and the hidden ones)."""
    return {b.binding.action.split("(")[0] for b in screen.active_bindings.values()}


async def test_the_countdown_from_the_start_and_only_the_keys_that_work(
    dirs: Any, tmp_path: Path
) -> None:
    server = TableServer(SaveStore(tmp_path / "server"))
    host, port = await server.start("127.0.0.1", 0)
    app = make_app(dirs)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            ada = await RemoteClient.connect(host, port, "Ada")
            summary = await ada.create("trick", ["open", "open"])
            await ada.join(summary.table, 0)
            bo = await RemoteClient.connect(host, port, "Bo")
            await bo.join(summary.table, 1)  # the game starts: both clocks run
            await bo.wait_for(lambda u: bool(u.legal))
            await app.show_table(bo)
            screen: Any = app.screen
            await _until(pilot, lambda: screen.is_mounted, "the game screen")
            await pilot.pause()
            # round 1, before anyone has moved: Bo's countdown shows at once
            assert re.search(r"\b[01]:\d\d left", screen_text(app))
            offered = actions(screen)
            assert "hint" not in offered  # a server gives no hints
            assert "h Hint" not in screen_text(app)
            assert {"pick", "lock_in", "pause", "chat"} <= offered

            eve = await RemoteClient.connect(host, port, "Eve")
            await eve.watch(summary.table)
            await app.show_table(eve)
            watching: Any = app.screen
            await _until(pilot, lambda: watching.is_mounted, "the spectator's screen")
            # a spectator: nothing to play, the rest as for a player
            assert actions(watching) - {"quit", "command_palette"} == SPECTATING
            await pilot.press("escape")
            await _until(pilot, lambda: isinstance(app.screen, PauseScreen), "the menu")
            menu = app.screen
            assert isinstance(menu, PauseScreen) and not menu.can_resign
            assert not menu.check_action("choose", ("resign",))
            assert "Resign" not in screen_text(app)  # not offered at all
            await ada.close()
    finally:
        await server.close()


async def test_an_open_seat_is_drawn_open_and_play_keys_wait_for_the_start(
    dirs: Any, tmp_path: Path
) -> None:
    server = TableServer(SaveStore(tmp_path / "server"))
    host, port = await server.start("127.0.0.1", 0)
    app = make_app(dirs)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            ada = await RemoteClient.connect(host, port, "Ada")
            summary = await ada.create("trick", ["open", "open"])
            await ada.join(summary.table, 0)
            await app.show_table(ada)
            screen: Any = app.screen
            await _until(pilot, lambda: screen.is_mounted, "the game screen")
            await pilot.pause()
            assert "Player 2 (open seat)" in screen.sub_title
            assert "Player 2 (open seat)" in screen_text(app)
            # the score line holds every seat and the round whole at 80 columns
            score_line = next(
                line for line in screen_text(app).splitlines() if "difference" in line
            )
            assert "Player 2 (open) 0" in score_line and score_line.rstrip().endswith("cap 50")
            assert "choosing" not in screen_text(app)  # nobody there to choose
            # nothing to play until the seat is taken: no Lock in, no picks
            offered = actions(screen)
            assert "lock_in" not in offered and "pick" not in offered
            assert {"pause", "rules", "chat"} <= offered
            # nor anything to resign before the game begins
            await pilot.press("escape")
            await _until(pilot, lambda: isinstance(app.screen, PauseScreen), "the menu")
            assert "Resign" not in screen_text(app)
            await pilot.press("escape")
            await _until(pilot, lambda: app.screen is screen, "the table again")
            bo = await RemoteClient.connect(host, port, "Bo")
            await bo.join(summary.table, 1)
            await _until(pilot, lambda: "lock_in" in actions(screen), "the play keys")
            assert screen.sub_title.endswith("Ada vs Bo")
            await bo.close()
    finally:
        await server.close()
