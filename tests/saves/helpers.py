"""Records of real domination games for the store tests."""

from __future__ import annotations

import random

from rules.registry import get_game
from saves.record import GameRecord, SeatInfo

SEATS = [SeatInfo("Ada", "human"), SeatInfo("Computer (hard)", "bot", "hard")]


def played_record(moves: int = 12, seed: int = 7, record_id: str = "0123abcd") -> GameRecord:
    """A domination record with ``moves`` random legal moves (a 1000-point match)."""
    spec = get_game("domination")
    config = spec.config(target_score=1000)  # long enough for any test
    state = spec.new(config, seed)
    record = GameRecord.new("domination", config, seed, list(SEATS), record_id=record_id)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        seat = state.to_act()[0]
        move = rng.choice(state.legal_moves(seat))
        state.play(seat, move)
        record.moves.append((seat, str(move)))
    return record


def finished_record(seed: int = 7, record_id: str = "0fedcba9") -> GameRecord:
    """A whole domination match to 20 between random players who never concede."""
    spec = get_game("domination")
    config = spec.config(target_score=20)
    state = spec.new(config, seed)
    record = GameRecord.new("domination", config, seed, list(SEATS), record_id=record_id)
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_act()[0]
        moves = [m for m in state.legal_moves(seat) if str(m) != "concede"]
        move = rng.choice(moves or state.legal_moves(seat))
        state.play(seat, move)
        record.moves.append((seat, str(move)))
    outcome = state.outcome()
    assert outcome is not None
    record.status, record.result = "finished", outcome.to_json()
    return record
