"""The bound on watching (issue 34's `watch` attack): watches from one
address are rate-limited, and a connection refused `too_fast` for a large
answer is not read for a while, so that a loop of `watch` + `leave` costs the
server a line a pause; people who watch one table after another never meet
it. All on the fake clock of netkit.py."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from net import protocol as p
from net.server import Limits
from net.server.connection import Connection

from .netkit import FakeTime, serving
from .test_server_parts import Rig, last


async def test_a_watch_loop_from_one_address_is_refused_beyond_its_rate_and_paused(
    tmp_path: Path,
) -> None:
    # byte budgets out of the way: the watch rate is what is tested
    rig = Rig(tmp_path, bytes_burst=10**9, address_bytes_burst=10**9)
    limits = rig.server.limits
    ada, _ = rig.peer("Ada", "10.0.0.1")
    table = await rig.table(ada)
    lobby, seats = rig.server.lobby, rig.server.seats
    attackers = [rig.peer(f"W{i}", "10.0.0.9")[0] for i in range(16)]
    watched = 0
    refused: list[tuple[p.ProtocolError, float]] = []
    for peer in attackers * 3:  # 48 watch + leave pairs at once from 16 connections
        try:
            lobby.watch(peer, p.Watch(table=table))
            watched += 1
        except p.ProtocolError as err:
            refused.append((err, peer.reads_paused_until))
        seats.vacate(peer)
    assert watched == limits.watches_per_address_burst == 20
    assert len(refused) == 28
    for err, paused_until in refused:
        assert err.code == p.TOO_FAST and "2 watches a second" in err.message
        assert "ask again in 1.0 s" in err.message
        # the refused connection is not read for a second
        assert paused_until == rig.time.now + limits.refused_pause_seconds
    assert rig.server.tables[table].spectators == set()  # nothing left behind
    # another address watches as usual meanwhile
    eve, sent = rig.peer("Eve", "10.0.0.2")
    lobby.watch(eve, p.Watch(table=table))
    assert last(sent)["type"] == "watching" and eve.reads_paused_until == 0.0
    # and the address's rate comes back: two watches a second
    await rig.time.advance(1.0)
    results = []
    for peer in attackers[:3]:
        try:
            lobby.watch(peer, p.Watch(table=table))
            results.append("watching")
        except p.ProtocolError as err:
            results.append(err.code)
        seats.vacate(peer)
    assert results == ["watching", "watching", p.TOO_FAST]
    await rig.close()


async def test_people_watching_one_table_after_another_never_meet_the_bound(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path)  # the server's own limits
    ada, _ = rig.peer("Ada", "10.0.0.1")
    tables = [await rig.table(ada) for _ in range(6)]
    lobby, seats = rig.server.lobby, rig.server.seats
    # a club of 16 behind one address starts watching together
    club = [rig.peer(f"C{i}", "10.0.0.9") for i in range(16)]
    for i, (peer, sent) in enumerate(club):
        lobby.watch(peer, p.Watch(table=tables[i % len(tables)]))
        assert last(sent)["type"] == "watching"
    for peer, _ in club:
        seats.vacate(peer)
    await rig.time.advance(10.0)
    # a person (or a lobby) going through the tables: six at once, then a
    # new one every 0.6 s for 36 s, on one connection (66 watches: past the burst)
    person, sent = rig.peer("Bo", "10.0.0.9")
    for table in tables:
        lobby.watch(person, p.Watch(table=table))
        assert last(sent)["type"] == "watching"
        seats.vacate(person)
    for i in range(60):
        await rig.time.advance(0.6)
        lobby.watch(person, p.Watch(table=tables[i % len(tables)]))
        assert last(sent)["type"] == "watching", last(sent)
        seats.vacate(person)
    assert person.reads_paused_until == 0.0
    assert not any(m["type"] == "error" for m in sent.messages())
    await rig.close()


async def test_a_player_at_a_game_is_refused_but_never_paused(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    ada, _ = rig.peer("Ada")
    bo, _ = rig.peer("Bo")
    table = await rig.table(ada)
    await rig.server.seats.join(ada, p.Join(table=table, seat=0))
    await rig.server.seats.join(bo, p.Join(table=table, seat=1))
    lurker, _ = rig.peer("Lurker")
    for peer in (ada, lurker):
        peer.bytes.charge(10**6)  # its byte budget spent
        with pytest.raises(p.ProtocolError) as refused:
            rig.server.lobby.list_tables(peer, p.ListTables())
        assert refused.value.code == p.TOO_FAST
    assert ada.reads_paused_until == 0.0  # its moves and pongs still get through
    assert lurker.reads_paused_until == rig.time.now + rig.server.limits.refused_pause_most_seconds
    await rig.close()


async def test_a_paused_connection_reads_nothing_until_the_pause_is_over() -> None:
    time = FakeTime()
    ours, theirs = socket.socketpair()
    _, writer = await asyncio.open_connection(sock=ours)
    reader = asyncio.StreamReader()
    reader.feed_data(b"first\nsecond\nthird\n")  # all there to be read
    conn = Connection(reader, writer, "10.0.0.9", Limits(), time.clock, sleep=time.sleep)
    lines = conn.lines()
    assert await anext(lines) == b"first"
    conn.pause_reads(0.2)  # a refusal: at least a second
    waiting = asyncio.ensure_future(anext(lines))
    await time.sleeping_until(time.now + 1.0)
    await time.advance(0.9)
    assert not waiting.done()
    await time.advance(0.1)
    assert await asyncio.wait_for(waiting, 10) == b"second"
    # a close ends a pause at once
    conn.pause_reads(3.0)
    waiting = asyncio.ensure_future(anext(lines))
    await time.sleeping_until(time.now + 3.0)
    conn.close()
    with pytest.raises(StopAsyncIteration):
        await asyncio.wait_for(waiting, 10)
    theirs.close()


async def test_a_watch_loop_over_the_wire_is_answered_a_pause_later(tmp_path: Path) -> None:
    limits = Limits(watches_per_address_burst=2, watches_per_address_per_second=1.0)
    async with serving(tmp_path, limits) as served:
        ada = await served.client("Ada")
        table = (await ada.create("domination", ["open", "open"])).table
        loop = await served.raw()
        await loop.hello("Mallory")
        for i in range(4):
            loop.send({"type": "watch", "id": 10 + i, "table": table})
            loop.send({"type": "leave", "id": 20 + i})
        replies = [await loop.recv() for _ in range(5)]
        assert [(r["type"], r["id"]) for r in replies] == [
            ("watching", 10),
            ("ok", 20),
            ("watching", 11),
            ("ok", 21),
            ("error", 12),
        ]
        assert replies[-1]["code"] == p.TOO_FAST
        # the rest waits in the socket, unread, for the pause; then it is answered
        await served.time.sleeping_until(served.time.now + limits.refused_pause_seconds)
        await served.time.advance(limits.refused_pause_seconds)
        replies = [await loop.recv() for _ in range(3)]
        assert [(r["type"], r["id"]) for r in replies] == [
            ("ok", 22),
            ("watching", 13),
            ("ok", 23),
        ]
        loop.close()
        await ada.close()
