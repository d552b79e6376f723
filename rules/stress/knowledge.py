"""What the whole table knows about each hand, and dealing hidden cards within it.

Two kinds of public knowledge about a hand:

* **known cards**: cards everyone watched go into it and not since seen leave
  it (a picked-up stack, a failed blind card, the face-up cards a player took
  back during the swaps). They are kept in the state as a tuple per seat.
* **facts** about the rest of the hand (the unknown part), as groups
  ``(count, rank_mask)``: "``count`` of its unknown cards have a rank in
  ``rank_mask``" (bit r = rank r). A player who had to pick up held no card
  that could be played, so every group loses those ranks; cards drawn start a
  new group of any rank. The masks are nested, the tightest group first,
  because each pick-up removes ranks from every group there is.

``determinize`` deals the unseen cards into hands that satisfy both (see
:func:`deal_within`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import Card

ALL_RANKS = sum(1 << r for r in range(1, 14))
Facts = tuple[tuple[int, int], ...]
NO_FACTS: Facts = ()


def facts_size(facts: Facts) -> int:
    return sum(n for n, _ in facts)


def add_unknown(facts: Facts, count: int) -> Facts:
    """``count`` cards of any rank came into the unknown part (drawn unseen)."""
    if facts and facts[-1][1] == ALL_RANKS:
        return (*facts[:-1], (facts[-1][0] + count, ALL_RANKS))
    return (*facts, (count, ALL_RANKS))


def exclude(facts: Facts, ranks: int) -> Facts:
    """The unknown part holds no card of ``ranks`` (its owner could not play them)."""
    out: list[tuple[int, int]] = []
    for n, mask in facts:
        mask &= ~ranks
        if out and out[-1][1] == mask:
            out[-1] = (out[-1][0] + n, mask)
        else:
            out.append((n, mask))
    return tuple(out)


def charge(facts: Facts, card: Card) -> Facts:
    """The facts after an unknown card of the hand was shown (played).

    It is charged to the tightest group that allows its rank: which group it
    came from is unknown, and the tightest claims no more than is known, as
    the masks are nested. A sampled state may hold a hand that breaks its
    facts (see :func:`deal_within`'s last resort); a card no group allows then
    makes the facts forget everything but the count."""
    bit = 1 << (card & 15)
    for i, (n, mask) in enumerate(facts):
        if mask & bit:
            if n > 1:
                return (*facts[:i], (n - 1, mask), *facts[i + 1 :])
            return facts[:i] + facts[i + 1 :]
    left = facts_size(facts) - 1
    return ((left, ALL_RANKS),) if left > 0 else NO_FACTS


def deal_within(pool: list[Card], wants: Sequence[Facts], rng: random.Random) -> list[list[Card]]:
    """Random unknown parts of hands from ``pool``, one per entry of ``wants``,
    each meeting its facts. ``pool`` is left holding the cards not dealt.

    Each hand fills its tightest group first, which for one hand always meets
    true facts (the groups are nested); when two hands compete for the same
    few ranks a try can fail and is drawn again. Should that keep failing,
    only the counts are kept: a sample that strays a little beats none."""
    for _ in range(40):
        hands = _try_deal(pool, wants, rng)
        if hands is not None:
            return hands
    free = pool[:]
    rng.shuffle(free)
    hands = []
    for facts in wants:
        n = facts_size(facts)
        hands.append(free[len(free) - n :])
        del free[len(free) - n :]
    pool[:] = free
    return hands


def _try_deal(
    pool: list[Card], wants: Sequence[Facts], rng: random.Random
) -> list[list[Card]] | None:
    free = pool[:]
    hands: list[list[Card]] = []
    for facts in wants:
        hand: list[Card] = []
        for n, mask in facts:
            if mask == ALL_RANKS:
                if len(free) < n:
                    return None
                picked = rng.sample(free, n)
            else:
                fits = [c for c in free if mask >> (c & 15) & 1]
                if len(fits) < n:
                    return None
                picked = rng.sample(fits, n)
            hand += picked
            for c in picked:
                free.remove(c)
        hands.append(hand)
    pool[:] = free
    return hands
