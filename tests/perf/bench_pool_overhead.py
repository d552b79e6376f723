"""What a process pool would cost local play: its start-up and its per-move
overhead, against the app's threads (issue 29; the decision is in docs/bots.md,
"Where computers think").

    uv run python tests/perf/bench_pool_overhead.py [--moves 200]

For each kind of pool (threads, as the app's; processes started with
``spawn``, as ``cardtable serve``'s): the time from creating the pool to the
first computer's answer (a medium domination move: the worker imports the
rules and the bots), then the median and p99 of ``--moves`` further medium
moves through net/thinkers.py's queue, from asking to the answer, beside the
same decision made directly in this process (the difference is the pool's
overhead: the position text written, sent, read back). Not collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from net.thinkers import SeatPosition, Thinkers, choose_move  # noqa: E402
from rules.bots import make_bot  # noqa: E402
from rules.registry import get_game  # noqa: E402


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


async def measure(executor: Executor, workers: int, moves: int) -> tuple[float, list[float]]:
    spec = get_game("domination")
    state = spec.new(spec.config(first_leader="0"), 5)
    position = SeatPosition.of(state, 0, (), "s")
    bot = make_bot("domination", "medium")
    pool = Thinkers(executor, workers)
    began = time.perf_counter()
    await pool.choose("t", bot, position, "s0")
    first = time.perf_counter() - began
    times = []
    for i in range(moves):
        asked = time.perf_counter()
        await pool.choose("t", bot, position, f"s{i}")
        times.append(time.perf_counter() - asked)
    return first, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    spec = get_game("domination")
    state = spec.new(spec.config(first_leader="0"), 5)
    bot = make_bot("domination", "medium")
    direct = []
    for i in range(args.moves):
        asked = time.perf_counter()
        choose_move(bot, SeatPosition.of(state, 0, (), "s"), f"s{i}", None)
        direct.append(time.perf_counter() - asked)
    print(f"in this process: median {ms(statistics.median(direct))}")
    kinds: list[tuple[str, Executor, int]] = [
        ("threads", ThreadPoolExecutor(max_workers=4), 4),
        (
            "processes (spawn)",
            ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")),
            1,
        ),
    ]
    for label, executor, workers in kinds:
        with executor:
            first, times = asyncio.run(measure(executor, workers, args.moves))
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(
            f"{label}: start-up to the first answer {ms(first)}; then a move "
            f"median {ms(statistics.median(times))}, p99 {ms(p99)}"
        )


if __name__ == "__main__":
    main()
