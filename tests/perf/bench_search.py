"""Speed of the search engine (rules/bots/search.py): iterations per second.

    uv run python tests/perf/bench_search.py [--iterations 2000] [--positions 20]

For each registered game, searches positions from random games with the
engine and reports iterations per second of CPU time: with the game's own
adapter as registered for the hints (domination: medium rollouts to the end of
the next round; trick: four rounds of random submissions and the solver's
evaluation; territory: eight moves of its quick policy; stress: its own),
and with random rollouts to the end of the game (the generic adapter).
Goal from issue 10: >= 2,600 iterations/s for a 2-seat game. Not
collected by pytest (``norecursedirs``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules.bots.base import Situation
from rules.bots.search import Adapter, Budget, analyse, engine_for
from rules.game import GameState
from rules.registry import games

GOAL = 2600


def positions(game_id: str, count: int, seed: int) -> list[tuple[GameState[Any, Any], int]]:
    """Decisions with a choice, from random games."""
    spec = games()[game_id]
    rng = random.Random(seed)
    out: list[tuple[GameState[Any, Any], int]] = []
    while len(out) < count:
        state = spec.new(spec.config(), rng.getrandbits(32))
        while not state.is_over and len(out) < count:
            seat = rng.choice(state.to_act())
            legal = state.legal_moves(seat)
            if len(legal) > 1 and rng.random() < 0.2:
                out.append((state.copy(), seat))
            state.play(seat, rng.choice(legal))
    return out


def rate(game_id: str, adapter: Adapter, iterations: int, count: int, seed: int) -> float:
    total = 0
    start = time.process_time()
    for i, (state, seat) in enumerate(positions(game_id, count, seed)):
        analysis = analyse(Situation(state, seat), adapter, Budget(iterations), random.Random(i))
        total += analysis.iterations
    return total / (time.process_time() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=2000, help="per position")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    runs: list[tuple[str, str, Adapter]] = []
    for game_id in sorted(games()):
        adapter, _ = engine_for(game_id)
        if type(adapter) is not Adapter:
            runs.append((game_id, "its adapter", adapter))
        runs.append((game_id, "random rollouts", Adapter()))
    for game_id, label, adapter in runs:
        r = rate(game_id, adapter, args.iterations, args.positions, args.seed)
        verdict = "ok" if r >= GOAL else "below"
        print(f"{game_id:<11} {label:<16} {r:>8,.0f} iterations/s  (goal {GOAL:,}: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
