"""What the servers of a room share in the store (issue 36): the fence on a
table's moves (both engines), and on PostgreSQL the heartbeats, the take-over
of a stopped server's tables (once) and the lobby's notices."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from net.store import KeptTable, Store, open_store
from net.store.engine import Stmt
from net.store.errors import StoreCorrupt, TableMoved
from net.store.pg_listen import LobbyListener
from saves.record import GameRecord
from tests.saves.helpers import played_record


def _start(record: GameRecord, moves: int) -> GameRecord:
    begun = record.copy()
    begun.moves = begun.moves[:moves]
    return begun


async def _own(store: Store, table_id: str, owner: str) -> None:
    await store.engine.write(
        [Stmt("UPDATE game_tables SET owner = ? WHERE id = ?", (owner, table_id))]
    )


async def test_a_table_taken_by_another_server_keeps_nothing_more_from_this_one(
    store: Store,
) -> None:
    whole = played_record(6, record_id="00aa00aa")
    store.tables.owner = "A"
    await store.tables.catch_up(_start(whole, 2))
    await _own(store, whole.id, "A")
    await store.tables.catch_up(_start(whole, 4))  # A's own: kept
    await _own(store, whole.id, "B")  # B took it over
    with pytest.raises(TableMoved, match="another server"):
        await store.tables.catch_up(whole)
    kept = await store.tables.load_record(whole.id)
    assert kept.moves == whole.moves[:4]


@pytest.mark.slow
async def test_a_stopped_servers_table_is_taken_over_once(pg_url: str, tmp_path: Path) -> None:
    a, b, c = [await open_store(pg_url, tmp_path) for _ in range(3)]
    try:
        record = played_record(3, record_id="00bb00bb")
        a.seats.owner = a.tables.owner = "A"
        await a.tables.catch_up(record)
        await a.seats.keep(record.id, KeptTable("computer", frozenset({0, 1}), {}, True))
        await a.room.beat("A", "127.0.0.2:1", 1)
        assert await b.room.orphans(5.0) == []  # A beats: nothing to take
        assert not await b.room.take(record.id, "A", "B", 5.0)
        await a.room.stopped("A")
        assert await b.room.orphans(5.0) == [(record.id, "A")]
        taken = await asyncio.gather(
            b.room.take(record.id, "A", "B", 5.0), c.room.take(record.id, "A", "C", 5.0)
        )
        assert sorted(taken) == [False, True]
        owner = "B" if taken[0] else "C"
        assert await a.room.owner_of(record.id) == owner
        assert await a.room.lost("A", [record.id]) == [record.id]
        assert (await b.tables.load_record(record.id)).moves == record.moves
    finally:
        for store in (a, b, c):
            await store.close()


@pytest.mark.slow
async def test_servers_taking_over_at_once_share_the_tables_and_never_take_one_twice(
    pg_url: str, tmp_path: Path
) -> None:
    a, b, c = [await open_store(pg_url, tmp_path) for _ in range(3)]
    try:
        a.seats.owner = a.tables.owner = "A"
        records = [played_record(2 + i, record_id=f"00dd00{i:02x}") for i in range(9)]
        for record in records:
            await a.tables.catch_up(record)
            await a.seats.keep(record.id, KeptTable("computer", frozenset({0, 1}), {}, True))
        await a.room.beat("A", "127.0.0.2:1", 9)
        # A beats: its tables are not taken, however many are asked for
        assert await b.room.take_share("A", "B", 5.0, most=9) == []
        assert await b.room.take_share("A", "B", 5.0, most=1, among=[records[0].id]) == []
        await a.room.stopped("A")
        # the tables players came back for at B; a share of all of them at C
        wanted = sorted(r.id for r in records[5:8])
        b_took, c_took = await asyncio.gather(
            b.room.take_share("A", "B", 5.0, most=3, among=wanted),
            c.room.take_share("A", "C", 5.0, most=5),
        )
        assert set(b_took) <= set(wanted)
        assert not set(b_took) & set(c_took)
        assert len(c_took) <= 5
        rest = await c.room.take_share("A", "C", 5.0, most=9)  # what is left
        assert sorted(b_took + c_took + rest) == sorted(r.id for r in records)
        assert not set(rest) & set(b_took + c_took)
        for table_id in b_took:
            assert await a.room.owner_of(table_id) == "B"
        assert await c.room.take_share("A", "C", 0.0, most=9) == []  # nothing is left
        # the share's seats and records, read together: every move kept
        b.seats.owner = b.tables.owner = "B"
        kept = await b.seats.kept(among=b_took)
        assert sorted(kept) == sorted(b_took)
        loaded = await b.tables.load_records([*b_took, "00ffffff"])
        by_id = {r.id: r for r in records}
        for table_id in b_took:
            found = loaded[table_id]
            assert isinstance(found, GameRecord)
            assert found.moves == by_id[table_id].moves
        assert isinstance(loaded["00ffffff"], StoreCorrupt)
    finally:
        for store in (a, b, c):
            await store.close()


@pytest.mark.slow
async def test_a_lobby_change_is_heard_by_the_rooms_listeners(pg_url: str, tmp_path: Path) -> None:
    store = await open_store(pg_url, tmp_path)
    heard: list[dict[str, object]] = []
    connected = asyncio.Event()

    async def on_connect() -> None:
        connected.set()

    listener = LobbyListener(
        store.engine.url,  # type: ignore[attr-defined]
        store.lobby.channel,
        lambda payload: heard.append(json.loads(payload)),
        on_connect,
    )
    listener.start()
    try:
        await asyncio.wait_for(connected.wait(), 30)
        record = played_record(1, record_id="00cc00cc")
        await store.tables.save_record(record)
        await store.lobby.put(record.id, {"table": record.id, "n": 1}, owner="A")
        await store.lobby.put(record.id, None, owner="A")
        while len(heard) < 2:
            await asyncio.sleep(0.01)
        assert heard == [
            {"id": record.id, "owner": "A", "row": {"table": record.id, "n": 1}},
            {"id": record.id, "owner": "A", "row": None},
        ]
    finally:
        await listener.close()
        await store.close()
