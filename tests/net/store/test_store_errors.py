"""Bad input and a database that fails: a typed error whose text is one line
saying what is wrong and what to do; nothing committed is lost, and the
store works again once the database is back."""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path

import psycopg
import pytest

from net.store import (
    BadDatabaseUrl,
    StoreCorrupt,
    StoreError,
    StoreFull,
    StoreUnavailable,
    open_store,
)
from net.store.postgres_engine import PostgresEngine
from net.store.sqlite_engine import SqliteEngine
from tests.saves.helpers import played_record

from . import postgres


def one_line(err: StoreError) -> str:
    text = str(err)
    assert "\n" not in text and "Traceback" not in text and len(text) < 600
    return text


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://ada@db/cards", "postgresql://USER@HOST/DATABASE"),
        ("postgresql://[oops", "is not a PostgreSQL URL"),
        ("postgresql://ada@db/cards?colour=blue", "invalid URI query parameter"),
        ("sqlite:", "names no file"),
    ],
)
async def test_a_wrong_url_says_what_to_write(url: str, says: str, tmp_path: Path) -> None:
    with pytest.raises(BadDatabaseUrl) as caught:
        await open_store(url, tmp_path)
    assert says in one_line(caught.value)


async def test_a_database_that_is_down(tmp_path: Path) -> None:
    # nothing listens on this port of the store's range
    with pytest.raises(StoreUnavailable) as caught:
        await open_store("postgresql://ada@127.0.0.1:25499/cards", tmp_path)
    assert "check that PostgreSQL runs there" in one_line(caught.value)


@pytest.mark.slow
async def test_a_database_that_refuses(pg_cluster: postgres.Cluster, tmp_path: Path) -> None:
    url = pg_cluster.url().replace("postgres@", "nobody@", 1)
    with pytest.raises(StoreUnavailable) as caught:
        await open_store(url, tmp_path)
    assert 'role "nobody" does not exist' in one_line(caught.value)


async def test_a_data_dir_that_cannot_hold_it(tmp_path: Path) -> None:
    (tmp_path / "server").write_text("a file where the folder goes")
    with pytest.raises(StoreUnavailable) as caught:
        await open_store(None, tmp_path)
    assert "check the data dir is writable" in one_line(caught.value)
    other = tmp_path / "other"
    (other / "server").mkdir(parents=True)
    (other / "server" / "cardtable.db").write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreCorrupt) as bad:
        await open_store(None, other)
    assert "move it aside" in one_line(bad.value)


async def test_a_full_disk_then_room_again(tmp_path: Path) -> None:
    """SQLite's page limit stands for the disk: a move that finds it full
    fails with StoreFull; once there is room, moves are kept again and
    nothing committed before is lost."""
    store = await open_store(None, tmp_path)
    record = played_record(40)
    first = record.copy()
    first.moves = record.moves[:10]
    await store.tables.save_record(first)
    engine = store.engine
    assert isinstance(engine, SqliteEngine) and engine._write_conn is not None
    conn: sqlite3.Connection = engine._write_conn
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StoreFull) as caught:
        await store.tables.save_record(played_record(2000, record_id="00000bad"))
    assert "is full" in one_line(caught.value)
    conn.execute("PRAGMA max_page_count = 1000000")
    for ply in range(10, 40):
        await store.tables.record_move(record.id, ply, *record.moves[ply])
    assert (await store.tables.load_record(record.id)).moves == record.moves
    await store.close()


@pytest.mark.slow
async def test_postgresql_goes_away_and_comes_back(
    pg_cluster: postgres.Cluster, tmp_path: Path
) -> None:
    """The store's connections are cut and it may not log in: moves fail with
    StoreUnavailable; once it may again, they are kept, with every move
    committed before."""
    role = f"r_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(pg_cluster.url(), autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN")
        admin.execute(f"CREATE SCHEMA {role} AUTHORIZATION {role}")
    url = pg_cluster.url(schema=role).replace("postgres@", f"{role}@", 1)
    store = await open_store(url, tmp_path)
    assert isinstance(store.engine, PostgresEngine)
    store.engine.reconnect_every = 0.0  # try again at once (no waiting in a test)
    record = played_record(30)
    first = record.copy()
    first.moves = record.moves[:10]
    await store.tables.save_record(first)
    with psycopg.connect(pg_cluster.url(), autocommit=True) as admin:
        admin.execute(f"ALTER ROLE {role} NOLOGIN")
        admin.execute(
            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '{role}'"
        )
        for attempt in range(2):  # the cut connection, then the refused login
            with pytest.raises(StoreUnavailable) as caught:
                await store.tables.record_move(record.id, 10, *record.moves[10])
            assert "cannot reach" in one_line(caught.value), attempt
        with pytest.raises(StoreUnavailable):
            await store.tables.load_record(record.id)
        admin.execute(f"ALTER ROLE {role} LOGIN")
    for ply in range(10, 30):
        await store.tables.record_move(record.id, ply, *record.moves[ply])
    assert (await store.tables.load_record(record.id)).moves == record.moves
    await store.close()
    with psycopg.connect(pg_cluster.url(), autocommit=True) as admin:
        admin.execute(f"DROP SCHEMA {role} CASCADE")
        admin.execute(f"DROP ROLE {role}")
