"""Bots for territory: random (easy), a greedy player (medium), the search engine (hard).

:class:`MediumBot` plays the turn that leaves the best grid, judged by
:func:`grid_value`: first the distinct values of its best region minus the
opponent's, then how small the opponent's best region is left (cutting it),
then the size of its own. A conquest is judged by its best blitz chain: the bot
searches every chain of blitzes its hand allows, and stops where the grid is
best, so a chain that completes a region is always found. Ties are broken at
random.

It simulates only its own turn, on a sample of the position
(``Situation.sample``): its own hand is exact there and the grid is public, so
nothing it cannot see decides its move.

:class:`SearchBot` (hard) is the shared engine (:mod:`.search`) with
:class:`TerritoryAdapter`: information-set Monte Carlo tree search over samples
of the hidden hands and stock. The tree considers one card per value (suits
never matter) and explores only next to the mover's own cards; below the tree
both seats play a quick policy (blitz when possible, else conquer most of the
time, else explore next to their own cards) for a few moves, and the grid is
then read as a win chance (:func:`win_chance`). A move that wins this turn
(:func:`winning_move`, medium's chain search) is played without searching.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from typing import Any

from ..bots.advice import Advice, Choice, advise, from_analysis
from ..bots.base import Bot, RandomBot, Situation
from ..bots.roster import GameBots
from ..bots.search import Adapter, Analysis, Budget, State, analyse
from . import PASS, STOP, TerritoryState
from .board import OWNER_BIT, STEPS, best_regions
from .notation import EXPLORES, Blitz, Conquer, TerritoryMove

WIN = 1_000_000.0
# the weights of grid_value: a distinct value is worth far more than any
# difference in region sizes, and cutting the opponent's region more than
# growing one's own
VALUE = 1000.0
CUT = 10.0
GROW = 1.0


def grid_value(state: TerritoryState, seat: int) -> float:
    """How good the position is for ``seat``, from the grid alone (higher is better)."""
    if state.over:
        if state.winner is None:
            return 0.0
        return WIN if state.winner == seat else -WIN
    mine, theirs = best_regions(state.grid)
    if seat:
        mine, theirs = theirs, mine
    return VALUE * (mine[0] - theirs[0]) - CUT * theirs[1] + GROW * mine[1]


def turn_value(state: TerritoryState, move: TerritoryMove, seat: int) -> float:
    """The value of playing ``move`` now and then the best blitz chain after it."""
    child = state.copy()
    child.advance(child.turn, move)
    return _best_after(child, seat)


def _best_after(state: TerritoryState, seat: int) -> float:
    """Value of ``state``; in ``seat``'s blitz, of the best way to go on or stop."""
    if state.over or state.turn != seat or state.blitz_at < 0:
        return grid_value(state, seat)
    best = grid_value(state, seat)  # stopping leaves the grid as it is
    for move in state.legal_moves(seat):
        if isinstance(move, Blitz):
            best = max(best, turn_value(state, move, seat))
    return best


class MediumBot(Bot):
    """Greedy on region value, searching blitz chains fully (see the module)."""

    name = "medium"

    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        legal = situation.legal
        if len(legal) == 1:
            return legal[0]
        state = situation.sample(rng)
        assert isinstance(state, TerritoryState)
        seat = situation.seat
        best = -float("inf")
        choices: list[Hashable] = []
        for move in legal:
            # STOP leaves the grid as it is; any other move is a turn to play out
            is_stop = move is STOP
            value = grid_value(state, seat) if is_stop else turn_value(state, move, seat)  # type: ignore[arg-type]
            if value > best:
                best, choices = value, [move]
            elif value == best:
                choices.append(move)
        return rng.choice(choices)


# ------------------------------------------------------------- the engine
# how far a region's lead in distinct values goes: a lead of SCALE values reads
# as a 76% chance to win (0.5 + 0.5 * tanh(1))
SCALE = 2.5
# how far the reading of an unfinished grid goes from 0.5 (a won game is 1)
UNSURE = 0.4
# a rollout's share of conquests when it could also explore
CONQUER_SHARE = 0.8
# what each move's delay takes off a win (or adds to a loss): sooner is better
DELAY = 0.01


def win_chance(state: TerritoryState, seat: int) -> float:
    """``seat``'s chance to win read from the grid: the lead in distinct values
    of the best regions, region size as a small tie-break."""
    if state.over:
        if state.winner is None:
            return 0.5
        return 1.0 if state.winner == seat else 0.0
    mine, theirs = best_regions(state.grid)
    if seat:
        mine, theirs = theirs, mine
    lead = mine[0] - theirs[0] + 0.05 * (mine[1] - theirs[1])
    # short of 0 and 1: a game still to play is never as good as one won, so
    # that the search prefers the win in hand to a lead, however large
    return 0.5 + UNSURE * math.tanh(lead / SCALE)


def near_cells(state: TerritoryState, seat: int) -> list[int]:
    """The open cells next to a card the seat controls."""
    grid = state.grid
    mine = seat << 6
    out = []
    for p in state.open:
        for d in STEPS:
            c = grid.get(p + d)
            if c is not None and c & OWNER_BIT == mine:
                out.append(p)
                break
    return out


def candidate_moves(state: TerritoryState, seat: int) -> list[TerritoryMove]:
    """The moves worth searching: one card per value for each kind of move and
    cell (suits never matter), and explores only next to the seat's own cards
    (all open cells if it has none next to any)."""
    if state.blitz_at >= 0:
        moves = state.legal_moves(seat)
        seen: set[tuple[int, int]] = set()
        out: list[TerritoryMove] = []
        for move in moves:
            if isinstance(move, Blitz):
                key = (move.card & 15, move.at)
                if key in seen:
                    continue
                seen.add(key)
            out.append(move)
        return out
    return state.main_moves(seat, near_cells(state, seat) or None, one_per_value=True)


def rollout_move(state: TerritoryState, seat: int, rng: random.Random) -> TerritoryMove:
    """A quick policy for both seats below the tree (see the module): blitz
    while possible, else conquer most of the time, else explore next to its
    own cards. Built without listing every legal move, which is most of a
    rollout's cost (a hand of five times every open cell)."""
    if state.blitz_at >= 0:
        blitzes = state.legal_moves(seat)
        return blitzes[0] if len(blitzes) == 1 else rng.choice(blitzes[:-1])
    # the first step's moves with no explores: conquests (and fortify, discard)
    others = state.main_moves(seat, (), one_per_value=True)
    conquers = [m for m in others if isinstance(m, Conquer)]
    if conquers and rng.random() < CONQUER_SHARE:
        return rng.choice(conquers)
    royal_game = state.config.royal_domination
    cards = [c for c in state.hands[seat] if not (royal_game and c & 15 > 10)]
    if cards:
        cells = near_cells(state, seat) or list(state.open)
        return EXPLORES[rng.choice(cards)][rng.choice(cells)]
    if conquers:
        return rng.choice(conquers)
    return rng.choice(state.main_moves(seat))


def random_move(state: TerritoryState, seat: int, rng: random.Random) -> TerritoryMove:
    """A legal move drawn uniformly from all of them, without listing the
    explores (every card that explores times every open cell): they are
    counted, and drawn by index only if the draw falls among them."""
    if state.blitz_at >= 0:
        return rng.choice(state.legal_moves(seat))
    royal_game = state.config.royal_domination
    cards = [c for c in state.hands[seat] if not (royal_game and c & 15 > 10)]
    cells = len(state.open)
    explores = len(cards) * cells
    # every other first-step move (conquests, fortify, discard), PASS aside
    others = [m for m in state.main_moves(seat, ()) if m is not PASS]
    k = rng.randrange(explores + len(others)) if explores or others else -1
    if k < 0:
        return PASS
    if k >= explores:
        return others[k - explores]
    at = list(state.open)[k % cells]
    return EXPLORES[cards[k // cells]][at]


class TerritoryAdapter(Adapter):
    """The search engine's view of territory: ``advance`` without checks, the
    candidate moves of :func:`candidate_moves`, rollouts of ``depth`` moves by
    :func:`rollout_move`, then :func:`win_chance`; a win is worth a little
    less for each move it takes."""

    def __init__(self, depth: int = 8) -> None:
        self.max_depth = depth
        self.root_ply = 0

    def horizon(self, state: State) -> Any:
        # noted at every iteration's root, for the delay of a win (``result``)
        self.root_ply = state.ply
        return None

    def result(self, state: State) -> list[float]:
        assert isinstance(state, TerritoryState)
        if state.resigned is None and state.winner is not None:
            # a win sooner is worth more than a win later, so that a chain
            # that wins now is not put off for one the rollouts may find
            won = max(1.0 - DELAY * (state.ply - self.root_ply), 0.9)
            return [won, 1.0 - won] if state.winner == 0 else [1.0 - won, won]
        return super().result(state)

    def to_act(self, state: State) -> tuple[int, ...]:
        assert isinstance(state, TerritoryState)
        return () if state.over else (state.turn,)

    def legal(self, state: State, seat: int) -> list[Hashable]:
        assert isinstance(state, TerritoryState)
        return list(candidate_moves(state, seat))

    def rollout_move(self, state: State, seat: int, rng: random.Random) -> Hashable:
        assert isinstance(state, TerritoryState)
        return rollout_move(state, seat, rng)

    def random_move(self, state: State, seat: int, rng: random.Random) -> Hashable:
        assert isinstance(state, TerritoryState)
        return random_move(state, seat, rng)

    def evaluate(self, state: State, root_seat: int) -> list[float]:
        assert isinstance(state, TerritoryState)
        p = win_chance(state, 0)
        return [p, 1.0 - p]


class SearchBot(Bot):
    """The hard level: the search engine with :class:`TerritoryAdapter`. Its
    budget is a number of iterations (a given rng gives the same move every
    time), with ``seconds`` as a ceiling on a slow machine."""

    name = "hard"

    def __init__(
        self,
        iterations: int = 600,
        seconds: float | None = 1.0,
        depth: int = 8,
        exploration: float = 0.7,
    ) -> None:
        self.budget = Budget(iterations, seconds)
        self.adapter = TerritoryAdapter(depth)
        self.exploration = exploration

    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        if len(situation.legal) == 1:
            return situation.legal[0]
        if self.budget == Budget(600, 1.0) and self.adapter.max_depth == 8:
            # the level as it plays at tables: the advice's judgement (the
            # hint's and the analysis's of the same position)
            chosen = advise(situation).best.move
            return next(m for m in situation.legal if str(m) == chosen)
        won = winning_move(situation, rng)
        if won is not None:
            return won
        return self.analyse(situation, rng).best

    def analyse(self, situation: Situation, rng: random.Random) -> Analysis:
        return analyse(situation, self.adapter, self.budget, rng, self.exploration)


def winning_move(situation: Situation, rng: random.Random) -> Hashable | None:
    """A move that wins this turn, through a blitz chain if need be, or None.
    Only the seat's own hand and the public grid decide it, so one sample
    answers for all; the search's averages could prefer a large lead to it."""
    state = situation.sample(rng)
    assert isinstance(state, TerritoryState)
    seat = situation.seat
    for move in situation.legal:
        if move is not STOP and turn_value(state, move, seat) == WIN:  # type: ignore[arg-type]
            return move
    return None


def judge(situation: Situation, rng: random.Random, budget: Budget | None) -> Advice:
    """The hard level's judgement (:class:`SearchBot`, iterations only, so
    that a position gets the same answer every time): a move that wins this
    turn first and sure, else the search's most visited move first."""
    bot = SearchBot(seconds=None)
    if budget is not None:
        bot.budget = budget
    won = winning_move(situation, rng)
    advice = from_analysis(bot.analyse(situation, rng), best=won)
    if won is None:
        return advice
    choices = [c for c in advice.choices if c.move != str(won)]
    sure = Choice(str(won), 1.0, None, 0.0)
    return Advice((sure, *choices), {**advice.same, str(won): str(won)})


def _adapter() -> Any:
    return TerritoryAdapter()


# what the spec declares (TerritorySpec.bots)
BOTS = GameBots(
    levels={"easy": RandomBot, "medium": MediumBot, "hard": SearchBot},
    adapter=_adapter,
    budget=SearchBot().budget,
    judge=judge,
)

__all__ = [
    "MediumBot",
    "SearchBot",
    "TerritoryAdapter",
    "candidate_moves",
    "grid_value",
    "near_cells",
    "random_move",
    "rollout_move",
    "turn_value",
    "win_chance",
    "winning_move",
]
