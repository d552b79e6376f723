"""What the opponent's cards kept from the last round say about its hand.

Cards not played carry over to the next round, so the hand the opponent
holds now is partly the hand it played the last round from: the cards it
kept then are some of the five it started this round with. Had it held a
sample's cards, would the medium heuristic have played the last round as it
did? The hard level weighs each sample by that too (beside this round's
plays, ``bots._likelihood``). Which of the five were kept is hidden: every
way of choosing them counts alike (the draws are uniformly random), so the
weight is the mean over those choices, each a product over the opponent's
decisions of the last round of 1 for medium's own play and ``slip`` for any
other (docs/bots.md, "Sixth session").
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..cards import Card, parse_card
from ..events import Event
from .events import RoundWon
from .state import HAND_SIZE, DominationState


@dataclass(frozen=True)
class LastRound:
    """The last finished round, as every seat saw it: its cards in the order
    played, and the seat that led it."""

    run: tuple[Card, ...]
    leader: int

    def plays_of(self, seat: int) -> list[Card]:
        return [c for j, c in enumerate(self.run) if (self.leader + j) & 1 == seat]


def last_round(history: Sequence[Event]) -> LastRound | None:
    """The last finished round of ``history``; None before the first ends, or
    where a reshuffle came after it (the kept cards went back to the deck)."""
    for event in reversed(history):
        if event.kind == "reshuffle":
            return None
        if event.kind == "round_won" and isinstance(event.data, RoundWon):
            run = tuple(parse_card(t) for t in event.data.run)
            if not run:
                return None
            # the winner played the last card; the seats alternate from the leader
            return LastRound(run, event.data.seat ^ ((len(run) - 1) & 1))
    return None


# the model of the opponent: medium's choice (``bots.choose_card``: hand, legal
# cards, run, where Domination started, discard masks, the other hand's size,
# whether it may concede), None to concede
Policy = Callable[
    [Sequence[Card], Sequence[Card], Sequence[Card], int, Sequence[int], int, bool], Card | None
]


class KeptCards:
    """The weight of the last round's plays for the samples of one decision.

    A hand's likelihood is remembered by the kept cards it assumes, since
    many samples share them."""

    def __init__(self, last: LastRound, seat: int, slip: float, policy: Policy) -> None:
        self.last = last
        self.policy = policy
        self.seat = seat
        self.slip = slip
        self.memo: dict[tuple[Card, ...], float] = {}

    def weight(self, world: DominationState) -> float:
        opp = self.seat ^ 1
        played = self.last.plays_of(opp)
        if not played:
            return 1.0
        # the opponent's hand when this round began: what it holds and what it played since
        now = world.run
        start = sorted(
            world.hands[opp] + [c for j, c in enumerate(now) if (world.leader + j) & 1 == opp]
        )
        kept = HAND_SIZE - len(played)
        if not 0 <= kept <= len(start):
            return 1.0
        discards = world.discards[:]  # as they were when the last round began
        for c in self.last.run:
            discards[c >> 4] &= ~(1 << (c & 15))
        total = 0.0
        count = 0
        memo = self.memo
        for chosen in itertools.combinations(start, kept):
            value = memo.get(chosen)
            if value is None:
                value = memo[chosen] = self._replay(list(chosen) + played, discards)
            total += value
            count += 1
        return total / count if count else 1.0

    def _replay(self, hand: list[Card], discards: list[int]) -> float:
        """The last round replayed against the opponent's ``hand`` of its start."""
        run = self.last.run
        opp = self.seat ^ 1
        weight = 1.0
        dom = -1  # where Domination started among the cards before position j
        mine = HAND_SIZE
        for j, card in enumerate(run):
            starts = j >= 1 and dom < 0 and run[j - 1] >> 4 == card >> 4
            if (self.last.leader + j) & 1 != opp:
                mine -= 1
            else:
                if j == 0:
                    legal = hand
                elif dom >= 0:
                    prev = run[j - 1]
                    legal = [c for c in hand if c >> 4 == prev >> 4 and c > prev]
                else:
                    legal = [c for c in hand if c & 15 >= run[j - 1] & 15]
                if len(legal) >= 2:
                    choice = self.policy(hand, legal, run[:j], dom, discards, mine, False)
                    if choice != card:
                        weight *= self.slip
                hand = [c for c in hand if c != card]
            if starts:
                dom = j - 1
        return weight
