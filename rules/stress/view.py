"""What a Stress seat sees: the view Structs, typed field by field."""

from __future__ import annotations

from typing import Literal

from ..views import View


class StressView(View, frozen=True, kw_only=True, omit_defaults=True):
    """What a seat sees (``hand`` only in its own view). Rows are per seat."""

    phase: Literal["swap", "play", "over"]
    players: int
    decks: int
    first_player: int
    turn: int | None
    hand_sizes: list[int]
    known_in_hand: list[list[str]]
    face_up: list[list[str]]
    face_down: list[list[bool]]
    sources: list[str]
    stock: int
    stack: list[str]
    top: str | None
    allowed_ranks: list[str]
    cemetery: list[str]
    ready: list[bool]
    finished: list[int]
    resigned: list[int]
    plays: int
    play_limit: int
    rules: dict[str, bool]
    hand: list[str] | None = None  # a seat's own view only
    swaps_left: int | None = None  # a seat's own view, during the swaps
