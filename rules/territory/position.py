"""Territory's position text, written and read back (docs/rules/territory.md, "Position text")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from ..cards import parse_card, rank_text
from ..errors import shown_input
from ..position import (
    NONE,
    PositionError,
    PositionFields,
    cards_text,
    optional,
    position_lines,
    rng_text,
    seats_text,
    yes_no,
)
from .board import (
    CARD_MASK,
    FORT_SHIFT,
    OFFSET,
    OWNER_BIT,
    coord_text,
    pos_of,
    xy_of,
)
from .options import TerritoryConfig
from .state import HORIZONTAL, TEXT, VERTICAL, TerritoryState


def write_position(state: TerritoryState) -> str:
    """docs/rules/territory.md, "Position text"."""
    x0, y0, lines = diagram_of(state.grid)
    return position_lines(
        "territory",
        [
            ("seed", str(state.seed)),
            ("rng", rng_text(state.rng, state.seed)),
            ("first", str(state.first)),
            ("turn", str(state.turn)),
            ("turn_number", str(state.turn_no)),
            ("blitz_from", coord_text(state.blitz_at) if state.blitz_at >= 0 else NONE),
            ("passes", str(state.passes)),
            ("hands", seats_text(cards_text(h) for h in state.hands)),
            ("stock", cards_text(state.stock[::-1])),
            ("discards", cards_text(state.discards)),
            ("open", _coords_text(state.open)),
            ("placed", _coords_text(state.grid)),
            ("where", _where_text(state.where)),
            ("over", yes_no(state.over)),
            ("winner", optional(state.winner)),
            ("end", state.end or NONE),
            ("resigned", optional(state.resigned)),
            ("ply", str(state._ply)),
            ("grid", f"{x0},{y0}"),
        ],
        lines,
    )


def parse_diagram(diagram: str, origin: tuple[int, int] = (0, 0)) -> dict[int, int]:
    """A grid from a diagram (tests, puzzles, docs/rules/territory.md "Positions").

    One line per row, top row first; tokens separated by spaces: ``.`` for an
    empty cell, else a card and its orientation, ``-`` horizontal (seat 0) or
    ``|`` vertical (seat 1), and optionally the royal fortifying it:
    ``3S-``, ``9H|``, ``4D-KS``. The first token of the first line is the cell
    ``origin``. ValueError for anything else."""
    grid: dict[int, int] = {}
    lines = [line for line in diagram.splitlines() if line.strip()]
    x0, y0 = origin
    for dy, line in enumerate(lines):
        for dx, token in enumerate(line.split()):
            if token == ".":
                continue
            mark = max(token.find("-"), token.find("|"))
            if mark < 2:
                raise ValueError(
                    f"{shown_input(token)} is no cell: write '.', or a card then - or |, "
                    "like 3S- or 9H|, then the royal on it if any (4D-KS)"
                )
            owner = HORIZONTAL if token[mark] == "-" else VERTICAL
            card = parse_card(token[:mark])
            fort = parse_card(token[mark + 1 :]) if token[mark + 1 :] else 0
            if fort and fort & 15 <= 10:
                raise ValueError(f"{shown_input(token)}: only a royal (J Q K) fortifies")
            grid[pos_of(x0 + dx, y0 + dy)] = card | owner << 6 | fort << FORT_SHIFT
    return grid


def diagram_of(grid: Mapping[int, int]) -> tuple[int, int, list[str]]:
    """The grid as :func:`parse_diagram` reads it: the top-left cell's x and
    y (the diagram's origin) and the rows, columns aligned."""
    if not grid:
        return 0, 0, []
    xys = [xy_of(p) for p in grid]
    x0, x1 = min(x for x, _ in xys), max(x for x, _ in xys)
    y0, y1 = min(y for _, y in xys), max(y for _, y in xys)
    tokens = [
        [_cell_token(grid.get(pos_of(x, y))) for x in range(x0, x1 + 1)] for y in range(y0, y1 + 1)
    ]
    width = max(len(t) for row in tokens for t in row)
    return x0, y0, [" ".join(t.rjust(width) for t in row).rstrip() for row in tokens]


def _cell_token(cell: int | None) -> str:
    if cell is None:
        return "."
    mark = "|" if cell & OWNER_BIT else "-"
    fort = cell >> FORT_SHIFT
    return TEXT[cell & CARD_MASK] + mark + (TEXT[fort] if fort else "")


def _coords_text(cells: Iterable[int]) -> str:
    texts = [coord_text(p) for p in cells]
    return " ".join(texts) if texts else NONE


def _read_coords(text: str) -> list[int]:
    if text == NONE:
        return []
    out = []
    for word in text.split():
        x, y = word.split(",")
        if not (abs(int(x)) < OFFSET and abs(int(y)) < OFFSET):
            raise ValueError("off the board")
        out.append(pos_of(int(x), int(y)))
    return out


def _where_text(where: Mapping[int, tuple[int, ...]]) -> str:
    """Each value a seat controls (or did: an empty group stays), as the value
    and the seat's mark (``5-``, ``5|``), then its cells in the order the seat
    came to control them."""
    groups = [
        f"{rank_text(k & 15)}{'|' if k >> 4 else '-'}={_coords_text(where[k])}"
        for k in sorted(where)
    ]
    return "; ".join(groups) if groups else NONE


def _read_where(text: str) -> dict[int, tuple[int, ...]]:
    if text == NONE:
        return {}
    where: dict[int, tuple[int, ...]] = {}
    for group in text.split(";"):
        head, _, cells = group.strip().partition("=")
        if len(head) < 2 or head[-1] not in "-|":
            raise ValueError("no such group")
        value = parse_card(head[:-1] + "S") & 15
        key = (head[-1] == "|") << 4 | value
        if key in where:
            raise ValueError("a group given twice")
        where[key] = tuple(_read_coords(cells))
    return dict(sorted(where.items()))


POSITION_KEYS = (
    "seed",
    "rng",
    "first",
    "turn",
    "turn_number",
    "blitz_from",
    "passes",
    "hands",
    "stock",
    "discards",
    "open",
    "placed",
    "where",
    "over",
    "winner",
    "end",
    "resigned",
    "ply",
    "grid",
)


def read_position(config: TerritoryConfig, text: str) -> TerritoryState:
    fields = PositionFields(text, "territory", POSITION_KEYS, 2, with_body=True)
    state = TerritoryState(config, fields.number("seed"))
    state.rng = fields.rng()
    state.first = fields.number("first", 0, 1)
    state.turn = fields.number("turn", 0, 1)
    state.turn_no = fields.number("turn_number", 1)
    coords = "cells x,y separated by spaces, or -"
    blitz = fields.read("blitz_from", _read_coords, coords)
    if len(blitz) > 1:
        raise fields.bad("blitz_from", "names more than one cell")
    state.passes = fields.number("passes", 0)
    state.hands = fields.seat_cards("hands")
    state.stock = fields.cards("stock")[::-1]
    state.discards = fields.cards("discards")
    origin = fields.read("grid", lambda t: _read_coords(t)[0], "the top-left cell, x,y")
    try:
        state.grid = parse_diagram("\n".join(fields.body), xy_of(origin))
    except ValueError as err:
        raise PositionError(f"grid: {err}") from None
    placed = fields.read("placed", _read_coords, coords)
    if sorted(placed) != sorted(state.grid):
        raise fields.bad("placed", "should list every card's cell once")
    state.grid = {p: state.grid[p] for p in placed}
    state.index_grid()
    state.blitz_at = blitz[0] if blitz else -1
    if blitz and blitz[0] not in state.grid:
        raise fields.bad("blitz_from", "is not a card on the grid")
    opened = fields.read("open", _read_coords, coords)
    if sorted(opened) != sorted(state.open):
        raise fields.bad("open", "should list the empty cells next to a card, each once")
    state.open = dict.fromkeys(opened)
    where = fields.read("where", _read_where, "groups like 5-=0,1 2,1; 7|=0,0")
    if {k: sorted(v) for k, v in where.items() if v} != {
        k: sorted(v) for k, v in state.where.items()
    }:
        raise fields.bad("where", "should list the cells of each value each seat controls")
    state.where = where
    state.over = fields.flag("over")
    state.winner = fields.seat("winner", allow_none=True)
    end = fields.text("end")
    state.end = "" if end == NONE else end
    state.resigned = fields.seat("resigned", allow_none=True)
    state._ply = fields.number("ply", 0)
    full = Counter(TEXT[c] for c in config.full_deck())
    found = state.all_cards()
    if found != full:
        extra, missing = found - full, full - found
        raise PositionError(
            f"the position must hold the {sum(full.values())} cards of the game once each "
            f"(too many: {' '.join(sorted(extra.elements())) or 'none'}; "
            f"missing: {' '.join(sorted(missing.elements())) or 'none'})"
        )
    return state
