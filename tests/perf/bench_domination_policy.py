"""Domination's playout policies as players, against each other (not a pytest test).

    uv run python tests/perf/bench_domination_policy.py [--matches 10000]
        [--a staked] [--b medium] [--seed 700000]

A playout policy that does not beat medium as a player will not help the
search as its playouts (docs/bots.md, "Eighth session"), and a policy against
a policy costs well under a millisecond a match, so this is the first screen:
matches first to 100 between two policies read straight from the state
(``bots.heuristic_move``: each sees only its own hand and the public table),
each deal played twice with the seats swapped. Prints the share of matches
``--a`` wins, its 95% interval, and the CPU a match.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules.bots.arena import wilson
from rules.domination import SPEC, DominationState
from rules.domination.bots import heuristic_move

PolicyMove = Callable[[DominationState, dict[tuple[Any, ...], Any]], Any]

POLICIES: dict[str, PolicyMove] = {
    "medium": lambda state, memo: heuristic_move(state, memo),
    "staked": lambda state, memo: heuristic_move(state, memo, staked=True),
}


def match(a: PolicyMove, b: PolicyMove, seed: int, a_seat: int) -> bool:
    """One match first to 100 on deal ``seed``: whether ``a`` won it."""
    state = SPEC.new(SPEC.config(None), seed)
    players = {a_seat: a, 1 - a_seat: b}
    memos: dict[int, dict[tuple[Any, ...], Any]] = {0: {}, 1: {}}
    while not state.over:
        seat = state.turn
        state.advance(seat, players[seat](state, memos[seat]))
    return state.winner == a_seat


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--a", choices=sorted(POLICIES), default="staked")
    parser.add_argument("--b", choices=sorted(POLICIES), default="medium")
    parser.add_argument("--seed", type=int, default=700_000)
    args = parser.parse_args()
    start = time.process_time()
    won = sum(
        match(POLICIES[args.a], POLICIES[args.b], args.seed + g // 2, g % 2)
        for g in range(args.matches)
    )
    cpu = time.process_time() - start
    low, high = wilson(won, args.matches)
    print(
        json.dumps(
            {
                "a": args.a,
                "b": args.b,
                "matches": args.matches,
                "won": won,
                "share": won / args.matches,
                "interval": [round(low, 4), round(high, 4)],
                "cpu_ms_a_match": round(1000 * cpu / args.matches, 3),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
