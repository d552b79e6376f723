"""Domination's options (a match to a target score or of a number of rounds) and presets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..config import GameConfig, option, seat_option


@dataclass(frozen=True)
class DominationConfig(GameConfig):
    target_score: int = option(
        100, "Points that win the match (0: no target, play a number of rounds)", min=0
    )
    rounds: int = option(
        0, "Rounds in the match, ties broken by further rounds (0: play to the target)", min=0
    )
    allow_concede: bool = option(False, "A player who could play may concede the round instead")
    first_leader: str = seat_option("Who leads the first round")

    def validate(self) -> None:
        if self.target_score == 0 and self.rounds == 0:
            raise ValueError("set a target score or a number of rounds, or the match never ends")


# named option sets; the first is the default
PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "short": {"target_score": 50},
    "ten-rounds": {"target_score": 0, "rounds": 10},
    "concede": {"allow_concede": True},
}
