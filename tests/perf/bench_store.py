"""The store's grouped commits under load, beside today's file saves, in one run.

    uv run python tests/perf/bench_store.py [--tables 1000] [--seconds 10]
        [--think 0.2,1.0] [--rounds 1] [--engines files,sqlite,postgresql]
        [--names 20000] [--claims 50]

``--tables`` tables, two players each (2,000 writers for 1,000 tables): a
player whose turn it is waits a random time in ``--think`` (seconds), makes
a move, and waits for it to be durable; then it is the other's turn. A
move's latency is from making it to its being on disk:

- ``files``: today's server (net/table.py): the move is answered at once
  and the table's whole record file is written behind it (saves/store.py:
  temp file, fsync, rename) in the default thread pool, saves of one table
  coalesced; the latency is until a save holding the move has returned;
- ``sqlite``, ``postgresql``: ``await store.tables.record_move(...)``
  (net/store): returns once the grouped transaction holding the move is
  committed (WAL + synchronous=FULL; PostgreSQL with fsync on, a real
  server started from /usr/lib/postgresql/*/bin in a temp folder).

Also the event loop's lag (a 10 ms ticker: how late it wakes), as the
server's other work would feel it. Then name claims: ``--claims`` new names
claimed with ``--names`` already kept, today's NameBook (names.json
rewritten whole) against the store's one row. With ``--rounds`` above 1 the
engines take turns each round and the figures are the median with the
spread (min-max) of the rounds. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from net.standings import NameBook  # noqa: E402
from net.store import Store, open_store  # noqa: E402
from saves.record import GameRecord  # noqa: E402
from saves.store import SaveStore  # noqa: E402
from tests.net.store import postgres  # noqa: E402
from tests.saves.helpers import played_record  # noqa: E402

Commit = Callable[[int, int, int, str], Awaitable[None]]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class FileTables:
    """Today's saving: the whole record, behind the move, coalesced per table."""

    def __init__(self, root: Path, records: list[GameRecord]) -> None:
        self.store = SaveStore(root)
        self.records = records
        self.unsaved = [False] * len(records)
        self.savers: list[asyncio.Task[None] | None] = [None] * len(records)
        self.waiting: list[list[tuple[int, asyncio.Future[None]]]] = [[] for _ in records]

    async def commit(self, table: int, ply: int, seat: int, move: str) -> None:
        self.records[table].moves.append((seat, move))
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting[table].append((ply, done))
        self.unsaved[table] = True
        saver = self.savers[table]
        if saver is None or saver.done():
            self.savers[table] = asyncio.create_task(self._save(table))
        await done  # the server said ok long before: this is when it is on disk

    async def _save(self, table: int) -> None:
        while self.unsaved[table]:
            self.unsaved[table] = False
            snapshot = self.records[table].copy()
            await asyncio.to_thread(self.store.save, snapshot)
            kept = len(snapshot.moves)
            still = []
            for ply, done in self.waiting[table]:
                if ply < kept:
                    done.set_result(None)
                else:
                    still.append((ply, done))
            self.waiting[table] = still


async def play(
    commit: Commit, tables: int, seconds: float, think: tuple[float, float]
) -> dict[str, float]:
    loop = asyncio.get_running_loop()
    latencies: list[float] = []
    lags: list[float] = []
    stop = loop.time() + seconds
    turns = [asyncio.Event() for _ in range(2 * tables)]

    async def player(table: int, seat: int) -> None:
        rng = random.Random(table * 2 + seat)
        me, other = turns[2 * table + seat], turns[2 * table + 1 - seat]
        ply = seat
        while True:
            await me.wait()
            me.clear()
            if loop.time() >= stop:
                other.set()
                return
            await asyncio.sleep(rng.uniform(*think))
            began = time.perf_counter()
            await commit(table, ply, seat, f"m{ply}")
            latencies.append(time.perf_counter() - began)
            ply += 2
            other.set()

    async def ticker() -> None:
        while loop.time() < stop:
            began = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - began - 0.01)

    for table in range(tables):
        turns[2 * table].set()
    await asyncio.gather(ticker(), *(player(t, s) for t in range(tables) for s in (0, 1)))
    return {
        "moves": len(latencies),
        "per_s": len(latencies) / seconds,
        "p50": pct(latencies, 0.5) * 1000,
        "p99": pct(latencies, 0.99) * 1000,
        "max": max(latencies, default=0) * 1000,
        "lag99": pct(lags, 0.99) * 1000,
    }


def fresh_records(tables: int) -> list[GameRecord]:
    base = played_record(0)
    records = []
    for i in range(tables):
        record = base.copy()
        record.id = f"{i:08x}"
        records.append(record)
    return records


async def run_engine(
    engine: str, url: str | None, tables: int, seconds: float, think: tuple[float, float]
) -> dict[str, float]:
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as tmp:
        records = fresh_records(tables)
        if engine == "files":
            files = FileTables(Path(tmp), records)
            return await play(files.commit, tables, seconds, think)
        store = await open_store(url, Path(tmp))
        try:
            for record in records:
                await store.tables.save_record(record)
            ids = [r.id for r in records]
            before_ops, before_commits = (
                store.engine.figures.operations,
                store.engine.figures.commits,
            )

            async def commit(table: int, ply: int, seat: int, move: str) -> None:
                await store.tables.record_move(ids[table], ply, seat, move)

            figures = await play(commit, tables, seconds, think)
            commits = store.engine.figures.commits - before_commits
            figures["per_commit"] = (store.engine.figures.operations - before_ops) / max(1, commits)
            return figures
        finally:
            await store.close()


async def claims(engine: str, url: str | None, names: int, count: int) -> list[float]:
    """Seconds per claim of a new name, with ``names`` already kept."""
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as tmp:
        kept = {f"old{i}": secrets.token_hex(32) for i in range(names)}
        times = []
        if engine == "files":
            import json

            path = Path(tmp) / "server" / "names.json"
            path.parent.mkdir(parents=True)
            path.write_text(json.dumps({"format": "cardtable-names", "names": kept}))
            book = NameBook(path)
            for i in range(count):
                began = time.perf_counter()
                book.check(f"new{i}", "")  # on the event loop, as the server does
                times.append(time.perf_counter() - began)
            return times
        store: Store = await open_store(url, Path(tmp))
        try:
            await store.names.keep_digests(kept)
            for i in range(count):
                began = time.perf_counter()
                await store.names.check(f"new{i}", "")
                times.append(time.perf_counter() - began)
            return times
        finally:
            await store.close()


def spread(values: list[float]) -> str:
    if len(values) == 1:
        return f"{values[0]:.1f}"
    return f"{statistics.median(values):.1f} ({min(values):.1f}-{max(values):.1f})"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--think", default="0.2,1.0")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--engines", default="files,sqlite,postgresql")
    parser.add_argument("--names", type=int, default=20000)
    parser.add_argument("--claims", type=int, default=50)
    args = parser.parse_args()
    low, high = (float(x) for x in args.think.split(","))
    engines = args.engines.split(",")
    runs: dict[str, list[dict[str, float]]] = {e: [] for e in engines}
    named: dict[str, list[float]] = {e: [] for e in engines}
    with postgres.shared_cluster(f"bench-{os.getpid()}") as cluster:
        url = cluster.url()
        for round_ in range(args.rounds):
            for engine in engines if round_ % 2 == 0 else reversed(engines):
                where = url if engine == "postgresql" else None
                if engine == "postgresql":
                    await reset(url)
                runs[engine].append(
                    await run_engine(engine, where, args.tables, args.seconds, (low, high))
                )
                if engine == "postgresql":
                    await reset(url)
                if args.claims:
                    named[engine].extend(await claims(engine, where, args.names, args.claims))
    print(
        f"{args.tables} tables, {2 * args.tables} writers, think {low}-{high} s, "
        f"{args.seconds:.0f} s x {args.rounds} round(s); ms, median (min-max) of rounds"
    )
    print(
        f"{'engine':<11} {'moves/s':>9} {'p50':>14} {'p99':>16} {'max':>16} "
        f"{'loop lag p99':>14} {'moves/commit':>13}"
    )
    for engine, figures in runs.items():
        col = {k: [f[k] for f in figures] for k in figures[0]}
        per_commit = spread(col["per_commit"]) if "per_commit" in col else "-"
        print(
            f"{engine:<11} {spread(col['per_s']):>9} {spread(col['p50']):>14} "
            f"{spread(col['p99']):>16} {spread(col['max']):>16} {spread(col['lag99']):>14} "
            f"{per_commit:>13}"
        )
    if args.claims:
        print(f"name claims with {args.names} names kept (ms): median, p99, max")
        for engine, times in named.items():
            ms = [t * 1000 for t in times]
            print(f"{engine:<11} {statistics.median(ms):.2f}, {pct(ms, 0.99):.2f}, {max(ms):.2f}")


async def reset(url: str) -> None:
    import psycopg

    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute("DROP SCHEMA public CASCADE")
        await conn.execute("CREATE SCHEMA public")


if __name__ == "__main__":
    asyncio.run(main())
