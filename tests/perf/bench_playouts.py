"""Random-playout speed of every registered game and preset (not a pytest test).

    uv run python tests/perf/bench_playouts.py                 # every game, 2 s each
    uv run python tests/perf/bench_playouts.py --seconds 5 --game domination

For each game and preset: random legal moves per second and complete games per
second in a bare playout loop through ``play()`` (checks and narration), the
same through the search engine's own path ("engine/s": a copy of a freshly
dealt game played out with the adapter's ``advance`` and ``random_move``, a
move drawn uniformly from all legal ones; the copy is timed, the deal is not,
as the engine copies its samples and never deals),
the adapter's rollout policy on that path ("rollout/s"), and the
cost of ``copy()`` and ``determinize()`` in microseconds, measured over
positions sampled from random games. Pure Python, one core. Rates are per
second of this process's CPU time, which a busy machine disturbs less than the
wall clock; the "load" column is wall time over CPU time (1.0 = had the core to
itself). Compare runs made side by side.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.game import GameSpec, GameState
from rules.registry import games

AnyState = GameState[Any, Any]

# Targets from the issues, in random moves per second (pure Python, this loop).
# Measured on the engine's own path (the "engine/s" column); "moves/s" is play().
GOALS = {"domination": 110_000, "stress": 110_000, "territory": 110_000, "trick": 110_000}


@dataclass
class Result:
    game: str
    preset: str
    moves_per_s: float
    games_per_s: float
    moves_per_game: float
    engine_moves_per_s: float
    rollout_moves_per_s: float
    copy_us: float
    determinize_us: float
    load: float


def playouts(
    spec: GameSpec[Any, Any], config: Any, seconds: float, seed: int
) -> tuple[int, int, float, float]:
    """Whole random games for ``seconds`` of CPU time: (moves, games, CPU seconds,
    wall seconds)."""
    rng = random.Random(seed)
    choice = rng.choice
    moves = games_done = 0
    start = time.process_time()
    wall = time.perf_counter()
    deadline = start + seconds
    while True:
        state = spec.new(config, rng.getrandbits(32))
        # a simultaneous round needs every seat in to_act; taking the first each
        # time covers them all, one move per loop like a sequential game
        while not state.is_over:
            seat = state.to_act()[0]
            state.play(seat, choice(state.legal_moves(seat)))
            moves += 1
        games_done += 1
        now = time.process_time()
        if now >= deadline:
            return moves, games_done, now - start, time.perf_counter() - wall


def engine_playouts(
    spec: GameSpec[Any, Any], config: Any, seconds: float, seed: int, policy: str = "random"
) -> float:
    """Moves per CPU second the way the search engine plays them out: a copy of
    a position (here a fresh deal, whose dealing is not timed), played to the
    end through the game's adapter (``advance``: no checks, no narration). ``policy``
    "random" draws uniformly from every legal move (``random_move``);
    "rollout" plays the adapter's own rollout policy (``rollout_move``)."""
    from rules.bots.search import engine_for

    adapter, _ = engine_for(spec.id)
    rng = random.Random(seed)
    pick = adapter.random_move if policy == "random" else adapter.rollout_move
    to_act = adapter.to_act
    advance = adapter.advance
    clock = time.process_time
    moves = 0
    spent = 0.0
    while True:
        dealt = spec.new(config, rng.getrandbits(32))
        # timed from here: the engine plays out a copy of each sample; it never deals
        start = clock()
        state = dealt.copy()
        limit = moves + 5000  # a rollout policy need not finish a game by itself
        while not state.is_over and moves < limit:
            seat = to_act(state)[0]
            advance(state, seat, pick(state, seat, rng))
            moves += 1
        spent += clock() - start
        if spent >= seconds:
            return moves / spent


def sample_positions(
    spec: GameSpec[Any, Any], config: Any, count: int, seed: int
) -> list[AnyState]:
    """Positions met in random games, from the start to the end of a game."""
    rng = random.Random(seed)
    positions: list[AnyState] = []
    while len(positions) < count:
        state = spec.new(config, rng.getrandbits(32))
        while not state.is_over and len(positions) < count:
            if rng.random() < 0.25:
                positions.append(state.copy())
            seat = rng.choice(state.to_act())
            state.play(seat, rng.choice(state.legal_moves(seat)))
    return positions


def per_call_us(
    positions: list[AnyState], call: Callable[[AnyState], object], seconds: float
) -> float:
    """CPU microseconds per call of ``call`` over the positions, for about ``seconds``."""
    calls = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for state in positions:
            call(state)
        calls += len(positions)
        now = time.process_time()
        if now >= deadline:
            return (now - start) / calls * 1e6


def bench(game_id: str, preset: str, seconds: float, seed: int) -> Result:
    spec = games()[game_id]
    config = spec.config(preset)
    moves, done, elapsed, wall = playouts(spec, config, seconds, seed)
    engine_rate = engine_playouts(spec, config, seconds, seed)
    rollout_rate = engine_playouts(spec, config, seconds, seed, "rollout")
    positions = sample_positions(spec, config, 200, seed)
    rng = random.Random(seed)
    copy_us = per_call_us(positions, lambda s: s.copy(), seconds / 4)
    det_us = per_call_us(
        positions, lambda s: s.determinize(s.to_act()[0] if s.to_act() else None, rng), seconds / 4
    )
    return Result(
        game_id,
        preset,
        moves / elapsed,
        done / elapsed,
        moves / done,
        engine_rate,
        rollout_rate,
        copy_us,
        det_us,
        wall / elapsed,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="CPU seconds of playouts per preset"
    )
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--preset", action="append", help="only this preset (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if a game misses its goal (GOALS)"
    )
    args = parser.parse_args(argv)

    registered = games()
    chosen = args.game or sorted(registered)
    unknown = [g for g in chosen if g not in registered]
    if unknown:
        print(f"unknown game(s) {', '.join(unknown)}; games: {', '.join(sorted(registered))}")
        return 2

    header = (
        f"{'game':<12} {'preset':<12} {'moves/s':>10} {'games/s':>9} "
        f"{'moves/game':>10} {'engine/s':>10} {'rollout/s':>10} {'copy us':>8} "
        f"{'determ. us':>10} {'load':>5}  goal"
    )
    print(header)
    print("-" * len(header))
    missed = []
    for game_id in chosen:
        for preset in registered[game_id].presets:
            if args.preset and preset not in args.preset:
                continue
            r = bench(game_id, preset, args.seconds, args.seed)
            goal = GOALS.get(game_id)
            verdict = ""
            if goal is not None:
                ok = r.engine_moves_per_s >= goal
                verdict = f">= {goal:,} {'ok' if ok else 'MISSED'}"
                if not ok:
                    missed.append(f"{game_id}/{preset}")
            print(
                f"{r.game:<12} {r.preset:<12} {r.moves_per_s:>10,.0f} {r.games_per_s:>9,.1f} "
                f"{r.moves_per_game:>10.1f} {r.engine_moves_per_s:>10,.0f} "
                f"{r.rollout_moves_per_s:>10,.0f} "
                f"{r.copy_us:>8.2f} {r.determinize_us:>10.2f} "
                f"{r.load:>5.2f}  {verdict}",
                flush=True,
            )
    if missed:
        print(f"below goal: {', '.join(missed)}")
    return 1 if (args.check and missed) else 0


if __name__ == "__main__":
    sys.exit(main())
