"""The statistics of 1,000 saved games: how long `cardtable stats` and the
Statistics screen take to count them (issue 27's goal: under a second).

    uv run python tests/perf/bench_stats.py [--games 1000] [--runs 7]

Plays 1,000 games through the real rules (seeded random moves,
tests/saves/stats_records.py: a quarter of each game, You against each
computer level, a hot-seat pair, Stress with three and four seats cut at 200
moves), saves them in a temporary store, then times ``compute_store``:

- warm: the usual case, the figure cache (stats-cache.json) holding every game:
  reading and checking 1,000 files, ratings and tallies;
- cold: no cache, every game replayed once for its figures (the first count
  after an upgrade, or after the cache is deleted).

Prints the median and the spread (min to max) of ``--runs`` runs of each. Not
collected by pytest (``norecursedirs``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules.registry import shipped
from saves.stats import compute_store
from saves.stats_cache import CACHE_FILE
from saves.store import SaveStore
from tests.saves.stats_records import computer, person, played_record, you

GAMES = shipped()
LEVELS = ("easy", "medium", "hard")


def fill(store: SaveStore, games: int) -> None:
    for i in range(games):
        game = GAMES[i % 4]
        hot_seat = i % 5 == 4
        seats = [person("Ann"), person("Bob")] if hot_seat else [you(), computer(LEVELS[i % 3])]
        if game == "stress" and i % 3 == 0:
            seats += [computer("easy")] * (1 + i % 2)
        minute = i
        when = f"2026-01-{1 + minute // 1440:02d}T{minute // 60 % 24:02d}:{minute % 60:02d}:00.000Z"
        store.save(played_record(game, seats, i, when=when, record_id=f"{i:08x}", max_moves=200))


def timed(store: SaveStore, cold: bool) -> float:
    if cold:
        (store.root / CACHE_FILE).unlink(missing_ok=True)
    started = time.perf_counter()
    stats = compute_store(store)
    spent = time.perf_counter() - started
    assert stats.finished > 0
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = SaveStore(Path(folder))
        started = time.perf_counter()
        fill(store, args.games)
        print(f"{args.games} games played and saved in {time.perf_counter() - started:.1f} s")
        moves = sum(len(e.record.moves) for e in store.list() if e.record)
        print(f"{moves} moves in all, {moves / args.games:.0f} a game")
        for label, cold in (("cold (replays every game)", True), ("warm (the cache)", False)):
            timed(store, cold=False)  # the files in the page cache, the cache written
            runs = [timed(store, cold) for _ in range(args.runs)]
            print(
                f"{label:<28} median {statistics.median(runs) * 1000:7.0f} ms, "
                f"min {min(runs) * 1000:.0f}, max {max(runs) * 1000:.0f} ({args.runs} runs)"
            )


if __name__ == "__main__":
    main()
