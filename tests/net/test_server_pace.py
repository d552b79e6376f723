"""A server's computer players may wait a moment before they answer (the
app's hosted server uses the player's bot pace, as at a local table)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from net.remote import RemoteClient
from net.server import TableServer
from saves.store import SaveStore

from .netkit import HANG, FakeTime


async def test_a_computer_player_answers_after_the_servers_pace(tmp_path: Path) -> None:
    time = FakeTime()
    server = TableServer(SaveStore(tmp_path), clock=time.clock, sleep=time.sleep, pace=0.5)
    host, port = await server.start("127.0.0.1", 0)
    try:
        ada = await RemoteClient.connect(host, port, "Ada")
        summary = await ada.create(
            "domination", ["open", "computer:easy"], options={"first_leader": "0"}
        )
        await ada.join(summary.table)
        table = server.tables[summary.table].table
        # Ada moves until the computer must answer (a lead it cannot follow
        # ends the round, and Ada leads again: the deal is fresh every run)
        while table.state.to_act() != (1,):
            update = await asyncio.wait_for(ada.wait_for(lambda u: bool(u.legal)), HANG)
            moves = [m for m in update.legal if m != "concede"]
            await ada.play(0, moves[0], update.state_id)
        moved = table.state_id
        await time.sleeping_until(time.now + 0.5)  # the computer's pace has begun
        await time.advance(0.4)
        assert table.state_id == moved  # still thinking: the pace has not passed
        await time.advance(0.2)
        answered = await asyncio.wait_for(ada.wait_for(lambda u: u.state_id > moved), HANG)
        assert answered.state_id == moved + 1
        await ada.close()
    finally:
        await server.close()
