"""The chance to win a Domination match from the scores alone.

The search values its playouts by it (``bots.win_chance``) and the
stakes-aware heuristic weighs points by it (``stakes``): a table worked out
once per target, treating every later round as a coin toss for a value drawn
from what medium-against-medium rounds score."""

from __future__ import annotations

from functools import cache

# Points a round is won for, between two medium bots (400 matches, 2,822
# rounds): how many rounds ended with each value. The evaluation below treats
# the rest of a match as rounds of these values, each won by either seat.
ROUND_VALUES = {
    1: 2, 4: 10, 5: 3, 6: 24, 7: 16, 8: 68, 9: 60, 10: 123, 11: 121, 12: 194,
    13: 193, 14: 91, 15: 2, 16: 118, 18: 129, 20: 181, 21: 4, 22: 199, 24: 279,
    26: 272, 27: 33, 28: 4, 30: 59, 32: 3, 33: 111, 36: 165, 39: 199, 40: 30,
    44: 25, 48: 31, 50: 1, 52: 60, 55: 2, 60: 1, 65: 9,
}  # fmt: skip
ROUND_SD = 14.0  # their standard deviation, for matches played over rounds


@cache
def win_table(target: int) -> tuple[tuple[float, ...], ...]:
    """``table[a][b]``: the chance that a seat on ``a`` points beats one on ``b``
    in a first-to-``target`` match, if every later round is a coin toss for
    a value drawn from :data:`ROUND_VALUES`."""
    total = sum(ROUND_VALUES.values())
    dist = [(v, n / total / 2) for v, n in ROUND_VALUES.items()]
    table = [[0.0] * target for _ in range(target)]
    for a in range(target - 1, -1, -1):
        row = table[a]
        for b in range(target - 1, -1, -1):
            p = 0.0
            for v, w in dist:
                p += w * (1.0 if a + v >= target else table[a + v][b])
                p += w * (0.0 if b + v >= target else row[b + v])
            row[b] = p
    return tuple(tuple(row) for row in table)
