"""Five-Card Trick options and the five presets of RULINGS.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..config import GameConfig, option, seat_option


@dataclass(frozen=True)
class TrickConfig(GameConfig):
    """The defaults are the ``standard`` preset (the full write-up)."""

    rounds: int = option(25, "Rounds before the first check for a winner", min=5, max=200)
    round_cap: int = option(
        50, "The last round: a tie is extended by 5 rounds at a time up to here", min=5, max=500
    )
    exact_two: bool = option(
        False, "A submission is exactly two cards or none (otherwise up to two)"
    )
    doubles: bool = option(False, "The same action may be played twice in a round (final)")
    items: str = option(
        "none",
        "Final items: none; each player gets Overload, Limit Reset and Claim Priority; "
        "or split as in the seed's match (one seat Overload, the other the other two)",
        choices=("none", "each", "split"),
    )
    tie_rule: str = option(
        "last_taker",
        "Who wins a tie at the round cap: whoever last took the pot (else a draw), "
        "the defender, or more unused items (else the defender)",
        choices=("last_taker", "defender", "items"),
    )
    defender: str = seat_option("The defender (the seed's DMO), who wins some ties")
    timer: int = option(60, "Seconds to submit each round (0: no timer)", min=0, max=3600)
    missed_replays: int = option(
        0, "If both players miss the timer the round is replayed, at most this often", min=0, max=10
    )
    names: str = option(
        "trick",
        "Names shown: Score/Grow with chips and lights, or Setna's Curse "
        "(Score/Raise with Gems and torches)",
        choices=("trick", "setna"),
    )

    def validate(self) -> None:
        if self.round_cap < self.rounds:
            raise ValueError(
                f"the round cap ({self.round_cap}) must be at least the rounds ({self.rounds})"
            )
        if (self.round_cap - self.rounds) % 5:
            raise ValueError(
                "extensions are 5 rounds long: the round cap minus the rounds must be a "
                f"multiple of 5 (got {self.round_cap} and {self.rounds})"
            )


# RULINGS.md, trick: the table of presets. `standard` is first, so the default.
PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "original": {
        "exact_two": True,
        "round_cap": 40,
        "tie_rule": "defender",
        "timer": 90,
        "missed_replays": 3,
    },
    "dm12": {"round_cap": 40, "tie_rule": "defender", "timer": 60},
    "setna": {"round_cap": 40, "tie_rule": "defender", "timer": 60, "names": "setna"},
    "final": {
        "exact_two": True,
        "doubles": True,
        "items": "each",
        "round_cap": 50,
        "tie_rule": "items",
        "timer": 90,
    },
}
