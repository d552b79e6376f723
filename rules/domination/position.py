"""Domination's position text, written and read back.

The format: docs/rules/domination.md, "Position text"."""

from __future__ import annotations

from collections import Counter

from ..cards import card_text, deck
from ..position import (
    PositionError,
    PositionFields,
    cards_text,
    facts_text,
    ints_text,
    optional,
    position_lines,
    rng_text,
    seats_text,
    yes_no,
)
from .options import DominationConfig
from .state import ANY_CARD, DominationState


def write_position(state: DominationState) -> str:
    """docs/rules/domination.md, "Position text"."""
    return position_lines(
        "domination",
        [
            ("seed", str(state.seed)),
            ("rng", rng_text(state.rng, state.seed)),
            ("round", str(state.round_no)),
            ("leader", str(state.leader)),
            ("turn", str(state.turn)),
            ("points", ints_text(state.points)),
            ("hands", seats_text(cards_text(h) for h in state.hands)),
            ("facts", seats_text(facts_text(f, ANY_CARD) for f in state.hand_facts)),
            ("stock", cards_text(state.stock[::-1])),
            ("run", cards_text(state.run)),
            ("chain_from", optional(state.dom_start if state.dom_start >= 0 else None)),
            ("discards", cards_text(state._discarded())),
            ("over", yes_no(state.over)),
            ("winner", optional(state.winner)),
            ("resigned", optional(state.resigned)),
            ("ply", str(state._ply)),
        ],
    )


POSITION_KEYS = (
    "seed",
    "rng",
    "round",
    "leader",
    "turn",
    "points",
    "hands",
    "facts",
    "stock",
    "run",
    "chain_from",
    "discards",
    "over",
    "winner",
    "resigned",
    "ply",
)


def read_position(config: DominationConfig, text: str) -> DominationState:
    fields = PositionFields(text, "domination", POSITION_KEYS, 2)
    state = DominationState(config, fields.number("seed"))
    state.rng = fields.rng()
    state.round_no = fields.number("round", 1)
    state.leader = fields.number("leader", 0, 1)
    state.turn = fields.number("turn", 0, 1)
    state.points = fields.ints("points", 2)
    state.hands = fields.seat_cards("hands")
    state.hand_facts = fields.facts("facts", ANY_CARD)
    state.stock = fields.cards("stock")[::-1]
    state.run = fields.cards("run")
    start = fields.optional_number("chain_from", 0, max(0, len(state.run) - 1))
    state.dom_start = -1 if start is None else start
    for card in fields.cards("discards"):
        state.discards[card >> 4] |= 1 << (card & 15)
    state.over = fields.flag("over")
    state.winner = fields.seat("winner", allow_none=True)
    state.resigned = fields.seat("resigned", allow_none=True)
    state._ply = fields.number("ply", 0)
    full, found = Counter(card_text(c) for c in deck()), state.all_cards()
    if found != full:
        extra, missing = found - full, full - found
        raise PositionError(
            "the hands, stock, run and discards must hold the 52 cards once each "
            f"(twice: {' '.join(sorted(extra)) or 'none'}; "
            f"missing: {' '.join(sorted(missing)) or 'none'})"
        )
    return state
