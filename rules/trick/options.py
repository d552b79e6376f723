"""Five-Card Trick options and the five presets of RULINGS.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..config import GameConfig, option, seat_option


@dataclass(frozen=True)
class TrickConfig(GameConfig):
    """The defaults are the ``standard`` preset (the full write-up)."""

    # The new-game form shows each option's title and its values' labels; the
    # values themselves (``last_taker``) are what saves and the wire hold.
    rounds: int = option(25, "Rounds before the first check for a winner", min=5, max=200)
    round_cap: int = option(
        50,
        "The last round there can be: a tie adds 5 rounds at a time, up to this one",
        min=5,
        max=500,
    )
    exact_two: bool = option(
        False, "yes: play exactly two cards a round, or none; no: up to two cards"
    )
    doubles: bool = option(
        False, "yes: the same action may be played twice in one round (as in the final)"
    )
    items: str = option(
        "none",
        "Overload, Limit Reset and Claim Priority, each usable once in a game",
        choices=("none", "each", "split"),
        labels={
            "none": "none",
            "each": "all three to each player",
            "split": "Overload to one, two to the other",
        },
    )
    tie_rule: str = option(
        "last_taker",
        "Who wins a tie after the last round",
        choices=("last_taker", "defender", "items"),
        labels={
            "last_taker": "last to take the pot, else a draw",
            "defender": "the defender",
            "items": "more unused items, else defender",
        },
    )
    defender: str = seat_option(
        "The defender: the player who wins a tie after the last round "
        "if the tie rule says so (random: drawn at the start)"
    )
    timer: int = option(
        60,
        "Seconds to lock in each round; a player who runs out plays nothing (0: no clock)",
        min=0,
        max=3600,
    )
    missed_replays: int = option(
        0,
        "If both players run out of time, the round is played again, at most this many times",
        min=0,
        max=10,
    )
    names: str = option(
        "trick",
        "The words of the game",
        choices=("trick", "setna"),
        title="Words",
        labels={
            "trick": "Five-Card Trick: Grow, chips",
            "setna": "Setna's Curse: Raise, Gems",
        },
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

# the presets as the new-game form shows them: what each version is
PRESET_LABELS: dict[str, str] = {
    "standard": "standard: the full rules",
    "original": "original: exactly 2 actions, 90 s",
    "dm12": "dm12: the DeathMatch, 40 rounds",
    "setna": "setna: Setna's Curse, 40 rounds",
    "final": "final: doubles and items",
}
