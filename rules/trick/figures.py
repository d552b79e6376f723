"""Trick's figures on a player's statistics page (rules/figures.py)."""

from __future__ import annotations

from collections.abc import Sequence

from ..events import Event
from ..figures import Figure, Samples
from ..game import Outcome
from .events import RoundRevealed

FIGURES = (
    Figure("Chips a game", "chips", "mean"),
    Figure("Pots stolen", "steals", "total", digits=0),
    Figure("Pots stolen a game", "steals", "per_game"),
)


def figure_samples(seat: int, events: Sequence[Event], outcome: Outcome) -> Samples:
    """The seat's chips at the end, and a 1 for every pot it took by a Steal
    (each round's ``reveal`` says who took the pot and how)."""
    steals = [
        1.0
        for e in events
        if isinstance(e.data, RoundRevealed) and e.data.taker == seat and e.data.taken_by == "steal"
    ]
    return {"chips": [float(outcome.scores[seat])], "steals": steals}
