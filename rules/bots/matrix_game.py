"""Optimal mixed strategies of a two-player zero-sum matrix game, in pure Python.

:func:`solve` runs the simplex method on the textbook linear program (shift the
payoffs positive; the column player maximises sum y subject to A y <= 1, and the
row player's strategy is read off the duals). A 40 x 40 game takes a few
milliseconds, exact up to floating point, with no dependency.
"""

from __future__ import annotations

from collections.abc import Sequence

_EPS = 1e-9


def solve(payoff: Sequence[Sequence[float]]) -> tuple[list[float], list[float], float]:
    """(row strategy, column strategy, value) for the row player maximising ``payoff``."""
    m = len(payoff)
    n = len(payoff[0])
    low = min(min(row) for row in payoff)
    shift = 1.0 - low  # every entry becomes >= 1, so the game value is positive
    # tableau rows: constraints [A | I | 1]; the objective row holds -1 per y
    width = n + m + 1
    tab = []
    for i, row in enumerate(payoff):
        r = [v + shift for v in row] + [0.0] * m + [1.0]
        r[n + i] = 1.0
        tab.append(r)
    obj = [-1.0] * n + [0.0] * m + [0.0]
    basis = list(range(n, n + m))
    for it in range(50 * (n + m)):
        # entering column: most negative reduced cost (Bland's rule once it drags on)
        col = -1
        if it < 10 * (n + m):
            best = -_EPS
            for j in range(width - 1):
                if obj[j] < best:
                    best = obj[j]
                    col = j
        else:
            for j in range(width - 1):
                if obj[j] < -_EPS:
                    col = j
                    break
        if col < 0:
            break
        row_i = -1
        ratio = 0.0
        for i in range(m):
            a = tab[i][col]
            if a > _EPS:
                q = tab[i][-1] / a
                if row_i < 0 or q < ratio - _EPS or (q <= ratio + _EPS and basis[i] < basis[row_i]):
                    row_i = i
                    ratio = q
        if row_i < 0:  # unbounded: cannot happen with positive payoffs
            break
        prow = tab[row_i]
        piv = prow[col]
        prow = [v / piv for v in prow]
        tab[row_i] = prow
        nz = [j for j in range(width) if prow[j] != 0.0]
        for i in range(m):
            if i != row_i:
                r = tab[i]
                f = r[col]
                if f != 0.0:
                    for j in nz:
                        r[j] -= f * prow[j]
        f = obj[col]
        if f != 0.0:
            for j in nz:
                obj[j] -= f * prow[j]
        basis[row_i] = col
    total = obj[-1]  # = sum of y at the optimum = 1 / shifted value
    if total <= _EPS:
        return [1.0 / m] * m, [1.0 / n] * n, sum(map(sum, payoff)) / (m * n)
    value = 1.0 / total
    y = [0.0] * n
    for i, b in enumerate(basis):
        if b < n:
            y[b] = max(0.0, tab[i][-1]) * value
    x = [max(0.0, obj[n + i]) * value for i in range(m)]
    return _normalise(x), _normalise(y), value - shift


def _normalise(p: list[float]) -> list[float]:
    s = sum(p)
    if s <= 0:
        return [1.0 / len(p)] * len(p)
    return [v / s for v in p]
