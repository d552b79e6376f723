"""What Domination's hard-level variants cost a decision, judged by a
searcher that sees the opponent's hand (not a pytest test).

    uv run python tests/perf/bench_domination_regret.py [--positions 150]
        [--oracle 300] [--variants shipped,history] [--judges flat,replies]
        [--shard I/N] [--out FILE]

A cheaper screen than whole matches (tests/perf/bench_domination_variants.py):
positions are the decisions (two legal moves or more) of medium-against-
medium matches; each is judged by the hard level's search given the
opponent's true hand and ``--oracle`` shuffles of the stock
(``bench_domination_ceiling.SeeingHand``: what a perfect reading of the
hand would get, 66.5% against medium), which rates every legal move by its
chance to win (``--oracle-staked``: its playouts by the stakes-aware
heuristic, for variants whose playouts are). Each variant (a fair bot: the
seat's own situation, the same rng for every variant) picks its move; its
regret is the oracle's best chance less the chance of the move it picked.
A variant whose mean regret is lower reads the hand better where it
matters; the difference between two variants is paired position by
position. ``--judges replies`` adds a second judge that searches its reply
to the opponent's answer too (``HardBot(replies=True)``, given the true
hand: the same continuation as the ``replies`` variants, so they are not
rated by a continuation they do not play); its regrets are keyed
``NAME|replies``. Each variant's CPU time a decision (``time.process_time``)
is noted beside its regret (``NAME_cpu``), side by side on the same
positions. One JSON line a position to ``--out``
(resumed if cut short), then the means with their standard errors.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_domination_ceiling import SeeingHand
from bench_domination_variants import VARIANTS

from rules.bots import Situation
from rules.domination import SPEC
from rules.domination.bots import HardBot, MediumBot
from rules.events import Event, visible_events


def positions(count: int, seed: int) -> list[tuple[Any, int, list[Event]]]:
    """Decisions of medium-against-medium matches: (state, seat, its history)."""
    found: list[tuple[Any, int, list[Event]]] = []
    match = 0
    while len(found) < count:
        state = SPEC.new(SPEC.config(None), seed + match)
        histories: list[list[Event]] = [[], []]
        bot, rng = MediumBot(), random.Random(seed + match)
        while not state.is_over and len(found) < count:
            seat = state.turn
            situation = Situation(state, seat, histories[seat])
            if len(situation.legal) > 1:
                found.append((state.copy(), seat, list(histories[seat])))
            events = state.play(seat, bot.choose(situation, rng))
            for s in (0, 1):
                histories[s].extend(visible_events(events, s))
        match += 1
    return found


def regret(rated: dict[str, tuple[list[Any], list[float]]], move: Any, judge: str) -> float:
    """The judge's best chance less the chance of ``move``."""
    legal, chances = rated[judge]
    return round(max(chances) - chances[legal.index(move)], 4)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--oracle", type=int, default=300, help="stock shuffles for the oracle")
    parser.add_argument("--variants", default="shipped,history")
    parser.add_argument(
        "--confidences",
        default="",
        help="also each variant's pick at these thresholds (standard errors), e.g. 0,1,2",
    )
    parser.add_argument(
        "--seer",
        action="store_true",
        help="also medium's move, and the level's given the true hand (other stock shuffles)",
    )
    parser.add_argument(
        "--oracle-staked",
        choices=("", "both", "own"),
        default="",
        help="the oracle's playouts by the stakes-aware heuristic, not medium's",
    )
    parser.add_argument(
        "--judges",
        default="flat",
        help="flat (the level's search, seeing the hand), replies (its reply searched too)",
    )
    parser.add_argument(
        "--shard",
        default="0/1",
        help="I/N: only the positions whose index is I modulo N (one process each; "
        "concatenate their files and run with --positions 0 for the summary)",
    )
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--out", type=Path, default=Path("/tmp/domination-regret.jsonl"))
    args = parser.parse_args()
    confidences = [float(c) for c in args.confidences.split(",") if c]
    names = args.variants.split(",")
    names += [f"{n}@{c:g}" for n in list(names) for c in confidences]
    if args.seer:
        names += ["medium", "seer"]
    done = {}
    if args.out.exists():
        done = {r["index"]: r for r in map(json.loads, args.out.read_text().splitlines())}
    judges = args.judges.split(",")
    shard, shards = (int(x) for x in args.shard.split("/"))
    oracles = {
        "flat": HardBot(
            samples=args.oracle, confidence=0.0, seconds=None, staked=args.oracle_staked
        ),
        # every shuffle of the stock played out: the cap would cut the samples
        "replies": HardBot(
            samples=args.oracle, confidence=0.0, seconds=None, replies=True, max_playouts=None
        ),
    }
    bots = {
        name: HardBot(**{**VARIANTS[name], "seconds": None}) for name in names if name in VARIANTS
    }
    with args.out.open("a") as sink:
        for index, (state, seat, history) in enumerate(positions(args.positions, args.seed)):
            if index in done or index % shards != shard:
                continue
            situation = Situation(state, seat, history)
            medium = MediumBot().choose(situation, random.Random(0))
            row: dict[str, Any] = {"index": index}
            rated: dict[str, tuple[list[Any], list[float]]] = {}
            for judge in judges:
                found, _ = oracles[judge].weigh(
                    SeeingHand(state, seat, history), random.Random(index)
                )
                chances = [found.chance(i)[0] for i in range(len(found.legal))]
                rated[judge] = (found.legal, chances)
                row["chances" if judge == "flat" else f"chances|{judge}"] = [
                    round(c, 4) for c in chances
                ]

            for name, bot in bots.items():
                started = time.process_time()
                seen, move = bot.weigh(situation, random.Random(10_000 + index))
                row[f"{name}_cpu"] = round(time.process_time() - started, 4)
                for judge in judges:
                    row[name if judge == "flat" else f"{name}|{judge}"] = regret(rated, move, judge)
                for level in confidences:
                    # the same samples, another threshold for departing from medium
                    other = seen.pick_over(medium, level, in_chance=True)
                    for judge in judges:
                        key = f"{name}@{level:g}"
                        row[key if judge == "flat" else f"{key}|{judge}"] = regret(
                            rated, other, judge
                        )
            if args.seer:
                seeing = SeeingHand(state, seat, history)
                move = HardBot(seconds=None).choose(seeing, random.Random(10_000 + index))
                for judge in judges:
                    suffix = "" if judge == "flat" else f"|{judge}"
                    row[f"medium{suffix}"] = regret(rated, medium, judge)
                    row[f"seer{suffix}"] = regret(rated, move, judge)
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            done[index] = row
    rows = list(done.values())
    summary: dict[str, Any] = {"positions": len(rows)}
    for judge in judges:
        suffix = "" if judge == "flat" else f"|{judge}"
        keys = [name + suffix for name in names]
        for key in keys:
            regrets = [r[key] for r in rows if key in r]
            if len(regrets) < 2:
                continue
            summary[key] = {
                "mean_regret": round(statistics.mean(regrets), 5),
                "se": round(statistics.stdev(regrets) / math.sqrt(len(regrets)), 5),
            }
        base = keys[0]
        for key in keys[1:]:
            diffs = [r[key] - r[base] for r in rows if key in r and base in r]
            if len(diffs) < 2:
                continue
            summary[f"{key} - {base}"] = {
                "mean": round(statistics.mean(diffs), 5),
                "se": round(statistics.stdev(diffs) / math.sqrt(len(diffs)), 5),
                "differ": sum(1 for d in diffs if d),
                "better": sum(1 for d in diffs if d < 0),
                "worse": sum(1 for d in diffs if d > 0),
            }
    for name in names:
        cpu = sorted(r[f"{name}_cpu"] for r in rows if f"{name}_cpu" in r)
        if cpu:
            summary[f"{name}_cpu"] = {
                "median": round(statistics.median(cpu), 3),
                "p90": round(cpu[min(len(cpu) - 1, math.ceil(0.9 * len(cpu)) - 1)], 3),
                "max": cpu[-1],
            }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
