"""Every acknowledged move survives a SIGKILL of the process writing it,
on each engine of the store.

    uv run python tests/perf/crash_store.py [--kills 100] [--tables 8]
        [--engines sqlite,postgresql]

A child process opens the store (SQLite in a temp data dir, or a real
PostgreSQL started from /usr/lib/postgresql/*/bin in a temp folder) and
plays ``--tables`` tables at once: each move goes through
``store.tables.record_move`` and, once that returns (committed), the child
prints ``table ply`` (its acknowledgement, as the server's ``ok`` will be).
The parent kills the child with SIGKILL at a random moment (0.05 to 1 s
after it is ready), reads the store, and checks that every acknowledged move
is there with its text (lost), that every record reads (unreadable), and
that the child carries on from there; ``--kills`` times per engine. With
``--early-ack`` (the control) a move is acknowledged before its commit, as
the file-based server does: that run must show losses. Prints the
acknowledged moves, kills, lost and unreadable per engine. Not collected by
pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from net.store import StoreError, open_store  # noqa: E402
from saves.record import GameRecord  # noqa: E402
from tests.net.store import postgres  # noqa: E402
from tests.saves.helpers import played_record  # noqa: E402


def table_ids(tables: int) -> list[str]:
    return [f"{i:08x}" for i in range(tables)]


async def child(database: str | None, data: Path, tables: int, early: bool) -> None:
    store = await open_store(database, data)
    base = played_record(0)
    plies = {}
    for table_id in table_ids(tables):
        try:
            plies[table_id] = len((await store.tables.load_record(table_id)).moves)
        except StoreError:
            record: GameRecord = base.copy()
            record.id = table_id
            await store.tables.save_record(record)
            plies[table_id] = 0
    print("ready", flush=True)
    rng = random.Random(os.getpid())

    async def play(table_id: str) -> None:
        ply = plies[table_id]
        while True:
            if early:  # the control: acknowledged before the commit, as the file-based server
                sys.stdout.write(f"{table_id} {ply}\n")
                sys.stdout.flush()
            await store.tables.record_move(table_id, ply, ply % 2, f"m{ply}")
            if not early:
                sys.stdout.write(f"{table_id} {ply}\n")
                sys.stdout.flush()
            ply += 1
            await asyncio.sleep(rng.uniform(0, 0.004))

    await asyncio.gather(*(play(t) for t in table_ids(tables)))


async def check(database: str | None, data: Path, acked: dict[str, int]) -> tuple[int, int]:
    """(moves lost, records unreadable) against the highest ply acknowledged per table."""
    store = await open_store(database, data)
    lost = unreadable = 0
    try:
        for table_id, ply in acked.items():
            try:
                record = await store.tables.load_record(table_id)
            except StoreError as err:
                print(f"  unreadable {table_id}: {err}")
                unreadable += 1
                continue
            kept = len(record.moves)
            if kept <= ply:
                print(f"  table {table_id}: acknowledged up to ply {ply}, kept {kept}")
                lost += ply + 1 - kept
            bad = [i for i, (_, text) in enumerate(record.moves) if text != f"m{i}"]
            if bad:
                print(f"  table {table_id}: wrong moves at {bad[:5]}")
                unreadable += 1
    finally:
        await store.close()
    return lost, unreadable


async def run(
    engine: str, database: str | None, data: Path, kills: int, tables: int, early: bool
) -> str:
    acked: dict[str, int] = {}
    total = lost = unreadable = 0
    rng = random.Random(1)
    started = time.monotonic()
    for _ in range(kills):
        command = [
            sys.executable,
            __file__,
            "--child",
            "--data",
            str(data),
            "--tables",
            str(tables),
        ]
        if database:
            command += ["--database", database]
        if early:
            command.append("--early-ack")
        proc = await asyncio.create_subprocess_exec(
            *command, stdout=asyncio.subprocess.PIPE, cwd=ROOT
        )
        assert proc.stdout is not None
        line = await proc.stdout.readline()
        assert line.strip() == b"ready", line
        deadline = time.monotonic() + rng.uniform(0.05, 1.0)

        async def read(out: asyncio.StreamReader) -> None:
            nonlocal total
            while line := await out.readline():
                table_id, ply = line.split()
                acked[table_id.decode()] = max(acked.get(table_id.decode(), -1), int(ply))
                total += 1

        reader = asyncio.create_task(read(proc.stdout))
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        await reader  # every line written before the kill is an acknowledgement
        more_lost, more_bad = await check(database, data, acked)
        lost += more_lost
        unreadable += more_bad
    seconds = time.monotonic() - started
    control = " (control: acknowledged before the commit)" if early else ""
    return _said(
        f"{engine:<11}{control} {kills} kills, {total} moves acknowledged, {lost} lost, "
        f"{unreadable} unreadable ({seconds:.0f} s)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--engines", default="sqlite,postgresql")
    parser.add_argument("--child", action="store_true")
    # the control run: acknowledge each move before its commit; must show losses
    parser.add_argument("--early-ack", action="store_true")
    parser.add_argument("--database")
    parser.add_argument("--data", type=Path)
    args = parser.parse_args()
    if args.child:
        await child(args.database, args.data, args.tables, args.early_ack)
        return
    lines: list[str] = []
    early = args.early_ack
    with tempfile.TemporaryDirectory() as tmp:
        if "sqlite" in args.engines:
            lines.append(
                await run("sqlite", None, Path(tmp) / "sqlite", args.kills, args.tables, early)
            )
        if "postgresql" in args.engines:
            with postgres.shared_cluster(f"crash-{os.getpid()}") as cluster:
                lines.append(
                    await run(
                        "postgresql",
                        cluster.url(),
                        Path(tmp) / "pg",
                        args.kills,
                        args.tables,
                        early,
                    )
                )
    print("\n".join(lines))


def _said(line: str) -> str:
    print(line, flush=True)
    return line


if __name__ == "__main__":
    asyncio.run(main())
