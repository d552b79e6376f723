"""What a Territory event says happened: one typed payload per kind.

Cards are card texts (``"QH"``), seats numbers, cells ``x``, ``y`` (columns
and rows from 0, as in the view and the notation). A private event and its
redacted form share a kind: what the redacted form leaves out (a draw's
cards) is an optional field."""

from __future__ import annotations

from collections.abc import Mapping

from ..events import CardsDrawn, EventData, SeatEvent


class Explored(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``explore``: a seat laid ``card`` on the empty cell ``x``, ``y``."""

    seat: int
    card: str
    x: int
    y: int


class Taken(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``conquer`` (or ``blitz``, a capture in a blitz): a seat discarded
    ``card`` and took the opponent's card ``taken`` at ``x``, ``y``; where a
    royal fortified it, ``fortifier`` names that royal."""

    seat: int
    card: str
    x: int
    y: int
    taken: str
    fortifier: str | None = None


class Fortified(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``fortify``: a seat put the royal ``card`` on its own card ``under`` at ``x``, ``y``."""

    seat: int
    card: str
    x: int
    y: int
    under: str


class Discarded(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``discard``: a seat discarded ``card`` without a capture."""

    seat: int
    card: str


class GameOver(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """``game_over``: the winner (None: a draw). A game that ran out of cards
    or moves also gives each seat's ``standing``, the tie-breaks in order:
    distinct values in its best region, that region's size, cards it controls."""

    winner: int | None
    standing: list[list[int]] | None = None


TERRITORY_EVENTS: Mapping[str, type[EventData]] = {
    "explore": Explored,
    "conquer": Taken,
    "blitz": Taken,
    "fortify": Fortified,
    "discard": Discarded,
    "stop": SeatEvent,
    "pass": SeatEvent,
    "draw": CardsDrawn,
    "game_over": GameOver,
}
