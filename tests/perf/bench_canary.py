"""A canary table under each attack of the 2026-11-27 probe (issue 34):
other tables' move round trip while one address attacks, before and after.

    uv run python tests/perf/bench_canary.py [--seconds 12] [--before /work/main]
        [--attacks none,watch,names,churn,chat] [--rounds 1]

For each attack a fresh `cardtable serve` (the real command, default limits)
runs from this tree, and from the tree named by ``--before`` in the same run
(the machine is noisy: compare side by side). The canary: two players from
127.0.0.2 at their own domination table, each sending a move 100 ms after
its turn comes; a round trip is from sending `move` to reading its `ok`.
The attacker is on 127.0.0.1:

- ``none``: no attack (the baseline of the same run);
- ``watch``: a long 8-seat stress table is played first (from 127.0.0.3, a
  person and 7 easy computers, for ``--build`` seconds; then the person
  stops and the computers' moves still in flight end: the table is still
  while measured), then 16 connections send `watch` + `leave` pairs at 18
  messages a second each;
- ``names``: 12 loops of connect, `hello` claiming a new name
  (`name_secret: ""`), read the welcome, close;
- ``churn``: 6 loops of connect + close, and 10 connections held;
- ``chat``: 16 spectators of the canary's table say 19 lines a second each.

Printed: the canary's moves, p50 and p99 (goal: p99 <= 50 ms under every
attack), the server's CPU, the machine's load average (it is shared: read
each figure with it) and what the attacker got; with ``--rounds`` over 1,
then the median of each attack's p99 and its spread (lowest to highest) for
each tree. The pairs of a round run back to back, alternating which tree
goes first. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import logging
import os
import resource
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_hostile import HELLO, Line, cpu_seconds

ROOT = Path(__file__).resolve().parents[2]
ATTACKER = "127.0.0.1"


async def player(
    line: Line, seat: int, table: str, trips: list[float], stop: asyncio.Event, rids: Any
) -> None:
    """Move 100 ms after the seat's turn comes, timing each move's `ok`."""
    update: dict[str, Any] = {}
    moved_at = -1
    while not stop.is_set():
        if (
            seat not in update.get("to_act", ())
            or not update.get("legal")
            or update["state_id"] <= moved_at
        ):
            try:
                message = await asyncio.wait_for(line.recv(), 1.0)
            except TimeoutError:
                continue
            if message["type"] in ("game", "joined"):
                update = message["update"]
            if update.get("status") == "finished":
                return
            continue
        await asyncio.sleep(0.1)
        rid = next(rids)
        moved_at = update["state_id"]
        move = {"type": "move", "id": rid, "move": update["legal"][0], "state_id": moved_at}
        start = time.perf_counter()
        line.send(move)
        while True:
            got = await line.recv()
            if got["type"] == "game":
                update = got["update"]
            elif got.get("id") == rid:
                break
        if got["type"] == "ok":
            trips.append(time.perf_counter() - start)


async def canary(
    port: int, trips: list[float], stop: asyncio.Event, ready: asyncio.Future[str]
) -> None:
    rids = itertools.count(10)
    ada = await Line.open(port, "127.0.0.2")
    bo = await Line.open(port, "127.0.0.2")
    await ada.reply({**HELLO, "name": "CanaryA", "id": 0})
    await bo.reply({**HELLO, "name": "CanaryB", "id": 0})
    while not stop.is_set():
        create = {
            "type": "create",
            "id": 1,
            "game": "domination",
            "seats": ["open", "open"],
            "options": {"target_score": 100_000},
            "sit": True,
        }
        joined = await ada.reply(create)
        table = joined["table"]["table"]
        await bo.reply({"type": "join", "id": 2, "table": table})
        if not ready.done():
            ready.set_result(table)
        await asyncio.gather(
            player(ada, 0, table, trips, stop, rids), player(bo, 1, table, trips, stop, rids)
        )
        for line in (ada, bo):
            await line.reply({"type": "leave", "id": next(rids)})
    ada.close()
    bo.close()


async def drain(line: Line, counts: dict[str, int]) -> None:
    with contextlib.suppress(ConnectionError, OSError):
        while True:
            data = await line.reader.read(1 << 20)
            if not data:
                return
            counts["bytes"] += len(data)
            counts["refused"] += data.count(b'"too_fast"') + data.count(b'"limit"')


async def long_stress_table(port: int, seconds: float) -> tuple[Line, str]:
    """A person and 7 easy computers at stress, played for ``seconds``."""
    line = await Line.open(port, "127.0.0.3")
    await line.reply({**HELLO, "name": "Builder", "id": 0})
    create = {
        "type": "create",
        "id": 1,
        "game": "stress",
        "seats": ["open"] + ["computer:easy"] * 7,
        "options": {"players": 8},
        "sit": True,
    }
    joined = await line.reply(create)
    table = joined["table"]["table"]
    update = joined["update"]
    rid = 2
    moved_at = -1
    end = time.perf_counter() + seconds
    while time.perf_counter() < end and update.get("status") != "finished":
        if 0 in update.get("to_act", ()) and update.get("legal") and update["state_id"] > moved_at:
            moved_at = update["state_id"]
            rid += 1
            line.send(
                {
                    "type": "move",
                    "id": rid,
                    "move": staying_move(update),
                    "state_id": update["state_id"],
                }
            )
        try:
            message = await asyncio.wait_for(line.recv(), 1.0)
        except TimeoutError:
            continue
        if message["type"] == "game":
            update = message["update"]
        elif message["type"] == "ping":  # out of cards, it still answers
            line.send({"type": "pong"})
    await settle(line)
    return line, table


def staying_move(update: dict[str, Any]) -> str:
    """The first legal move, but the stack picked up once the hand is played
    out: the person stays in the game, so that when it stops moving the
    computers stop at its turn (the table is still while measured)."""
    legal: list[str] = update["legal"]
    sources = update.get("view", {}).get("sources", ["hand"])
    if sources[0] != "hand" and "pickup" in legal:
        return "pickup"
    return legal[0]


async def settle(line: Line, quiet: float = 2.0, most: float = 90.0) -> None:
    """Until the table has been still for ``quiet`` seconds (or ``most``
    have passed): the person has stopped, and the computers' moves still in
    flight (or their game, if the person is out of cards) end before the
    attack is measured, so that the window measures the attack, not them."""
    end = time.perf_counter() + most
    while time.perf_counter() < end:
        try:
            message = await asyncio.wait_for(line.recv(), quiet)
        except TimeoutError:
            return
        if message["type"] == "ping":
            line.send({"type": "pong"})


async def answer_pings(line: Line) -> None:
    """Keep a seated person who has stopped moving there (a seat whose pings
    go unanswered is taken as gone: its grace period, then the computer,
    would change the table while measured)."""
    with contextlib.suppress(ConnectionError, OSError):
        while True:
            if (await line.recv())["type"] == "ping":
                line.send({"type": "pong"})


async def canary_alone(port: int, seconds: float) -> None:
    """The canary in a process of its own (the attacker's event loop must
    not delay it): prints its table, then after a second of play the round
    trips of ``seconds`` as JSON."""
    trips: list[float] = []
    stop = asyncio.Event()
    ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    playing = asyncio.ensure_future(canary(port, trips, stop, ready))
    print(await ready, flush=True)
    await asyncio.sleep(1.0)
    trips.clear()
    await asyncio.sleep(seconds)
    print(json.dumps(trips), flush=True)
    stop.set()
    playing.cancel()
    await asyncio.gather(playing, return_exceptions=True)


async def attack(kind: str, port: int, pid: int, seconds: float, build: float) -> dict[str, Any]:
    stop = asyncio.Event()
    counts = {"bytes": 0, "refused": 0, "done": 0}
    keep: list[Line] = []
    stress = ""
    pongs: asyncio.Future[None] | None = None
    if kind == "watch":
        builder, stress = await long_stress_table(port, build)
        keep.append(builder)
        pongs = asyncio.ensure_future(answer_pings(builder))
    bird = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--canary",
        str(port),
        "--seconds",
        str(seconds),
        stdout=asyncio.subprocess.PIPE,
    )
    assert bird.stdout is not None
    table = (await bird.stdout.readline()).decode().strip()
    await asyncio.sleep(1.0)
    began = time.perf_counter()
    cpu_before = cpu_seconds(pid)
    tasks: list[asyncio.Future[Any]] = []

    async def watcher(i: int) -> None:
        line = await Line.open(port, ATTACKER)
        line.send({**HELLO, "name": f"w{i}"})
        reading = asyncio.ensure_future(drain(line, counts))
        with contextlib.suppress(ConnectionError, OSError):
            while not stop.is_set():
                line.send({"type": "watch", "table": stress})
                line.send({"type": "leave"})
                counts["done"] += 1
                await asyncio.sleep(0.11)
        reading.cancel()
        line.close()

    async def claimer() -> None:
        while not stop.is_set():
            with contextlib.suppress(ConnectionError, OSError, TimeoutError):
                line = await asyncio.wait_for(Line.open(port, ATTACKER), 5)
                name = "n" + secrets.token_hex(6)
                line.send({**HELLO, "name": name, "name_secret": ""})
                got = await asyncio.wait_for(line.recv(), 5)
                counts["done"] += got.get("type") == "welcome" and "name_secret" in got
                counts["refused"] += got.get("type") != "welcome"
                line.close()

    async def churner() -> None:
        while not stop.is_set():
            with contextlib.suppress(ConnectionError, OSError, TimeoutError):
                line = await asyncio.wait_for(Line.open(port, ATTACKER), 5)
                counts["done"] += 1
                line.writer.transport.abort()
            await asyncio.sleep(0)

    async def chatter(i: int) -> None:
        line = await Line.open(port, ATTACKER)
        line.send({**HELLO, "name": f"c{i}"})
        line.send({"type": "watch", "table": table})
        reading = asyncio.ensure_future(drain(line, counts))
        with contextlib.suppress(ConnectionError, OSError):
            while not stop.is_set():
                line.send({"type": "chat", "text": "spam " * 20})
                counts["done"] += 1
                await asyncio.sleep(1 / 19)
        reading.cancel()
        line.close()

    if kind == "watch":
        tasks = [asyncio.ensure_future(watcher(i)) for i in range(16)]
    elif kind == "names":
        tasks = [asyncio.ensure_future(claimer()) for _ in range(12)]
    elif kind == "churn":
        for _ in range(10):
            held = await Line.open(port, ATTACKER)
            held.send({**HELLO, "name": "held"})
            keep.append(held)
        tasks = [asyncio.ensure_future(churner()) for _ in range(6)]
    elif kind == "chat":
        tasks = [asyncio.ensure_future(chatter(i)) for i in range(16)]
    measured = json.loads(await bird.stdout.readline())
    window = time.perf_counter() - began
    cpu = (cpu_seconds(pid) - cpu_before) / window * 100
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await bird.wait()
    if pongs is not None:
        pongs.cancel()
    for line in keep:
        line.close()
    return {"trips": measured, "cpu": cpu, **counts}


def serve(code: Path, data: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from tui.cli import main; raise SystemExit(main())",
            *("serve", "--port", "0", "--data-dir", data),
        ],
        cwd=code,
        env={**os.environ, "PYTHONPATH": str(code)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def run(code: Path, kind: str, seconds: float, build: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as data:
        server = serve(code, data)
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            port = int(line.split("127.0.0.1:")[1].split(";")[0])
            result = asyncio.run(attack(kind, port, server.pid, seconds, build))
        finally:
            server.terminate()
            try:
                _, err = server.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                _, err = server.communicate()
        result["tracebacks"] = err.count("Traceback")
        return result


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=12.0, help="of each attack")
    parser.add_argument("--build", type=float, default=25.0, help="seconds of the long table")
    parser.add_argument("--before", type=Path, help="a tree with the code before, to compare")
    parser.add_argument("--attacks", default="none,watch,names,churn,chat")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each pair")
    parser.add_argument("--canary", type=int, help=argparse.SUPPRESS)  # the canary's port
    args = parser.parse_args()
    if args.canary:
        asyncio.run(canary_alone(args.canary, args.seconds))
        return
    # the attacker writes on after the server has closed its connections
    # (that is the point): asyncio's warning for each such write is noise here
    logging.getLogger("asyncio").setLevel(logging.ERROR)
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    codes = [("after", ROOT)] + ([("before", args.before)] if args.before else [])
    p99s: dict[tuple[str, str], list[float]] = {}
    loads: dict[str, list[float]] = {}
    print(
        f"{'attack':<7} {'code':<7} {'moves':>5} {'p50':>8} {'p99':>8} {'CPU':>5} {'load':>5}"
        "  attacker"
    )
    for kind in args.attacks.split(","):
        for round_ in range(args.rounds):
            # alternate which tree goes first: the machine's load drifts
            for label, code in codes if round_ % 2 == 0 else codes[::-1]:
                r = run(code, kind, args.seconds, args.build)
                load = os.getloadavg()[0]
                trips = r["trips"]
                median = statistics.median(trips) * 1000 if trips else float("nan")
                p99 = percentile(trips, 0.99)
                p99s.setdefault((kind, label), []).append(p99)
                loads.setdefault(kind, []).append(load)
                print(
                    f"{kind:<7} {label:<7} {len(trips):>5} {median:>6.1f}ms "
                    f"{p99:>6.1f}ms {r['cpu']:>4.0f}% {load:>5.2f}  "
                    f"{r['done']} done, {r['refused']} refused, "
                    f"{r['bytes'] / 1024 / 1024:.1f} MiB received, "
                    f"{r['tracebacks']} tracebacks",
                    flush=True,
                )
    if args.rounds > 1:
        print(f"\np99 over {args.rounds} rounds: median (lowest to highest); load average")
        for kind in args.attacks.split(","):
            cells = []
            for label, _ in codes:
                values = p99s[(kind, label)]
                cells.append(
                    f"{label} {statistics.median(values):.1f} ms "
                    f"({min(values):.1f} to {max(values):.1f})"
                )
            seen = loads[kind]
            print(f"{kind:<7} {'; '.join(cells)}; load {min(seen):.1f} to {max(seen):.1f}")


if __name__ == "__main__":
    main()
