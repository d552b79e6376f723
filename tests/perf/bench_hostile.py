"""The table server under attack by one client (issue 22): the round trip of
a move at another table while the attack runs, before and after.

    uv run python tests/perf/bench_hostile.py [--seconds 8] [--before /work/main]

For each attack, a fresh `cardtable serve` (the real command, its default
limits, with the usual soft limit of 1024 file descriptors, as a service
manager would start it) is started from this tree, and from the tree named
by ``--before`` (the code before the limits, for reference) if given. A
victim on 127.0.0.2 plays a domination game against the server's easy
computer player, move after move; its round trip is from sending a `move`
to reading its `ok`. Meanwhile the attacker, from other loopback addresses
(127.0.0.0/8 is all loopback on Linux, so the server sees distinct
addresses):

- ``none``: no attack, for reference.
- ``tables``: 16 connections from one address create empty tables as fast as
  the message rate allows (20 a second each).
- ``lists``: 912 tables are made first (8 by each of two names from each of
  57 addresses),
  then 16 connections from one address ask for `list` 20 times a second each.
- ``connections``: 1,500 connections from 94 addresses (16 each), each
  saying hello and staying.
- ``bots``: 16 connections from one address each create a table of two hard
  computer players (they start at once and play a very long match).

Printed per attack and per code: the victim's round trip median and p99
(goal: p99 under 50 ms), the server's CPU while attacked, what the attacker
got (tables made, bytes of lists, connections held) and how soon it was
first refused, and whether a newcomer could connect, say hello and create a
table at the end. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
HELLO = {"type": "hello", "version": 1, "client": "bench", "name": "x"}
OPTIONS = {"target_score": 100_000}  # a game that lasts the whole run


@dataclass
class Line:
    """A raw protocol connection from a chosen source address."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter

    @classmethod
    async def open(cls, port: int, source: str) -> Line:
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, local_addr=(source, 0), limit=64 * 1024 * 1024
        )
        return cls(reader, writer)

    def send(self, message: dict[str, Any]) -> None:
        self.writer.write(json.dumps(message).encode() + b"\n")

    async def recv(self) -> dict[str, Any]:
        while True:
            line = await self.reader.readline()
            if not line:
                raise ConnectionError("closed")
            if line.strip():
                message: dict[str, Any] = json.loads(line)
                return message

    async def reply(self, message: dict[str, Any]) -> dict[str, Any]:
        """The reply to ``message`` (by its id), other messages skipped."""
        self.send(message)
        while True:
            got = await self.recv()
            if got.get("id") == message.get("id") and got["type"] not in ("game", "ping"):
                return got

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()


@dataclass
class Result:
    trips: list[float] = field(default_factory=list)
    cpu: float = 0.0
    got: str = ""
    first_refusal: float | None = None  # seconds into the attack
    newcomer: str = ""
    log_lines: int = 0
    tracebacks: int = 0
    log_sample: list[str] = field(default_factory=list)


async def victim(port: int, trips: list[float], stop: asyncio.Event) -> None:
    """Play against the computer until ``stop``, timing every move's `ok`."""
    line = await Line.open(port, "127.0.0.2")
    await line.reply({**HELLO, "name": "Victim", "id": 0})
    rid = 1
    while not stop.is_set():
        create = {
            "type": "create",
            "id": rid,
            "game": "domination",
            "seats": ["open", "computer:easy"],
            "options": OPTIONS,
        }
        created = await line.reply(create)
        table = created["table"]["table"]
        rid += 1
        await line.reply({"type": "join", "id": rid, "table": table})
        update: dict[str, Any] = {}
        moved_at = -1  # the state the last move was chosen at
        while not stop.is_set() and update.get("status") != "finished":
            if not update.get("legal") or update["state_id"] <= moved_at:
                message = await line.recv()
                if message["type"] == "game":
                    update = message["update"]
                continue
            await asyncio.sleep(0.02)  # a bot that takes a moment to choose
            rid += 1
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
            trips.append(time.perf_counter() - start)
        rid += 1
        await line.reply({"type": "leave", "id": rid})
    line.close()


async def drain(line: Line, counts: dict[str, int], began: float, result: Result) -> None:
    """Read what the server sends an attacker: count bytes and refusals."""
    with contextlib.suppress(ConnectionError, OSError, asyncio.IncompleteReadError):
        while True:
            data = await line.reader.read(1 << 20)
            if not data:
                return
            counts["bytes"] += len(data)
            for code in (b'"quota"', b'"too_fast"', b'"limit"'):
                if code in data:
                    counts[code.decode().strip('"')] += data.count(code)
                    if result.first_refusal is None:
                        result.first_refusal = time.perf_counter() - began


async def flood(
    lines: list[Line], message: dict[str, Any], rate: float, stop: asyncio.Event
) -> None:
    """Each line sends ``message`` ``rate`` times a second until ``stop``."""

    async def one(line: Line) -> None:
        with contextlib.suppress(ConnectionError, OSError):
            while not stop.is_set() and not line.writer.is_closing():
                line.send(message)
                await asyncio.sleep(1 / rate)

    await asyncio.gather(*(one(line) for line in lines))


async def hello_lines(port: int, sources: list[str], per_source: int) -> list[Line]:
    lines = []
    for source in sources:
        for _ in range(per_source):
            try:
                line = await asyncio.wait_for(Line.open(port, source), 5)
            except (OSError, TimeoutError):
                return lines
            line.send({**HELLO, "name": f"{source}-{len(lines)}"})  # a name each
            lines.append(line)
    return lines


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def newcomer(port: int) -> str:
    """Can someone new connect, say hello and create a table? How long it took."""
    start = time.perf_counter()
    try:
        line = await asyncio.wait_for(Line.open(port, "127.0.0.4"), 5)
        line.send({**HELLO, "id": 0})
        welcome = await asyncio.wait_for(line.recv(), 5)
        if welcome["type"] != "welcome":
            took = (time.perf_counter() - start) * 1000
            return f"refused in {took:.0f} ms: {welcome.get('message')}"
        create = {"type": "create", "id": 1, "game": "domination", "seats": ["open", "open"]}
        created = await asyncio.wait_for(line.reply(create), 5)
        line.close()
        if created["type"] != "created":
            took = (time.perf_counter() - start) * 1000
            return f"no table ({took:.0f} ms): {created.get('message')}"
    except (OSError, TimeoutError, ConnectionError) as err:
        return f"failed: {type(err).__name__} after {time.perf_counter() - start:.1f} s"
    return f"ok in {(time.perf_counter() - start) * 1000:.0f} ms"


async def attack(kind: str, port: int, pid: int, seconds: float) -> Result:
    result = Result()
    stop = asyncio.Event()
    counts: dict[str, int] = {"bytes": 0, "quota": 0, "too_fast": 0, "limit": 0}
    attackers: list[Line] = []
    if kind == "lists":  # the tables to list, made by many addresses
        makers = await hello_lines(port, [f"127.0.1.{i}" for i in range(1, 58)], 2)
        for rid in range(8):
            for maker in makers:
                maker.send(
                    {"type": "create", "id": rid, "game": "domination", "seats": ["open", "open"]}
                )
        await asyncio.sleep(3)
        for maker in makers:
            maker.close()
    playing = asyncio.ensure_future(victim(port, result.trips, stop))
    await asyncio.sleep(1)  # the victim's game is under way
    began = time.perf_counter()
    cpu_before = cpu_seconds(pid)
    flooding: asyncio.Future[Any] | None = None
    if kind == "tables":
        attackers = await hello_lines(port, ["127.0.0.3"], 16)
        create = {"type": "create", "game": "domination", "seats": ["open", "open"]}
        flooding = asyncio.ensure_future(flood(attackers, create, 20, stop))
    elif kind == "lists":
        attackers = await hello_lines(port, ["127.0.0.3"], 16)
        flooding = asyncio.ensure_future(flood(attackers, {"type": "list"}, 20, stop))
    elif kind == "connections":
        attackers = await hello_lines(port, [f"127.0.2.{i}" for i in range(1, 95)], 16)
    elif kind == "bots":
        attackers = await hello_lines(port, ["127.0.0.3"], 16)
        for rid, attacker in enumerate(attackers):
            seats = ["computer:hard"] * 2
            attacker.send(
                {
                    "type": "create",
                    "id": rid,
                    "game": "domination",
                    "seats": seats,
                    "options": OPTIONS,
                }
            )
    readers = [asyncio.ensure_future(drain(a, counts, began, result)) for a in attackers]
    await asyncio.sleep(max(0.0, seconds - (time.perf_counter() - began)))
    result.newcomer = await newcomer(port)
    result.cpu = (cpu_seconds(pid) - cpu_before) / (time.perf_counter() - began) * 100
    stop.set()
    if flooding is not None:
        await flooding
    with contextlib.suppress(Exception):
        await asyncio.wait_for(playing, 5)
    if kind == "tables":
        checker = (await hello_lines(port, ["127.0.0.5"], 1))[0]
        listed = await checker.reply({"type": "list", "id": 99})
        result.got = f"{listed.get('total', len(listed.get('tables', [])))} tables on the server"
        checker.close()
    elif kind == "lists":
        result.got = f"{counts['bytes'] / 1024 / 1024:.1f} MiB of lists"
    elif kind == "bots":
        result.got = f"{16 - counts['quota']} tables of two hard computers"
    elif kind == "connections":
        held = len(attackers) - counts["limit"]
        result.got = f"{len(attackers)} opened, {held} held, {counts['limit']} refused"
    for attacker in attackers:
        attacker.close()
    for reader in readers:
        reader.cancel()
    return result


def serve(code: Path, data: str) -> subprocess.Popen[str]:
    def few_descriptors() -> None:  # as a service manager's default
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))

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
        preexec_fn=few_descriptors,
    )


def run(code: Path, kind: str, seconds: float) -> Result:
    with tempfile.TemporaryDirectory() as data:
        server = serve(code, data)
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            port = int(line.split("127.0.0.1:")[1].split(";")[0])
            result = asyncio.run(attack(kind, port, server.pid, seconds))
        finally:
            server.terminate()
            try:
                _, err = server.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                _, err = server.communicate()
        result.log_lines = len(err.splitlines())
        result.log_sample = err.splitlines()[:2]
        result.tracebacks = err.count("Traceback")
        return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="of each attack")
    parser.add_argument("--before", type=Path, help="a tree with the code before, to compare")
    parser.add_argument(
        "--attacks", default="none,tables,lists,connections,bots", help="comma-separated"
    )
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the attacker's own sockets
    codes = [("after", ROOT)] + ([("before", args.before)] if args.before else [])
    print(
        f"{'attack':<12} {'code':<7} {'moves':>5} {'median':>8} {'p99':>9} {'CPU':>5}  "
        "first refused  attacker got / newcomer / server log"
    )
    for kind in args.attacks.split(","):
        for label, code in codes:
            r = run(code, kind, args.seconds)
            trips = sorted(r.trips)
            median = statistics.median(trips) * 1000 if trips else float("nan")
            p99 = (
                trips[min(len(trips) - 1, int(len(trips) * 0.99))] * 1000 if trips else float("nan")
            )
            refused = f"{r.first_refusal:.2f} s" if r.first_refusal is not None else "never"
            print(
                f"{kind:<12} {label:<7} {len(trips):>5} {median:>6.1f}ms {p99:>7.1f}ms "
                f"{r.cpu:>4.0f}%  {refused:<13}  {r.got or '-'} / newcomer {r.newcomer} / "
                f"{r.log_lines} log lines, {r.tracebacks} tracebacks",
                flush=True,
            )
            for logged in r.log_sample:
                print(f"{'':<21}log: {logged[:150]}")


if __name__ == "__main__":
    main()
