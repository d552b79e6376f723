"""Territory's moves in a person's words (``GameSpec.move_words``).

The notation (``notation.py``) is for saves and the wire; these words are
for hints, menus and replays. Suits never matter in Territory and the grid
shows values only, so the words name values too ("explore a 7", "with a
10"), never a suit (N19). Cells keep their ``x,y`` (the screen labels its
axes with them); when the grid is known, :func:`move_words_on` also names the
card a move takes or lies next to, as the screen labels it ("7|"), which is
what a player looks for.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from ..cards import Card, card_text, rank_text
from ..events import fill_names
from .board import xy_of
from .notation import Blitz, Conquer, Discard, Explore, Fortify, Pass, Stop, TerritoryMove
from .view import TerritoryView

Cell = tuple[int, int]

# a card's orientation on the grid, by owner: seat 0 horizontal, seat 1 vertical
ORIENTATION_MARKS = ("-", "|")

# where an empty cell lies from the card next to it, by that card's offset:
# the card to its right means the cell is left of that card
_SIDES: tuple[tuple[Cell, str], ...] = (
    ((1, 0), "left of"),
    ((-1, 0), "right of"),
    ((0, 1), "above"),
    ((0, -1), "below"),
)


def move_words(move: TerritoryMove) -> str:
    """``explore 7C 2,-1`` -> ``explore a 7 at 2,-1``, and so on for every kind."""
    return _words(move, {})


def move_words_on(move: TerritoryMove, grid: Mapping[Cell, str]) -> str:
    """The words of :func:`move_words`, with the cards on ``grid`` (each
    cell's label, as the screen draws it) named: ``explore a 7 at 2,-1, left
    of 4|``, ``conquer 9| at 2,1 with a 9``."""
    return _words(move, grid)


def _words(move: TerritoryMove, grid: Mapping[Cell, str]) -> str:
    # short enough for a hint's line beside its odds at 80 columns
    match move:
        case Explore(card, at):
            return f"explore {a_value(card)} at {_cell(at)}{_beside(xy_of(at), grid)}"
        case Conquer(card, at):
            return f"conquer {_card_at(at, grid)} with {a_value(card)}"
        case Blitz(card, at):
            return f"blitz {_card_at(at, grid)} with {a_value(card)}"
        case Fortify(card, at):
            return f"fortify {_card_at(at, grid)} with {a_value(card)}"
        case Discard(card):
            return f"discard {a_value(card)}, taking nothing"
        case Stop():
            return "stop the blitz"
        case Pass():
            return "pass: nothing can be played"


def a_value(card: Card) -> str:
    """A card by its value, the only thing of it that counts: "a 7", "an 8", "an A"."""
    value = card_text(card)[:-1]
    return f"{'an' if value in ('A', '8') else 'a'} {value}"


def values_words(cards: Sequence[Card]) -> str:
    """Cards by their values: "a 7", "a 7 and a 3", "a 7, a 3 and an A"."""
    named = [a_value(c) for c in cards]
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"


def grid_label(card: Card, owner: int) -> str:
    """A card on the grid as the grid labels it: its value and its owner's
    mark, ``-`` horizontal (seat 0) or ``|`` vertical (seat 1): "7|"."""
    return f"{rank_text(card & 15)}{ORIENTATION_MARKS[owner]}"


def _cell(at: int) -> str:
    x, y = xy_of(at)
    return f"{x},{y}"


def _card_at(at: int, grid: Mapping[Cell, str]) -> str:
    """``9| at 2,1`` when the grid is known, else ``2,1``."""
    card = grid.get(xy_of(at))
    return f"{card} at {_cell(at)}" if card else _cell(at)


def _beside(cell: Cell, grid: Mapping[Cell, str]) -> str:
    """``, left of 4|``: the first card next to ``cell`` (right, left, below,
    above), or nothing when the grid is not known."""
    x, y = cell
    for (dx, dy), side in _SIDES:
        card = grid.get((x + dx, y + dy))
        if card:
            return f", {side} {card}"
    return ""


def grid_of(view: TerritoryView) -> dict[Cell, str]:
    """The cards on the grid by cell, as :func:`move_words_on` takes them:
    labelled as the grid shows them, value and owner's mark ("9|"), never a
    suit (N19)."""
    return {(c.x, c.y): f"{c.card[:-1]}{ORIENTATION_MARKS[c.owner]}" for c in view.cells}


def table_lines(view: TerritoryView, names: Sequence[str], you: Collection[int]) -> list[str]:
    """The position in a few lines (``GameSpec.table_lines``): the grid row by
    row (each card with its cell and whose it is), the best regions, the rest."""
    lines = []
    for seat, way in enumerate(view.orientation):
        lines.append(fill_names(f"{{p{seat} plays|play}} {way}.", names, you))
    rows: dict[int, list[str]] = {}
    for c in sorted(view.cells, key=lambda c: (c.y, c.x)):
        whose = fill_names(f"{{p{c.owner}'s}}", names, you) if c.owner < len(names) else "?"
        fort = f", fortified with {c.fortified_by}" if c.fortified_by else ""
        rows.setdefault(c.y, []).append(f"{c.card} at {c.x},{c.y} ({whose}{fort})")
    for y, cards in rows.items():
        lines.append(f"Row {y}: " + "; ".join(cards) + ".")
    for seat, region in enumerate(view.best_regions):
        lines.append(
            fill_names(f"{{p{seat}'s}} best region: {region.size} cards", names, you) + "."
        )
    lines.append(f"Stock {view.stock}; discarded: {', '.join(view.discards) or 'none'}.")
    sizes = ", ".join(
        fill_names(f"{{p{s} holds|hold}} {n}", names, you) for s, n in enumerate(view.hand_sizes)
    )
    lines.append(sizes + ".")
    return lines
