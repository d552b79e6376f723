"""What a seat sees of a Five-Card Trick game: the view and its revealed round.

The JSON form of these Structs is the wire's (a field without a default is
always written, even when None, as the dicts before them were)."""

from __future__ import annotations

from ..views import Record, View


class RevealedAction(Record, frozen=True, kw_only=True, omit_defaults=True):
    """One action a seat submitted in the revealed round, and what became of it."""

    action: str  # its id: score, grow, claim, steal, block
    copies: int
    # live, collided, outnumbered, blocked, or disregarded
    status: str
    reason: str | None = None  # why it was disregarded (a core reason code)
    blocked: bool  # the opponent's Block was on it (it may have cancelled anyway)


class RoundReveal(Record, frozen=True, kw_only=True, omit_defaults=True):
    """The last round as one seat may see it (a Block that did not go live keeps
    its target from the other seat: ``block:?`` in ``moves``, None in
    ``block_targets``)."""

    round: int
    moves: list[str]
    target_hidden: list[bool]
    overload: list[bool]
    reset: list[bool]
    actions: list[list[RevealedAction]]
    pot_before: int
    scored: list[int]
    grew: int | None  # the seat whose Grow went live
    taker: int | None  # the seat that took the pot
    taken: int
    taken_by: str | None  # "claim" or "steal"
    failed_steal: list[int]
    blocks_next: list[str | None]
    bonus: list[int]  # seats whose five lights paid a chip
    refilled: bool
    chips: list[int]
    pot: int
    lights: list[list[str]]
    claims_tied: bool
    missed: list[bool]  # ran out of time
    block_targets: list[str | None]


class TrickView(View, frozen=True, kw_only=True, omit_defaults=True):
    """What a seat sees: everything public, plus its own pending submission."""

    names: str
    action_names: list[str]
    words: dict[str, str]
    chips: list[int]
    difference: int
    pot: int
    lights: list[list[str]]
    round: int
    rounds: int
    end_round: int
    round_cap: int
    extension: int
    replays: int
    restrictions: list[dict[str, str]]
    repeat_pair: list[list[str] | None]
    blocked: list[str | None]
    defender: int
    items: list[dict[str, str | None]]
    priority_window: list[bool]
    last_taker: int | None
    timer: int
    exact_two: bool
    doubles: bool
    tie_rule: str
    submitted: list[bool]
    pending: str | None
    last_round: RoundReveal | None
    history: list[list[str]]
    # per round, whether each seat's Block target was kept from the other seat
    # (its Block did not go live): public, and what the history's "?" stands for
    history_hidden: list[list[bool]]
