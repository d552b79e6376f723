"""Five-Card Trick bots: easy (random), medium (rules of thumb), hard (solver).

easy plays a random submission among those the rules would not disregard.
medium weighs each action by rules of thumb (Score unless it will collide,
Claim a big pot the opponent cannot steal, Steal when the opponent is likely to
Claim, Block what the opponent wants most, light the last lights) and picks
among the best few at random. hard solves each round as a matrix game
(:mod:`.solver`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable

from ..bots.base import Bot, Situation
from ..bots.roster import GameBots
from . import (
    BLOCK,
    CLAIM,
    GROW,
    NO_TARGET,
    PRIORITY_MOVE,
    SCORE,
    STEAL,
    Position,
)
from .engine import ENGINE_BUDGET, TrickAdapter
from .scripts import SCRIPTS, script_bot
from .solver import HardBot, clean_moves, judge, position_of


class EasyBot(Bot):
    name = "easy"

    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        _, pos = position_of(situation, rng)
        moves = [m for m in clean_moves(situation, pos) if not m.overload] or situation.legal
        return rng.choice(moves)


def _usable(pos: Position, seat: int, action: int) -> bool:
    return action not in pos.restricted(seat) and pos.blocked[seat] != action


class MediumBot(Bot):
    """Rules of thumb, with some randomness so that it is not trivially read."""

    name = "medium"
    temperature = 0.25

    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        _, pos = position_of(situation, rng)
        me = situation.seat
        opp = 1 - me
        if PRIORITY_MOVE in situation.legal and pos.pot >= 2:
            return PRIORITY_MOVE
        moves = [m for m in clean_moves(situation, pos) if not m.overload]
        if not moves:
            return rng.choice(situation.legal)
        worth = self._action_worth(pos, me, opp)
        target = self._block_target(pos, opp)
        lights = pos.lights[me]
        scored = []
        for m in moves:
            if m.counts[BLOCK] and m.target != target:
                continue
            v = 0.0
            new_lights = lights
            for a in range(5):
                if m.counts[a]:
                    v += worth[a]
                    new_lights |= 1 << a
            gained = bin(new_lights).count("1") - bin(lights).count("1")
            v += 0.1 * gained
            if new_lights == 0b11111:
                v += 0.8
            if m.counts[CLAIM] and m.counts[STEAL]:
                v -= 0.3  # the two hedge each other: rarely worth both cards
            scored.append((v, m))
        if not scored:
            return rng.choice(moves)
        top = max(v for v, _ in scored)
        weights = [math.exp((v - top) / self.temperature) for v, _ in scored]
        return rng.choices([m for _, m in scored], weights)[0]

    @staticmethod
    def _action_worth(pos: Position, me: int, opp: int) -> list[float]:
        pot = pos.pot
        opp_claims = _usable(pos, opp, CLAIM)
        opp_steals = _usable(pos, opp, STEAL)
        worth = [0.0] * 5
        if _usable(pos, me, SCORE):
            worth[SCORE] = 0.6 if _usable(pos, opp, SCORE) else 1.0
        if _usable(pos, me, GROW):
            worth[GROW] = 0.35 if pot < 3 else 0.15
        if _usable(pos, me, CLAIM):
            worth[CLAIM] = pot * (0.45 if opp_steals else 0.9)
        if _usable(pos, me, STEAL) and opp_claims:
            worth[STEAL] = pot * (0.45 if pot >= 2 else 0.25)
        if _usable(pos, me, BLOCK):
            worth[BLOCK] = 0.3
        return worth

    @staticmethod
    def _block_target(pos: Position, opp: int) -> int:
        # block what the opponent will want most next round
        if pos.pot >= 3 and CLAIM not in pos.restricted(opp):
            return CLAIM
        return SCORE if SCORE not in pos.restricted(opp) else CLAIM


# what the spec declares (TrickSpec.bots): the hard bot is the matrix-game
# solver, the hints' search uses TrickAdapter, and the arena may name every
# scripted strategy
BOTS = GameBots(
    levels={"easy": EasyBot, "medium": MediumBot, "hard": HardBot},
    adapter=TrickAdapter,
    budget=ENGINE_BUDGET,
    judge=judge,
    scripted={name: script_bot(name) for name in SCRIPTS},
)

__all__ = ["BOTS", "NO_TARGET", "EasyBot", "HardBot", "MediumBot"]
