"""The PostgreSQL engine's reads (net/store/postgres_engine.py): lone
statements that come together are read in one round trip, each answered
with its own rows, and one that fails fails alone; a read of several
statements is one snapshot."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from net.store import StoreError, open_store
from net.store.engine import Stmt

pytestmark = pytest.mark.slow


async def test_reads_sent_at_once_are_each_answered_and_one_failing_fails_alone(
    pg_url: str, tmp_path: Path
) -> None:
    store = await open_store(pg_url, tmp_path)
    try:
        engine = store.engine
        reads = [engine.read([Stmt("SELECT ?::int * 2", (n,), rows=True)]) for n in range(40)]
        wrong = engine.read([Stmt("SELECT * FROM no_such_table", rows=True)])
        found = await asyncio.gather(*reads[:20], wrong, *reads[20:], return_exceptions=True)
        assert isinstance(found[20], StoreError)
        answers = [r for i, r in enumerate(found) if i != 20]
        assert answers == [[[(2 * n,)]] for n in range(40)]
        # and the engine reads on afterwards
        assert await engine.read([Stmt("SELECT 7", rows=True)]) == [[(7,)]]
        both = await engine.read([Stmt("SELECT 1", rows=True), Stmt("SELECT 2", rows=True)])
        assert both == [[(1,)], [(2,)]]
    finally:
        await store.close()


async def test_a_transaction_left_idle_by_a_vanished_server_does_not_hold_its_locks(
    pg_url: str, tmp_path: Path
) -> None:
    """Each session of the engine ends a transaction left idle (a server whose
    machine vanished mid-transaction) rather than holding its row locks for
    TCP's hours, which a take-over's SKIP LOCKED would skip."""
    store = await open_store(pg_url, tmp_path)
    try:
        # (the TCP keep-alive settings read 0 over the tests' Unix socket)
        found = await store.engine.read(
            [Stmt("SELECT current_setting('idle_in_transaction_session_timeout')", rows=True)]
        )
        assert found == [[("5s",)]]
    finally:
        await store.close()
