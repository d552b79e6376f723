"""The store's tests run once per engine: SQLite in a temp folder, and a
real PostgreSQL (tests/net/store/postgres.py), each test in a schema of its
own; the PostgreSQL half is marked slow (`uv run pytest -m slow`). Without
PostgreSQL's binaries it skips, saying how to get them, unless CI is set:
then it fails."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import psycopg
import pytest

from net.store import Store, open_store

from . import postgres


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[postgres.Cluster]:
    if postgres.binaries() is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI needs PostgreSQL: {postgres.HOW_TO_GET}")
        pytest.skip(postgres.HOW_TO_GET)
    with postgres.shared_cluster(os.environ.get("PYTEST_XDIST_TESTRUNUID")) as cluster:
        yield cluster


@pytest.fixture
def pg_url(pg_cluster: postgres.Cluster) -> Iterator[str]:
    """A PostgreSQL URL whose tables are the test's own (a fresh schema)."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_cluster.url(), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    yield pg_cluster.url(schema=schema)
    with psycopg.connect(pg_cluster.url(), autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


# the PostgreSQL half is in the slow step (`pytest -m slow`, run by .ci/run):
# starting a server and the tests on it cost several seconds of a default run
# that must stay short on a shared 2-core machine; the SQLite half runs always
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str | None:
    """``--database`` for each engine: None (the data dir's SQLite file), or
    a PostgreSQL URL."""
    if request.param == "sqlite":
        return None
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
async def store(database: str | None, tmp_path: Path) -> AsyncIterator[Store]:
    opened = await open_store(database, tmp_path)
    yield opened
    await opened.close()
