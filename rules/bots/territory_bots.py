"""Bots for territory: random (easy) and a greedy player (medium).

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
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from ..territory import STOP, TerritoryState
from ..territory.board import best_regions
from ..territory.notation import Blitz, TerritoryMove
from . import register_bot
from .base import Bot, RandomBot, Situation

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
    child.advance(move)
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


register_bot("territory", "easy", RandomBot)
register_bot("territory", "medium", MediumBot)

__all__ = ["MediumBot", "grid_value", "turn_value"]
