"""The store, on both engines: records and moves, grouping, seats and
tokens, names, standings, the lobby, migrations."""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import replace
from pathlib import Path

import pytest

from net.store import KeptTable, NameKept, Store, StoreConflict, StoreCorrupt, open_store
from saves.record import GameRecord
from saves.stats import compute
from tests.fake_time import FakeTime
from tests.saves.helpers import finished_record, played_record


def _fresh(record: GameRecord) -> GameRecord:
    """The record as a table starts it: no move yet."""
    empty = record.copy()
    empty.moves, empty.status, empty.result = [], "playing", None
    return empty


async def test_moves_come_back_as_the_record(store: Store) -> None:
    """Each move kept on its own (two tables at once) reads back as the whole
    record, and the move that ends the game finishes it."""
    whole, short = finished_record(record_id="0fedcba9"), played_record(20, record_id="0123abcd")
    for record in (whole, short):
        await store.tables.save_record(_fresh(record))

    async def play(record: GameRecord) -> None:
        for ply, (seat, move) in enumerate(record.moves):
            last = ply == len(record.moves) - 1 and record.result is not None
            await store.tables.record_move(
                record.id, ply, seat, move, result=record.result if last else None
            )

    await asyncio.gather(play(whole), play(short))
    back = await store.tables.load_record(whole.id)
    assert back.moves == whole.moves and back.status == "finished"
    assert back.result == whole.result
    assert back.replay().is_over
    partial = await store.tables.load_record(short.id)
    assert partial.moves == short.moves and partial.status == "playing"
    assert [r.id for r in await store.tables.records("finished")] == [whole.id]


async def test_a_ply_holds_one_move(store: Store) -> None:
    record = played_record(3)
    await store.tables.save_record(record)
    seat, move = record.moves[2]
    await store.tables.record_move(record.id, 2, seat, move)  # the same again: a retry
    with pytest.raises(StoreConflict, match="move 3 is"):
        await store.tables.record_move(record.id, 2, seat, move + "x")
    with pytest.raises(StoreConflict):
        await store.tables.record_move("deadbeef", 0, 0, move)  # no such table
    assert (await store.tables.load_record(record.id)).moves == record.moves


async def test_moves_arriving_together_share_commits(store: Store) -> None:
    """60 moves from 12 tables at once: every one kept, in far fewer commits,
    and a bad move among them fails alone."""
    records = [played_record(5, seed=i, record_id=f"{i:08x}") for i in range(12)]
    for record in records:
        await store.tables.save_record(_fresh(record))
    before = store.engine.figures.commits
    moves = [
        store.tables.record_move(r.id, ply, seat, move)
        for ply in range(5)
        for r in records
        for seat, move in [r.moves[ply]]
    ]
    bad = store.tables.record_move("deadbeef", 0, 0, "x")
    results = await asyncio.gather(*moves, bad, return_exceptions=True)
    assert results[:-1] == [None] * 60
    assert isinstance(results[-1], StoreConflict)
    assert store.engine.figures.commits - before < 30
    for record in records:
        assert (await store.tables.load_record(record.id)).moves == record.moves


async def test_seats_and_tokens(store: Store) -> None:
    one, two = played_record(2, record_id="000000a1"), played_record(2, record_id="000000a2")
    for record in (one, two):
        await store.tables.save_record(record)
    token = hashlib.sha256(b"ada's token").digest()
    kept = KeptTable("computer", frozenset({1}), {0: token}, started=True)
    await store.seats.keep(one.id, kept)
    assert await store.seats.kept() == {one.id: kept}
    assert await store.seats.seat_of_token(token) == (one.id, 0)
    with pytest.raises(StoreConflict):  # one token, one seat
        await store.seats.keep(two.id, KeptTable("resign", frozenset(), {1: token}, True))
    await store.seats.release(one.id)
    assert await store.seats.kept() == {}
    assert await store.seats.seat_of_token(token) is None
    # every table's seats handed over at once: only the changes are written
    waiting = KeptTable("resign", frozenset({0, 1}), {}, started=False)
    await store.seats.keep_all({one.id: kept, two.id: waiting})
    assert await store.seats.kept() == {one.id: kept, two.id: waiting}
    writes = store.engine.figures.operations
    await store.seats.keep_all({one.id: kept, two.id: waiting})
    assert store.engine.figures.operations == writes  # nothing changed, nothing written
    await store.seats.keep_all({two.id: waiting})
    assert await store.seats.kept() == {two.id: waiting}


async def test_names_are_kept_by_their_secret(store: Store) -> None:
    clock = FakeTime(1000.0)
    store.names.clock = clock
    secret = await store.names.check("Ada", "")
    assert secret
    assert await store.names.check("ada", secret) is None  # case does not matter
    with pytest.raises(NameKept):
        await store.names.check("ADA", "wrong")
    with pytest.raises(NameKept):
        await store.names.check("Ada", None)
    assert await store.names.check("Bea", None) is None  # played under, not claimed
    assert await store.names.check("Bea", "", may_claim=False) is None  # its share claimed
    assert not await store.names.is_claimed("bea")
    # a name kept for a time: each use moves its end, then it runs out
    brief = await store.names.check("Cy", "", keep_for=60)
    clock.now += 50
    assert await store.names.check("Cy", brief, keep_for=60) is None
    clock.now += 50
    await store.names.played("Cy", 60)
    clock.now += 50
    assert await store.names.is_claimed("cy")
    clock.now += 11
    assert not await store.names.is_claimed("cy")
    assert await store.names.check("Cy", "", keep_for=60)  # free again
    clock.now += 61
    assert await store.names.expire() == 1
    assert await store.names.count() == 1
    store.names.cap = 1
    assert await store.names.check("Di", "") is None  # the cap: played under
    assert not await store.names.is_claimed("Di")


async def test_standings(store: Store) -> None:
    records = [finished_record(seed=s, record_id=f"{s:08x}") for s in (1, 2, 3)]
    stats = compute(records)
    assert await store.standings.put(stats) > 0
    await store.names.check("Ada", "")
    board = await store.standings.leaderboard(records[0].game)
    expected = stats.leaderboard(records[0].game)
    assert [p["name"] for p in board["players"]] == [name for name, _ in expected]
    assert board["total"] == len(expected)
    ada = next(p for p in board["players"] if p["name"] == "Ada")
    assert ada["claimed"] and ada["games"] == 3
    mine = await store.standings.player("Ada")
    assert mine["games"][records[0].game]["games"] == 3


async def test_lobby_rows(store: Store) -> None:
    for i in range(3):
        await store.tables.save_record(played_record(1, record_id=f"0000000{i}"))
        await store.lobby.put(f"0000000{i}", {"table": f"0000000{i}", "n": i}, "here")
    await store.lobby.put("00000001", None)
    rows = await store.lobby.rows()
    assert [row["n"] for row in rows] == [0, 2]
    assert await store.lobby.rows(game="nothing") == []
    await store.tables.delete("00000000")
    assert [row["n"] for row in await store.lobby.rows()] == [2]


async def test_schema_is_migrated_once(database: str | None, tmp_path: Path) -> None:
    for _ in range(2):
        store = await open_store(database, tmp_path)
        versions = await store.engine.read([store_stmt("SELECT version FROM schema_version")])
        assert versions == [[(1,), (2,), (3,)]]
        await store.engine.write([store_stmt("INSERT INTO schema_version VALUES (99, 'x', 0)")])
        await store.engine.write([store_stmt("DELETE FROM schema_version WHERE version = 99")])
        await store.close()
    store = await open_store(database, tmp_path)
    await store.engine.write([store_stmt("INSERT INTO schema_version VALUES (99, 'x', 0)")])
    await store.close()
    with pytest.raises(StoreCorrupt, match="newer cardtable"):
        await open_store(database, tmp_path)


async def test_a_database_of_the_room_step_keeps_its_tables_through_step_3(
    database: str | None, tmp_path: Path
) -> None:
    """A server's database written before correspondence tables (step 2)
    is brought to step 3 with the tables it held: none of them has terms."""
    from net.store.schema import STEPS
    from net.store.store import engine_for

    engine = engine_for(database, tmp_path)
    assert await engine.migrate(STEPS[:2]) == 2
    await engine.write(
        [
            store_stmt(
                "INSERT INTO game_tables (id, game, config, seed, seats, created, updated, "
                "status, hints, if_gone, open_seats, started) VALUES ('00000042', 'trick', "
                "'{}', 7, '[]', 'x', 'x', 'playing', '[]', 'resign', '[0, 1]', TRUE)"
            )
        ]
    )
    await engine.close()
    store = await open_store(database, tmp_path)
    kept = await store.seats.kept()
    await store.close()
    assert kept == {"00000042": KeptTable("resign", frozenset({0, 1}), {}, True)}
    assert kept["00000042"].per_move is None and kept["00000042"].deadlines == {}


def store_stmt(sql: str):  # type: ignore[no-untyped-def]
    from net.store.engine import Stmt

    return Stmt(sql, rows=sql.startswith("SELECT"))


async def test_a_whole_record_handed_over_keeps_only_what_is_new(store: Store) -> None:
    """As net/table.py saves (the whole record after each change): the
    first time the record whole, then only its new moves, seats and end."""
    whole = finished_record(record_id="0fedcba9")
    record = _fresh(whole)
    await store.tables.catch_up(record)
    for seat, move in whole.moves[:2]:
        record.moves.append((seat, move))
    await store.tables.catch_up(record)
    # a hint counted in place (as net/table_parts/computers.py does): kept
    record.hints = [0] * len(record.seats)
    await store.tables.catch_up(record)
    record.hints[1] += 1
    record.moves.append(whole.moves[2])
    await store.tables.catch_up(record)
    assert (await store.tables.load_record(whole.id)).hints == [0, 1]
    record.seats[0] = replace(record.seats[0], name="Ada Lovelace")
    record.moves = list(whole.moves)
    record.status, record.result = whole.status, whole.result
    await store.tables.catch_up(record)
    back = await store.tables.load_record(whole.id)
    assert back.moves == whole.moves and back.status == "finished"
    assert back.seats[0].name == "Ada Lovelace" and back.result == whole.result
    other = Store(store.engine)  # another server's view: knows nothing kept
    await other.tables.catch_up(back)
    assert (await store.tables.load_record(whole.id)).moves == whole.moves


async def test_a_group_of_moves_is_one_statement_on_sqlite(tmp_path: Path) -> None:
    """SQLite: moves of many tables committed together are one insert, its own
    transaction (each call into SQLite is a wait for the interpreter behind a
    busy event loop, net/store/sqlite_engine.py), and each is kept (a move
    that conflicts among such moves fails alone:
    test_moves_arriving_together_share_commits)."""
    store = await open_store(None, tmp_path)
    try:
        records = [played_record(6, seed=i, record_id=f"{i:08x}") for i in range(8)]

        def upto(record: GameRecord, moves: int) -> GameRecord:
            part = record.copy()
            part.moves = record.moves[:moves]
            return part

        for record in records:  # each table and its first moves, head and all
            await store.tables.catch_up(upto(record, 2))
            await store.tables.catch_up(upto(record, 3))
        conn = store.engine._write_conn  # type: ignore[attr-defined]
        statements: list[str] = []
        conn.set_trace_callback(statements.append)
        await asyncio.gather(*(store.tables.catch_up(r) for r in records))
        conn.set_trace_callback(None)
        assert statements and all(s.startswith("INSERT INTO moves") for s in statements)
        assert not any("BEGIN" in s or "COMMIT" in s for s in statements)
        assert sum(s.count("), (") + 1 for s in statements) == 8 * 3  # every move, one row each
        for record in records:
            assert (await store.tables.load_record(record.id)).moves == record.moves
    finally:
        await store.close()
