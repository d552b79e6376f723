"""Playing cards and their text, shared by every game.

A card is a small ``int`` so that copying hands and decks is cheap (bots copy
states thousands of times a second): ``card = suit * 16 + rank``, rank 1..15
(A=1 ... K=13; 14 and 15 stay free for tarot-like decks), suit 0..3 in the
order ``S H D C``.

Card text (notation, saves, protocol, logs) is the rank ``A 2 .. 10 J Q K``
followed by the suit letter, e.g. ``10H``, ``AS``, ``QD`` (RULINGS.md). Unicode
suits are for display only and live in the TUI.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from .errors import shown_input

Card = int

SUITS = "SHDC"
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "N"}
_TEXT_RANK = {v: k for k, v in RANK_TEXT.items()}
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)


def make(rank: int, suit: int) -> Card:
    return suit * 16 + rank


def rank(card: Card) -> int:
    return card & 15


def suit(card: Card) -> int:
    return card >> 4


def rank_text(r: int) -> str:
    return RANK_TEXT.get(r, str(r))


def card_text(card: Card) -> str:
    text = _CARD_TEXT.get(card)
    return text if text is not None else rank_text(card & 15) + SUITS[card >> 4]


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(card_text(c) for c in cards)


class CardTextError(ValueError):
    """Raised for text that is not a card; the message says what a card looks like."""


def parse_card(text: str) -> Card:
    """Parse ``10H``, ``AS``, ``qd`` (case-insensitive; ``T`` is accepted for 10)."""
    card = _TEXT_CARD.get(text)
    if card is not None:
        return card
    t = text.strip().upper()
    if len(t) < 2 or t[-1] not in SUITS:
        raise CardTextError(
            f"{shown_input(text)} is not a card: write the rank then the suit, like 10H, AS or QD"
        )
    head = t[:-1]
    if head == "T":
        head = "10"
    if head in _TEXT_RANK:
        r = _TEXT_RANK[head]
    # isdigit() alone admits '²' and other digits int() refuses
    elif head.isascii() and head.isdigit() and 2 <= int(head) <= 10 and head == str(int(head)):
        r = int(head)
    else:
        raise CardTextError(
            f"{shown_input(text)} is not a card: ranks are A 2 3 4 5 6 7 8 9 10 J Q K"
        )
    return make(r, SUITS.index(t[-1]))


# Every card's text, and the card of each text as card_text writes it, made
# once: bots, views and the wire write and read card texts hundreds of
# thousands of times a game (parse_card was the rules tests' busiest function
# of the project). Other spellings ("qd", "TS", " 10h") take parse_card's long way.
_CARD_TEXT = {make(r, s): rank_text(r) + SUITS[s] for s in range(4) for r in range(1, 16)}
_TEXT_CARD = {text: card for card, text in _CARD_TEXT.items() if card & 15 <= 14}


def deck(ranks: Iterable[int] = range(1, 14), copies: int = 1) -> list[Card]:
    """A fresh, ordered deck: every rank in every suit, ``copies`` times."""
    rs = list(ranks)
    return [make(r, s) for _ in range(copies) for s in range(4) for r in rs]


def stack_deck(given: Sequence[str], full: Sequence[Card]) -> list[Card]:
    """A deck order for tests and puzzles: the cards ``given`` (text, top first),
    then the rest of ``full`` in its own order. With copies of a card in
    ``full`` (two decks), each given card uses up one copy. ValueError for a
    card that is not in the deck, or named more often than it has copies."""
    left = Counter(full)
    top: list[Card] = []
    for text in given:
        card = parse_card(text)
        if left[card] == 0:
            raise ValueError(
                f"{shown_input(text)} is not in the deck, or is named more often than it is there"
            )
        left[card] -= 1
        top.append(card)
    rest: list[Card] = []
    for card in full:
        if left[card]:
            left[card] -= 1
            rest.append(card)
    return top + rest


def deal_unseen(
    unseen: Sequence[Card], other_hand: int, stock: int
) -> tuple[list[Card], list[Card]]:
    """A two-seat position rebuilt from one seat's view (``state_from_view``):
    the cards that seat has not seen, in their given order, as the other seat's
    hand (``other_hand`` cards, the view's count) and the stock (``stock``
    cards). Any such split will do: the view tells them apart no better.
    ValueError if the counts disagree with the cards."""
    if len(unseen) != other_hand + stock:
        raise ValueError("the view's card counts do not add up to a deck")
    return list(unseen[:other_hand]), list(unseen[other_hand:])
