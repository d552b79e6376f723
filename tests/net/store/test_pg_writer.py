"""The PostgreSQL engine's writes commit in a thread of their own, on an
event loop of their own (net/store/postgres_engine.py): a commit goes on
while the server's event loop is busy, where each of its waits for
PostgreSQL's answers had been a turn of that loop."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import psycopg
import pytest

from net.store import open_store
from net.store.engine import Stmt

from ..netkit import HANG

pytestmark = pytest.mark.slow


async def test_a_write_commits_while_the_servers_loop_is_busy(pg_url: str, tmp_path: Path) -> None:
    store = await open_store(pg_url, tmp_path)
    try:
        engine = store.engine
        await engine.write([Stmt("CREATE TABLE marks (n INTEGER)")])
        writing = asyncio.ensure_future(engine.write([Stmt("INSERT INTO marks VALUES (?)", (7,))]))
        await asyncio.sleep(0)  # the write is handed over
        # the loop is held from here (no await) until the row is seen elsewhere
        seen: list[tuple[int]] = []
        with psycopg.connect(pg_url, autocommit=True) as other:
            deadline = time.monotonic() + HANG
            while not seen and time.monotonic() < deadline:
                seen = other.execute("SELECT n FROM marks").fetchall()
                if not seen:
                    time.sleep(0.005)
        assert seen == [(7,)]
        assert await asyncio.wait_for(writing, HANG) == []
    finally:
        await store.close()
