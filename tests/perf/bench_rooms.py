"""A card room of three servers on one PostgreSQL (issue 36), beside one
server alone on the same PostgreSQL, in the same run:

    uv run python tests/perf/bench_rooms.py [--tables 150] [--think 0.5] [--seconds 20]
        [--port 47300] [--no-alone] [--stop | --both] [--rounds 1]

Starts a PostgreSQL (tests/net/store/postgres.py: the machine's own
binaries, as the ``postgres`` user) and, one after the other:

1. **one server alone** (no room) on 127.0.0.5, ``--tables`` domination tables
   of two people each (RemoteClient, the app's own), every move durable (the
   server answers ``ok`` once it is committed), played for ``--seconds``;
2. **a room of three** on 127.0.0.2, .3, .4 (separate addresses: separate
   hosts as the clients see them): each table created through one server
   (placed on the least loaded) and joined through another (the redirect
   followed), played for ``--seconds``; then the server holding the most
   tables is killed with SIGKILL and play goes on for ``--seconds`` more.
   With ``--stop`` it is stopped with SIGSTOP instead: a machine gone, as the
   others see it (no reset, its connections silent, a new connection taken
   by its system and never answered); its clients notice by their own pings
   and the room by its probe (net/server/room_probe.py). At the end it is
   resumed (SIGCONT) and must let every taken table go. ``--both`` runs the
   room with SIGKILL then with SIGSTOP, ``--rounds`` times, each on a room
   of its own (a new schema), so the two take-overs are measured side by
   side on the same machine in the same minutes.

Each person thinks up to ``--think`` seconds a move (uniform, mean half).
Prints, for each: the tables and clients held, moves acknowledged, the move
round trip (send to ``ok``) p50/p99; for the room, the take-over: the time
from the kill to each of the killed server's tables' first acknowledged
move (median, max), the take-over step by step (each step's time after the
kill, median and max: the clients' from hooks on their reconnection, the
servers' from their log lines, docs/scaling.md), and **messages lost**:
acknowledged moves not in the database at the end (must be 0). The room's
servers listen on ``--port`` and the two ports after it, the server alone
on ``--port`` + 10; ``--no-alone`` runs the room only. The servers' limits are raised for
connections, tables and bytes sent to one address (every client here is on
one: at the default 256 KiB/s of an address, the rejoins of a take-over,
each sent its table's position, were refused for seconds).
Not collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

import net.remote_redirect  # noqa: E402
import net.remote_rejoin  # noqa: E402
from net.client import StaleMove  # noqa: E402
from net.remote import RemoteClient  # noqa: E402
from net.store import open_store  # noqa: E402
from rules.errors import IllegalMove  # noqa: E402
from tests.net.store import postgres  # noqa: E402

SERVER = """
import asyncio, logging, resource, sys
from pathlib import Path
from net.server import Limits, TableServer
from net.server.database_store import DatabaseStore
from net.store import open_store

async def main():
    url, data, host, port, advertise = sys.argv[1:6]
    store = await open_store(url, Path(data))
    limits = Limits(per_address=100_000, connections=100_000, tables=100_000,
        tables_per_address=100_000, tables_per_name=100_000, burst=1000,
        messages_per_second=1000, connects_per_second=100_000, connects_burst=100_000,
        bytes_per_second=1 << 30, bytes_burst=1 << 30, address_bytes_per_second=1 << 30,
        address_bytes_burst=1 << 30, grace_seconds=120)
    server = TableServer(DatabaseStore(store, Path(data)), limits=limits,
        advertise=advertise or None)
    await server.start(host, int(port))
    print("ready", flush=True)
    await server.serve_forever()

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
# the wall clock on every line: the take-over's phases are read from it
logging.basicConfig(level=logging.WARNING, format="%(created).3f %(name)s: %(message)s")
asyncio.run(main())
"""

# a game that outlasts the run: the take-over is of games under way
LONG_GAME: dict[str, str | int] = {"first_leader": "0", "target_score": 0, "rounds": 200}
ROOM_HOSTS = ["127.0.0.2", "127.0.0.3", "127.0.0.4"]  # the room's servers, from --port on
ALONE_HOST = "127.0.0.5"  # the server alone, at --port + 10


@dataclass
class Table:
    id: str
    players: list[RemoteClient]
    acked: list[tuple[int, str]] = field(default_factory=list)
    acked_at: list[float] = field(default_factory=list)


@dataclass
class Figures:
    trips: list[float] = field(default_factory=list)
    errors: int = 0


class Trace:
    """When the killed server's clients went through each step of coming
    back (the wall clock, as the servers' logs have it): the connection
    dropped, a live server reached, sent on by ``elsewhere``, seated again."""

    def __init__(self) -> None:
        self.clients: set[int] = set()
        self.steps: dict[str, dict[int, float]] = {
            "dropped": {},
            "reached": {},
            "redirected": {},
            "seated": {},
        }

    def note(self, step: str, client: RemoteClient) -> None:
        if id(client) in self.clients:
            self.steps[step].setdefault(id(client), time.time())

    def follow(self) -> None:
        """Hook the client's reconnection and redirect (this process only)."""
        open_again, move_to = ORIGINAL  # (each round's trace hooks the originals)

        async def reopened(client: RemoteClient) -> bool:
            opened = await open_again(client)
            if opened:
                self.note("reached", client)
            return opened

        async def moved(client: RemoteClient, host: str, port: int) -> None:
            self.note("redirected", client)
            await move_to(client, host, port)

        net.remote_rejoin.open_again = reopened  # type: ignore[attr-defined]
        net.remote_redirect.move_to = moved


ORIGINAL = (net.remote_redirect.open_again, net.remote_redirect.move_to)

TAKEN = re.compile(
    r"^(?P<at>[\d.]+) \S+: took table (?P<table>\w+) over from \S+ "
    r"\(claimed in (?P<claim>[\d.]+) s, brought back in (?P<load>[\d.]+) s\)"
)
NOTICED = re.compile(r"^(?P<at>[\d.]+) \S+: server \S+ (refuses connections|is silent)")
LET_GO = re.compile(r"table \w+ was taken over by another server: letting it go")


def phases(killed: float, logs: list[Path], trace: Trace, first_moves: list[float]) -> None:
    """Where the take-over's time goes: each step's time after the kill,
    median and max over the tables (the servers' side) or the clients."""
    noticed: list[float] = []
    asked: list[float] = []
    claimed: list[float] = []
    loaded: list[float] = []
    for path in logs:
        for text in path.read_text(errors="replace").splitlines():
            if found := NOTICED.match(text):
                noticed.append(float(found["at"]) - killed)
            elif found := TAKEN.match(text):
                at = float(found["at"]) - killed
                loaded.append(at)
                claimed.append(at - float(found["load"]))
                asked.append(at - float(found["load"]) - float(found["claim"]))

    def row(what: str, values: list[float]) -> None:
        if values:
            print(
                f"    {what:<40} {len(values):>4}  median {statistics.median(values):5.2f} s"
                f"  max {max(values):5.2f} s",
                flush=True,
            )

    print("  the take-over, step by step (time after the kill):", flush=True)
    steps = {k: [v - killed for v in d.values()] for k, d in trace.steps.items()}
    row("clients: connection dropped", steps["dropped"])
    row("clients: a live server reached", steps["reached"])
    row("servers: the stopped server noticed", noticed)
    row("tables: claim asked", asked)
    row("tables: claimed", claimed)
    row("tables: brought back", loaded)
    row("clients: sent on by elsewhere", steps["redirected"])
    row("clients: seated again", steps["seated"])
    row("tables: first move ok", first_moves)


def start_server(
    url: str, data: Path, host: str, port: int, advertise: str
) -> subprocess.Popen[bytes]:
    data.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [sys.executable, "-c", SERVER, url, str(data), host, str(port), advertise],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=open(data / "server.log", "wb"),  # noqa: SIM115 (the child's own)
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == b"ready", f"{host}:{port} did not start"
    return process


async def open_tables(count: int, doors: list[tuple[str, int]]) -> list[Table]:
    """``count`` tables: the creator through one door, the other through the next."""

    async def one(i: int) -> Table:
        first, second = doors[i % len(doors)], doors[(i + 1) % len(doors)]
        ada = await RemoteClient.connect(*first, f"Ada{i}")
        summary = await ada.create("domination", ["open", "open"], options=LONG_GAME)
        await ada.join(summary.table, 0)
        bea = await RemoteClient.connect(*second, f"Bea{i}")
        await bea.join(summary.table, 1)
        return Table(summary.table, [ada, bea])

    tables = []
    for start in range(0, count, 20):  # a few at a time: the server's accept rate
        tables += await asyncio.gather(*(one(i) for i in range(start, min(count, start + 20))))
    return tables


async def play(table: Table, seat: int, think: float, until: float, figures: Figures) -> None:
    client = table.players[seat]
    rng = random.Random(hash((table.id, seat)))
    while time.monotonic() < until:
        try:
            update = await asyncio.wait_for(client.wait_for(lambda u: u.over or bool(u.legal)), 1.0)
        except TimeoutError:
            continue
        except ConnectionError:
            return
        if update.over:
            return
        await asyncio.sleep(rng.uniform(0, think))
        update = client.snapshot(seat)
        if not update.legal or client.connection != "connected":
            continue
        move = rng.choice(update.legal)
        sent = time.perf_counter()
        try:
            await client.play(seat, move, update.state_id)
        except (IllegalMove, StaleMove):  # stale, the link down, not saved: not acknowledged
            figures.errors += 1
            await asyncio.sleep(0.05)
            continue
        figures.trips.append(time.perf_counter() - sent)
        table.acked.append((seat, move))
        table.acked_at.append(time.monotonic())


async def play_all(tables: list[Table], think: float, seconds: float) -> Figures:
    figures = Figures()
    until = time.monotonic() + seconds
    await asyncio.gather(
        *(play(t, seat, think, until, figures) for t in tables for seat in range(2))
    )
    return figures


def pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def report(what: str, tables: list[Table], figures: Figures) -> None:
    ms = [t * 1000 for t in figures.trips]
    print(
        f"{what}: {len(tables)} tables, {2 * len(tables)} clients; "
        f"{len(ms)} moves acknowledged ({figures.errors} refused or cut off); "
        f"round trip p50 {pct(ms, 0.5):.1f} ms, p99 {pct(ms, 0.99):.1f} ms",
        flush=True,
    )


async def lost(url: str, folder: Path, tables: list[Table]) -> int:
    store = await open_store(url, folder)
    missing = 0
    for table in tables:
        record = await store.tables.load_record(table.id)
        for seat in range(2):  # each seat's acknowledged moves, in its order
            acked = [m for s, m in table.acked if s == seat]
            kept = [m for s, m in record.moves if s == seat]
            wrong = sum(1 for i, m in enumerate(acked) if i >= len(kept) or kept[i] != m)
            if wrong and os.environ.get("BENCH_ROOMS_DEBUG"):
                print(f"  table {table.id} seat {seat}: acked {acked} kept {kept}")
            missing += wrong
    await store.close()
    return missing


async def close_all(tables: list[Table]) -> None:
    for table in tables:
        for client in table.players:
            with contextlib.suppress(Exception):
                await client.close()


async def alone(url: str, folder: Path, args: argparse.Namespace) -> None:
    at = (ALONE_HOST, args.port + 10)
    server = start_server(url, folder / "alone", *at, "")
    try:
        tables = await open_tables(args.tables, [at])
        figures = await play_all(tables, args.think, args.seconds)
        report("one server alone", tables, figures)
        print(f"  messages lost: {await lost(url, folder, tables)}", flush=True)
        await close_all(tables)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)


@dataclass
class TakeOver:
    """One room's take-over: how the server was ended, each of its tables'
    first move after (seconds), and the moves lost."""

    how: str
    tables: int
    back: list[float]
    lost: int
    misfires: int
    let_go: int | None = None  # tables the stopped server let go once resumed


async def room(url: str, folder: Path, args: argparse.Namespace, *, stop: bool) -> TakeOver:
    how = "SIGSTOP" if stop else "SIGKILL"
    trace = Trace()
    trace.follow()
    room_at = [(host, args.port + i) for i, host in enumerate(ROOM_HOSTS)]
    servers = [
        start_server(url, folder / f"room-{i}", host, port, f"{host}:{port}")
        for i, (host, port) in enumerate(room_at)
    ]
    victim: subprocess.Popen[bytes] | None = None
    try:
        await asyncio.sleep(1.5)  # every server has beaten: each knows the others
        tables = await open_tables(args.tables, room_at)
        where: dict[str, int] = {}
        for table in tables:
            where[table.players[0].address] = where.get(table.players[0].address, 0) + 1
        print(f"room ({how}): tables per server {dict(sorted(where.items()))}", flush=True)
        # a client of a live server that takes it for gone (net/remote_link.py's
        # patience misfiring on a loaded machine): counted from here to the end
        drops: dict[int, int] = {}
        for table in tables:
            for client in table.players:

                def dropped(state: str, client: RemoteClient = client) -> None:
                    if state == "reconnecting":
                        drops[id(client)] = drops.get(id(client), 0) + 1

                client.watch_connection(dropped)
        before = await play_all(tables, args.think, args.seconds)
        report(f"room of three, before the {how}", tables, before)
        victim_address = max(where, key=lambda a: where[a])
        victim_index = [f"{h}:{p}" for h, p in room_at].index(victim_address)
        victim = servers[victim_index]
        moved = [
            t
            for t in tables
            if t.players[0].address == victim_address and not t.players[0].snapshot(0).over
        ]
        print(f"uptime: {os.popen('uptime').read().strip()}", flush=True)
        back_at: list[float] = []
        trace.clients = {id(c) for t in moved for c in t.players}
        for table in moved:
            for client in table.players:

                def note(state: str, client: RemoteClient = client) -> None:
                    if state == "connected":
                        back_at.append(time.monotonic() - killed)
                        trace.note("seated", client)
                    elif state == "reconnecting":
                        trace.note("dropped", client)

                client.watch_connection(note)
        killed = time.monotonic()
        killed_wall = time.time()
        victim.send_signal(signal.SIGSTOP if stop else signal.SIGKILL)
        after = await play_all(tables, args.think, args.seconds)
        report(f"room of three, after the {how} of one", tables, after)
        back = [next((at - killed for at in t.acked_at if at > killed), None) for t in moved]
        taken = [b for b in back if b is not None]
        print(
            f"  take-over: {len(taken)} of the stopped server's {len(moved)} tables playable "
            f"again; first move after the {how} at median {statistics.median(taken):.1f} s, "
            f"max {max(taken):.1f} s"
            if taken
            else f"  take-over: none of {len(moved)} tables playable again",
            flush=True,
        )
        if back_at:
            print(
                f"  clients seated again: {len(back_at)} of {2 * len(moved)}, at median "
                f"{statistics.median(back_at):.1f} s, max {max(back_at):.1f} s",
                flush=True,
            )
        logs = [folder / f"room-{i}" / "server.log" for i in range(len(room_at))]
        phases(killed_wall, logs, trace, taken)
        elsewhere = {t.players[0].address for t in moved}
        print(f"  the stopped server's tables now at {sorted(elsewhere)}", flush=True)
        theirs = {id(c) for t in moved for c in t.players}
        misfires = sum(n for c, n in drops.items() if c not in theirs)
        print(
            f"  live servers' clients that took theirs for gone: {misfires}"
            f" (of {2 * (len(tables) - len(moved))})",
            flush=True,
        )
        let_go = None
        if stop:  # back: it must find its tables taken and let them go
            victim.send_signal(signal.SIGCONT)
            let_go = await letting_go(logs[victim_index], len(moved))
            print(f"  resumed, it let {let_go} of its {len(moved)} tables go", flush=True)
        missing = await lost(url, folder, tables)
        print(f"  messages lost: {missing}", flush=True)
        await close_all(tables)
        return TakeOver(how, len(moved), taken, missing, misfires, let_go)
    finally:
        if victim is not None:
            victim.send_signal(signal.SIGCONT)  # (a stopped process hears no SIGTERM)
        for server in servers:
            if server.poll() is None:
                server.send_signal(signal.SIGTERM)
        for server in servers:
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(30)


async def letting_go(log: Path, tables: int, patience: float = 20.0) -> int:
    """How many tables the resumed server has said it let go (waiting, up to
    ``patience`` seconds, for all ``tables`` of them)."""
    deadline = time.monotonic() + patience
    while True:
        said = len(LET_GO.findall(log.read_text(errors="replace")))
        if said >= tables or time.monotonic() > deadline:
            return said
        await asyncio.sleep(0.2)


def side_by_side(results: list[TakeOver]) -> None:
    """Each round's take-over, and each way's over its rounds."""
    print("\ntake-over, kill (or stop) to each table's first move after it:", flush=True)
    for how in ("SIGKILL", "SIGSTOP"):
        mine = [r for r in results if r.how == how]
        if not mine:
            continue
        for r in mine:
            print(
                f"  {how}: {len(r.back)} of {r.tables} tables back; median "
                f"{statistics.median(r.back) if r.back else float('nan'):.2f} s, "
                f"p10 {pct(r.back, 0.1):.2f} s, p90 {pct(r.back, 0.9):.2f} s, "
                f"max {max(r.back, default=float('nan')):.2f} s; lost {r.lost}; "
                f"live servers' clients dropped {r.misfires}"
                + ("" if r.let_go is None else f"; let go once resumed {r.let_go}"),
                flush=True,
            )
        every = [b for r in mine for b in r.back]
        medians = [statistics.median(r.back) for r in mine if r.back]
        nan = float("nan")
        print(
            f"  {how} over {len(mine)} rounds: median of the medians "
            f"{statistics.median(medians) if medians else nan:.2f} s "
            f"(lowest {min(medians, default=nan):.2f}, highest "
            f"{max(medians, default=nan):.2f}), worst {max(every, default=nan):.2f}"
            f" s, lost {sum(r.lost for r in mine)}, tables not back "
            f"{sum(r.tables - len(r.back) for r in mine)}",
            flush=True,
        )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--think", type=float, default=0.5)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--port", type=int, default=47300, help="the room's first port")
    parser.add_argument("--no-alone", action="store_true", help="the room only")
    ways = parser.add_mutually_exclusive_group()
    ways.add_argument("--stop", action="store_true", help="SIGSTOP the server, not SIGKILL")
    ways.add_argument("--both", action="store_true", help="SIGKILL, then SIGSTOP, each round")
    parser.add_argument("--rounds", type=int, default=1, help="rooms of each way, alternating")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"uptime: {os.popen('uptime').read().strip()}", flush=True)
    stops = [False, True] if args.both else [args.stop]
    results: list[TakeOver] = []
    with postgres.shared_cluster(None) as cluster, tempfile.TemporaryDirectory() as tmp:
        folder = Path(os.environ.get("BENCH_ROOMS_KEEP") or tmp)  # the servers' logs
        schemas = ["alone"] + [f"room{i}" for i in range(args.rounds * len(stops))]
        for schema in schemas:
            with psycopg.connect(cluster.url(), autocommit=True) as conn:
                conn.execute(f"CREATE SCHEMA {schema}")
        if not args.no_alone:
            await alone(cluster.url(schema="alone"), folder, args)
        for i, stop in enumerate(stops * args.rounds):
            print(f"\n--- round {i // len(stops) + 1}, {'SIGSTOP' if stop else 'SIGKILL'}")
            results.append(
                await room(cluster.url(schema=f"room{i}"), folder / f"round{i}", args, stop=stop)
            )
        side_by_side(results)


if __name__ == "__main__":
    asyncio.run(main())
