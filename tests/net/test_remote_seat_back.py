"""A dropped client is ``reconnecting`` until its seat is back (net/remote.py,
net/remote_rejoin.py): a try's new connection being up, its hello answered,
is not the seat. The room test (tests/net/store/test_rooms.py) took a
player for back at another server while its rejoin was still on its way
there, or refused, and that server had no seat for it."""

from __future__ import annotations

import json
from pathlib import Path

from net.remote import RemoteClient

from .netkit import serving


async def test_a_dropped_client_is_reconnecting_until_its_rejoin_is_answered(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        # what the client said of its connection as each line came in
        heard: list[tuple[str, str]] = []
        clients: list[RemoteClient] = []

        def tap(line: bytes) -> None:
            if clients and line.strip():
                heard.append((json.loads(line)["type"], clients[0].connection))

        ada = await served.client("Ada", tap=tap)
        clients.append(ada)
        bo = await served.client("Bo")
        created = await ada.create("domination", ["open", "open"])
        await ada.join(created.table, 0)
        await bo.join(created.table, 1)
        await ada.wait_for(lambda u: bool(u.to_act))
        changes: list[str] = []
        ada.on_connection.append(changes.append)
        old_token = ada.token
        heard.clear()
        for conn in list(served.server.connections):
            if conn.seat == 0:
                conn.writer.transport.abort()  # the line breaks
        await ada.wait_for(lambda _: ada.token != old_token and ada.connection == "connected")
        # the new connection's welcome came before the rejoin was even sent
        assert ("welcome", "reconnecting") in heard, heard
        assert ("joined", "reconnecting") in heard, heard  # (read before it is taken in)
        assert changes == ["reconnecting", "connected"]
        for client in (ada, bo):
            await client.close()
