"""Bots for stress: random (easy) and rules of thumb (medium, also hard for now).

:class:`MediumBot` looks only at its legal moves and the seat's view:

* Swaps: the strongest cards go face up. A card's worth (``WORTH``) is its
  rank's strength, with the special cards above the ace: a 10 (burns the
  stack), a 2 (goes on anything), a 3 (goes on anything, see-through). It
  swaps the pair that gains most while one gains, then says ready; every swap
  raises the face-up row's total worth, so it stops.
* Plays: the cheapest rank it may play that is not a 2, 3 or 10, with every
  copy of that rank it holds (fewer cards left, more drawn back). The special
  cards are kept for when nothing else goes; then a 10 first if the stack is
  worth burning (``BURN_WORTH`` cards or more), else a 3 (the next player
  still faces the same card), then a 2, then a 10; one special at a time.
* Face-down cards are unknown: any position will do. It picks up only when it
  must (never voluntarily, even where ``allow_voluntary_pickup`` allows it).

The hard level is this bot as well until an engine-based one is measured
stronger (docs/bots.md). :class:`StressAdapter` plugs stress into the search
engine (the arena's ``engine`` player and the hints): rollouts play the
medium bot's rules of thumb, and a state cut short is valued by cards left,
fewer being better (``scores()`` counts cards left, so the generic
evaluation would read it backwards).
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence

from ..stress import POWER, Blind, Play, Ready, StressState, Swap
from . import register_bot
from .base import Bot, RandomBot, Situation
from .search import Adapter, Budget, State, register_engine

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
        return choose_play(legal, len(situation.view["stack"]))


class StressAdapter(Adapter):
    """The search engine's view of stress (see the module's notes)."""

    max_depth = 80
    score_scale = 6.0  # a difference of 6 cards left reads as 73% against 27%

    def advance(self, state: State, seat: int, move: Hashable) -> None:
        state.play_move(seat, move)  # sampled states only: skip the base checks

    def rollout_move(self, state: State, seat: int, rng: random.Random) -> Hashable:
        legal: list[Hashable] = state.legal_moves(seat)
        if len(legal) == 1:
            return legal[0]
        if any(type(m) is Ready for m in legal):
            return choose_swap(legal)
        if type(legal[0]) is Blind:
            return rng.choice([m for m in legal if type(m) is Blind])
        assert isinstance(state, StressState)
        return choose_play(legal, len(state.stack))

    def evaluate(self, state: State, root_seat: int) -> list[float]:
        left = state.scores()
        n = len(left)
        scale = self.score_scale
        return [
            sum(0.5 + 0.5 * math.tanh((left[j] - left[k]) / scale) for j in range(n) if j != k)
            / (n - 1)
            for k in range(n)
        ]


register_engine("stress", StressAdapter, Budget(iterations=600, seconds=1.0))
register_bot("stress", "easy", RandomBot)
register_bot("stress", "medium", MediumBot)
register_bot("stress", "hard", MediumBot)
