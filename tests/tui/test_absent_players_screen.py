"""What a game screen at a table elsewhere says about absent players and a
host that closes: "Bea (away, 1:00)" while her grace runs, "computer for
Bea" once the computer plays her seat, in the subtitle, the seat rows and
the log; "Bea is back" when she takes it back; "The host closed the table"
at once when the server says so (a real server on 127.0.0.1 with the fake
clock of tests/net/netkit.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from net.remote import RemoteClient
from net.server import TableServer
from saves.store import SaveStore
from tests.net.netkit import FakeTime
from tui.widgets.event_log import EventLog

from .conftest import make_app, screen_text, settle
from .test_network_screens import _until


def log_text(screen: Any) -> str:
    return "\n".join(str(line.text) for line in screen.query_one(EventLog).lines)


async def test_an_absent_player_then_the_computer_then_the_player_again(
    dirs: Any, tmp_path: Path
) -> None:
    time = FakeTime()
    server = TableServer(SaveStore(tmp_path / "server"), clock=time.clock, sleep=time.sleep)
    host, port = await server.start("127.0.0.1", 0)
    app = make_app(dirs)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            ada = await RemoteClient.connect(host, port, "Ada")
            options = {"first_leader": "1", "target_score": 30}
            summary = await ada.create("domination", ["open", "open"], options=options)
            table_id = summary.table
            await ada.join(table_id, 0)
            bea = await RemoteClient.connect(host, port, "Bea")
            await bea.join(table_id, 1)
            token = bea.token
            assert token is not None
            await app.show_table(ada)
            screen: Any = app.screen
            await _until(pilot, lambda: "Ada vs Bea" in screen.sub_title, "both seated")

            await bea.close()  # Bea's connection drops: her seat is held
            # (the countdown runs on this machine's clock: a loaded one may show 0:59)
            away = re.compile(r"Bea \(away, (1:00|0:5\d)\)")
            await _until(pilot, lambda: away.search(screen.sub_title), "away")
            assert away.search(screen_text(app))  # her row too
            assert "Bea has left." in log_text(screen)
            # the log and what is kept name her, never her countdown of the moment
            assert screen.names == ["Ada", "Bea"] and away.fullmatch(screen.labels[1])
            # the prompt says how long she has to come back (N14)
            assert re.search(
                r"Waiting for Bea \(away: (1:00|0:5\d) left to come back\)|your move",
                str(screen.query_one("#status").render()),
            )

            await time.advance(server.limits.grace_seconds)
            await _until(pilot, lambda: "Computer for Bea" in screen.sub_title, "computer")
            assert "Computer for Bea" in screen_text(app)
            assert "The computer plays for Bea now." in log_text(screen)
            # the computer's moves for her are named as the computer's (N13)
            await _until(pilot, lambda: "Computer for Bea plays" in log_text(screen), "a move")
            assert "(away" not in log_text(screen)

            back = await RemoteClient.connect(host, port, "Bea")
            await back.rejoin(table_id, token)
            await _until(pilot, lambda: "Bea is back and plays" in log_text(screen), "back")
            assert screen.sub_title.endswith("Ada vs Bea")

            await server.close(farewell="the host closed the table")
            status = screen.query_one("#status")
            await _until(
                pilot, lambda: "The host closed the table" in str(status.render()), "closed"
            )
            assert screen.sub_title.startswith("the host closed the table · ")
            assert "The host closed the table" in log_text(screen)
            # what Ada saw is kept on her machine, the server's record out of reach
            closed = app.store.root / "network" / "closed"
            kept = json.loads((closed / f"{table_id}.json").read_text())
            assert kept["names"] == ["Ada", "Bea"] and kept["why"] == "the host closed the table"
            assert "The host closed the table" in log_text(screen)
            assert kept["events"] and kept["scores"] == list(screen.update.scores)
            # nothing reaches the table any more: no play keys, the menu stays
            offered = {b.binding.action for b in screen.active_bindings.values()}
            assert "play_chosen" not in offered and "pause" in offered
            assert "chat" not in offered  # a line would reach nobody
            # the footer is composed again after the next refresh: wait for it
            await settle(pilot, lambda: "^t" not in screen_text(app))
            assert "^t" not in screen_text(app)
            await back.close()
    finally:
        await server.close()
