"""Bot against bot: whole games through the contract, for measuring strength.

Side A is one bot, side B fills every other seat. Seats rotate so that no side
keeps the first move: game ``g`` puts A in seat ``g % players``, and the deal
(``seed + g // players``) is played once from each of A's seats, so luck of
the deal cancels out. Every game is reproducible from the arena's seed alone
(bots get their own seeded rngs), whatever the number of processes.

Players are named as for ``make_bot`` (``easy``, ``medium``, ``hard``), or
``random``, or ``engine`` (the search engine with the game's adapter, which
is the hard level where a game has no stronger bot), or any scripted player
the game's spec declares (``GameBots.scripted``: Trick's strategies).
Decision times are wall-clock seconds of ``choose`` at decisions with more
than one legal move (a forced move costs nothing and would flatter the median).
"""

from __future__ import annotations

import math
import multiprocessing
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from ..events import Event, visible_events
from ..game import GameSpec
from ..registry import get_game
from . import LEVELS, Bot, RandomBot, Situation, make_bot
from .roster import bots_of
from .search import EngineBot, ceiling_cap


def player_names(game_id: str) -> list[str]:
    """Every name ``make_player`` accepts for this game."""
    names = [lv.id for lv in LEVELS] + ["random", "engine"]
    return names + sorted(bots_of(get_game(game_id)).scripted)


def make_player(game_id: str, name: str) -> Bot:
    """A bot by level or name (ValueError naming the choices if unknown)."""
    if name == "random":
        return RandomBot()
    if name == "engine":
        return EngineBot()
    if name in {lv.id for lv in LEVELS}:
        return make_bot(game_id, name)
    scripted = bots_of(get_game(game_id)).scripted.get(name)
    if scripted is not None:
        return scripted()
    raise ValueError(
        f"no player {name!r} for {game_id}; choose from: {', '.join(player_names(game_id))}"
    )


@dataclass(frozen=True)
class ArenaSpec:
    """What to play: ``a`` against ``b`` in ``games`` games of ``game``."""

    game: str
    a: str
    b: str
    games: int = 100
    preset: str | None = None
    players: int | None = None
    seed: int = 0
    # a lower time ceiling for every search, as a busy server gives them
    # (net/thinkers.py): what strength that costs; None: their own
    ceiling: float | None = None

    def config(self) -> Any:
        spec = get_game(self.game)
        overrides = {} if self.players is None else {"players": self.players}
        return spec.config(self.preset, **overrides)


@dataclass
class GameResult:
    index: int
    seed: int
    a_seat: int
    winner: int | None
    a_share: float  # 1 A won, 0 A lost, between for a tie at the top
    scores: list[int]
    moves: int
    a_times: list[float] = field(default_factory=list)
    b_times: list[float] = field(default_factory=list)
    # the rules' limit that stopped the game, in words; None: played out
    stopped_by_limit: str | None = None


def play_game(spec: ArenaSpec, index: int) -> GameResult:
    """Game number ``index`` of the arena."""
    game: GameSpec[Any, Any] = get_game(spec.game)
    config = spec.config()
    players = config.players
    a_seat = index % players
    seed = spec.seed + index // players
    bots = [make_player(spec.game, spec.a if s == a_seat else spec.b) for s in range(players)]
    rngs = [random.Random(seed * 1009 + index * 17 + s) for s in range(players)]
    state = game.new(config, seed)
    histories: list[list[Event]] = [[] for _ in range(players)]
    a_times: list[float] = []
    b_times: list[float] = []
    moves = 0
    limit = game.max_moves(config)
    while not state.is_over:
        acting = state.to_act()
        if not acting:
            raise RuntimeError(f"{spec.game}: nobody to act in a game that is not over")
        for seat in acting:
            if state.is_over or seat not in state.to_act():
                continue
            situation = Situation(state, seat, histories[seat])
            started = time.perf_counter()
            with ceiling_cap(spec.ceiling):
                move = bots[seat].choose(situation, rngs[seat])
            spent = time.perf_counter() - started
            if len(situation.legal) > 1:
                (a_times if seat == a_seat else b_times).append(spent)
            events = state.play(seat, move)
            moves += 1
            for s in range(players):
                histories[s].extend(visible_events(events, s))
        if moves > limit:
            raise RuntimeError(f"{spec.game}: more than max_moves ({limit}) moves")
    outcome = state.outcome()
    assert outcome is not None
    top = outcome.ranking[0]
    share = (1.0 / len(top)) if a_seat in top else 0.0
    return GameResult(
        index,
        seed,
        a_seat,
        outcome.winner,
        share,
        list(outcome.scores),
        moves,
        a_times,
        b_times,
        state.stopped_by_limit(),
    )


def _play(task: tuple[ArenaSpec, int]) -> GameResult:
    return play_game(*task)


def run(spec: ArenaSpec, jobs: int = 1) -> Iterator[GameResult]:
    """Every game's result, in the order of their indexes, as they finish."""
    tasks = [(spec, i) for i in range(spec.games)]
    if jobs <= 1:
        for task in tasks:
            yield _play(task)
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(_play, tasks, chunksize=1)


@dataclass
class Times:
    decisions: int
    median: float | None
    p99: float | None

    @classmethod
    def of(cls, times: list[float]) -> Times:
        if not times:
            return cls(0, None, None)
        ordered = sorted(times)
        return cls(len(ordered), _quantile(ordered, 0.5), _quantile(ordered, 0.99))


def _quantile(ordered: list[float], q: float) -> float:
    """The ``q`` quantile by linear interpolation between the closest ranks."""
    pos = q * (len(ordered) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


@dataclass
class Summary:
    game: str
    preset: str
    players: int
    a: str
    b: str
    seed: int
    games: int
    wins: int
    draws: int
    losses: int
    rate: float  # A's share of the points: a win 1, a tie at the top its share
    ci_low: float
    ci_high: float
    mean_moves: float
    a_times: Times
    b_times: Times
    # games the rules stopped at a limit (GameState.stopped_by_limit) rather
    # than played out, and that limit in words ("" when none was reached)
    limited: int = 0
    limit: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def summarise(spec: ArenaSpec, results: list[GameResult]) -> Summary:
    config = spec.config()
    preset = spec.preset or next(iter(get_game(spec.game).presets))
    n = len(results)
    wins = sum(r.a_share == 1.0 for r in results)
    losses = sum(r.a_share == 0.0 for r in results)
    points = sum(r.a_share for r in results)
    limits = [r.stopped_by_limit for r in results if r.stopped_by_limit is not None]
    low, high = wilson(points, n)
    return Summary(
        game=spec.game,
        preset=preset,
        players=config.players,
        a=spec.a,
        b=spec.b,
        seed=spec.seed,
        games=n,
        wins=wins,
        draws=n - wins - losses,
        losses=losses,
        rate=points / n if n else 0.0,
        ci_low=low,
        ci_high=high,
        mean_moves=sum(r.moves for r in results) / n if n else 0.0,
        a_times=Times.of([t for r in results for t in r.a_times]),
        b_times=Times.of([t for r in results for t in r.b_times]),
        limited=len(limits),
        limit=_limit_words(limits),
    )


def _limit_words(limits: list[str]) -> str:
    """One game's limit is every game's (the same rules and options); should a
    game have several, they are named together."""
    return " or ".join(dict.fromkeys(limits))


def arena(
    spec: ArenaSpec, jobs: int = 1, progress: Callable[[int, int], None] | None = None
) -> tuple[Summary, list[GameResult]]:
    """Play the whole arena; ``progress(done, total)`` after each game."""
    results = []
    for result in run(spec, jobs):
        results.append(result)
        if progress is not None:
            progress(len(results), spec.games)
    return summarise(spec, results), results
