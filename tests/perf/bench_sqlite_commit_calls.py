"""A SQLite commit of a few moves beside a busy thread: BEGIN, a step a row and
COMMIT (what the store's writer did before the eighth session) against one
insert of many rows, its own transaction (what it does now: net/store/engine.py,
``one_statement``).

    uv run python tests/perf/bench_sqlite_commit_calls.py [--rows 4] [--commits 400] [--rounds 3]

Every call into SQLite hands the interpreter back and takes it again; beside a
thread that keeps the interpreter busy (as the server's event loop does), each
taking-again waits up to the switch interval (1 ms, as ``cardtable serve`` sets
it). The database is WAL with ``synchronous=FULL`` in a temporary folder of the
current directory (a real disk, as a server's data dir). Prints, per round and
way, the commit's p50 / p90 / p99 in ms. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
import threading
import time

SQL = "INSERT INTO moves (table_id, ply, seat, notation, played) VALUES (?, ?, ?, ?, ?)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=4, help="moves a commit")
    parser.add_argument("--commits", type=int, default=400, help="commits a way a round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sys.setswitchinterval(0.001)
    with tempfile.TemporaryDirectory(dir=os.getcwd()) as folder:
        conn = sqlite3.connect(
            os.path.join(folder, "bench.db"), isolation_level=None, check_same_thread=False
        )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute(
            "CREATE TABLE moves (table_id TEXT, ply INTEGER, seat INTEGER, notation TEXT,"
            " played TEXT, PRIMARY KEY (table_id, ply))"
        )
        busy = True

        def spin() -> None:  # the event loop, busy
            x = 0
            while busy:
                for i in range(1000):
                    x += i

        spinner = threading.Thread(target=spin)
        spinner.start()
        ply = 0

        def rows() -> list[tuple[str, int, int, str, str]]:
            nonlocal ply
            out = []
            for _ in range(args.rows):
                ply += 1
                out.append((f"t{ply % 1000}", ply, 0, "7H", "2026-11-28T00:00:00.000Z"))
            return out

        def statements() -> float:
            group = rows()
            began = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany(SQL, group)
            conn.execute("COMMIT")
            return time.perf_counter() - began

        one_row = "(?, ?, ?, ?, ?)"
        wide = SQL.rsplit("VALUES", 1)[0] + "VALUES " + ", ".join([one_row] * args.rows)

        def one() -> float:
            group = rows()
            began = time.perf_counter()
            conn.execute(wide, [value for row in group for value in row])
            return time.perf_counter() - began

        try:
            for round_ in range(args.rounds):
                for name, commit in (
                    ("BEGIN, a step a row, COMMIT", statements),
                    ("one insert", one),
                ):
                    times = sorted(commit() for _ in range(args.commits))
                    at = [times[int(len(times) * q)] * 1000 for q in (0.5, 0.9, 0.99)]
                    print(
                        f"round {round_}  {name:28s} p50 {at[0]:.2f}  p90 {at[1]:.2f}"
                        f"  p99 {at[2]:.2f} ms"
                    )
        finally:
            busy = False
            spinner.join()
            conn.close()


if __name__ == "__main__":
    main()
