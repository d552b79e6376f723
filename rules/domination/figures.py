"""Domination's figures on a player's statistics page (rules/figures.py)."""

from __future__ import annotations

from collections.abc import Sequence

from ..events import Event
from ..figures import Figure, Samples
from .events import CardPlayed, RoundWon

FIGURES = (
    Figure("Average round score", "round_points", "mean"),
    Figure("Biggest round", "round_points", "max", digits=0),
    Figure("Domination chains started", "chains", "total", digits=0),
    Figure("Chains started a game", "chains", "per_game"),
)


def figure_samples(seat: int, events: Sequence[Event]) -> Samples:
    """The points of every round ``seat`` won, and a 1 for every Domination
    chain it started (the play that made the second card of a suit in a row:
    the ``domination`` event follows that ``play``)."""
    rounds: list[float] = []
    chains: list[float] = []
    last_player: int | None = None
    for event in events:
        data = event.data
        if event.kind == "play" and isinstance(data, CardPlayed):
            last_player = data.seat
        elif event.kind == "domination" and last_player == seat:
            chains.append(1.0)
        elif isinstance(data, RoundWon) and data.seat == seat:
            rounds.append(float(data.points))
    return {"round_points": rounds, "chains": chains}
