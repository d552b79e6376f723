"""How steady the advice is (rules/bots/advice.py): issue 37's measure.

    uv run python tests/perf/bench_advice.py [--positions 200] [--games domination,trick]

For each game, positions from random games (a seat with a choice). Each is
judged twice by the game's judge at its full budget with two *different*
random seeds (the advice itself seeds by the position, so asking the hint
twice gives the same figures every time: this measures what that seed hides).
The two agree when they name the same best choice, or when each judgement
rates the other's best within its stated error of its own (strict). Also
shown, laxer: either judgement does so, and the two bests' own figures are
within the stated error of each other (what a player asking twice would see).
Goal: >= 95%.
Also: the best's chance in the first round of a fresh standard Trick game
(symmetric: goal 45-55%). Not collected by pytest (``norecursedirs``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules.bots.advice import Advice, advise, engine_judge
from rules.bots.base import Situation
from rules.bots.roster import bots_of
from rules.game import GameState
from rules.registry import games, get_game


def positions(game_id: str, count: int, seed: int) -> list[tuple[GameState[Any, Any], int]]:
    spec = games()[game_id]
    rng = random.Random(seed)
    out: list[tuple[GameState[Any, Any], int]] = []
    while len(out) < count:
        state = spec.new(spec.config(), rng.getrandbits(32))
        for _ in range(400):
            if state.is_over or len(out) >= count:
                break
            seat = state.to_act()[0]
            legal = state.legal_moves(seat)
            if len(legal) > 1 and rng.random() < 0.15:
                out.append((state.copy(), seat))
            state.play(seat, rng.choice(legal))
    return out


def within(a: Advice, b: Advice) -> bool:
    """``b``'s best, as ``a`` rates it, is within ``a``'s stated error of ``a``'s best."""
    mine = a.best
    theirs = a.choice_of(b.best.move)
    if theirs is None:
        return False
    return mine.win_chance - theirs.win_chance <= max(mine.error, theirs.error)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--games", default=",".join(games()))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for game_id in args.games.split(","):
        judge = bots_of(get_game(game_id)).judge or engine_judge
        same = agree = either = figures = 0
        errors: list[float] = []
        seconds: list[float] = []
        found = positions(game_id, args.positions, args.seed)
        for i, (state, seat) in enumerate(found):
            situation = Situation(state, seat)
            started = time.perf_counter()
            first = judge(situation, random.Random(f"{i}:a"), None)
            seconds.append(time.perf_counter() - started)
            second = judge(situation, random.Random(f"{i}:b"), None)
            same += first.best.move == second.best.move
            agree += first.best.move == second.best.move or (
                within(first, second) and within(second, first)
            )
            either += first.best.move == second.best.move or (
                within(first, second) or within(second, first)
            )
            gap = abs(first.best.win_chance - second.best.win_chance)
            figures += gap <= max(first.best.error, second.best.error)
            errors.append(first.best.error)
        n = len(found)
        print(
            f"{game_id}: {n} positions, same best {same / n:.1%}, "
            f"same best or within the stated error {agree / n:.1%} (goal 95%; "
            f"either way {either / n:.1%}, the two bests' figures {figures / n:.1%}); "
            f"best's stated error median ±{statistics.median(errors) * 100:.1f}, "
            f"judgement median {statistics.median(seconds):.2f} s, "
            f"max {max(seconds):.2f} s",
            flush=True,
        )
    spec = games()["trick"]
    firsts = [
        advise(Situation(spec.new(spec.config(), seed), 0)).best.win_chance for seed in range(20)
    ]
    print(f"trick, round 1 of 20 fresh games: best {min(firsts):.1%} to {max(firsts):.1%}")


if __name__ == "__main__":
    main()
