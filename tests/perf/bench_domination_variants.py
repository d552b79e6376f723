"""Variants of Domination's hard level against medium on the same deals, at a
fixed sample budget (not a pytest test).

    uv run python tests/perf/bench_domination_variants.py VARIANT --games 500
        [--seed 0] [--against medium|random] [--out FILE] [--ceiling]

Each game is the arena's (``rules.bots.arena.play_game``: game ``g`` puts the
variant in seat ``g % 2`` on deal ``seed + g // 2``, each bot with the arena's
seeded rng), with "hard" made the variant. Every variant runs with no time
ceiling of its own (``seconds=None``), so the sample budget binds, not the
clock: on a loaded machine the 1 s ceiling cuts the samples, and two runs of
the same code then differ by more than a variant gains (docs/bots.md, sixth
session). ``--ceiling`` keeps the level's 1 s ceiling instead, for the
decision times a table sees.

One JSON line a game goes to ``--out`` (appended; games already there are
skipped, so a run cut short resumes), then a summary: wins, share, its 95%
interval, decision times (median, p99). Run two variants on the same
``--seed`` and ``--games`` and compare them game by game with ``--compare
FILE FILE``.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import rules.bots.arena as arena
from rules.bots import Bot
from rules.domination.bots import HardBot

# the level's keyword arguments, by variant
VARIANTS: dict[str, dict[str, Any]] = {
    "shipped": {},
    "kept": {"remember": True},
    "sharp": {"slip": 0.05},
    "kept-sharp": {"remember": True, "slip": 0.05},
    # the seventh session's: two past rounds, medium's ties all counted as its play
    "history": {"remember": True, "rounds_back": 2, "slip": 0.05, "ties": True},
    # the eighth session's: playouts (and the default move) by the stakes-aware heuristic
    "staked": {"staked": "both"},
    "staked-own": {"staked": "own"},
    # the ninth session's: the seat's reply to the opponent's answer searched
    # too, once per what it would see (rules/domination/replies.py), at the
    # level's playout cap (so fewer samples), at twice it, and picked at 0
    "replies": {"replies": True},
    "replies-wide": {"replies": True, "max_playouts": 4800},
    "replies-eager": {"replies": True, "reply_confidence": 0.0},
    # the control for replies-wide: the level itself at twice its samples
    "shipped-wide": {"samples": 1200, "max_playouts": 4800},
}


def hard_maker(variant: str, ceiling: bool) -> Callable[[str, str], Bot]:
    plain = arena.make_player
    options = dict(VARIANTS[variant])
    if not ceiling:
        options["seconds"] = None

    def make(game: str, name: str) -> Bot:
        return HardBot(**options) if name == "hard" else plain(game, name)

    return make


def wilson(wins: float, n: int) -> tuple[float, float]:
    return arena.wilson(wins, n)


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    wins = sum(r["a_share"] for r in rows)
    times = sorted(t for r in rows for t in r["a_times"])
    low, high = wilson(wins, n) if n else (0.0, 0.0)
    return {
        "games": n,
        "wins": wins,
        "share": wins / n if n else 0.0,
        "interval": [round(low, 3), round(high, 3)],
        "median_s": round(statistics.median(times), 3) if times else None,
        "p99_s": round(times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)], 3)
        if times
        else None,
    }


def read(path: Path) -> dict[int, dict[str, Any]]:
    if not path.exists():
        return {}
    return {r["index"]: r for r in map(json.loads, path.read_text().splitlines()) if r}


def compare(a_path: Path, b_path: Path) -> None:
    a, b = read(a_path), read(b_path)
    both = sorted(set(a) & set(b))
    only_a = sum(1 for i in both if a[i]["a_share"] > b[i]["a_share"])
    only_b = sum(1 for i in both if b[i]["a_share"] > a[i]["a_share"])
    z = (only_a - only_b) / math.sqrt(only_a + only_b) if only_a + only_b else 0.0
    print(
        json.dumps(
            {
                "same_games": len(both),
                a_path.name: summary([a[i] for i in both]),
                b_path.name: summary([b[i] for i in both]),
                "won_only_by_first": only_a,
                "won_only_by_second": only_b,
                "sign_test_z": round(z, 2),
            }
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", nargs="?", choices=sorted(VARIANTS))
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--against", choices=("medium", "random"), default="medium")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--ceiling", action="store_true", help="keep the level's 1 s ceiling")
    parser.add_argument("--compare", nargs=2, type=Path, metavar="FILE")
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return 0
    if args.variant is None:
        parser.error("name a variant, or --compare two files")
    out = args.out or Path(f"/tmp/domination-{args.variant}-{args.against}-{args.seed}.jsonl")
    done = read(out)
    arena.make_player = hard_maker(args.variant, args.ceiling)  # type: ignore[assignment]
    spec = arena.ArenaSpec("domination", "hard", args.against, games=args.games, seed=args.seed)
    with out.open("a") as sink:
        for index in range(args.games):
            if index in done:
                continue
            result = arena.play_game(spec, index)
            row = {
                "index": index,
                "seed": result.seed,
                "a_seat": result.a_seat,
                "a_share": result.a_share,
                "scores": result.scores,
                "a_times": [round(t, 4) for t in result.a_times],
            }
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            done[index] = row
    print(json.dumps({"variant": args.variant, **summary(list(done.values()))}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
