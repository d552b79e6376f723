"""Stress's figures on a player's statistics page (rules/figures.py)."""

from __future__ import annotations

from collections.abc import Sequence

from ..events import Event
from ..figures import Figure, Samples, place_of
from ..game import Outcome
from .events import PickedUp

FIGURES = (
    Figure("Average finishing place", "place", "mean"),
    Figure("Pick-ups a game", "pickups", "per_game"),
)


def figure_samples(seat: int, events: Sequence[Event], outcome: Outcome) -> Samples:
    """The seat's place (1 is first out) and a 1 for every stack it picked up."""
    place = place_of(seat, outcome.ranking)
    pickups = [1.0 for e in events if isinstance(e.data, PickedUp) and e.data.seat == seat]
    return {"place": [] if place is None else [float(place)], "pickups": pickups}
