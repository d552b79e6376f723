"""The table server under load: tables and clients held, round trip of a move,
computers' decision times, memory per table; threads against processes.

    uv run python tests/perf/bench_server.py [--tables 500] [--moves 10] [--think 2]
        [--hard 0] [--medium 0] [--executor both|threads|processes] [--code DIR]
        [--store all|files|sqlite|postgresql] [--rounds 1]

Starts one server process (net/server.py; its limits raised for connections
and tables from one address, since every client here is on 127.0.0.1) with a
data folder in a temporary directory, then from this process opens
``--tables`` domination tables with two remote clients each (RemoteClient,
the app's own), plus ``--hard`` and ``--medium`` tables of one client against
a computer of that level, and lets every client play ``--moves`` of its moves,
all tables at once. The round trip of a move is from sending it to reading its
``ok`` (the server has checked and applied it and sent both seats their
updates; its save follows in the background, see net/table.py). A computer's
decision time is from the update that shows it thinking to the one with its
move, as its opponent sees them.

``--executor``: where the server's computers think: ``threads`` (the event
loop's default thread pool, as a server built without an executor), or
``processes`` (a process pool on every core but one, as ``cardtable serve``),
or ``both``, one after the other, the figures side by side. ``--code``: the
source tree whose server runs (e.g. a ``git worktree`` of an older commit, to
compare); the clients are always this tree's. ``--store``: what the server
keeps its games in: ``files`` (the record files of before issue 35, saved
in the background: ``ok`` before the move is on disk), ``sqlite`` (what
`cardtable serve` keeps by default: ``ok`` once the move is committed) or
``postgresql`` (a PostgreSQL started from the machine's binaries,
tests/net/store/postgres.py), or ``all`` three side by side in one run.
``--rounds``: each (executor, store) that many times, in turn.

Prints, per executor, the tables and clients held, the people's round trips
(median, p99), the computers' decision times (median, p99, max), moves a
second, and the server's resident memory before and after the tables (per
table). Goals (issues 11 and 29): 1,000 tables, 2,000 clients, p99 <= 50 ms;
100 tables of a person against a hard computer: p99 <= 50 ms, every
computer's move within its ceiling (1 s) + 1 s. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from net.client import LinkDown, StaleMove, Update  # noqa: E402
from net.remote import RemoteClient  # noqa: E402

SERVER = """
import asyncio, functools, multiprocessing, os, signal, sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from net.server import Limits, TableServer
from saves.store import SaveStore

async def keeper(data, store):
    # the server's store as `cardtable serve` builds it (files: before issue 35)
    if store == "files":
        return SaveStore(Path(data))
    from net.server.database_store import DatabaseStore
    from net.store import open_store
    url = None if store == "sqlite" else store
    return DatabaseStore(await open_store(url, Path(data)), Path(data))

async def main(executor):
    limits = Limits(
        per_address=100_000,
        connections=100_000,
        tables=100_000,
        tables_per_address=100_000,
        tables_per_name=100_000,
        burst=1000,
        messages_per_second=1000,
    )
    # every client here is on 127.0.0.1: the per-address bounds of a real
    # server (issue 34) would count them as one attacker
    import dataclasses
    unbounded = {"connects_per_second", "connects_burst", "address_bytes_per_second",
                 "address_bytes_burst", "watches_per_address_per_second",
                 "watches_per_address_burst"}
    names = {f.name for f in dataclasses.fields(limits)}  # (a --code checkout may lack some)
    limits = dataclasses.replace(limits, **{n: 10**9 for n in unbounded & names})
    store = await keeper(sys.argv[1], sys.argv[3])
    server = TableServer(store, limits=limits, executor=executor)
    try:  # as `cardtable serve` does before it serves (a --code checkout may lack it)
        from net.server.heap import settle_heap
        from rules.registry import games
    except ImportError:
        pass
    else:
        games()
        settle_heap()
    try:  # and paced afterwards, as `cardtable serve` does
        from net.server.heap import PacedCollector
    except ImportError:
        pass
    else:
        pacing = asyncio.ensure_future(PacedCollector().run(asyncio.sleep))
    host, port = await server.start("127.0.0.1", 0)
    # the play only: SIGUSR1 when it begins, SIGUSR2 when it ends (the
    # commits' figures, and the profile if asked for)
    import cProfile, json, time
    engine = getattr(getattr(store, "db", None), "engine", None)
    # the loop thread's CPU, not the wall clock: on a busy machine the wall
    # clock charges a function for the time the process waited for a core
    profile = cProfile.Profile(time.thread_time) if os.environ.get("BENCH_PROFILE") else None
    def figures():
        f = getattr(engine, "figures", None)
        names = ("operations", "commits", "seconds")
        return {n: getattr(f, n, 0) for n in names}
    # where a move's time goes on the server: applying it (and telling the
    # seats), then waiting for its commit; and the commits' own durations
    import time
    spans = {"play": [], "commit wait": [], "commit": []}
    watching = [False]
    from net.table import Table
    plain_play, plain_kept = Table.play, Table.kept
    async def timed(name, call, *args):
        began = time.perf_counter()
        try:
            return await call(*args)
        finally:
            if watching[0]:
                spans[name].append(time.perf_counter() - began)
    Table.play = lambda self, *a: timed("play", plain_play, self, *a)
    Table.kept = lambda self, *a: timed("commit wait", plain_kept, self, *a)
    writer_figures = getattr(engine, "figures", None)
    if writer_figures is not None:
        plain_count = writer_figures.count
        def count(group, seconds=0.0):
            if watching[0]:
                spans["commit"].append(seconds)
            plain_count(group, seconds)
        writer_figures.count = count
    # the server's own collections during the play (each stops the loop and,
    # for the interpreter, the commit thread)
    import gc
    # (wall time, and the thread's CPU time: on a loaded machine a collection
    # may wait for a core in the middle)
    collections = {0: [], 1: [], 2: []}
    collecting = [0.0, 0.0]
    def on_gc(phase, info):
        if phase == "start":
            collecting[:] = [time.perf_counter(), time.thread_time()]
        elif watching[0]:
            collections[info["generation"]].append(
                (time.perf_counter() - collecting[0], time.thread_time() - collecting[1])
            )
    gc.callbacks.append(on_gc)
    def spread(values):
        if not values:
            return "-"
        values = sorted(values)
        at = lambda q: values[min(len(values) - 1, int(len(values) * q))] * 1000
        return f"{at(0.5):.1f}, {at(0.99):.1f}, {values[-1] * 1000:.1f}"
    began = {}
    def begin():
        watching[0] = True
        began.update(figures())
        if profile is not None:
            profile.enable()
    def end():
        if profile is not None:
            profile.disable()
            profile.dump_stats(os.environ["BENCH_PROFILE"])
        watching[0] = False
        now = figures()
        out = {k: v - began.get(k, 0) for k, v in now.items()}
        out["spans"] = {name: spread(values) for name, values in spans.items()}
        out["collections"] = "; ".join(
            f"gen {g}: {len(v)}, longest {max((x[0] for x in v), default=0) * 1000:.1f} ms"
            f" (CPU {max((x[1] for x in v), default=0) * 1000:.1f})"
            for g, v in collections.items()
        )
        print(json.dumps(out), flush=True)
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR1, begin)
    loop.add_signal_handler(signal.SIGUSR2, end)
    print(port, flush=True)
    await server.serve_forever()

if __name__ == "__main__":
    executor = None  # threads: the loop's default pool
    if sys.argv[2] == "processes":  # as cardtable serve builds it
        try:
            from net.thinkers import process_pool
        except ImportError:  # code from before net/thinkers.py: as serve built it then
            executor = ProcessPoolExecutor(
                max_workers=max(1, (os.cpu_count() or 2) - 1),
                mp_context=multiprocessing.get_context("spawn"),
                initializer=functools.partial(signal.signal, signal.SIGINT, signal.SIG_IGN),
            )
        else:
            executor = process_pool()
    try:  # the loop `cardtable serve` runs on (uvloop from issue 35's sixth session)
        from net.server.event_loop import run
    except ImportError:
        run = asyncio.run
    run(main(executor))
"""


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def play(
    client: RemoteClient,
    moves: int,
    rng: random.Random,
    trips: list[float],
    think: float,
    lost: list[int],
) -> None:
    """Play until the table has seen ``moves`` moves a seat (both clients stop
    there, so neither waits for one that has stopped)."""
    seat = client.my_seats[0]
    while True:
        try:
            update = await client.wait_for(lambda u: u.over or bool(u.legal) or u.state_id >= moves)
        except LinkDown:
            lost.append(seat)
            return
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
        except LinkDown:  # the server was silent too long (its pings unanswered)
            lost.append(seat)
            return
        trips.append(time.perf_counter() - start)


class ComputerWatch:
    """Times a computer's decisions from its opponent's updates: from the
    first update that shows it thinking to the first with a later state."""

    def __init__(self, times: list[float]) -> None:
        self.times = times
        self.since: tuple[float, int] | None = None

    def __call__(self, update: Update) -> None:
        now = time.perf_counter()
        if self.since is not None and update.state_id != self.since[1]:
            self.times.append(now - self.since[0])
            self.since = None
        if update.thinking and not update.over and self.since is None:
            self.since = (now, update.state_id)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def cpu_seconds(pid: int, task: int | None = None) -> float:
    """The user and system CPU time process ``pid`` (or its thread ``task``) has used."""
    where = f"/proc/{pid}/task/{task}/stat" if task else f"/proc/{pid}/stat"
    fields = Path(where).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def open_tables(
    port: int, args: argparse.Namespace, share: range, levels: list[tuple[int, str]]
) -> tuple[list[RemoteClient], list[tuple[RemoteClient, int]], list[float], list[Any]]:
    clients: list[RemoteClient] = []
    players: list[tuple[RemoteClient, int]] = []  # (client, the table's moves it plays to)
    decisions: list[float] = []
    stops = []
    for i in share:
        ada = await RemoteClient.connect("127.0.0.1", port, f"A{i}")
        bo = await RemoteClient.connect("127.0.0.1", port, f"B{i}")
        table = await ada.create("domination", ["open", "open"], options={"first_leader": "0"})
        await ada.join(table.table)
        await bo.join(table.table)
        clients += [ada, bo]
        players += [(ada, 2 * args.moves), (bo, 2 * args.moves)]
    for i, level in levels:
        person = await RemoteClient.connect("127.0.0.1", port, f"C{i}")
        seats = ["open", f"computer:{level}"]
        table = await person.create("domination", seats, options={"first_leader": "0"})
        stops.append(person.subscribe(ComputerWatch(decisions)))
        await person.join(table.table, 0)
        clients.append(person)
        players.append((person, 2 * args.moves))
    return clients, players, decisions, stops


async def client_part(
    port: int, args: argparse.Namespace, part: int, barrier: Any, played: Any
) -> dict[str, Any]:
    """One client process's share of the tables: open them, wait for every
    process to have opened its share, play, return the round trips."""
    parts = args.client_processes
    share = range(part, args.tables, parts)
    levels = ["hard"] * args.hard + ["medium"] * args.medium
    mine = [(i, level) for i, level in enumerate(levels) if i % parts == part]
    clients, players, decisions, stops = await open_tables(port, args, share, mine)
    # these clients stand for programs on 2,000 machines, each with a heap of
    # its own: this process's collector, scanning a thousand clients' heap,
    # stopped it for 50-166 ms 20-30 times a run (the paced step's
    # generation-1 scans the longest) and held every round trip in flight
    # in it: a lag no real player's has. So no collection while they play
    # (a minute's garbage of a thousand clients is a few MB)
    import gc

    gc.collect()
    gc.freeze()
    gc.disable()
    await asyncio.get_running_loop().run_in_executor(None, barrier.wait)
    trips: list[float] = []
    lost: list[int] = []  # players whose link went down (the server silent 4 s)
    stalls: list[float] = []  # this process's own loop late by more than 50 ms
    ticking = asyncio.ensure_future(_tick(stalls))
    profile = None
    if args.profile_clients and part == 0:
        import cProfile

        profile = cProfile.Profile(time.thread_time)  # CPU, as the server's profile
        profile.enable()
    cpu = time.process_time()
    await asyncio.gather(
        *(
            play(c, moves, random.Random(part * 1_000_003 + i), trips, args.think, lost)
            for i, (c, moves) in enumerate(players)
        )
    )
    cpu = time.process_time() - cpu
    gc.enable()
    if profile is not None:
        profile.disable()
        profile.dump_stats(args.profile_clients)
    ticking.cancel()
    # no process hangs up while another still plays: the server's work of
    # 1,000 connections ending is not part of a move's round trip
    await asyncio.get_running_loop().run_in_executor(None, played.wait)
    for stop in stops:
        stop()
    for client in clients:
        await client.close()
    return {
        "trips": trips,
        "decisions": decisions,
        "cpu": cpu,
        "clients": len(clients),
        "lost": len(lost),
        "stalls": stalls,
    }


async def _tick(stalls: list[float]) -> None:
    """Note each time this loop came back more than 50 ms late from a 10 ms
    sleep: a round trip that long may be the client's, not the server's."""
    while True:
        began = time.perf_counter()
        await asyncio.sleep(0.01)
        late = time.perf_counter() - began - 0.01
        if late > 0.05:
            stalls.append(late)


def cpu_list(text: str) -> set[int]:
    """``0``, ``0,1`` or ``0-1``: the cores, for ``os.sched_setaffinity``."""
    cores: set[int] = set()
    for part in text.split(","):
        low, _, high = part.partition("-")
        cores.update(range(int(low), int(high or low) + 1))
    return cores


def client_process(
    port: int, args: argparse.Namespace, part: int, barriers: tuple[Any, Any], out: Any
) -> None:
    if args.client_cpus:
        os.sched_setaffinity(0, args.client_cpus)
    # the clients on uvloop: they stand for 2,000 players' own machines, and
    # asyncio's pure-Python timers and handles cost this shared machine 1.3x
    # the server's CPU a move, taken from the server it measures
    import uvloop

    try:
        out.put(uvloop.run(client_part(port, args, part, *barriers)))
    except BaseException as err:  # the parent must hear of it, not wait for ever
        out.put({"failed": f"{type(err).__name__}: {err}"})
        raise


def bench(
    port: int, pid: int, server_out: Any, args: argparse.Namespace, label: str
) -> dict[str, str]:
    import multiprocessing

    before = rss_kib(pid)
    forked = multiprocessing.get_context("fork")
    parts = args.client_processes
    barrier = forked.Barrier(parts + 1)
    played = forked.Barrier(parts)
    out = forked.Queue()
    workers = [
        forked.Process(target=client_process, args=(port, args, part, (barrier, played), out))
        for part in range(parts)
    ]
    opened = time.perf_counter()
    for worker in workers:
        worker.start()
    barrier.wait()  # every share opened
    opened = time.perf_counter() - opened
    after = rss_kib(pid)
    os.kill(pid, signal.SIGUSR1)
    server_cpu = cpu_seconds(pid)
    loop_cpu = cpu_seconds(pid, pid)  # the main thread: the event loop
    began = time.perf_counter()
    results = [out.get() for _ in workers]
    failed = [r["failed"] for r in results if "failed" in r]
    if failed:
        for worker in workers:
            worker.kill()
        raise RuntimeError(f"a client process failed: {failed[0]}")
    took = time.perf_counter() - began
    server_cpu = cpu_seconds(pid) - server_cpu
    loop_cpu = cpu_seconds(pid, pid) - loop_cpu
    os.kill(pid, signal.SIGUSR2)
    commits = json.loads(server_out.readline())
    for worker in workers:
        worker.join()
    trips = [t for r in results for t in r["trips"]]
    decisions = [t for r in results for t in r["decisions"]]
    clients_cpu = sum(r["cpu"] for r in results)
    clients = sum(r["clients"] for r in results)
    lost = sum(r["lost"] for r in results)
    stalls = [t for r in results for t in r["stalls"]]
    tables = args.tables + args.hard + args.medium
    moves = max(1, len(trips))
    row = {
        "server": label,
        "tables, clients": f"{tables}, {clients} (opened in {opened:.1f} s)",
        "people's moves": f"{len(trips)} in {took:.1f} s ({len(trips) / took:.0f}/s)"
        + (f", {lost} links lost" if lost else ""),
        "round trip median, p99": (
            f"{statistics.median(trips) * 1000:.1f} ms, {percentile(trips, 0.99) * 1000:.1f} ms"
        ),
        "CPU a move: server, clients": (
            f"{server_cpu / moves * 1000:.2f} ms, {clients_cpu / moves * 1000:.2f} ms "
            f"({server_cpu / took:.2f} + {clients_cpu / took:.2f} cores)"
        ),
        "server's CPU a move: loop, threads": (
            f"{loop_cpu / moves * 1000:.2f} ms, {(server_cpu - loop_cpu) / moves * 1000:.2f} ms"
        ),
        "commits: groups, ops a group, ms a commit": (
            f"{commits['commits']}, {commits['operations'] / max(1, commits['commits']):.1f}, "
            f"{commits['seconds'] / max(1, commits['commits']) * 1000:.2f}"
            if commits["commits"]
            else "-"
        ),
        "clients' loops late > 50 ms: times, longest": (
            f"{len(stalls)}, {max(stalls, default=0) * 1000:.0f} ms"
        ),
        "server's collections (count, longest)": commits.get("collections", "-"),
        "server: play, commit wait, commit (p50, p99, max ms)": "; ".join(
            commits.get("spans", {}).values()
        )
        or "-",
        "load (uptime)": os.popen("uptime").read().strip().split("load average: ")[-1],
        "memory": (
            f"{before / 1024:.0f} -> {after / 1024:.0f} MiB, "
            f"{(after - before) / max(1, tables):.0f} KiB a table"
        ),
    }
    if decisions:
        row["computers' moves"] = f"{len(decisions)} ({len(decisions) / took:.1f}/s)"
        row["computer's decision median, p99, max"] = (
            f"{statistics.median(decisions) * 1000:.0f} ms, "
            f"{percentile(decisions, 0.99) * 1000:.0f} ms, {max(decisions) * 1000:.0f} ms"
        )
    return row


def run(
    args: argparse.Namespace, executor: str, store: str, code: Path, url: str = ""
) -> dict[str, str]:
    label = f"{executor}, {store}, {code.name}"
    with tempfile.TemporaryDirectory() as data:
        profile = f"{args.profile}.{code.name}.{store}.{args.tables}" if args.profile else ""
        server = subprocess.Popen(
            [sys.executable, "-c", SERVER, data, executor, url or store],
            cwd=code,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(code), "BENCH_PROFILE": profile},
        )
        try:
            if args.server_cpus:  # before its threads start: they inherit it
                os.sched_setaffinity(server.pid, args.server_cpus)
            assert server.stdout is not None
            port = int(server.stdout.readline())
            try:
                row = bench(port, server.pid, server.stdout, args, label)
            except RuntimeError as err:  # a client process failed: the other runs go on
                return {"server": label, "round trip median, p99": f"failed: {err}"}
            if profile:
                row["profile"] = profile
            return row
        finally:
            server.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(timeout=10)
            if server.poll() is None:
                server.kill()
                server.wait()


STORES = ("files", "sqlite", "postgresql")
MOVES = "people's moves"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500, help="tables of two people")
    parser.add_argument("--hard", type=int, default=0, help="tables: a person, a hard computer")
    parser.add_argument("--medium", type=int, default=0, help="tables: a person, a medium one")
    parser.add_argument("--moves", type=int, default=10, help="moves per seat, about")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a player takes to choose (0: every move at once, a stress test)",
    )
    parser.add_argument("--executor", choices=("both", "threads", "processes"), default="both")
    parser.add_argument(
        "--code",
        action="append",
        help="a source tree whose server runs (default: this one); again for another, "
        "each in turn in every round",
    )
    parser.add_argument(
        "--store",
        default="sqlite",
        help="files, sqlite, postgresql, several with commas, or all",
    )
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument(
        "--client-processes", type=int, default=1, help="processes the clients are shared by"
    )
    parser.add_argument(
        "--server-cpus",
        type=cpu_list,
        help="cores the server may run on (e.g. 0): with --client-cpus, the clients' work "
        "off the server's cores, as 2,000 players' machines would be",
    )
    parser.add_argument("--client-cpus", type=cpu_list, help="cores the clients may run on")
    parser.add_argument(
        "--profile", help="cProfile the server during the play into FILE.<code>.<store>.<tables>"
    )
    parser.add_argument(
        "--profile-clients", help="cProfile the first client process's play into FILE"
    )
    args = parser.parse_args()
    stores = STORES if args.store == "all" else tuple(args.store.split(","))
    if not set(stores) <= set(STORES):
        parser.error(f"--store: {args.store!r}: give files, sqlite, postgresql or all")
    codes = [Path(c).resolve() for c in args.code] if args.code else [ROOT]
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # 2,000 clients' sockets
    kinds = ("threads", "processes") if args.executor == "both" else (args.executor,)
    print(f"uptime: {os.popen('uptime').read().strip()}", flush=True)
    with contextlib.ExitStack() as stack:
        cluster = None
        if "postgresql" in stores:
            from tests.net.store import postgres

            cluster = stack.enter_context(postgres.shared_cluster(None))
        rows = []
        for round_ in range(args.rounds):
            for kind in kinds:
                for store in stores:
                    for n, code in enumerate(codes):
                        # a schema of its own each time: every run starts empty
                        where = ""
                        if cluster is not None and store == "postgresql":
                            where = _fresh_schema(cluster, f"bench{round_}_{kind}_{n}")
                        rows.append(run(args, kind, store, code, where))
                        row = rows[-1]
                        print(
                            f"  {row['server']}: {row['round trip median, p99']}; "
                            f"{row.get(MOVES, '-')}; "
                            f"CPU {row.get('CPU a move: server, clients', '-')}"
                            f"; load {row.get('load (uptime)', '-')}",
                            flush=True,
                        )
    print(
        f"{args.tables} tables, think {args.think:g} s, moves {args.moves} a seat, "
        f"clients in {args.client_processes} processes"
        + (f", server on cores {sorted(args.server_cpus)}" if args.server_cpus else "")
        + (f", clients on cores {sorted(args.client_cpus)}" if args.client_cpus else "")
    )
    for key in max(rows, key=len):
        print(f"{key:>38}: " + "  |  ".join(row.get(key, "-") for row in rows))


def _fresh_schema(cluster: Any, name: str) -> str:
    """The URL of an empty schema ``name`` at ``cluster``."""
    import psycopg

    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
        conn.execute(f"CREATE SCHEMA {name}")
    return str(cluster.url(schema=name))


if __name__ == "__main__":
    main()
