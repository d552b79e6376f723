"""What a round's points are worth in the match: the stakes-aware heuristic.

The medium heuristic (``bots.card_scores``) weighs every card in points, as
if ten points were worth the same at 0-0 and at 90-95. They are not: at
90 the next win ends the match whatever its size, and against a seat on 95
any round it wins is the match. :class:`Stakes` turns a gain of ``x`` points
into what it does to the chance to win the match (``bots._win_table``, the
same table the search values its playouts by), expressed back in points at
the start of a match, so the heuristic's other weights keep their meaning.

Measured as a player against medium (policy against policy, the same deals
with the seats swapped, 10,000 matches first to 100): 51.3% (docs/bots.md,
"Eighth session"); it is the stronger playout policy that session tried
inside the hard level's search.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from .odds import win_table


class Stakes:
    """A gain of points for either seat, as the change it makes to the seat's
    chance to win a first-to-``target`` match from ``mine`` to ``theirs``, in
    points at 0-0 (the chance a point is worth there)."""

    __slots__ = ("mine", "now", "scale", "table", "target", "theirs")

    def __init__(self, mine: int, theirs: int, target: int) -> None:
        self.mine, self.theirs, self.target = mine, theirs, target
        self.table = win_table(target)
        self.now = self._chance(mine, theirs)
        self.scale = _scale(target)

    def ours(self, points: float) -> float:
        """What winning ``points`` is worth to the seat."""
        return (self._chance(self.mine + round(points), self.theirs) - self.now) * self.scale

    def their(self, points: float) -> float:
        """What the opponent winning ``points`` costs the seat."""
        return (self.now - self._chance(self.mine, self.theirs + round(points))) * self.scale

    def _chance(self, mine: int, theirs: int) -> float:
        if mine >= self.target:
            return 1.0
        if theirs >= self.target:
            return 0.0
        return self.table[mine][theirs]


@cache
def stakes(mine: int, theirs: int, target: int) -> Stakes:
    """The stakes of a score (few distinct scores: remembered)."""
    return Stakes(mine, theirs, target)


@cache
def _scale(target: int) -> float:
    """Points a unit of win chance is worth at 0-0: the mean slope over the
    first fifth of the target (about one medium round's worth of points)."""
    step = max(target // 5, 1)
    table = win_table(target)
    return step / (table[min(step, target - 1)][0] - table[0][0])


def stakes_of(points: Sequence[int], seat: int, target: int) -> Stakes | None:
    """The seat's stakes at these scores; None in a match of a number of
    rounds (no target: points then count alike, as medium counts them)."""
    if target <= 0:
        return None
    return stakes(points[seat], points[seat ^ 1], target)
