"""The computer's fixed ratings (saves/ratings.py), calibrated from the arena.

    uv run python tests/perf/bench_calibrate_ratings.py [--games 200] [--jobs 1]
        [--game domination] [--share GAME:A:B=0.572 ...]

For every game, plays medium against easy and hard against medium heads-up
(two seats, the game's standard rules, the arena's seat rotation and seeds),
and turns each win share into the difference of ``mu`` at which openskill's
Plackett-Luce model predicts that share (``saves.ratings.win_chance``, solved
by bisection, both sides at the computer's sigma). Easy (random moves) is
pinned at the library's default of 25, a newcomer; medium and hard follow.
A share is capped at 98%: a side that (almost) never loses cannot be measured
any higher in a few hundred games, and an uncapped 100% is an infinite gap.

``--share`` gives a measured share instead of playing it (the hard bots take
seconds a game: docs/bots.md's tables of 300-500 games are used so). Not
collected by pytest (``norecursedirs``). Prints a table and the mapping to
paste into each game spec's ``computer_ratings``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules.bots.arena import ArenaSpec, run, summarise
from rules.registry import shipped
from saves.ratings import COMPUTER_SIGMA, DEFAULT_MU, Rating, win_chance

GAMES = shipped()
PAIRS = (("medium", "easy"), ("hard", "medium"))
CAP = 0.98


def gap_for(share: float) -> float:
    """The mu by which a side must lead for the model to give it ``share``."""
    share = min(max(share, 1 - CAP), CAP)
    low, high = -100.0, 100.0
    for _ in range(80):
        mid = (low + high) / 2
        chance = win_chance(Rating(mid, COMPUTER_SIGMA), Rating(0.0, COMPUTER_SIGMA))
        low, high = (mid, high) if chance < share else (low, mid)
    return (low + high) / 2


def measure(game: str, a: str, b: str, games: int, jobs: int) -> float:
    spec = ArenaSpec(game=game, a=a, b=b, games=games, players=2)
    summary = summarise(spec, list(run(spec, jobs)))
    return float(summary.rate)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--game", action="append", choices=GAMES)
    parser.add_argument("--share", action="append", default=[], metavar="GAME:A:B=SHARE")
    args = parser.parse_args()
    given: dict[tuple[str, str, str], float] = {}
    for item in args.share:
        key, value = item.split("=")
        game, a, b = key.split(":")
        given[(game, a, b)] = float(value)
    table: dict[str, dict[str, float]] = {}
    print(f"{'game':<11} {'match':<16} {'share':>6} {'gap':>6}")
    for game in args.game or GAMES:
        mu = {"easy": DEFAULT_MU}
        for a, b in PAIRS:
            share = given.get((game, a, b))
            if share is None:
                share = measure(game, a, b, args.games, args.jobs)
            gap = gap_for(share)
            mu[a] = mu[b] + gap
            print(f"{game:<11} {a + ' v ' + b:<16} {share:>6.1%} {gap:>6.1f}")
        table[game] = {level: round(value, 1) for level, value in mu.items()}
    print()
    for game, levels in table.items():
        print(f'    "{game}": {levels},')


if __name__ == "__main__":
    main()
