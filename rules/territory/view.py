"""What a Territory seat sees: the view Structs, typed field by field."""

from __future__ import annotations

from ..views import Record, View


class CellView(Record, frozen=True, kw_only=True, omit_defaults=True):
    x: int
    y: int
    card: str
    owner: int
    fortified_by: str | None


class RegionView(Record, frozen=True, kw_only=True, omit_defaults=True):
    """A seat's best region: the most distinct values that count, the larger on a tie."""

    values: list[int]  # the values that count, ascending (1 = A ... 14 = N)
    size: int
    cells: list[list[int]]  # [x, y] pairs


class TerritoryView(View, frozen=True, kw_only=True, omit_defaults=True):
    """What a seat sees (``hand`` only in a seat's own view)."""

    cells: list[CellView]
    orientation: list[str]  # per seat: "horizontal" or "vertical"
    hand_sizes: list[int]
    stock: int
    discards: list[str]  # oldest first
    best_regions: list[RegionView]
    values_to_win: list[int]  # every value a winning region holds
    turn: int | None
    turn_number: int
    first_player: int
    step: str  # "main", or "blitz" while a conquest may go on
    blitz_from: list[int] | None  # [x, y] of the card just taken, during a blitz
    passes: int  # turns passed in a row (two end the game)
    hand_size: int
    deck: str
    royal_domination: bool
    conquest_requires_capture: bool
    timer: int
    resigned: int | None
    hand: list[str] | None = None  # a seat's own view only
