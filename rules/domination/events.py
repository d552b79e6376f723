"""What a Domination event says happened: one typed payload per kind.

Cards are card texts (``"QH"``), seats numbers, as in the view. A private
event and its redacted form share a kind: what the redacted form leaves out
(a draw's cards) is an optional field."""

from __future__ import annotations

from collections.abc import Mapping

from ..events import CardsDrawn, EventData, NoData


class CardPlayed(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``play``: a seat put a card on the run. ``inelegant``: that card, a
    lead, is the highest of its suit still out, so unanswered it scores 1."""

    seat: int
    card: str


class DominationStarted(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """Two cards of one suit in a row: only higher cards of ``suit`` may follow."""

    suit: str  # S, H, D or C
    multiplier: int  # always 2 when it starts
    start: str  # the first card of the chain


class MultiplierGrew(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """The Domination chain grew by a card."""

    multiplier: int


class RoundWon(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """A seat won a round (the other could not answer, or conceded)."""

    seat: int
    points: int
    round: int
    run: list[str]  # the round's cards, in the order played
    multiplier: int  # 1 without Domination
    inelegant: bool  # an unanswered Inelegant lead: it scored 1
    conceded: bool  # the loser gave the round up
    scores: list[int]  # every seat's score after the round


class MatchWon(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``game_over``: a seat reached the target (or the last round ended)."""

    winner: int
    scores: list[int]


DOMINATION_EVENTS: Mapping[str, type[EventData]] = {
    "play": CardPlayed,
    "inelegant": CardPlayed,
    "domination": DominationStarted,
    "multiplier": MultiplierGrew,
    "round_won": RoundWon,
    "game_over": MatchWon,
    "reshuffle": NoData,
    "draw": CardsDrawn,
}
