"""Domination bots: win rates and time per move.

    uv run python tests/perf/bench_domination_bots.py [--games 500] [--preset standard] [--jobs 2]

Plays hard vs medium, medium vs random and hard vs random, the bots swapping
seats every game (and so the first leader, which the seed picks), with fixed
seeds, and prints each pairing's win rate (with a 95% interval), mean score
difference per game, and each bot's mean and worst time per move. ``--jobs``
spreads the games over processes (the results do not depend on it; the times
do, on a busy machine). Not collected by pytest (``norecursedirs``): it takes
minutes.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules.bots import Bot, RandomBot, Situation
from rules.domination import SPEC, DominationConfig
from rules.domination.bots import HardBot, MediumBot


@dataclass
class Timing:
    moves: int = 0
    total: float = 0.0
    worst: float = 0.0

    def add(self, seconds: float) -> None:
        self.moves += 1
        self.total += seconds
        self.worst = max(self.worst, seconds)


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    margin: int = 0
    margin_squares: int = 0
    timings: dict[str, Timing] = field(default_factory=lambda: defaultdict(Timing))


def play_game(
    bots: tuple[Bot, Bot], config: DominationConfig, seed: int, timings: dict[str, Timing]
) -> tuple[int, int]:
    """One match; returns (winner seat, seat 0's score minus seat 1's)."""
    state = SPEC.new(config, seed)
    rngs = (random.Random(seed * 2 + 1), random.Random(seed * 2 + 2))
    while not state.is_over:
        seat = state.turn
        t0 = time.perf_counter()
        move = bots[seat].choose(Situation(state, seat), rngs[seat])
        timings[bots[seat].name].add(time.perf_counter() - t0)
        state.play(seat, move)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is not None
    return outcome.winner, outcome.scores[0] - outcome.scores[1]


def match(
    a: Bot, b: Bot, games: int, config: DominationConfig, first_seed: int = 0, jobs: int = 1
) -> Tally:
    """``a`` against ``b``, ``a`` in seat 0 in even games and seat 1 in odd ones."""
    tally = Tally()
    tasks = [(a, b, g, config, first_seed) for g in range(games)]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(_one_game, tasks, chunksize=4)
    else:
        results = [_one_game(t) for t in tasks]
    for a_won, diff, timings in results:
        tally.games += 1
        tally.wins += a_won
        tally.margin += diff
        tally.margin_squares += diff * diff
        for name, t in timings.items():
            mine = tally.timings[name]
            mine.moves += t.moves
            mine.total += t.total
            mine.worst = max(mine.worst, t.worst)
    return tally


def _one_game(
    task: tuple[Bot, Bot, int, DominationConfig, int],
) -> tuple[bool, int, dict[str, Timing]]:
    """Game ``g`` of a match: (``a`` won, ``a``'s score minus ``b``'s, times)."""
    a, b, g, config, first_seed = task
    timings: dict[str, Timing] = defaultdict(Timing)
    seed = first_seed + g // 2  # each deal twice, the bots swapping seats
    if g % 2 == 0:
        winner, diff = play_game((a, b), config, seed, timings)
        return winner == 0, diff, dict(timings)
    winner, diff = play_game((b, a), config, seed, timings)
    return winner == 1, -diff, dict(timings)


def report(label: str, a: Bot, tally: Tally) -> None:
    n = tally.games
    rate = tally.wins / n
    half_width = 1.96 * math.sqrt(rate * (1 - rate) / n)
    mean = tally.margin / n
    sd = math.sqrt(max(tally.margin_squares / n - mean * mean, 0.0))
    print(
        f"{label:<18} {a.name} wins {tally.wins}/{n} = {rate:.1%} (95% +-{half_width:.1%}), "
        f"mean margin {mean:+.1f} points (sd {sd:.0f}, 95% +-{1.96 * sd / math.sqrt(n):.1f})"
    )
    for name, t in sorted(tally.timings.items()):
        print(
            f"{'':<18} {name:<18} {t.total / t.moves * 1000:8.3f} ms/move mean, "
            f"{t.worst * 1000:8.1f} ms worst, {t.moves} moves"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--pairs", default="hard-medium,medium-random,hard-random")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play the games in")
    args = parser.parse_args()
    config = SPEC.config(args.preset)
    bots: dict[str, Bot] = {"hard": HardBot(), "medium": MediumBot(), "random": RandomBot()}
    print(f"domination, preset {args.preset}, {args.games} games per pairing")
    for pair in args.pairs.split(","):
        left, right = pair.split("-")
        t0 = time.perf_counter()
        tally = match(bots[left], bots[right], args.games, config, jobs=args.jobs)
        report(f"{left} vs {right}", bots[left], tally)
        print(f"{'':<18} ({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
