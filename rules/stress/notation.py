"""Stress moves and their notation (docs/rules/stress.md, "Notation").

::

    7H            play one card (from the hand, or from the face-up cards once
    7S+7H           the hand is empty: the rules say which); several cards of
                    one rank join with +, in suit order S H D C
    blind 2       play face-down card 2 (positions 1-4 from the left) unseen
    pickup        pick up the stack
    swap 7H QS    before the first turn: 7H from the hand goes face up, QS
                    from the face-up row comes into the hand
    ready         done swapping

Cards are plain card ints (``rules.cards``); with two decks a play may name
the same card twice (``7H+7H``): equal cards are never told apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product

from ..cards import Card, CardTextError, card_text, deck, parse_card
from ..errors import NotationError, shown_input

FACE_DOWN = 4  # face-down cards per player, and so the blind positions 1-4
MAX_COPIES = 2  # two decks at most
MAX_PLAY = 4 * MAX_COPIES  # every copy of one rank


@dataclass(frozen=True, slots=True)
class Play:
    """One or more cards of one rank from the current source, sorted."""

    cards: tuple[Card, ...]

    @property
    def rank(self) -> int:
        return self.cards[0] & 15

    def __str__(self) -> str:
        return "+".join(card_text(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class Blind:
    """Turn up and play the face-down card at ``position`` (1-4, stable slots)."""

    position: int

    def __str__(self) -> str:
        return f"blind {self.position}"


@dataclass(frozen=True, slots=True)
class PickUp:
    """Take the whole stack into the hand."""

    def __str__(self) -> str:
        return "pickup"


@dataclass(frozen=True, slots=True)
class Swap:
    """Before the first turn: ``hand_card`` goes face up, ``up_card`` comes into the hand."""

    hand_card: Card
    up_card: Card

    def __str__(self) -> str:
        return f"swap {card_text(self.hand_card)} {card_text(self.up_card)}"


@dataclass(frozen=True, slots=True)
class Ready:
    """Done swapping."""

    def __str__(self) -> str:
        return "ready"


StressMove = Play | Blind | PickUp | Swap | Ready

PICKUP = PickUp()
READY = Ready()
BLINDS = tuple(Blind(i) for i in range(1, FACE_DOWN + 1))
ALL_CARDS = deck()
SINGLE: dict[Card, Play] = {c: Play((c,)) for c in ALL_CARDS}
_PLAYS: dict[tuple[Card, ...], Play] = {(c,): p for c, p in SINGLE.items()}
_SUBSETS: dict[tuple[Card, ...], list[Play]] = {}
SWAPS: dict[tuple[Card, Card], Swap] = {(h, u): Swap(h, u) for h in ALL_CARDS for u in ALL_CARDS}


def make_play(cards: tuple[Card, ...] | list[Card]) -> Play:
    """The play of these cards (any order), shared: moves are compared often."""
    key = tuple(sorted(cards))
    play = _PLAYS.get(key)
    if play is None:
        play = _PLAYS[key] = Play(key)
    return play


def plays_of(cards: tuple[Card, ...]) -> list[Play]:
    """Every play of some of ``cards`` (sorted, all one rank): each different
    multiset once, so two copies of 7H give 7H and 7H+7H, not 7H twice."""
    plays = _SUBSETS.get(cards)
    if plays is None:
        distinct = sorted(set(cards))
        counts = [cards.count(c) for c in distinct]
        plays = []
        for takes in product(*(range(n + 1) for n in counts)):
            chosen = [c for c, k in zip(distinct, takes, strict=True) for _ in range(k)]
            if chosen:
                plays.append(make_play(chosen))
        # fewest cards first, then by suit: a stable, readable order
        plays.sort(key=lambda p: (len(p.cards), p.cards))
        _SUBSETS[cards] = plays
    return plays


_WORDS = re.compile(r"[\s,+/]+")
_HINT = "play cards like 7H or 7S+7H, 'blind 2', 'pickup', 'swap 7H QS', 'ready' or 'resign'"


def parse_move(text: str) -> StressMove:
    """Read a move's notation (case-insensitive); NotationError for anything else."""
    t = text.strip().lower()
    if t in ("pickup", "pick up", "pick-up", "take"):
        return PICKUP
    if t == "ready":
        return READY
    words = [w for w in _WORDS.split(t) if w]
    if not words:
        raise NotationError(f"{shown_input(text, 24)} is not a stress move: {_HINT}")
    head = words[0]
    if head in ("blind", "down") or (head.startswith("blind") and head[5:].isdigit()):
        rest = words[1:] if head in ("blind", "down") else [head[5:]]
        if len(rest) == 1 and rest[0].isascii() and rest[0].isdigit():
            position = int(rest[0])
            if 1 <= position <= FACE_DOWN:
                return BLINDS[position - 1]
        raise NotationError(
            f"{shown_input(text, 24)} is not a blind play: write 'blind' and a position "
            f"1-{FACE_DOWN}, like 'blind 2'"
        )
    if head == "swap":
        cards = _cards(words[1:], text)
        if len(cards) != 2:
            raise NotationError(
                f"{shown_input(text, 24)} is not a swap: name a hand card then a face-up "
                "card, like 'swap 7H QS'"
            )
        return SWAPS[(cards[0], cards[1])]
    cards = _cards(words, text)
    if len({c & 15 for c in cards}) != 1:
        raise NotationError(
            f"{shown_input(text, 24)} is not a play: the cards of one play share a rank"
        )
    if len(cards) > MAX_PLAY or any(cards.count(c) > MAX_COPIES for c in cards):
        raise NotationError(
            f"{shown_input(text, 24)} is not a play: there are at most {MAX_COPIES} "
            "copies of a card"
        )
    return make_play(cards)


def _cards(words: list[str], text: str) -> list[Card]:
    try:
        cards = [parse_card(w) for w in words]
    except CardTextError:
        raise NotationError(f"{shown_input(text, 24)} is not a stress move: {_HINT}") from None
    if any(not 1 <= c & 15 <= 13 for c in cards):
        raise NotationError(f"{shown_input(text, 24)} names a card that is not in the deck")
    return cards
