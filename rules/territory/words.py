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

from collections.abc import Callable, Collection, Mapping, Sequence

from ..cards import Card, card_text, rank_text
from ..choices import Choice, ChoiceGroup, ChoiceRow, either_or, plural
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
        # the moves' words mark a card's owner as the grid does ("left of 7|")
        mark = ORIENTATION_MARKS[seat] if seat < len(ORIENTATION_MARKS) else "?"
        said = "a bar" if mark == "|" else "a dash"
        lines.append(
            fill_names(f"{{p{seat} plays|play}} {way} (marked with {said}: 7{mark}).", names, you)
        )
    rows: dict[int, list[str]] = {}
    for c in sorted(view.cells, key=lambda c: (c.y, c.x)):
        whose = "yours" if c.owner in you else fill_names(f"{{p{c.owner}'s}}", names, you)
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


# the order a player hears the kinds of move in, and each kind's title
_KINDS: tuple[tuple[type, str, str], ...] = (
    (Explore, "explore", "Explore"),
    (Conquer, "conquer", "Conquer"),
    (Blitz, "blitz", "Blitz on"),
    (Fortify, "fortify", "Fortify"),
    (Discard, "discard", "Discard"),
    (Stop, "stop", "Stop the blitz"),
    (Pass, "pass", "Pass"),
)


def choice_groups(moves: Sequence[TerritoryMove], view: TerritoryView) -> list[ChoiceGroup]:
    """The moves by what they do, then by cell (``GameSpec.choice_groups``):
    "Explore at 1,-1, right of {p1's} 7" with the values that may go there.
    Suits never count in Territory (N19): of two cards of one value, the
    first stands for both."""
    owners = {(c.x, c.y): (c.owner, c.card[:-1]) for c in view.cells}

    def card_at(cell: Cell) -> str:
        owner, value = owners[cell]
        return f"{{p{owner}'s}} {value} at {cell[0]},{cell[1]}"

    def beside(cell: Cell) -> str:
        x, y = cell
        for (dx, dy), side in _SIDES:
            if (x + dx, y + dy) in owners:
                owner, value = owners[(x + dx, y + dy)]
                return f", {side} {{p{owner}'s}} {value}"
        return ""

    groups = []
    for kind, name, title in _KINDS:
        of_kind = [m for m in moves if isinstance(m, kind)]
        if not of_kind:
            continue
        rows: dict[str, list[Choice]] = {}
        said: set[tuple[str, str]] = set()
        for move in sorted(of_kind, key=_cell_order):
            head, words = _row_of(move, title, card_at, beside)
            if (head, words) not in said:
                said.add((head, words))
                rows.setdefault(head, []).append(Choice(str(move), words))
        said_values = {c.words for cs in rows.values() for c in cs}
        values = either_or(sorted(said_values, key=_value_order))
        about = {
            "explore": f"{values} on one of {plural(len(rows), 'empty cell')}",
            "conquer": f"one of {plural(len(rows), 'card')}, with {values}",
            "blitz": f"one of {plural(len(rows), 'card')}, with {values}",
            "fortify": f"one of {plural(len(rows), 'card')}, with {values}",
        }.get(name, title.lower())
        groups.append(
            ChoiceGroup(name, title, about, tuple(ChoiceRow(h, tuple(c)) for h, c in rows.items()))
        )
    return groups


def _row_of(
    move: TerritoryMove,
    title: str,
    card_at: Callable[[Cell], str],
    beside: Callable[[Cell], str],
) -> tuple[str, str]:
    """A move's row head and its words in that row."""
    match move:
        case Explore(card, at):
            x, y = xy_of(at)
            return f"Explore at {x},{y}{beside((x, y))}", a_value(card)
        case Conquer(card, at) | Blitz(card, at) | Fortify(card, at):
            return f"{title} {card_at(xy_of(at))} with", a_value(card)
        case Discard(card):
            return "Discard, taking nothing", a_value(card)
        case _:
            return title, ""


def _cell_order(move: TerritoryMove) -> tuple[int, int, int]:
    """Top row first, left to right, as the grid is read; then the card's value."""
    at = getattr(move, "at", None)
    x, y = xy_of(at) if at is not None else (0, 0)
    return (y, x, _value_order(a_value(move.card)) if hasattr(move, "card") else 0)


def _value_order(words: str) -> int:
    """ "a 7" -> 7, "an A" -> 1: the order values are said in."""
    value = words.rsplit(" ", 1)[-1]
    return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(value, int(value) if value.isdigit() else 99)
