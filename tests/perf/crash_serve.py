"""Every move whose ``ok`` a client received survives a SIGKILL of
``cardtable serve``, on each engine of its store (issue 35).

    uv run python tests/perf/crash_serve.py [--kills 100] [--tables 4]
        [--engines sqlite,postgresql]

Starts the real ``cardtable serve`` (SQLite in a temp data dir, or
``--database`` a real PostgreSQL started from /usr/lib/postgresql/*/bin),
and ``--tables`` tables of two raw protocol clients each, who play the first
legal move whenever it is their turn. The server is killed with SIGKILL
0.2 to 1.5 s after the players are seated; then the store is read directly:
every table's record must hold every move whose ``ok`` was received (lost),
and read (unreadable). The server is started again on the same store and
every player takes its seat back with ``rejoin`` and its token (a failed
rejoin is counted); a table whose game ended is replaced by a new one.
Prints, per engine, kills, moves acknowledged, lost, unreadable, failed
rejoins. Ports from 24400 (the store's range). Not collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from net.store import StoreError, open_store  # noqa: E402
from tests.net.store import postgres  # noqa: E402

CARDTABLE = Path(sys.executable).parent / "cardtable"


@dataclass
class Seat:
    table: str
    token: str
    name: str
    acked: int = -1  # the highest state id whose move got `ok`


@dataclass
class Tally:
    acked: int = 0
    lost: int = 0
    unreadable: int = 0
    rejoin_failed: int = 0
    acked_at: dict[str, int] = field(default_factory=dict)


async def connect(port: int, name: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 22)
    send(writer, {"type": "hello", "version": 1, "client": "crash", "name": name})
    await until(reader, "welcome")
    return reader, writer


def send(writer: asyncio.StreamWriter, message: dict[str, Any]) -> None:
    writer.write(json.dumps(message).encode() + b"\n")


async def until(reader: asyncio.StreamReader, kind: str) -> dict[str, Any]:
    while True:
        line = await asyncio.wait_for(reader.readline(), 30)
        if not line:
            raise ConnectionError("closed")
        message: dict[str, Any] = json.loads(line)
        if message["type"] == kind:
            return message
        if message["type"] == "error" and kind != "ok":
            raise RuntimeError(message)


async def play(
    seat: Seat,
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    update: dict[str, Any],
    tally: Tally,
) -> None:
    """Move whenever it is this seat's turn; count every `ok`."""
    waiting: int | None = None
    while True:
        if waiting is None and update["seat"] in update["to_act"] and update["legal"]:
            legal = [m for m in update["legal"] if m not in ("resign", "concede")]
            if legal:
                waiting = update["state_id"]
                send(writer, {"type": "move", "move": legal[0], "state_id": waiting})
        line = await reader.readline()
        if not line:
            return
        message = json.loads(line)
        if "update" in message:
            update = message["update"]
        if message["type"] == "ok" and waiting is not None:
            seat.acked = max(seat.acked, waiting)
            tally.acked += 1
            tally.acked_at[seat.table] = max(tally.acked_at.get(seat.table, -1), waiting)
            waiting = None
        elif message["type"] == "error":
            waiting = None
        elif message["type"] == "ping":
            send(writer, {"type": "pong"})


async def new_table(port: int, i: int) -> list[tuple[Seat, Any, Any, dict[str, Any]]]:
    a, b = f"a{i}x{secrets.token_hex(2)}", f"b{i}x{secrets.token_hex(2)}"
    ra, wa = await connect(port, a)
    rb, wb = await connect(port, b)
    ta, tb = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    send(
        wa,
        {
            "type": "create",
            "game": "domination",
            "seats": ["open", "open"],
            "sit": True,
            "next_token": ta,
        },
    )
    joined_a = await until(ra, "joined")
    table = joined_a["table"]["table"]
    send(wb, {"type": "join", "table": table, "next_token": tb})
    joined_b = await until(rb, "joined")
    return [
        (Seat(table, ta, a), ra, wa, joined_a["update"]),
        (Seat(table, tb, b), rb, wb, joined_b["update"]),
    ]


async def rejoin(port: int, seat: Seat) -> tuple[Any, Any, dict[str, Any]] | None:
    reader, writer = await connect(port, seat.name)
    token = secrets.token_urlsafe(24)
    send(writer, {"type": "rejoin", "table": seat.table, "token": seat.token, "next_token": token})
    try:
        joined = await until(reader, "joined")
    except RuntimeError:
        writer.close()
        return None
    seat.token = token
    return reader, writer, joined["update"]


async def check(database: str | None, data: Path, tally: Tally, finished: set[str]) -> None:
    store = await open_store(database, data)
    try:
        for table, acked in tally.acked_at.items():
            try:
                record = await store.tables.load_record(table)
            except StoreError as err:
                print(f"  unreadable {table}: {err}")
                tally.unreadable += 1
                continue
            if len(record.moves) <= acked:
                print(f"  table {table}: ok up to state {acked}, kept {len(record.moves)} moves")
                tally.lost += acked + 1 - len(record.moves)
            if record.status == "finished":
                finished.add(table)
    finally:
        await store.close()


async def run(
    engine: str, database: str | None, data: Path, kills: int, tables: int, port: int
) -> str:
    tally = Tally()
    rng = random.Random(2)
    seats: list[Seat] = []
    finished: set[str] = set()
    started = time.monotonic()
    command = [
        str(CARDTABLE),
        "--data-dir",
        str(data),
        "serve",
        "--port",
        str(port),
        "--thinkers",
        "1",
    ]
    if database:
        command += ["--database", database]
    for kill in range(kills):
        server = await asyncio.create_subprocess_exec(
            *command,
            stdout=asyncio.subprocess.PIPE,
            stderr=open(os.environ.get("CRASH_LOG", os.devnull), "ab"),  # noqa: SIM115 (the child holds it)
        )
        assert server.stdout is not None
        while b"serving tables" not in (line := await server.stdout.readline()):
            assert line, "the server did not start"
        players = []
        for seat in list(seats):
            if seat.table in finished:
                seats.remove(seat)
                continue
            back = await rejoin(port, seat)
            if back is None:
                print(f"  kill {kill}: {seat.name} could not rejoin table {seat.table}")
                tally.rejoin_failed += 1
                seats.remove(seat)
                continue
            players.append((seat, *back))
        while len(seats) < 2 * tables:
            for seat, reader, writer, update in await new_table(port, len(seats)):
                seats.append(seat)
                players.append((seat, reader, writer, update))
        tasks = [asyncio.create_task(play(s, r, w, u, tally)) for s, r, w, u in players]
        await asyncio.sleep(rng.uniform(0.2, 1.5))
        server.send_signal(signal.SIGKILL)
        await server.wait()
        await asyncio.gather(*tasks, return_exceptions=True)
        for _, _, writer, _ in players:
            writer.close()
        await check(database, data, tally, finished)
    seconds = time.monotonic() - started
    line = (
        f"{engine:<11} {kills} kills, {tally.acked} moves acknowledged, {tally.lost} lost, "
        f"{tally.unreadable} unreadable, {tally.rejoin_failed} failed rejoins "
        f"({seconds:.0f} s)"
    )
    print(line, flush=True)
    return line


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--engines", default="sqlite,postgresql")
    parser.add_argument("--port", type=int, default=24400)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if "sqlite" in args.engines:
            await run("sqlite", None, Path(tmp) / "sqlite", args.kills, args.tables, args.port)
        if "postgresql" in args.engines:
            with postgres.shared_cluster(f"crash-serve-{os.getpid()}") as cluster:
                await run(
                    "postgresql",
                    cluster.url(),
                    Path(tmp) / "pg",
                    args.kills,
                    args.tables,
                    args.port + 1,
                )


if __name__ == "__main__":
    asyncio.run(main())
