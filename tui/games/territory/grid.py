"""The grid as text: which cells are on screen (a viewport that follows play
and pans), the marks a chosen card puts on it, and each cell drawn in a few
characters. Pure functions of the view and the legal moves, tested without
the app.

Every card shows its value and its owner twice: by colour and by an
orientation mark, ``-`` horizontal (player 1) and ``|`` vertical (player 2),
so the grid reads without colour. A fortified card carries the royal's letter
after the mark (``4-K``). Marks in front of a card or on an empty cell say
what the chosen hand card can do there: ``+`` a legal cell (explore, conquer,
blitz, fortify), ``*`` a card of yours it matches (where a conquest comes
from), ``>`` the card just taken in a Blitz.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace

from rules.cards import card_text
from rules.territory.board import xy_of
from rules.territory.notation import (
    Blitz,
    Conquer,
    Discard,
    Explore,
    Fortify,
    TerritoryMove,
    parse_move,
)
from rules.territory.state import BLITZ
from rules.territory.view import CellView, TerritoryView

Cell = tuple[int, int]
# a piece of a line and its role (how it is styled); every role colour shows is
# also a character on screen
Segment = tuple[str, str]
Line = list[Segment]

ORIENTATION_MARKS = ("-", "|")  # seat 0 horizontal, seat 1 vertical

# a cell on screen: small (one line) at 80x24, large (a box of 3 lines) when roomy
SMALL_CELL = (5, 1)
LARGE_CELL = (7, 3)
AXIS_WIDTH = 4  # the y coordinates left of the grid
AXIS_HEIGHT = 1  # the x coordinates above it


def card_value(card: str) -> str:
    """``"10H"`` -> ``"10"``: only values matter in Territory."""
    return card[:-1] if len(card) >= 2 else card


def cells_of(view: TerritoryView) -> dict[Cell, CellView]:
    return {(c.x, c.y): c for c in view.cells}


def card_grid(view: TerritoryView) -> dict[Cell, str]:
    """Each cell's card as the grid labels it, its value and its owner's
    mark ("7|"), for words that name them (rules' ``move_words_on``)."""
    return {(c.x, c.y): f"{card_value(c.card)}{ORIENTATION_MARKS[c.owner]}" for c in view.cells}


# ====================================================================== moves
@dataclass(frozen=True)
class Play:
    """A legal move as the screen uses it: its notation (what is submitted),
    the rules' typed move, and the card and cell it plays, if any."""

    text: str
    move: TerritoryMove
    card: str | None
    cell: Cell | None


def plays_of(legal: Iterable[str]) -> list[Play]:
    """The legal moves, read with the rules' own parser."""
    plays = []
    for text in legal:
        move = parse_move(text)
        card = cell = None
        if isinstance(move, Explore | Conquer | Blitz | Fortify):
            card, cell = card_text(move.card), xy_of(move.at)
        elif isinstance(move, Discard):
            card = card_text(move.card)
        plays.append(Play(text, move, card, cell))
    return plays


def playable_cards(legal: Iterable[str]) -> set[str]:
    """The hand cards some legal move plays."""
    return {p.card for p in plays_of(legal) if p.card is not None}


def moves_at(legal: Iterable[str], card: str | None, cell: Cell) -> list[str]:
    """The legal moves that play ``card`` (any card if None) on ``cell``."""
    return [p.text for p in plays_of(legal) if p.cell == cell and (card is None or p.card == card)]


def target_cells(legal: Iterable[str], card: str | None) -> set[Cell]:
    """Where ``card`` (any card if None) may be played now."""
    return {
        p.cell for p in plays_of(legal) if p.cell is not None and (card is None or p.card == card)
    }


def matching_cells(
    view: TerritoryView, seat: int | None, card: str | None, legal: Iterable[str]
) -> frozenset[Cell]:
    """The cards of ``seat`` a conquest with ``card`` could come from: those of
    its value; for a royal attack (it matches any), those next to a card it
    may take. None during a Blitz: it comes from the card just taken (``>``)."""
    if card is None or seat is None or view.step == BLITZ:
        return frozenset()
    mine = {at: c for at, c in cells_of(view).items() if c.owner == seat}
    value = card_value(card)
    same = {at for at, c in mine.items() if card_value(c.card) == value}
    if same:
        return frozenset(same)
    targets = {p.cell for p in plays_of(legal) if isinstance(p.move, Conquer) and p.card == card}
    return frozenset(
        (x, y)
        for x, y in mine
        if any((x + dx, y + dy) in targets for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
    )


# ============================================================ the viewport
@dataclass(frozen=True)
class Bounds:
    """The part of the grid worth seeing: every card and the cells around them."""

    left: int
    top: int
    right: int
    bottom: int

    @property
    def width(self) -> int:
        return self.right - self.left + 1

    @property
    def height(self) -> int:
        return self.bottom - self.top + 1

    def clamp(self, cell: Cell) -> Cell:
        return (
            min(max(cell[0], self.left), self.right),
            min(max(cell[1], self.top), self.bottom),
        )


def grid_bounds(cells: Collection[Cell]) -> Bounds:
    """The cards' box and one cell more on every side (where a card may go)."""
    if not cells:
        return Bounds(-1, -1, 2, 2)
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    return Bounds(min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1)


@dataclass(frozen=True)
class Viewport:
    """The cells on screen: ``cols`` x ``rows`` from the top-left cell."""

    left: int
    top: int
    cols: int
    rows: int

    def shows(self, cell: Cell) -> bool:
        x, y = cell
        return self.left <= x < self.left + self.cols and self.top <= y < self.top + self.rows


def _axis(start: int, size: int, low: int, high: int, focus: int | None) -> int:
    """Where a viewport of ``size`` cells starts on one axis: centred on
    low..high when that fits; else as close to ``start`` as keeps ``focus``
    in sight and the view within low..high."""
    span = high - low + 1
    if span <= size:
        return low - (size - span) // 2
    if focus is not None:
        start = min(max(start, focus - size + 1), focus)
    return min(max(start, low), high - size + 1)


def follow(view_port: Viewport, bounds: Bounds, focus: Cell | None) -> Viewport:
    """The viewport after play: the whole grid if it fits, else the least move
    that brings ``focus`` (the cursor, the last card played) into sight."""
    return replace(
        view_port,
        left=_axis(view_port.left, view_port.cols, bounds.left, bounds.right, focus and focus[0]),
        top=_axis(view_port.top, view_port.rows, bounds.top, bounds.bottom, focus and focus[1]),
    )


def pan(view_port: Viewport, dx: int, dy: int, bounds: Bounds) -> Viewport:
    """The viewport moved by (dx, dy) cells, never past the grid's bounds (an
    axis on which the whole grid fits stays centred)."""
    moved = replace(view_port, left=view_port.left + dx, top=view_port.top + dy)
    return follow(moved, bounds, None)


# ================================================================ drawing
@dataclass(frozen=True)
class Marks:
    """What the grid shows besides the cards."""

    cursor: Cell | None = None
    legal: frozenset[Cell] = frozenset()  # where the chosen card may go
    matches: frozenset[Cell] = frozenset()  # your cards the chosen card matches
    blitz_from: Cell | None = None  # the card just taken, in a Blitz
    region: frozenset[Cell] = frozenset()  # your best region


def cell_text(cell: CellView | None, marks: Marks, at: Cell) -> Segment:
    """A cell in 5 characters: a mark, the value (2), the orientation, the
    royal on it; and its role."""
    if cell is None:
        if at in marks.legal:
            return "  +  ", "legal"
        if at == marks.cursor:
            return "  _  ", "empty"
        return "     ", "empty"
    value = card_value(cell.card)
    royal = card_value(cell.fortified_by)[:1] if cell.fortified_by else " "
    if at in marks.legal:
        lead = "+"
    elif at == marks.blitz_from:
        lead = ">"
    elif at in marks.matches:
        lead = "*"
    else:
        lead = " "
    role = f"owner{cell.owner}" + ("-fort" if cell.fortified_by else "")
    return f"{lead}{value:>2}{ORIENTATION_MARKS[cell.owner]}{royal}", role


def grid_lines(
    view: TerritoryView, view_port: Viewport, marks: Marks, large: bool = False
) -> list[Line]:
    """The cells of ``view_port``, with x coordinates above and y on the left.
    A small cell is one line; a large one a 3-line box around the same text."""
    cells = cells_of(view)
    width, height = LARGE_CELL if large else SMALL_CELL
    head: Line = [(" " * AXIS_WIDTH, "axis")]
    for x in range(view_port.left, view_port.left + view_port.cols):
        head.append((str(x).center(width), "axis"))
    lines = [head]
    for y in range(view_port.top, view_port.top + view_port.rows):
        rows: list[Line] = [[] for _ in range(height)]
        for i, row in enumerate(rows):
            row.append((f"{y:>3} " if i == height // 2 else " " * AXIS_WIDTH, "axis"))
        for x in range(view_port.left, view_port.left + view_port.cols):
            cell = cells.get((x, y))
            text, role = cell_text(cell, marks, (x, y))
            if (x, y) == marks.cursor:
                role += " cursor"
            elif (x, y) in marks.region:
                role += " region"
            if not large:
                rows[0].append((text, role))
            elif cell is None and (x, y) == marks.cursor:
                # the cursor on an empty cell: an outline the size of a card's,
                # single-lined (a card's has a doubled pair of edges)
                rows[0].append(("┌─────┐", role))
                rows[1].append((f"│{text}│", role))
                rows[2].append(("└─────┘", role))
            elif cell is None:
                rows[0].append((" " * width, role))
                rows[1].append((f" {text} ", role))
                rows[2].append((" " * width, role))
            else:
                top, side, bottom = _box(cell.owner)
                rows[0].append((top, role))
                rows[1].append((f"{side}{text}{side}", role))
                rows[2].append((bottom, role))
        lines += rows
    return lines


def _box(owner: int) -> tuple[str, str, str]:
    """A large card's outline (top, side, bottom): a horizontal card is wide
    and flat (doubled top and bottom), a vertical one tall (doubled sides), so
    the shape says the orientation as the mark does."""
    if owner == 0:
        return "╒═════╕", "│", "╘═════╛"
    return "╓─────╖", "║", "╙─────╜"


def line_text(lines: Sequence[Line]) -> list[str]:
    return ["".join(t for t, _ in line).rstrip() for line in lines]


def whole_grid(view: TerritoryView, marks: Marks | None = None) -> list[str]:
    """Every card of ``view`` as text lines, with its coordinates (replays)."""
    bounds = grid_bounds(list(cells_of(view)))
    port = Viewport(bounds.left, bounds.top, bounds.width, bounds.height)
    return line_text(grid_lines(view, port, marks or Marks()))
