"""Territory bots against each other: win rate and time per move.

    uv run python tests/perf/bench_territory_bots.py [--games 300] [--preset standard] \
        [--pair hard-medium] [--jobs 2]

Each deal is played twice, the bots swapping seats (and so orientation and, as
``first_player`` alternates too, who starts). Prints the win rate with a 95%
interval, the draws, how the games ended, and each bot's mean and worst time
per move. Not collected by pytest (``norecursedirs``).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules.bots import Bot, RandomBot, Situation
from rules.territory import SPEC, TerritoryConfig
from rules.territory.bots import MediumBot, SearchBot

BOTS: dict[str, type[Bot]] = {"hard": SearchBot, "medium": MediumBot, "random": RandomBot}


def play_game(
    names: tuple[str, str], config: TerritoryConfig, seed: int
) -> tuple[int | None, str, dict[str, list[float]]]:
    """One game: (winner seat or None, how it ended, seconds per move by bot)."""
    bots = [BOTS[n]() for n in names]
    state = SPEC.new(config.replace(first_player=str(seed % 2)), seed)
    rngs = (random.Random(seed * 2 + 1), random.Random(seed * 2 + 2))
    times: dict[str, list[float]] = {n: [] for n in names}
    while not state.is_over:
        seat = state.turn
        t0 = time.perf_counter()
        move = bots[seat].choose(Situation(state, seat), rngs[seat])
        times[names[seat]].append(time.perf_counter() - t0)
        state.play(seat, move)
    return state.winner, state.end, times


def _one(task: tuple[str, str, TerritoryConfig, int]) -> tuple[float, str, dict[str, list[float]]]:
    """Game ``g``: ``a``'s result (1 win, 0.5 draw, 0 loss), the end, times."""
    a, b, config, g = task
    seed = 1000 + g // 2
    if g % 2 == 0:
        winner, end, times = play_game((a, b), config, seed)
        mine = 0
    else:
        winner, end, times = play_game((b, a), config, seed)
        mine = 1
    result = 0.5 if winner is None else float(winner == mine)
    return result, end, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--pair", default="medium-random")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    config = SPEC.config(args.preset)
    a, b = args.pair.split("-")
    tasks = [(a, b, config, g) for g in range(args.games)]
    t0 = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(_one, tasks, chunksize=4)
    else:
        results = [_one(t) for t in tasks]
    n = len(results)
    score = sum(r for r, _, _ in results)
    draws = sum(r == 0.5 for r, _, _ in results)
    rate = score / n
    half = 1.96 * math.sqrt(rate * (1 - rate) / n)
    ends = Counter(end for _, end, _ in results)
    print(f"territory, preset {args.preset}, {n} games, {a} vs {b}")
    print(f"{a} scores {score:g}/{n} = {rate:.1%} (95% +-{half:.1%}), {draws} draws")
    print(f"ends: {dict(ends)}")
    for name in (a, b):
        times = [t for _, _, tm in results for t in tm.get(name, [])]
        if times:
            print(
                f"{name:<8} {sum(times) / len(times) * 1000:8.2f} ms/move mean, "
                f"{max(times) * 1000:8.1f} ms worst, {len(times)} moves"
            )
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
