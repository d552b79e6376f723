"""Stress's position text, written and read back (docs/rules/stress.md, "Position text")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..cards import Card, deck
from ..position import (
    NONE,
    PositionError,
    PositionFields,
    cards_text,
    facts_text,
    flags_text,
    ints_text,
    position_lines,
    read_cards,
    rng_text,
    seats_text,
    yes_no,
)
from .knowledge import ALL_RANKS
from .options import StressConfig
from .state import TEXT, StressState


def write_position(state: StressState) -> str:
    """docs/rules/stress.md, "Position text"."""
    rows = seats_text
    return position_lines(
        "stress",
        [
            ("seed", str(state.seed)),
            ("rng", rng_text(state.rng, state.seed)),
            ("phase", PHASES[state.phase]),
            ("first", str(state.first)),
            ("turn", str(state.turn)),
            ("hands", rows(cards_text(h) for h in state.hands)),
            ("face_up", rows(cards_text(r) for r in state.up)),
            ("face_down", rows(_slots_text(r) for r in state.down)),
            ("dealt_up", rows(cards_text(r) for r in state.dealt_up)),
            ("dealt_hand", rows(cards_text(r) for r in state.dealt_hand)),
            ("known", rows(cards_text(k) for k in state.known)),
            ("facts", rows(facts_text(f, ALL_RANKS) for f in state.facts)),
            ("stock", cards_text(state.stock[::-1])),
            ("stack", cards_text(state.stack)),
            ("top", str(state.top)),
            ("cemetery", cards_text(state.cemetery)),
            ("ready", flags_text(state.ready)),
            ("swaps", ints_text(state.swaps)),
            ("gone", flags_text(state.gone)),
            ("finished", ints_text(state.finished)),
            ("resigned", ints_text(state.resigned)),
            ("plays", str(state.plays)),
            ("over", yes_no(state.over)),
            ("end", state.end_reason or NONE),
            ("ply", str(state._ply)),
        ],
    )


PHASES = ("swap", "play")  # the phase by its number (SWAP, PLAY)
POSITION_KEYS = (
    "seed",
    "rng",
    "phase",
    "first",
    "turn",
    "hands",
    "face_up",
    "face_down",
    "dealt_up",
    "dealt_hand",
    "known",
    "facts",
    "stock",
    "stack",
    "top",
    "cemetery",
    "ready",
    "swaps",
    "gone",
    "finished",
    "resigned",
    "plays",
    "over",
    "end",
    "ply",
)

_PLAYED_SLOT = "_"  # a face-down slot whose card was played


def _slots_text(row: Sequence[Card]) -> str:
    return " ".join(TEXT[c] if c else _PLAYED_SLOT for c in row) if row else NONE


def _read_slots(text: str) -> tuple[Card, ...]:
    if text == NONE:
        return ()
    return tuple(0 if t == _PLAYED_SLOT else read_cards(t)[0] for t in text.split())


def read_position(config: StressConfig, text: str) -> StressState:
    n = config.players
    fields = PositionFields(text, "stress", POSITION_KEYS, n)
    state = StressState(config, fields.number("seed"))
    state.rng = fields.rng()
    phase = fields.text("phase")
    if phase not in PHASES:
        raise fields.bad("phase", "is not swap or play")
    state.phase = PHASES.index(phase)
    state.first = fields.number("first", 0, n - 1)
    state.turn = fields.number("turn", 0, n - 1)
    state.hands = fields.seat_cards("hands")
    state.up = [tuple(r) for r in fields.seat_cards("face_up")]
    state.down = fields.per_seat("face_down", _read_slots, "cards or _ (played)")
    state.dealt_up = [tuple(r) for r in fields.seat_cards("dealt_up")]
    state.dealt_hand = [tuple(r) for r in fields.seat_cards("dealt_hand")]
    state.known = [tuple(k) for k in fields.seat_cards("known")]
    state.facts = [tuple(f) for f in fields.facts("facts", ALL_RANKS)]
    state.stock = fields.cards("stock")[::-1]
    state.stack = fields.cards("stack")
    state.top = fields.number("top", 0, 13)
    state.cemetery = fields.cards("cemetery")
    state.ready = fields.flags("ready")
    state.swaps = fields.ints("swaps", n)
    state.gone = fields.flags("gone")
    state.finished = fields.ints("finished")
    state.resigned = fields.ints("resigned")
    if any(not 0 <= s < n for s in state.finished + state.resigned):
        raise PositionError(f"finished and resigned name seats 0 to {n - 1}")
    state.plays = fields.number("plays", 0)
    state.over = fields.flag("over")
    end = fields.text("end")
    state.end_reason = "" if end == NONE else end
    state._ply = fields.number("ply", 0)
    full = Counter(TEXT[c] for c in deck(copies=config.deck_count))
    found = state.all_cards()
    if found != full:
        extra, missing = found - full, full - found
        raise PositionError(
            f"the position must hold the {sum(full.values())} cards of the game once each "
            f"(too many: {' '.join(sorted(extra.elements())) or 'none'}; "
            f"missing: {' '.join(sorted(missing.elements())) or 'none'})"
        )
    return state
