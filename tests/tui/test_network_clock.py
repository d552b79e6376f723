"""The move clock on a network game screen, read from the server's
milliseconds: a seat taken back with `rejoin` shows its countdown at once,
from the snapshot of `joined`, before any update comes (none may come for a
while: the other player is thinking)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual.widgets import Static

from net.remote import RemoteClient
from net.server import TableServer
from saves.store import SaveStore

from .conftest import make_app


async def test_a_rejoined_seat_shows_its_clock_before_any_update(dirs: Any, tmp_path: Path) -> None:
    server = TableServer(SaveStore(tmp_path / "server"))
    host, port = await server.start("127.0.0.1", 0)
    app = make_app(dirs)
    try:
        ada = await RemoteClient.connect(host, port, "Ada")
        table = (await ada.create("trick", ["open", "open"], options={"timer": 60})).table
        await ada.join(table, 0)
        bo = await RemoteClient.connect(host, port, "Bo")
        await bo.join(table, 1)  # the game begins: both must choose, each with a minute
        token = ada.token
        assert token is not None
        await ada.close()
        again = await RemoteClient.connect(host, port, "Ada")
        await again.rejoin(table, token)
        left = again.snapshot(0).time_left
        assert left is not None and 55 < left <= 60  # read from `clocks_ms`
        async with app.run_test(size=(80, 24)) as pilot:
            await app.show_table(again)
            screen: Any = app.screen
            for _ in range(400):
                if screen.is_mounted:
                    break
                await pilot.pause()
                await asyncio.sleep(0)
            screen.show_clock()  # as its timer does every second
            shown = str(screen.query_one("#clock", Static).render())
            assert shown in {"1:00 left", "0:59 left", "0:58 left", "0:57 left"}, shown
        await again.close()
        await bo.close()
    finally:
        await server.close()
