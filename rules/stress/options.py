"""Stress options and presets (RULINGS.md, stress; docs/rules/stress.md, "Options")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..config import GameConfig, option, seat_option

DECKS_AUTO = "auto"
# one deck holds 52 cards; a seat takes 12 and one more starts the stack
CARDS_PER_SEAT = 12


@dataclass(frozen=True)
class StressConfig(GameConfig):
    """The defaults are RULINGS.md's rulings; each option is a variant players may agree on."""

    players: int = option(4, "Number of players (2-8)", min=2, max=8)
    decks: str = option(
        DECKS_AUTO,
        "Decks: auto (one for 2-4 players, two for 5-8), or 1 or 2",
        choices=(DECKS_AUTO, "1", "2"),
    )
    ten_wild: bool = option(False, "A 10 may be played on any card, a 9 included")
    skip_per_eight: bool = option(False, "Each 8 in a play skips one player (else one per play)")
    allow_voluntary_pickup: bool = option(
        False, "A player may pick up the stack even when able to play"
    )
    draw_one_per_turn: bool = option(
        False, "After a play, draw one card if holding fewer than 4 (else draw back up to 4)"
    )
    stop_at_first: bool = option(
        False, "The game ends when the first player finishes (else when one still holds cards)"
    )
    first_player: str = seat_option("Who plays first after the swaps")
    timer: int = option(0, "Seconds per turn (0: no clock)", min=0, max=3600)
    swap_timer: int = option(
        60, "Seconds for the swaps before the first turn, when turns have a clock", min=5, max=3600
    )

    @property
    def deck_count(self) -> int:
        """The number of decks in play, ``auto`` resolved."""
        if self.decks == DECKS_AUTO:
            return 1 if self.players <= 4 else 2
        return int(self.decks)

    def validate(self) -> None:
        needed = self.players * CARDS_PER_SEAT + 1
        if needed > 52 * self.deck_count:
            raise ValueError(
                f"{self.players} players need two decks: {self.players} x {CARDS_PER_SEAT} "
                f"cards and the starter make {needed}, more than one deck's 52"
            )


# The first preset is the default. `literal` reads the seed word for word
# ("draw one card", "the player which finished the fastest has won"); `house`
# gathers the house rules a table often adds.
PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "literal": {"draw_one_per_turn": True, "stop_at_first": True},
    "house": {"ten_wild": True, "skip_per_eight": True, "allow_voluntary_pickup": True},
}
