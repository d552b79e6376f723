"""Bots for stress: random (easy), rules of thumb (medium), the engine (hard).

:class:`MediumBot` looks only at its legal moves and the seat's view:

* Swaps: the strongest cards go face up. A card's worth (``WORTH``) is its
  rank's strength, with the special cards above the ace: a 10 (burns the
  stack), a 2 (goes on anything), a 3 (goes on anything, see-through). It
  swaps the pair that gains most while one gains, then says ready; every swap
  raises the face-up row's total worth, so it stops.
* It counts what is gone (:func:`unbeatable_play`): the copies of each rank
  in its hand and face-up row, on the stack and burned in the cemetery can be
  nobody else's. A card of an ordinary rank that none of the other copies
  left could follow (every 2 and 3 gone, every higher card too...) makes the
  next player pick up; on a stack of ``KILL_WORTH`` cards or more it is
  played first.
* Otherwise: the cheapest rank it may play that is not a 2, 3 or 10, with
  every copy of that rank it holds (fewer cards left, more drawn back). The
  special cards are kept for when nothing else goes; then a 10 first if the
  stack is worth burning (``BURN_WORTH`` cards or more), else a 3 (the next
  player still faces the same card), then a 2, then a 10; one special at a
  time.
* Face-down cards are unknown: any position will do. It picks up only when it
  must (never voluntarily, even where ``allow_voluntary_pickup`` allows it).

:class:`HardBot` is the search engine (``search.py``) with
:class:`StressAdapter`: the tree holds only :func:`sensible_moves` (one play
per rank, all its copies, a lone 2, 3 or 10 besides), states advance without
checks or narration (``StressState.advance``), rollouts play the medium
bot's choices straight from the state (:func:`rollout_play`, without the
counting) for ``rollout_moves`` moves, and a position cut short is valued by
:func:`position_burden` (cards left, less what 2s, 10s, 3s, aces and kings
are worth, more the face-down cards' risk and a stack its owner must pick
up), as each seat's chance to be the first out (a softmax). A decision with
one sensible move is not searched; the swaps are the medium bot's; and the
medium bot's move stands unless the search finds one ``HARD_MARGIN`` better.
At a table of three or more it searches longer (``CROWD_BUDGET``).
Figures: docs/bots.md.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence

from ..bots.advice import Advice, advise, from_analysis
from ..bots.base import Bot, RandomBot, Situation
from ..bots.roster import GameBots
from ..bots.search import Adapter, Analysis, Budget, State, analyse
from . import FOLLOWS, POWER, Blind, Play, Ready, StressState, Swap
from .notation import BLINDS, PICKUP, SINGLE, StressMove, make_play
from .state import PLAY as PLAY_PHASE
from .state import TEXT
from .view import StressView

SPECIAL = (2, 3, 10)
# rank -> worth of having the card: strength 2..14 (A = 14), specials above
WORTH = tuple(POWER[r] + {10: 7, 2: 14, 3: 12}.get(r, 0) for r in range(16))
BURN_WORTH = 6  # a 10 on a stack of this many cards or more is played before a 3 or 2
SPECIAL_ORDER = {3: 0, 2: 1, 10: 2}


def choose_swap(legal: Sequence[Hashable]) -> Hashable:
    """The swap that puts the most worth face up, or ready if none gains."""
    best: Hashable = next(m for m in legal if type(m) is Ready)
    gain = 0
    for move in legal:
        if type(move) is Swap:
            g = WORTH[move.hand_card & 15] - WORTH[move.up_card & 15]
            if g > gain:
                best, gain = move, g
    return best


def choose_play(legal: Sequence[Hashable], stack_size: int) -> Hashable:
    """The cheapest play by the rules of thumb above (a blind card or a pick-up
    when no cards may be played)."""
    plays = [m for m in legal if type(m) is Play]
    if not plays:
        blinds = [m for m in legal if type(m) is Blind]
        return blinds[0] if blinds else legal[0]
    normal = [p for p in plays if p.rank not in SPECIAL]
    if normal:
        # the weakest rank, all its copies
        return min(normal, key=lambda p: (POWER[p.rank], -len(p.cards), p.cards))
    singles = [p for p in plays if len(p.cards) == 1]

    def order(p: Play) -> tuple[int, tuple[int, ...]]:
        if p.rank == 10 and stack_size >= BURN_WORTH:
            return (-1, p.cards)
        return (SPECIAL_ORDER[p.rank], p.cards)

    return min(singles or plays, key=order)


class MediumBot(Bot):
    name = "medium"

    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        legal = situation.legal
        if any(type(m) is Ready for m in legal):
            return choose_swap(legal)
        blinds = [m for m in legal if type(m) is Blind]
        if blinds:
            return rng.choice(blinds)  # unseen: every position is as good
        view = StressView.read(situation.view)
        killer = unbeatable_play(legal, view, situation.seat)
        if killer is not None:
            return killer
        return choose_play(legal, len(view.stack))


# a card nobody can follow is played on a stack of this many cards or more
# (the next player picks up at least one more card than this)
KILL_WORTH = 2
RANK_OF_TEXT = {TEXT[c]: c & 15 for c in range(64) if TEXT[c]}


def gone_by_rank(view: StressView, seat: int) -> list[int]:
    """Per rank, the copies the seat knows no other player can hold: in its
    hand or face-up row, on the stack, or burned in the cemetery."""
    gone = [0] * 16
    for pile in (view.hand or (), view.face_up[seat], view.stack, view.cemetery):
        for text in pile:
            gone[RANK_OF_TEXT[text]] += 1
    return gone


def unbeatable_play(legal: Sequence[Hashable], view: StressView, seat: int) -> Hashable | None:
    """Counting what is gone: a play that no card anyone else may still hold
    can follow, so that the next player must pick the stack up (the weakest
    such rank, all its copies), when the stack is worth it. Only ordinary
    ranks: a 2 or 10 leaves a fresh stack, a 3 shows the card below, and an 8
    skips the player who would face it."""
    if len(view.stack) < KILL_WORTH:
        return None
    plays = [m for m in legal if type(m) is Play and m.rank not in KILL_EXEMPT]
    if not plays:
        return None
    gone = gone_by_rank(view, seat)
    copies = 4 * view.decks
    follows = FOLLOWS[view.rules["ten_wild"]]
    open_ranks = sum(1 << r for r in range(1, 14) if gone[r] < copies)
    killers = [p for p in plays if not follows[p.rank] & open_ranks]
    if not killers:
        return None
    return min(killers, key=lambda p: (POWER[p.rank], -len(p.cards), p.cards))


KILL_EXEMPT = frozenset((2, 3, 8, 10))


def sensible_moves(legal: Sequence[Hashable]) -> list[Hashable]:
    """The moves worth searching among ``legal`` (a subset, never empty).

    Suits never matter in play, so a rank is played with all the copies held
    (one play per rank), except that a 2, 3 or 10 may also go alone (keeping
    the others for later); the face-down positions are all alike to a seat
    that has not seen them, so the first stands for all; in the swaps, the
    medium bot's choice."""
    if not legal:
        return []
    first = legal[0]
    if type(first) is Blind:
        return [first]
    if type(first) is Swap or type(first) is Ready:
        return [choose_swap(legal)]
    widest: dict[int, Play] = {}
    single: dict[int, Play] = {}
    out: list[Hashable] = []
    for m in legal:
        if type(m) is Play:
            r = m.rank
            if r not in widest or len(m.cards) > len(widest[r].cards):
                widest[r] = m
            if r in SPECIAL and len(m.cards) == 1 and r not in single:
                single[r] = m
        else:
            out.append(m)
    for r, play in widest.items():
        one = single.get(r)
        if one is not None and one is not play:
            out.append(one)
        out.append(play)
    return out


def rollout_play(state: StressState, seat: int) -> StressMove:
    """:func:`choose_play`'s choice read straight from the state (no legal
    list): the rollout policy."""
    hand = state.hands[seat]
    cards = hand or state.up[seat]
    if state.phase != PLAY_PHASE:
        return choose_swap(state.legal_moves(seat))  # type: ignore[return-value]
    if not cards:
        row = state.down[seat]
        for i, c in enumerate(row):
            if c:
                return BLINDS[i]
    follows = state.follows[state.top]
    best = 0
    best_power = 99
    specials = 0
    for c in cards:
        r = c & 15
        if follows >> r & 1:
            if r == 2 or r == 3 or r == 10:
                specials |= 1 << r
            elif POWER[r] < best_power:
                best, best_power = r, POWER[r]
    if best:
        return make_play([c for c in cards if c & 15 == best])
    if not specials:
        return PICKUP
    if specials >> 10 & 1 and len(state.stack) >= BURN_WORTH:
        pick = 10
    else:
        pick = 3 if specials >> 3 & 1 else 2 if specials >> 2 & 1 else 10
    return SINGLE[next(c for c in cards if c & 15 == pick)]


# what holding a card is worth to the evaluation, in cards left (a 2 or 10
# gets rid of a stack or plays on anything: nearly a card gone already)
HOLD_BONUS = tuple({2: 0.8, 10: 0.8, 3: 0.4, 1: 0.3, 13: 0.15}.get(r, 0.0) for r in range(16))
BLIND_RISK = 1.2  # a face-down card may fail and bring the stack with it


class StressAdapter(Adapter):
    """The search engine's view of stress (see the module's notes)."""

    score_scale = 4.0  # a difference of 4 cards left reads as 88% against 12%

    def __init__(self, rollout_moves: int = 24) -> None:
        self.rollout_moves = rollout_moves
        self.max_depth = rollout_moves

    def to_act(self, state: State) -> tuple[int, ...]:
        assert isinstance(state, StressState)
        if state.over:
            return ()
        if state.phase == PLAY_PHASE:
            return (state.turn,)
        return state.to_act()

    def legal(self, state: State, seat: int) -> list[Hashable]:
        return sensible_moves(state.legal_moves(seat))

    def rollout_move(self, state: State, seat: int, rng: random.Random) -> Hashable:
        assert isinstance(state, StressState)
        return rollout_play(state, seat)

    def evaluate(self, state: State, root_seat: int) -> list[float]:
        assert isinstance(state, StressState)
        n = state.config.players
        if state.finished:  # the first out has won; the rest is for places below
            out = [0.0] * n
            out[state.finished[0]] = 1.0
            return out
        # each live seat's chance to be the first out: a softmax of the
        # burdens, so that what counts is the distance to the leader (with two
        # seats, 0.5 + 0.5 tanh(difference / score_scale))
        temperature = self.score_scale / 2
        live = [s for s in range(n) if not state.gone[s]]
        burden = {s: position_burden(state, s) for s in live}
        least = min(burden.values())
        weights = [0.0] * n
        for s in live:
            weights[s] = math.exp((least - burden[s]) / temperature)
        total = sum(weights)
        return [w / total for w in weights]


def position_burden(state: StressState, seat: int) -> float:
    """How far ``seat`` is from finishing, in cards: cards left, less what its
    strong cards are worth, more the risk of its face-down cards and the stack
    it must pick up if it is to play and cannot."""
    hand = state.hands[seat]
    up = state.up[seat]
    held = len(hand) + len(up)
    burden = float(held) + BLIND_RISK * sum(1 for c in state.down[seat] if c)
    for c in hand:
        burden -= HOLD_BONUS[c & 15]
    for c in up:
        burden -= HOLD_BONUS[c & 15]
    if held and state.turn == seat and state.phase == PLAY_PHASE:
        follows = state.follows[state.top]
        if not any(follows >> (c & 15) & 1 for c in hand or up):
            burden += len(state.stack)
    return burden


class HardBot(Bot):
    """The search engine with :class:`StressAdapter`, and no search where
    there is nothing to weigh: the swaps are the medium bot's, a face-down
    card is any position, and a decision with one sensible move
    (:func:`sensible_moves`) is played at once. The medium bot's move is
    kept unless the search's best looks ``margin`` better (in win chance)."""

    name = "hard"

    def __init__(
        self,
        budget: Budget | None = None,
        margin: float | None = None,
        crowd_budget: Budget | None = None,
    ) -> None:
        self.budget = budget or HARD_BUDGET
        self.crowd_budget = crowd_budget or budget or CROWD_BUDGET
        self.margin = HARD_MARGIN if margin is None else margin

    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        legal = situation.legal
        if len(legal) == 1:
            return legal[0]
        if any(type(m) is Ready for m in legal):
            return choose_swap(legal)
        if type(legal[0]) is Blind:
            return rng.choice([m for m in legal if type(m) is Blind])
        sensible = sensible_moves(legal)
        if len(sensible) == 1:
            return sensible[0]
        if self.budget == HARD_BUDGET and self.crowd_budget == CROWD_BUDGET:
            # the level as it plays at tables: the advice's judgement (the
            # hint's and the analysis's of the same position)
            chosen = advise(situation).best.move
            return next(m for m in legal if str(m) == chosen)
        return self.weigh(situation, rng)[1]

    def weigh(
        self, situation: Situation, rng: random.Random, budget: Budget | None = None
    ) -> tuple[Analysis, Hashable]:
        """The search's analysis of the sensible moves, and the move to play:
        the medium bot's unless the search's best looks ``margin`` better."""
        heads_up = len(StressView.read(situation.view).hand_sizes) == 2
        budget = budget or (self.budget if heads_up else self.crowd_budget)
        analysis = analyse(situation, StressAdapter(), budget, rng)
        best = analysis.moves[0]
        # the search's estimates are noisy: the medium bot's move stands
        # unless the search finds one clearly better
        usual = MediumBot().choose(situation, rng)
        for estimate in analysis.moves:
            if (
                estimate.move == usual
                and estimate.visits
                and estimate.value >= best.value - self.margin
            ):
                return analysis, usual
        return analysis, best.move


def judge(situation: Situation, rng: random.Random, budget: Budget | None) -> Advice:
    """The hard level's judgement (:meth:`HardBot.weigh`, iterations only, so
    that a position gets the same answer every time): its move first."""
    bot = HardBot(Budget(HARD_BUDGET.iterations), crowd_budget=Budget(CROWD_BUDGET.iterations))
    analysis, best = bot.weigh(situation, rng, budget)
    return from_analysis(analysis, best=best)


HARD_BUDGET = Budget(iterations=150, seconds=0.5)
# three seats or more: every seat's play blurs the estimates, and a decision
# takes a fraction of the time goal (median 0.12 s at 150), so search longer
CROWD_BUDGET = Budget(iterations=400, seconds=1.0)
HARD_MARGIN = 0.05  # how much better than the medium bot's move the search's best must look

# what the spec declares (StressSpec.bots)
BOTS = GameBots(
    levels={"easy": RandomBot, "medium": MediumBot, "hard": HardBot},
    adapter=StressAdapter,
    budget=HARD_BUDGET,
    judge=judge,
)
