"""The grid of Territory: cells as small ints, coordinates, regions.

Coordinates are whole numbers ``(x, y)``: the setup square is (0,0) (1,0)
(0,1) (1,1); x grows to the right and y downwards, as a screen is read. Row
y=0 of the square is vertical (the vertical player's side), row y=1
horizontal (docs/rules/territory.md, "Coordinates").

For speed a cell's position is one int, ``pos = (y + OFFSET) * WIDTH + (x +
OFFSET)``, so its four neighbours are ``pos +- 1`` and ``pos +- WIDTH``; and a
card on the grid is one int too, ``card | owner << 6 | fortifier << 7``: the
card (``rules.cards``), the seat that controls it, and the royal on it (0 for
none). The grid is a ``dict`` from position to cell, copied with ``dict()``.
A game has at most 56 cards, so no card ever lies more than 56 cells from the
square and positions never wrap.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

WIDTH = 256
OFFSET = 128
STEPS = (1, -1, WIDTH, -WIDTH)  # right, left, down, up
LIMIT = 99  # notation reads coordinates from -99 to 99

CARD_MASK = 63
OWNER_BIT = 64
FORT_SHIFT = 7


def pos_of(x: int, y: int) -> int:
    return (y + OFFSET) * WIDTH + (x + OFFSET)


def xy_of(pos: int) -> tuple[int, int]:
    y, x = divmod(pos, WIDTH)
    return x - OFFSET, y - OFFSET


def coord_text(pos: int) -> str:
    x, y = xy_of(pos)
    return f"{x},{y}"


def cell_of(card: int, owner: int, fortifier: int = 0) -> int:
    return card | owner << 6 | fortifier << FORT_SHIFT


def owner_of(cell: int) -> int:
    return cell >> 6 & 1


def card_of(cell: int) -> int:
    return cell & CARD_MASK


def fortifier_of(cell: int) -> int:
    """The royal on a fortified card, or 0."""
    return cell >> FORT_SHIFT


def open_cells(grid: Mapping[int, int]) -> dict[int, None]:
    """The empty cells next to a card, in reading order (top row first)."""
    found = {n for p in grid for d in STEPS if (n := p + d) not in grid}
    return dict.fromkeys(sorted(found))


def region_at(grid: Mapping[int, int], start: int) -> list[int]:
    """The cells of the edge-connected region of one owner that holds ``start``."""
    owner = grid[start] & OWNER_BIT
    seen = {start}
    todo = [start]
    for p in todo:  # the list grows as we go: a breadth-first walk
        for d in STEPS:
            n = p + d
            if n not in seen:
                cell = grid.get(n)
                if cell is not None and cell & OWNER_BIT == owner:
                    seen.add(n)
                    todo.append(n)
    return todo


def value_mask(grid: Mapping[int, int], cells: Iterable[int]) -> int:
    """The values that count for winning in ``cells``, as bits (bit v = value v):
    a fortified card's value does not count."""
    mask = 0
    for p in cells:
        cell = grid[p]
        if cell >> FORT_SHIFT == 0:
            mask |= 1 << (cell & 15)
    return mask


def regions(grid: Mapping[int, int], seat: int) -> list[list[int]]:
    """Every region of ``seat``, each a list of positions, in reading order of
    their first cell."""
    owner = seat << 6
    done: set[int] = set()
    out = []
    for p in sorted(grid):
        if p not in done and grid[p] & OWNER_BIT == owner:
            region = region_at(grid, p)
            done.update(region)
            out.append(region)
    return out


Best = tuple[int, int, list[int]]


def best_regions(grid: Mapping[int, int]) -> tuple[Best, Best]:
    """Each seat's region with the most distinct values that count, the larger
    on a tie (the first in reading order after that): (distinct values, size,
    cells). (0, 0, []) for a seat that controls nothing."""
    best: list[Best] = [(0, 0, []), (0, 0, [])]
    done: set[int] = set()
    for p in sorted(grid):
        if p not in done:
            region = region_at(grid, p)
            done.update(region)
            seat = grid[p] >> 6 & 1
            distinct = value_mask(grid, region).bit_count()
            if (distinct, len(region)) > best[seat][:2]:
                best[seat] = (distinct, len(region), region)
    return best[0], best[1]


def best_region(grid: Mapping[int, int], seat: int) -> Best:
    """The best region of one seat (see :func:`best_regions`)."""
    return best_regions(grid)[seat]
