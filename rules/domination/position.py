"""Domination's position text read back (docs/rules/domination.md, "Position text").

The state writes it (`DominationState.position_text`)."""

from __future__ import annotations

from collections import Counter

from ..cards import card_text, deck
from ..position import (
    PositionError,
    PositionFields,
)
from .options import DominationConfig
from .state import ANY_CARD, DominationState

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

