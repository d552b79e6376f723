"""Five-Card Trick bots: the hard bot's win rate against every scripted strategy.

    uv run python tests/perf/bench_trick.py [--games 1000] [--preset standard]
        [--against always_claim,medium] [--hard hard] [--jobs 1]

Plays the hard bot against each strategy of the scripted pool
(rules/trick/scripts.py) and against the medium and easy bots, swapping
seats every game (and so the defender, which the seed picks), with fixed seeds.
Prints a table: wins, draws, losses, the win rate with a 95% interval, the
mean chip margin, and the hard bot's mean and worst time per decision. Not
collected by pytest (``norecursedirs``): the full table takes most of an hour
on one core.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules.bots import Bot, Situation, make_bot
from rules.trick import SPEC, TrickConfig
from rules.trick.scripts import pool


@dataclass
class Row:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    margin: int = 0
    decisions: int = 0
    think: float = 0.0
    worst: float = 0.0

    def add(self, other: Row) -> None:
        self.wins += other.wins
        self.draws += other.draws
        self.losses += other.losses
        self.margin += other.margin
        self.decisions += other.decisions
        self.think += other.think
        self.worst = max(self.worst, other.worst)


def opponents() -> dict[str, Callable[[], Bot]]:
    out = pool()
    out["medium"] = lambda: make_bot("trick", "medium")
    out["easy"] = lambda: make_bot("trick", "easy")
    return out


def play_series(preset: str, hard: str, against: str, seeds: range) -> Row:
    config: TrickConfig = SPEC.config(preset)
    row = Row()
    for seed in seeds:
        seat = seed % 2
        bots = [opponents()[against](), opponents()[against]()]
        bots[seat] = make_bot("trick", hard)
        state = SPEC.new(config, seed)
        rngs = (random.Random(seed * 2 + 1), random.Random(seed * 2 + 2))
        while not state.is_over:
            for s in state.to_act():
                t0 = time.perf_counter()
                move = bots[s].choose(Situation(state, s), rngs[s])
                spent = time.perf_counter() - t0
                if s == seat:
                    row.decisions += 1
                    row.think += spent
                    row.worst = max(row.worst, spent)
                state.play(s, move)  # type: ignore[arg-type]
                if state.is_over:
                    break
        outcome = state.outcome()
        assert outcome is not None
        if outcome.winner == seat:
            row.wins += 1
        elif outcome.winner is None:
            row.draws += 1
        else:
            row.losses += 1
        row.margin += state.pos.chips[seat] - state.pos.chips[1 - seat]
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--preset", default="standard", choices=list(SPEC.presets))
    parser.add_argument("--against", default=",".join(opponents()))
    parser.add_argument("--hard", default="hard", help="the bot level measured")
    parser.add_argument("--jobs", type=int, default=1, help="processes to use")
    args = parser.parse_args()
    names = [n for n in args.against.split(",") if n]
    unknown = [n for n in names if n not in opponents()]
    if unknown:
        parser.error(f"no strategy {', '.join(unknown)}; known: {', '.join(opponents())}")
    print(f"{args.hard} vs each strategy, preset {args.preset}, {args.games} games each")
    print(
        f"{'opponent':16} {'win':>5} {'draw':>5} {'loss':>5} {'win rate':>9} "
        f"{'95% interval':>14} {'margin':>7} {'ms/move':>8} {'worst':>7}"
    )
    chunks = max(1, args.jobs)
    with ProcessPoolExecutor(max_workers=chunks) as ex:
        for name in names:
            seeds = [range(i, args.games, chunks) for i in range(chunks)]
            row = Row()
            for part in ex.map(
                play_series,
                [args.preset] * chunks,
                [args.hard] * chunks,
                [name] * chunks,
                seeds,
            ):
                row.add(part)
            n = row.wins + row.draws + row.losses
            rate = row.wins / n
            half = 1.96 * math.sqrt(rate * (1 - rate) / n)
            print(
                f"{name:16} {row.wins:5} {row.draws:5} {row.losses:5} {rate:9.1%} "
                f"{f'{rate - half:.1%}-{rate + half:.1%}':>14} {row.margin / n:7.2f} "
                f"{1000 * row.think / max(1, row.decisions):8.1f} {1000 * row.worst:7.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
