"""What a Stress event says happened: one typed payload per kind.

Cards are card texts (``"QH"``), seats numbers, as in the view. A private
event and its redacted form share a kind: what the redacted form leaves out
(a draw's cards) is an optional field."""

from __future__ import annotations

from collections.abc import Mapping

from ..events import CardsDrawn, EventData, SeatEvent


class Swapped(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``swap`` (private to the seat; the others learn nothing until everyone
    is ready): ``up_card`` went into the hand, ``hand_card`` face up."""

    seat: int
    hand_card: str
    up_card: str


class FaceUpRevealed(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``reveal``: everyone is ready; each seat's face-up row, seat by seat."""

    face_up: list[list[str]]


class CardsPlayed(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``play``: a seat played cards of one rank onto the stack."""

    seat: int
    cards: list[str]
    source: str  # "hand" or "face_up"


class BlindCard(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``blind``: a seat turned up face-down card ``position`` (1 is the first)
    and it could be played; ``blind_fails``: it could not, and the seat picks
    up the stack."""

    seat: int
    card: str
    position: int


class PickedUp(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``pickup``: a seat took the stack into its hand; seat ``next`` starts a
    new one."""

    seat: int
    cards: list[str]
    next: int


class Burned(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``burn``: a 10 sent the stack (``count`` cards) to the cemetery."""

    seat: int
    count: int


class Finished(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``finish``: a seat played its last card and finished in ``place`` (1: first)."""

    seat: int
    place: int


class GameOver(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``game_over``: the seats from first to last (tied seats share a group)
    and the cards each has left."""

    ranking: list[list[int]]
    scores: list[int]


STRESS_EVENTS: Mapping[str, type[EventData]] = {
    "swap": Swapped,
    "ready": SeatEvent,
    "reveal": FaceUpRevealed,
    "turn": SeatEvent,
    "play": CardsPlayed,
    "blind": BlindCard,
    "blind_fails": BlindCard,
    "pickup": PickedUp,
    "burn": Burned,
    "again": SeatEvent,
    "skip": SeatEvent,
    "draw": CardsDrawn,
    "finish": Finished,
    "game_over": GameOver,
}
