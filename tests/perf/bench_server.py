"""The table server under load: tables and clients held, round trip of a move,
memory per table.

    uv run python tests/perf/bench_server.py [--tables 500] [--moves 10]

Starts one server process (net/server.py; its limits raised for connections
and tables from one address, since every client here is on 127.0.0.1) with a data folder
in a temporary directory, then from this process opens ``--tables``
domination tables with two remote clients each (RemoteClient, the app's own),
and lets every client play ``--moves`` of its moves, all tables at once. The
round trip of a move is from sending it to reading its ``ok`` (the server has
checked and applied it and sent both seats their updates; its save follows in
the background, see net/table.py). Prints the
count of tables and clients held, the median and p99 round trip, and the
server's resident memory before and after the tables (per table). Goal
(issue 11): 500 tables, 1,000 clients, p99 <= 50 ms. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from net.client import StaleMove  # noqa: E402
from net.remote import RemoteClient  # noqa: E402

SERVER = """
import asyncio, sys
from pathlib import Path
from net.server import Limits, TableServer
from saves.store import SaveStore

async def main():
    limits = Limits(
        per_address=100_000,
        connections=100_000,
        tables=100_000,
        tables_per_address=100_000,
        tables_per_name=100_000,
        burst=1000,
        messages_per_second=1000,
    )
    server = TableServer(SaveStore(Path(sys.argv[1])), limits=limits)
    host, port = await server.start("127.0.0.1", 0)
    print(port, flush=True)
    await server.serve_forever()

asyncio.run(main())
"""


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def play(
    client: RemoteClient, moves: int, rng: random.Random, trips: list[float], think: float
) -> None:
    """Play until the table has seen ``moves`` moves a seat (both clients stop
    there, so neither waits for one that has stopped)."""
    seat = client.my_seats[0]
    while True:
        update = await client.wait_for(lambda u: u.over or bool(u.legal) or u.state_id >= moves)
        if update.over or update.state_id >= moves:
            return
        if think > 0:  # a person takes a while to choose
            await asyncio.sleep(rng.uniform(0, 2 * think))
            update = client.snapshot(seat)
            if not update.legal:
                continue
        start = time.perf_counter()
        try:
            await client.play(seat, rng.choice(update.legal), update.state_id)
        except StaleMove:
            continue
        trips.append(time.perf_counter() - start)


async def bench(port: int, pid: int, tables: int, moves: int, think: float) -> None:
    before = rss_kib(pid)
    clients: list[RemoteClient] = []
    opened = time.perf_counter()
    for i in range(tables):
        ada = await RemoteClient.connect("127.0.0.1", port, f"A{i}")
        bo = await RemoteClient.connect("127.0.0.1", port, f"B{i}")
        table = await ada.create("domination", ["open", "open"], options={"first_leader": "0"})
        await ada.join(table["table"])
        await bo.join(table["table"])
        clients += [ada, bo]
    opened = time.perf_counter() - opened
    after = rss_kib(pid)
    trips: list[float] = []
    began = time.perf_counter()
    players = (play(c, 2 * moves, random.Random(i), trips, think) for i, c in enumerate(clients))
    await asyncio.gather(*players)
    took = time.perf_counter() - began
    trips.sort()
    p99 = trips[min(len(trips) - 1, int(len(trips) * 0.99))]
    print(f"tables {tables}, clients {len(clients)} (opened in {opened:.1f} s), think {think:g} s")
    print(
        f"moves {len(trips)} in {took:.1f} s ({len(trips) / took:.0f}/s): round trip "
        f"median {statistics.median(trips) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms"
    )
    print(
        f"server memory {before / 1024:.0f} MiB -> {after / 1024:.0f} MiB: "
        f"{(after - before) / tables:.0f} KiB per table (its two connections included)"
    )
    for client in clients:
        await client.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--moves", type=int, default=10, help="moves per seat, about")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a player takes to choose (0: every move at once, a stress test)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            [sys.executable, "-c", SERVER, data], cwd=ROOT, stdout=subprocess.PIPE, text=True
        )
        try:
            assert server.stdout is not None
            port = int(server.stdout.readline())
            asyncio.run(bench(port, server.pid, args.tables, args.moves, args.think))
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
