"""The PostgreSQL engine's reads while the event loop is busy, as a table
server's is under load (net/store/postgres_engine.py):

    uv run python tests/perf/bench_pg_reads.py [--reads 50] [--busy 5] [--rounds 3]

Starts a PostgreSQL (tests/net/store/postgres.py), then ``--busy`` tasks
that each hold the event loop 1 ms a turn, and times ``--reads`` reads sent
at once: a lone ``SELECT`` (a hello's name) and a read of two statements
(a table's record), the time each costs on average, median (min-max) of
``--rounds``. A read costs turns of the loop, not time in the database:
each round trip waits for the loop's next turn. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from net.store import open_store  # noqa: E402
from net.store.engine import Stmt  # noqa: E402
from tests.net.store import postgres  # noqa: E402

READS = {
    "one statement": [Stmt("SELECT 1", rows=True)],
    "two statements": [Stmt("SELECT 1", rows=True), Stmt("SELECT 2", rows=True)],
}


async def busy(stop: asyncio.Event) -> None:
    while not stop.is_set():
        time.sleep(0.001)  # the loop's work of one turn, as a server's
        await asyncio.sleep(0)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=50)
    parser.add_argument("--busy", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"uptime: {os.popen('uptime').read().strip()}", flush=True)
    with postgres.shared_cluster(None) as cluster, tempfile.TemporaryDirectory() as tmp:
        with psycopg.connect(cluster.url(), autocommit=True) as conn:
            conn.execute("CREATE SCHEMA reads")
        store = await open_store(cluster.url(schema="reads"), Path(tmp))
        try:
            figures: dict[str, list[float]] = {what: [] for what in READS}
            for _ in range(args.rounds):
                stop = asyncio.Event()
                tasks = [asyncio.ensure_future(busy(stop)) for _ in range(args.busy)]
                for what, op in READS.items():
                    began = time.perf_counter()
                    await asyncio.gather(*(store.engine.read(op) for _ in range(args.reads)))
                    figures[what].append((time.perf_counter() - began) / args.reads * 1000)
                stop.set()
                await asyncio.gather(*tasks)
            for what, ms in figures.items():
                print(
                    f"{what}: {statistics.median(ms):.1f} ms a read ({min(ms):.1f}-{max(ms):.1f}), "
                    f"{args.reads} at once, the loop busy {args.busy} ms a turn",
                    flush=True,
                )
        finally:
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
