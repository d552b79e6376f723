"""Domination's moves and their text: a card (``10H``) or ``concede``."""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card, card_text, deck, parse_card
from ..errors import NotationError, shown_input


@dataclass(frozen=True, slots=True)
class Play:
    """Play one card from the hand."""

    card: Card

    def __str__(self) -> str:
        return card_text(self.card)


@dataclass(frozen=True, slots=True)
class Concede:
    """End the round now although a card could be played (``allow_concede``)."""

    def __str__(self) -> str:
        return "concede"


DominationMove = Play | Concede

PLAYS = {c: Play(c) for c in deck()}
CONCEDE = Concede()


def parse_move(text: str) -> DominationMove:
    """A move from its notation; NotationError for what is no domination move
    (``resign`` is read by the contract's base class)."""
    t = text.strip().lower()
    if t == "concede":
        return CONCEDE
    try:
        return PLAYS[parse_card(t)]
    except (ValueError, KeyError):
        raise NotationError(
            f"{shown_input(text, 24)} is not a domination move: "
            "play a card like 10H or QS, 'concede' or 'resign'"
        ) from None
