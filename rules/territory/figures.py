"""Territory's figures on a player's statistics page (rules/figures.py)."""

from __future__ import annotations

from collections.abc import Sequence

from ..events import Event, SeatEvent
from ..figures import Figure, Samples
from ..game import Outcome
from .events import Discarded, Explored, Fortified, Taken

FIGURES = (
    Figure("Average turns to win", "turns_to_win", "mean"),
    Figure("Blitzes", "blitzes", "total", digits=0),
    Figure("Blitzes a game", "blitzes", "per_game"),
)

# the events of a seat's own move (a draw follows a move and is no turn of its own)
_TURN_KINDS = frozenset({"explore", "conquer", "blitz", "fortify", "discard", "pass", "stop"})


def figure_samples(seat: int, events: Sequence[Event], outcome: Outcome) -> Samples:
    """The turns ``seat`` took in a game it won (a turn: its moves in a row,
    a blitz of several conquests being one turn), and a 1 for every blitz."""
    turns = 0
    mover: int | None = None
    blitzes: list[float] = []
    for event in events:
        if event.kind not in _TURN_KINDS:
            continue
        data = event.data
        if not isinstance(data, Explored | Taken | Fortified | Discarded | SeatEvent):
            continue
        who = data.seat
        if who == seat and mover != seat:
            turns += 1
        mover = who
        if event.kind == "blitz" and who == seat:
            blitzes.append(1.0)
    won = outcome.winner == seat
    return {"turns_to_win": [float(turns)] if won else [], "blitzes": blitzes}
