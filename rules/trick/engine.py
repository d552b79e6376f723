"""Five-Card Trick for the search engine: the adapter hints and analysis use.

Trick's hard bot stays the matrix-game solver (:mod:`.solver`), which
is stronger per second than a sampled search of a game whose every round is
a simultaneous choice. The engine serves the hints: every decision is
simultaneous (searched by regret matching), rollouts are random submissions
for a few rounds, and then the solver's evaluation of the position is read
as each seat's chance to win.
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from ..bots import search
from ..bots.search import Adapter, Budget, State
from . import PRIORITY_MOVE, Submission, TrickState
from .solver import evaluate


class TrickAdapter(Adapter):
    max_depth = 8  # four rounds of two submissions, then the evaluation

    def to_act(self, state: State) -> tuple[int, ...]:
        return state.to_act()

    def simultaneous(self, state: State, acting: tuple[int, ...]) -> bool:
        return True  # a seat that submits second still cannot see the first

    def rollout_move(self, state: State, seat: int, rng: random.Random) -> Hashable:
        moves: list[Hashable] = state.legal_moves(seat)
        plain = [m for m in moves if type(m) is Submission and not m.overload]
        return rng.choice(plain or moves)

    def observe(self, state: State, seat: int, move: Hashable, observer: int) -> Hashable:
        if move == PRIORITY_MOVE:
            return move  # announced to the table at once
        return search.Hidden(seat)

    def evaluate(self, state: State, root_seat: int) -> list[float]:
        assert isinstance(state, TrickState)
        v = evaluate(state.pos, 0, state.config, state.defender)
        p = 0.5 + 0.5 * v
        return [p, 1.0 - p]


ENGINE_BUDGET = Budget(iterations=3000, seconds=1.0)  # the hints' search
