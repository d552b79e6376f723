"""Trick's position text, written and read back (docs/rules/trick.md, "Position text")."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..position import (
    NONE,
    PositionError,
    PositionFields,
    flags_text,
    ints_text,
    optional,
    position_lines,
    rng_text,
    seats_text,
    yes_no,
)
from .notation import (
    ACTION_IDS,
    HIDDEN_TARGET,
    NO_TARGET,
    Missed,
    Submission,
    UsePriority,
    parse_move,
)
from .options import TrickConfig
from .state import ITEM_NAMES, ITEM_STATES, TrickState, lit_actions


def write_position(state: TrickState) -> str:
    """docs/rules/trick.md, "Position text"."""
    pos = state.pos
    pending = [_WAITING if p is None else str(p) for p in state.pending]
    history = [
        f"{a}{_KEPT if ha else ''} / {b}{_KEPT if hb else ''}" for a, b, ha, hb in state.history
    ]
    return position_lines(
        "trick",
        [
            ("seed", str(state.seed)),
            ("rng", rng_text(state.rng, state.seed)),
            ("defender", str(state.defender)),
            ("round", str(pos.round_no)),
            ("end_round", str(pos.end_round)),
            ("replays", str(state.replays)),
            ("chips", ints_text(pos.chips)),
            ("pot", str(pos.pot)),
            ("last_taker", optional(pos.last_taker if pos.last_taker >= 0 else None)),
            ("lights", seats_text(_actions_text(m) for m in pos.lights)),
            ("blocked", seats_text(_target_text(t) for t in pos.blocked)),
            ("items", seats_text(_items_text(i) for i in pos.items)),
            ("priority_window", flags_text(state.priority_open)),
            ("last_played", seats_text(str(Submission(c)) for c in pos.last1)),
            ("played_before", seats_text(_actions_text(m) for m in pos.last2)),
            ("pending", seats_text(pending)),
            ("history", "; ".join(history) if history else NONE),
            ("last_round", NONE if state.last is None else json.dumps(state.last)),
            ("over", yes_no(state.over)),
            ("winner", optional(state.winner)),
            ("reason", state.win_reason or NONE),
            ("ply", str(state._ply)),
        ],
    )


POSITION_KEYS = (
    "seed",
    "rng",
    "defender",
    "round",
    "end_round",
    "replays",
    "chips",
    "pot",
    "last_taker",
    "lights",
    "blocked",
    "items",
    "priority_window",
    "last_played",
    "played_before",
    "pending",
    "history",
    "last_round",
    "over",
    "winner",
    "reason",
    "ply",
)
_WAITING = "waiting"  # a seat that has not submitted this round
_KEPT = "*"  # after a history move: its Block's target was kept from the other seat


def _actions_text(mask: int) -> str:
    return "+".join(lit_actions(mask)) or NONE


def _read_actions(text: str) -> int:
    if text == NONE:
        return 0
    mask = 0
    for word in text.split("+"):
        mask |= 1 << ACTION_IDS.index(word)
    return mask


def _target_text(target: int) -> str:
    return NONE if target == NO_TARGET else ACTION_IDS[target]


def _read_target(text: str) -> int:
    return NO_TARGET if text == NONE else ACTION_IDS.index(text)


def _items_text(items: Sequence[int]) -> str:
    owned = [f"{name}:{ITEM_STATES[i]}" for name, i in zip(ITEM_NAMES, items, strict=True) if i]
    return " ".join(owned) if owned else NONE


def _read_items(text: str) -> list[int]:
    items = [0, 0, 0]
    if text == NONE:
        return items
    for word in text.split():
        name, _, state = word.partition(":")
        items[ITEM_NAMES.index(name)] = ITEM_STATES.index(state, 1)
    return items


def _read_submission(text: str) -> Submission:
    move = parse_move(text)
    if type(move) is not Submission:
        raise ValueError("not a submission")
    return move


def _read_pending(text: str) -> Submission | Missed | None:
    if text == _WAITING:
        return None
    move = parse_move(text)
    if type(move) is UsePriority:
        raise ValueError("not a submission")
    return move  # type: ignore[return-value]


def _read_history(text: str) -> list[tuple[Submission, Submission, bool, bool]]:
    if text == NONE:
        return []
    rounds = []
    for entry in text.split(";"):
        a, b = (t.strip() for t in entry.split("/"))
        ha, hb = a.endswith(_KEPT), b.endswith(_KEPT)
        rounds.append(
            (_read_submission(a.rstrip(_KEPT)), _read_submission(b.rstrip(_KEPT)), ha, hb)
        )
    return rounds


def read_position(config: TrickConfig, text: str) -> TrickState:
    fields = PositionFields(text, "trick", POSITION_KEYS, 2)
    state = TrickState(config, fields.number("seed"))
    state.rng = fields.rng()
    state.defender = fields.number("defender", 0, 1)
    pos = state.pos
    pos.round_no = fields.number("round", 1)
    pos.end_round = fields.number("end_round", 1)
    state.replays = fields.number("replays", 0)
    pos.chips = fields.ints("chips", 2)
    pos.pot = fields.number("pot", 0)
    taker = fields.seat("last_taker", allow_none=True)
    pos.last_taker = -1 if taker is None else taker
    actions = "actions joined by + (score+grow), or -"
    pos.lights = fields.per_seat("lights", _read_actions, actions)
    pos.blocked = fields.per_seat("blocked", _read_target, "an action, or -")
    pos.items = fields.per_seat("items", _read_items, "items like overload:unused, or -")
    state.priority_open = fields.flags("priority_window")
    pos.last1 = [s.counts for s in fields.per_seat("last_played", _read_submission, actions)]
    pos.last2 = fields.per_seat("played_before", _read_actions, actions)
    state.pending = fields.per_seat("pending", _read_pending, f"a submission or {_WAITING}")
    state.history = fields.read("history", _read_history, "rounds like score / grow*; -")
    last = fields.read("last_round", lambda t: None if t == NONE else json.loads(t), "JSON")
    if last is not None and not isinstance(last, dict):
        raise fields.bad("last_round", "is not a JSON object")
    state.last = last
    state.over = fields.flag("over")
    state.winner = fields.seat("winner", allow_none=True)
    reason = fields.text("reason")
    state.win_reason = "" if reason == NONE else reason
    state._ply = fields.number("ply", 0)
    for seat in (0, 1):
        pending = state.pending[seat]
        if type(pending) is Submission and pending.target == HIDDEN_TARGET:
            raise PositionError("pending: a submission names its Block's target, never ?")
    return state
