"""What a Domination seat sees: the view Struct, typed field by field."""

from __future__ import annotations

from ..views import View


class DominationView(View, frozen=True, kw_only=True, omit_defaults=True):
    """What a seat sees (``hand`` only in a seat's own view)."""

    hand_sizes: list[int]
    run: list[str]
    domination_start: int | None
    domination_suit: str | None
    multiplier: int
    round_value: int
    inelegant_lead: bool
    discards: dict[str, list[int]]
    stock: int
    round: int
    leader: int
    turn: int | None
    target_score: int
    rounds: int
    resigned: int | None
    hand: list[str] | None = None  # a seat's own view only
