"""The search engine every game's strong bot and the hints use.

Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse,
2012) over determinizations, generic over the game contract:

* Each iteration searches one state the seat cannot tell from the real one
  (``Situation.sample``: the hidden cards dealt again, consistently with what
  the seat has seen). The engine never holds the true state.
* Nodes are information sets: a node is reached by the sequence of what one
  seat *observed*, not by the moves themselves. Each seat descends its own
  path (multiple-observer ISMCTS): where every seat sees every move the paths
  coincide and the seats share one tree; where a move is hidden from a seat
  (a submission in a simultaneous phase, by default) that seat's path records
  only that a move was made, so its next choice cannot depend on it. A
  simultaneous phase is thus searched as hidden sequential moves; when the
  phase is over, what it revealed becomes one more observation.
* A node keeps a value per seat (2 to 8 seats); the seat choosing at a node
  maximises its own value (UCB1 with availability counts, as moves are legal
  in some samples and not in others).
* Below the tree, a rollout plays the game's own policy (the adapter's
  ``rollout_move``: its medium bot where that is stronger than random) for at
  most ``max_depth`` moves or until the adapter says the rollout has gone far
  enough, then scores the state: the outcome if the game is over, else the
  adapter's estimate, each seat's value in [0, 1].

A game plugs in through a small :class:`Adapter` (how to advance a state
fast, the rollout policy, how to value an unfinished state); the search
itself is never copied into a game. :func:`analyse` gives every legal move's
visits and value, for the hard bots and for hints; :func:`best_move` picks.
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, cast

from ..game import GameState
from .base import Bot, Situation
from .roster import bots_for

State = GameState[Any, Any]

# share of uniform exploration in regret matching's choices
GAMMA = 0.1

# fewer paired samples than this and the game's own move stands: with one or
# two samples any gain looks certain (its standard error is nought)
MIN_PAIRED_SAMPLES = 8
# standard errors in the 95% half-width a screen states (``Choice.error``)
STATED = 1.96


class CeilingCap:
    """A lower time ceiling for the searches run inside :func:`ceiling_cap`
    (a busy server's: see net/thinkers.py); ``cut`` says whether one of them
    stopped at it, short of its own budget."""

    __slots__ = ("cut", "seconds")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.cut = False


# a context variable, not a global: the app's bots think in threads side by side
_CAP: ContextVar[CeilingCap | None] = ContextVar("search_ceiling_cap", default=None)


@contextlib.contextmanager
def ceiling_cap(seconds: float | None) -> Iterator[CeilingCap | None]:
    """Searches started inside stop after at most ``seconds`` (None: their
    own ceilings, unchanged)."""
    cap = None if seconds is None else CeilingCap(seconds)
    token = _CAP.set(cap)
    try:
        yield cap
    finally:
        _CAP.reset(token)


def search_deadline(started: float, seconds: float | None) -> tuple[float | None, bool]:
    """When a search begun at ``started`` with its own ceiling ``seconds``
    must stop, and whether that is the cap's doing rather than its own."""
    cap = _CAP.get()
    if cap is None or (seconds is not None and seconds <= cap.seconds):
        return (None if seconds is None else started + seconds), False
    return started + cap.seconds, True


def note_stopped_by_cap() -> None:
    """Tell the busy server's cap (if one is set) that it cut a search short."""
    cap = _CAP.get()
    if cap is not None:
        cap.cut = True


class Hidden:
    """What a seat observes of a move hidden from it (one token per mover)."""

    __slots__ = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def __eq__(self, other: object) -> bool:
        return type(other) is Hidden and other.seat == self.seat

    def __hash__(self) -> int:
        return hash(("hidden", self.seat))

    def __repr__(self) -> str:
        return f"Hidden({self.seat})"


class Adapter:
    """What the engine needs to know about one game, with generic defaults.

    Every method receives sampled states only, and plays them on with the
    state's own ``advance`` (the contract's fast path). Override what the game
    can do better: ``rollout_move`` (a policy stronger than random), ``evaluate`` (an
    unfinished state's value per seat), ``rollout_done`` (where a rollout may
    stop early and be evaluated), ``observe`` (what a seat sees of a move)."""

    # moves a rollout plays at most before the state is evaluated
    max_depth: int = 400
    # "win": values are win chances; "points": the adapter's ``points`` reads
    # a value as expected points for the hints (see MoveEstimate.points)
    value_kind: str = "win"
    # score difference at which the default evaluation says 73% (tanh(1))
    score_scale: float = 10.0

    def to_act(self, state: State) -> tuple[int, ...]:
        return state.to_act()

    def simultaneous(self, state: State, acting: tuple[int, ...]) -> bool:
        """Whether the seat to choose now does so without seeing the others'
        choices of the same phase (searched by regret matching, not UCB).
        By default: when several seats must act at once."""
        return len(acting) > 1

    def legal(self, state: State, seat: int) -> list[Hashable]:
        return state.legal_moves(seat)

    def advance(self, state: State, seat: int, move: Hashable) -> None:
        state.advance(seat, move)

    def rollout_move(self, state: State, seat: int, rng: random.Random) -> Hashable:
        return rng.choice(self.legal(state, seat))

    def random_move(self, state: State, seat: int, rng: random.Random) -> Hashable:
        """A legal move drawn uniformly from all of them: random playouts (the
        speed benchmark's measure of a game). A game may draw one without
        listing every move."""
        moves: list[Hashable] = state.legal_moves(seat)
        return rng.choice(moves)

    def horizon(self, state: State) -> Any:
        """Noted from each iteration's sample before the search descends (e.g.
        its round number), for :meth:`rollout_done`."""
        return None

    def rollout_done(self, state: State, horizon: Any, depth: int) -> bool:
        """True when a rollout has gone far enough to be evaluated: ``horizon``
        is what :meth:`horizon` noted at the root, ``depth`` the moves played
        in the rollout so far."""
        return False

    def evaluate(self, state: State, root_seat: int) -> list[float]:
        """Each seat's chance to do well from an unfinished state, in [0, 1]:
        by default the scoreboard, each seat against each other seat."""
        scores = state.scores()
        n = len(scores)
        scale = self.score_scale
        out = []
        for k in range(n):
            total = 0.0
            for j in range(n):
                if j != k:
                    total += 0.5 + 0.5 * math.tanh((scores[k] - scores[j]) / scale)
            out.append(total / (n - 1))
        return out

    def result(self, state: State) -> list[float]:
        """Each seat's value in a finished game: its share of the win (1 for the
        winner, 1/k each for k seats tied at the top, 0 for the others), so
        that values read as win chances. A game where places below the first
        matter may reward them in its own adapter."""
        outcome = state.outcome()
        n = state.config.players
        if outcome is None:
            return [1.0 / n] * n
        out = [0.0] * n
        top = outcome.ranking[0]
        for seat in top:
            out[seat] = 1.0 / len(top)
        return out

    def observe(self, state: State, seat: int, move: Hashable, observer: int) -> Hashable:
        """What ``observer`` sees of ``seat`` playing ``move`` in ``state``
        (before the move). By default every move is seen, except in a
        simultaneous phase, where the other seats only learn that it was made
        (until the phase ends: see ``reveal``)."""
        if len(state.to_act()) > 1:
            return Hidden(seat)
        return move

    def reveal(
        self, state: State, hidden: Sequence[tuple[int, Hashable]], observer: int
    ) -> Hashable:
        """What ``observer`` learns when a simultaneous phase is over, of the
        moves that were hidden from it during the phase (``state`` is after)."""
        return tuple(hidden)

    def points(self, value: float) -> float:
        """A value read as expected points (``value_kind == "points"``)."""
        return value

    def margin(self, state: State, seat: int) -> float:
        """How far ``seat`` leads the best other seat on the scoreboard: what
        :func:`compare` adds up. Only differences between moves count."""
        scores = state.scores()
        return scores[seat] - max(s for k, s in enumerate(scores) if k != seat)

    def weight(self, state: State, seat: int) -> float:
        """How likely a sample is, given what ``seat`` has seen (for
        :func:`compare`): 1 for every sample by default. A game whose samples
        are drawn uniformly may weigh them by how well they explain the other
        seats' plays."""
        return 1.0


class Node:
    """An information set of the seat that chooses there, or of an observer."""

    __slots__ = ("avail", "children", "regret", "stamp", "value", "visits")

    def __init__(self, seats: int) -> None:
        self.children: dict[Hashable, Node] = {}
        self.visits = 0
        self.avail = 0  # iterations in which this node's move was legal
        self.value = [0.0] * seats  # sum of each seat's rewards over the visits
        self.stamp = -1  # the last iteration that updated it (shared paths count once)
        self.regret = 0.0  # regret matching's, where a simultaneous phase chose it


@dataclass(frozen=True)
class Budget:
    """How long to think: at most ``iterations``, and at most ``seconds`` of
    wall time if given (then the result depends on the machine's speed)."""

    iterations: int = 2000
    seconds: float | None = None


@dataclass(frozen=True)
class MoveEstimate:
    """One legal move as the search sees it. ``value`` is the seat's estimated
    win chance (0 to 1) after it; ``points`` reads it as expected points where
    the game's adapter says so (else None)."""

    move: Hashable
    visits: int
    value: float
    points: float | None = None


@dataclass
class Analysis:
    moves: list[MoveEstimate]  # best first
    iterations: int
    seconds: float
    # the decision is simultaneous: the visits are a mixed strategy to draw from
    mixed: bool = False

    def pick(self, rng: random.Random) -> Hashable:
        """The move to play: the most visited, or in a simultaneous decision one
        drawn in proportion to the visits (a fixed choice could be read)."""
        if not self.mixed:
            return self.best
        total = sum(e.visits for e in self.moves)
        if total == 0:
            return self.best
        return self.moves[_draw([e.visits / total for e in self.moves], rng.random())].move

    @property
    def best(self) -> Hashable:
        return self.moves[0].move


def analyse(
    situation: Situation,
    adapter: Adapter,
    budget: Budget,
    rng: random.Random,
    exploration: float = 0.7,
    worlds: int = 0,
    sampler: Callable[[random.Random], State] | None = None,
) -> Analysis:
    """Search the seat's decision; every legal move with its visits and value,
    most visited first.

    ``worlds``: if > 0, draw only that many samples and cycle through copies of
    them (a sample is dearer than a copy in some games); 0 draws one per
    iteration. ``sampler`` replaces ``situation.sample`` (a game may weight its
    samples); it must draw from the same knowledge."""
    started = time.perf_counter()
    me = situation.seat
    legal = list(situation.legal)
    sample = sampler or situation.sample
    first = sample(rng)
    n = first.config.players
    root = Node(n)
    pool: list[State] = [first]
    deadline, capped = search_deadline(started, budget.seconds)
    iterations = 0
    # bound locally: the loop below is the hot path
    to_act = adapter.to_act
    legal_of = adapter.legal
    advance = adapter.advance
    observe = adapter.observe
    reveal = adapter.reveal
    horizon_of = adapter.horizon
    is_simultaneous = adapter.simultaneous
    evaluate = adapter.evaluate
    result = adapter.result
    log = math.log
    sqrt = math.sqrt
    seats = range(n)
    while iterations < budget.iterations:
        if (
            deadline is not None
            and iterations
            and iterations & 15 == 0
            and time.perf_counter() >= deadline
        ):
            if capped:
                note_stopped_by_cap()
            break
        if iterations == 0:
            state = first.copy()
        elif worlds > 0:
            if len(pool) < worlds:
                pool.append(sample(rng))
                state = pool[-1].copy()
            else:
                state = pool[iterations % worlds].copy()
        else:
            state = sample(rng)
        stamp = iterations
        iterations += 1
        horizon = horizon_of(state)
        cur = [root] * n
        path = [root]
        root.stamp = stamp
        expanded = False
        at_root = True
        phase_open = False  # a simultaneous phase has begun and not ended
        # per observer: moves hidden from it in the phase now open
        hidden: dict[int, list[tuple[int, Hashable]]] = {}
        # regret-matching choices made this iteration, updated with its reward
        regrets: list[tuple[list[Node], list[float], int, int]] = []
        while not state.is_over and not expanded:
            acting = to_act(state)
            if not acting:
                break
            # the searching seat makes the first move (in a simultaneous phase
            # the order is free: the others do not see it)
            seat = me if at_root and me in acting else acting[0]
            at_root = False
            moves = legal_of(state, seat)
            children = cur[seat].children
            get = children.get
            # each move hashed once: moves are looked up millions of times
            kids = [get(m) for m in moves]
            simultaneous = phase_open or is_simultaneous(state, acting)
            if None in kids:
                untried = [m for m, child in zip(moves, kids, strict=True) if child is None]
                move = untried[0] if len(untried) == 1 else rng.choice(untried)
                expanded = True
                for child in kids:
                    if child is not None:
                        child.avail += 1
            elif simultaneous:
                nodes = cast(list[Node], kids)  # every move has one (no None above)
                # regret matching: UCB's deterministic choices fall into step
                # with the other seats' and teach them to read this one
                k = len(moves)
                positive = [c.regret if c.regret > 0.0 else 0.0 for c in nodes]
                total = sum(positive)
                mix = GAMMA / k
                if total > 0.0:
                    share = (1.0 - GAMMA) / total
                    probs = [r * share + mix for r in positive]
                else:
                    probs = [1.0 / k] * k
                pick = _draw(probs, rng.random())
                move = moves[pick]
                for c in nodes:
                    c.avail += 1
                regrets.append((nodes, probs, pick, seat))
            else:
                best = -1.0
                move = moves[0]
                for m, c in zip(moves, cast(list[Node], kids), strict=True):
                    c.avail += 1
                    visits = c.visits
                    v = c.value[seat] / visits + exploration * sqrt(log(c.avail) / visits)
                    if v > best:
                        best, move = v, m
            # every seat's path follows what it observes of the move
            for o in seats:
                key = move if o == seat else observe(state, seat, move, o)
                here = cur[o]
                nxt = here.children.get(key)
                if nxt is None:
                    nxt = here.children[key] = Node(n)
                    if o == seat:
                        nxt.avail = 1
                cur[o] = nxt
                if nxt.stamp != stamp:
                    nxt.stamp = stamp
                    path.append(nxt)
                if type(key) is Hidden:
                    hidden.setdefault(o, []).append((seat, move))
            advance(state, seat, move)
            if simultaneous:
                phase_open = True
                after = () if state.is_over else to_act(state)
                left = [s for s in acting if s != seat]
                if state.is_over or any(s not in left for s in after):
                    # the phase is over: each seat learns what was hidden from it
                    for o, moved in hidden.items():
                        key = reveal(state, moved, o)
                        here = cur[o]
                        nxt = here.children.get(key)
                        if nxt is None:
                            nxt = here.children[key] = Node(n)
                        cur[o] = nxt
                        if nxt.stamp != stamp:
                            nxt.stamp = stamp
                            path.append(nxt)
                    phase_open = False
                    hidden = {}
        play_out(adapter, state, horizon, 0, rng)
        rewards = result(state) if state.is_over else evaluate(state, me)
        for options, probs, pick, seat in regrets:
            x = rewards[seat]
            for c in options:
                c.regret -= x
            options[pick].regret += x / probs[pick]
        for node in path:
            node.visits += 1
            value = node.value
            for k in seats:
                value[k] += rewards[k]
    estimates = []
    for m in legal:
        child = root.children.get(m)
        if child is None or child.visits == 0:
            estimates.append(MoveEstimate(m, 0, 0.0, None))
            continue
        v = child.value[me] / child.visits
        estimates.append(MoveEstimate(m, child.visits, v, _points(adapter, v)))
    estimates.sort(key=lambda e: (e.visits, e.value), reverse=True)
    mixed = adapter.simultaneous(first, first.to_act())
    return Analysis(estimates, iterations, time.perf_counter() - started, mixed)


def play_out(adapter: Adapter, state: State, horizon: Any, depth: int, rng: random.Random) -> None:
    """Play the adapter's rollout policy on ``state``, in place, for every
    seat, until the game ends, ``rollout_done`` says it has gone far enough, or
    ``max_depth`` moves (``depth`` of them already played) are made."""
    to_act = adapter.to_act
    advance = adapter.advance
    rollout_move = adapter.rollout_move
    rollout_done = adapter.rollout_done
    max_depth = adapter.max_depth
    while depth < max_depth and not state.is_over and not rollout_done(state, horizon, depth):
        acting = to_act(state)
        if not acting:
            break
        seat = acting[0]
        advance(state, seat, rollout_move(state, seat, rng))
        depth += 1


def _draw(probs: Sequence[float], r: float) -> int:
    """The index that ``r`` (uniform in [0, 1)) falls on in ``probs``."""
    acc = 0.0
    for i, p in enumerate(probs):
        acc += p
        if r < acc:
            return i
    return len(probs) - 1


def _points(adapter: Adapter, value: float) -> float | None:
    return adapter.points(value) if adapter.value_kind == "points" else None


@dataclass
class Comparison:
    """Every legal move played out in the same samples (:func:`compare`):
    ``values[i][k]`` is the margin after move ``i`` in sample ``k``."""

    legal: list[Hashable]
    values: list[list[float]]
    weights: list[float]
    # the seat's chance to win after move i in sample k (the adapter's
    # ``evaluate``, or the result of a finished game)
    chances: list[list[float]] = field(default_factory=list)

    def effective_samples(self) -> float:
        """How many equal samples the weighted ones are worth (Kish's
        ``(sum w)^2 / sum w^2``): a few heavy samples tell no more than a few
        samples, however many light ones lie beside them, so the standard
        errors below divide by this, not by the count (dividing by the count
        understated them, and two judgements of one position named bests
        further apart than their stated errors; docs/bots.md)."""
        weights = self.weights
        square = sum(w * w for w in weights)
        return sum(weights) ** 2 / square if square > 0.0 else 0.0

    def _mean_and_error(self, values: list[float]) -> tuple[float, float]:
        weights = self.weights
        total = sum(weights)
        mean = sum(w * v for w, v in zip(weights, values, strict=True)) / total
        var = sum(w * (v - mean) ** 2 for w, v in zip(weights, values, strict=True)) / total
        return mean, (var / max(self.effective_samples(), 1.0)) ** 0.5

    def chance(self, move: int) -> tuple[float, float]:
        """Move ``move``'s weighted mean chance to win and its standard error."""
        return self._mean_and_error(self.chances[move])

    def gain(self, move: int, over: int, in_chance: bool = False) -> tuple[float, float]:
        """The weighted mean gain of move ``move`` over move ``over``, paired
        sample by sample, and its standard error: in margin, or
        ``in_chance`` in chance to win."""
        rows = self.chances if in_chance else self.values
        gains = [a - b for a, b in zip(rows[move], rows[over], strict=True)]
        return self._mean_and_error(gains)

    def pick_over(self, default: Hashable, confidence: float, in_chance: bool = False) -> Hashable:
        """``default`` (a game's own policy's move), unless another move gains
        more than ``confidence`` standard errors over it: that keeps sampling
        noise from overruling a sound habit.

        ``in_chance``: gains in chance to win, the figure the advice shows;
        a move also counts as clearly better where it gains more than the 95%
        error the screen states for either move (``STATED`` standard errors),
        and where any does, the move with the highest chance is played. So the
        move picked is never below another by more than their stated error
        (the hint's Best is never listed under a better figure)."""
        best = base = self.legal.index(default)
        if len(self.weights) < MIN_PAIRED_SAMPLES:
            return default
        if in_chance:
            means = [self.chance(i) for i in range(len(self.legal))]
            for i in range(len(self.legal)):
                if i == base:
                    continue
                mean, se = self.gain(i, base, in_chance=True)
                stated = STATED * max(means[i][1], means[base][1])
                if mean > 0.0 and (mean > confidence * se or mean > stated):
                    return self.legal[max(range(len(means)), key=lambda k: means[k][0])]
            return default
        best_gain = 0.0
        for i in range(len(self.legal)):
            if i == base:
                continue
            mean, se = self.gain(i, base)
            if mean > best_gain and mean > confidence * se:
                best, best_gain = i, mean
        return self.legal[best]


def compare(
    situation: Situation,
    adapter: Adapter,
    samples: int,
    rng: random.Random,
    max_playouts: int | None = None,
    seconds: float | None = None,
    candidates: int = 0,
) -> Comparison:
    """Determinized flat Monte Carlo, the engine's other mode: each sample
    (``situation.sample``) is played out once after every legal move, by the
    adapter's rollout policy for both sides until ``rollout_done``, and
    scored by ``margin``; the same samples serve every move, so moves are
    compared pair by pair, and each sample counts by the adapter's
    ``weight``. Where a game's own policy is good and a round is short, this
    departs from the policy only where it is clearly wrong, which a tree
    search's averages do less reliably (docs/bots.md). ``max_playouts`` caps
    samples times moves; ``seconds`` is a time ceiling (a busy server may
    lower it: :func:`ceiling_cap`), checked after each sample.

    ``candidates`` > the samples played: that many samples are drawn and
    weighed first (a sample costs far less than its playouts), and the
    samples played out are drawn from them in proportion to their weights
    (sampling-importance-resampling), so the playouts go to the deals that
    explain what the other seats did; a candidate drawn k times counts k."""
    deadline, capped = search_deadline(time.perf_counter(), seconds)
    legal = list(situation.legal)
    seat = situation.seat
    count = samples if max_playouts is None else min(samples, max_playouts // len(legal))
    worlds: list[tuple[State, float]] = []
    if candidates > count:
        pool = [situation.sample(rng) for _ in range(candidates)]
        weighed = [adapter.weight(world, seat) for world in pool]
        total = sum(weighed)
        if total > 0.0:
            # systematic resampling: count evenly spaced draws over the weights
            step = total / count
            at = rng.random() * step
            acc = 0.0
            picked: dict[int, int] = {}
            i = -1
            for _ in range(count):
                while acc <= at and i + 1 < len(pool):
                    i += 1
                    acc += weighed[i]
                picked[i] = picked.get(i, 0) + 1
                at += step
            worlds = [(pool[i], float(k)) for i, k in picked.items()]
    values: list[list[float]] = [[] for _ in legal]
    chances: list[list[float]] = [[] for _ in legal]
    weights: list[float] = []
    for k in range(len(worlds) if worlds else count):
        if deadline is not None and weights and time.perf_counter() >= deadline:
            if capped:
                note_stopped_by_cap()
            break
        if worlds:
            world, weight = worlds[k]
        else:
            world = situation.sample(rng)
            weight = adapter.weight(world, seat)
        weights.append(weight)
        horizon = adapter.horizon(world)
        for i, move in enumerate(legal):
            state = world.copy()
            adapter.advance(state, seat, move)
            play_out(adapter, state, horizon, 1, rng)
            values[i].append(adapter.margin(state, seat))
            ends = adapter.result(state) if state.is_over else adapter.evaluate(state, seat)
            chances[i].append(ends[seat])
    return Comparison(legal, values, weights, chances)


def best_move(
    situation: Situation, adapter: Adapter, budget: Budget, rng: random.Random, **kw: Any
) -> Hashable:
    """The most visited move of :func:`analyse`."""
    return analyse(situation, adapter, budget, rng, **kw).best


# ------------------------------------------------------- per-game engines
# a game without an adapter of its own (rules.bots.roster.GameBots) gets these
DEFAULT_BUDGET = Budget(iterations=1000, seconds=1.0)


def engine_for(game_id: str) -> tuple[Adapter, Budget]:
    """A game's adapter and budget, as its spec declares them
    (``GameSpec.bots()``); the generic adapter for a game without one."""
    declared = bots_for(game_id)
    return (declared.adapter or Adapter)(), declared.budget or DEFAULT_BUDGET


class EngineBot(Bot):
    """Any game's search bot: the engine with the game's adapter and budget."""

    name = "engine"

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget

    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        if len(situation.legal) == 1:
            return situation.legal[0]
        adapter, default = engine_for(situation.spec.id)
        return analyse(situation, adapter, self.budget or default, rng).pick(rng)
