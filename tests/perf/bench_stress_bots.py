"""Stress strength figures for docs/bots.md, game by game, so that a run cut
short still counts (not part of the test suite).

    nice -n 10 uv run python tests/perf/bench_stress_bots.py play OUT.jsonl \\
        --a hard --b medium --players 2 --games 500 [--seed 0] [--start 0]
    uv run python tests/perf/bench_stress_bots.py sum OUT.jsonl [OUT2.jsonl ...]

``play`` appends one JSON line per finished game (the arena's own
``play_game``, same seeds and seat rotation as ``cardtable arena``) and skips
games already in the file, so it can be stopped and resumed; ``sum`` prints
the arena's summary of every game in the files (chunks of one arena spec,
started with different ``--start``; a game in two chunks counts once).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path

from rules.bots.arena import ArenaSpec, GameResult, play_game, summarise


def _spec(row: dict[str, object]) -> ArenaSpec:
    return ArenaSpec(**row["spec"])  # type: ignore[arg-type]


def play(out: Path, spec: ArenaSpec, start: int) -> None:
    done = set()
    if out.exists():
        done = {json.loads(line)["result"]["index"] for line in out.read_text().splitlines()}
    with out.open("a") as f:
        for index in range(start, spec.games):
            if index in done:
                continue
            result = play_game(spec, index)
            f.write(json.dumps({"spec": asdict(spec), "result": asdict(result)}) + "\n")
            f.flush()


def total(files: list[Path]) -> None:
    rows = [json.loads(line) for p in files for line in p.read_text().splitlines()]
    spec = _spec(rows[0])
    # chunks of one run may overlap: each game once
    by_index = {r["result"]["index"]: r for r in reversed(rows)}
    results = [GameResult(**by_index[i]["result"]) for i in sorted(by_index)]
    s = summarise(spec, results)
    print(f"{s.game} ({s.players} players) {s.a} against {s.b}: {s.games} games")
    print(
        f"A wins {s.wins}, ties {s.draws}, loses {s.losses}: {s.rate:.1%} "
        f"(95% interval {s.ci_low:.1%} to {s.ci_high:.1%})"
    )
    print(f"average game: {s.mean_moves:.1f} moves")
    for name, t in (("A", s.a_times), ("B", s.b_times)):
        if t.median is not None and t.p99 is not None:
            print(
                f"{name} decision time: median {t.median:.3f} s, p99 {t.p99:.3f} s "
                f"({t.decisions} decisions)"
            )


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play")
    p.add_argument("out", type=Path)
    p.add_argument("--a", required=True)
    p.add_argument("--b", required=True)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--preset", default=None)
    s = sub.add_parser("sum")
    s.add_argument("files", type=Path, nargs="+")
    args = parser.parse_args()
    if args.cmd == "play":
        spec = ArenaSpec("stress", args.a, args.b, args.games, args.preset, args.players, args.seed)
        play(args.out, spec, args.start)
    else:
        total(args.files)


if __name__ == "__main__":
    main()
