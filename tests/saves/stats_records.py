"""Finished game records played through the real rules, for the statistics'
tests and the 1,000-game bench: seeded random moves (fast, and every game
ends), the seats named as the app names them."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rules.registry import get_game
from saves.record import GameRecord, SeatInfo


def you() -> SeatInfo:
    return SeatInfo("You", "human")


def computer(level: str = "medium") -> SeatInfo:
    return SeatInfo("Computer", "bot", level)


def person(name: str) -> SeatInfo:
    return SeatInfo(name, "human")


def played_record(
    game: str,
    seats: Sequence[SeatInfo],
    seed: int,
    *,
    preset: str | None = None,
    resign_at: tuple[int, int] | None = None,
    when: str = "2026-01-01T00:00:00.000Z",
    record_id: str | None = None,
    max_moves: int | None = None,
    options: dict[str, Any] | None = None,
) -> GameRecord:
    """A finished game of ``game`` between ``seats``, every move random from
    ``seed``; ``resign_at=(ply, seat)`` makes that seat resign at that ply (or
    at its first move after it). ``max_moves`` caps a long random game by
    resigning every seat but the one ahead (Stress with eight random seats
    runs to thousands of moves)."""
    spec = get_game(game)
    overrides: dict[str, Any] = {"players": len(seats)} if spec.max_players > 2 else {}
    overrides.update(options or {})
    config = spec.config(preset, **overrides)
    record = GameRecord.new(
        game, config, seed, list(seats), preset=preset, record_id=record_id or f"{seed:08x}"
    )
    state = spec.new(config, seed)
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_act()[0]
        ply = len(record.moves)
        resigns = resign_at is not None and ply >= resign_at[0] and seat == resign_at[1]
        if resigns or (max_moves is not None and ply >= max_moves):
            text = "resign"
        else:
            text = str(rng.choice(state.legal_moves(seat)))
        state.play_text(seat, text)
        record.moves.append((seat, text))
    outcome = state.outcome()
    assert outcome is not None
    record.status = "finished"
    record.result = outcome.to_json()
    record.created = record.updated = when
    return record


def at(minute: int) -> str:
    """A timestamp ``minute`` minutes into 2026, so games sort in a known order."""
    return f"2026-01-01T{minute // 60:02d}:{minute % 60:02d}:00.000Z"
