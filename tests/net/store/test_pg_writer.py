"""The PostgreSQL engine's writes commit in a thread of their own, on an
event loop of their own (net/store/postgres_engine.py): a commit goes on
while the server's event loop is busy, where each of its waits for
PostgreSQL's answers had been a turn of that loop."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest

from net.store import open_store
from net.store.engine import Stmt
from saves.record import GameRecord
from tests.saves.helpers import played_record

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


async def test_a_group_of_moves_is_one_statement_on_postgresql(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Moves of many tables committed together are one insert, its own
    transaction (autocommit), not a pipeline of BEGIN, a row each and COMMIT;
    each is kept."""
    store = await open_store(pg_url, tmp_path)
    try:
        records = [played_record(6, seed=i, record_id=f"{i:08x}") for i in range(8)]
        for record in records:  # each table and its first moves, head and all
            await store.tables.catch_up(upto(record, 2))
            await store.tables.catch_up(upto(record, 3))
        sent: list[str] = []
        pipelines: list[object] = []
        execute, pipeline = psycopg.AsyncConnection.execute, psycopg.AsyncConnection.pipeline

        def noting_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            sent.append(str(query))
            return execute(self, query, *args, **kwargs)

        def noting_pipeline(self: Any) -> Any:
            pipelines.append(self)
            return pipeline(self)

        monkeypatch.setattr(psycopg.AsyncConnection, "execute", noting_execute)
        monkeypatch.setattr(psycopg.AsyncConnection, "pipeline", noting_pipeline)
        await asyncio.gather(*(store.tables.catch_up(r) for r in records))
        monkeypatch.undo()
        assert sent and all(s.startswith("INSERT INTO moves") for s in sent)
        assert sum(s.count("), (") + 1 for s in sent) == 8 * 3  # every move, one row each
        assert not pipelines
        for record in records:
            assert (await store.tables.load_record(record.id)).moves == record.moves
    finally:
        await store.close()


def upto(record: GameRecord, moves: int) -> GameRecord:
    """``record`` as it was after its first ``moves`` moves."""
    part = record.copy()
    part.moves = record.moves[:moves]
    return part
