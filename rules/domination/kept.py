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

With more rounds (``past_rounds``), each earlier round since the last
reshuffle is read the same way, one round further back: the hand it played
that round from is what it played then plus some of the hand it began the
round after with (docs/bots.md, "Seventh session"). A round the opponent
lost because it could not play also says the cards it kept had no answer.
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
    # the loser could not play (rather than conceded): its kept cards had no answer
    forced: bool = False

    def plays_of(self, seat: int) -> list[Card]:
        return [c for j, c in enumerate(self.run) if (self.leader + j) & 1 == seat]


def last_round(history: Sequence[Event]) -> LastRound | None:
    """The last finished round of ``history``; None before the first ends, or
    where a reshuffle came after it (the kept cards went back to the deck)."""
    rounds = past_rounds(history, 1)
    return rounds[0] if rounds else None


def past_rounds(history: Sequence[Event], back: int) -> list[LastRound]:
    """The last ``back`` finished rounds of ``history``, the latest first,
    none from before a reshuffle (the kept cards went back to the deck)."""
    rounds: list[LastRound] = []
    for event in reversed(history):
        if len(rounds) >= back or event.kind == "reshuffle":
            break
        if event.kind == "round_won" and isinstance(event.data, RoundWon):
            run = tuple(parse_card(t) for t in event.data.run)
            if not run:
                break
            # the winner played the last card; the seats alternate from the leader
            leader = event.data.seat ^ ((len(run) - 1) & 1)
            rounds.append(LastRound(run, leader, not event.data.conceded))
    return rounds


# the model of the opponent: whether medium would play the card (the last
# argument) with that hand (``bots.medium_would_play``: hand, legal cards, run,
# where Domination started, discard masks, the other hand's size, the card)
Policy = Callable[
    [Sequence[Card], Sequence[Card], Sequence[Card], int, Sequence[int], int, Card], bool
]


class KeptCards:
    """The weight of the past rounds' plays for the samples of one decision.

    ``rounds``: the last round, or the last few, the latest first
    (:func:`past_rounds`). A hand's likelihood is remembered by the round and
    the hand it assumes, since many samples share them."""

    def __init__(
        self, rounds: LastRound | Sequence[LastRound], seat: int, slip: float, policy: Policy
    ) -> None:
        self.rounds = [rounds] if isinstance(rounds, LastRound) else list(rounds)
        self.last = self.rounds[0]
        self.policy = policy
        self.seat = seat
        self.slip = slip
        self.memo: dict[tuple[int, tuple[Card, ...]], float] = {}
        # the discard grid as each round began (the same in every sample)
        self.discards: list[list[int]] | None = None

    def weight(self, world: DominationState) -> float:
        opp = self.seat ^ 1
        if self.discards is None:
            discards = world.discards[:]
            self.discards = []
            for past in self.rounds:
                for c in past.run:
                    discards[c >> 4] &= ~(1 << (c & 15))
                self.discards.append(discards[:])
        # the opponent's hand when this round began: what it holds and what it played since
        now = world.run
        start = sorted(
            world.hands[opp] + [c for j, c in enumerate(now) if (world.leader + j) & 1 == opp]
        )
        return self._explain(0, start)

    def _explain(self, back: int, after: list[Card]) -> float:
        """How well the hands the opponent may have begun round ``back`` with
        (counted from the latest) explain its plays then and before, given
        ``after``, the hand it began the round after with."""
        past = self.rounds[back]
        played = past.plays_of(self.seat ^ 1)
        kept = HAND_SIZE - len(played)
        if not 0 <= kept <= len(after):
            return 1.0
        assert self.discards is not None
        discards = self.discards[back]
        total = 0.0
        count = 0
        memo = self.memo
        for chosen in itertools.combinations(after, kept):
            value = memo.get((back, chosen))
            if value is None:
                hand = list(chosen) + played
                value = self._replay(hand, discards, past)
                if value > 0.0 and back + 1 < len(self.rounds):
                    value *= self._explain(back + 1, hand)
                memo[(back, chosen)] = value
            total += value
            count += 1
        return total / count if count else 1.0

    def _replay(
        self, hand: list[Card], discards: list[int], past: LastRound | None = None
    ) -> float:
        """A past round (the last by default) replayed against the
        opponent's ``hand`` of its start."""
        past = past or self.last
        run = past.run
        opp = self.seat ^ 1
        weight = 1.0
        dom = -1  # where Domination started among the cards before position j
        mine = HAND_SIZE
        for j, card in enumerate(run):
            starts = j >= 1 and dom < 0 and run[j - 1] >> 4 == card >> 4
            if (past.leader + j) & 1 != opp:
                mine -= 1
            else:
                if j == 0:
                    legal = hand
                elif dom >= 0:
                    prev = run[j - 1]
                    legal = [c for c in hand if c >> 4 == prev >> 4 and c > prev]
                else:
                    legal = [c for c in hand if c & 15 >= run[j - 1] & 15]
                if len(legal) >= 2 and not self.policy(
                    hand, legal, run[:j], dom, discards, mine, card
                ):
                    weight *= self.slip
                hand = [c for c in hand if c != card]
            if starts:
                dom = j - 1
        if past.forced and (past.leader + len(run)) & 1 == opp:
            # the opponent was to answer and could not: nothing it kept followed
            last = run[-1]
            if dom >= 0:
                follows = any(c >> 4 == last >> 4 and c > last for c in hand)
            else:
                follows = any(c & 15 >= last & 15 for c in hand)
            if follows:
                weight *= self.slip
        return weight
