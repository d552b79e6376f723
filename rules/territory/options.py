"""Territory's options, presets and decks (RULINGS.md, territory; the seed's variants)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import Card, deck
from ..config import GameConfig, option, seat_option

STANDARD, ROYALS, TAROT = "standard", "royals", "tarot"

# The values of each deck. Only equality of values matters in this game, so
# the tarot's four court cards are simply values 11-14, written J (Page),
# N (Knight), Q and K (docs/rules/territory.md, "Cards").
DECK_VALUES = {STANDARD: 10, ROYALS: 13, TAROT: 14}
ROYAL_RANKS = (11, 12, 13)  # J Q K: the royals of Royal Domination


@dataclass(frozen=True)
class TerritoryConfig(GameConfig):
    """The defaults are the ``standard`` preset (RULINGS.md, territory)."""

    hand_size: int = option(
        3, "Cards in hand: draw back up to this many after each turn", min=2, max=5
    )
    deck: str = option(
        STANDARD,
        "The deck: standard (A-10), royals (A-K, J Q K count 11-13), tarot (14 values)",
        choices=(STANDARD, ROYALS, TAROT),
    )
    royal_domination: bool = option(
        False,
        "Royal Domination: J Q K join the deck as attack cards (any value for the first "
        "conquest of a turn) and can fortify a card you control",
    )
    conquest_requires_capture: bool = option(
        True,
        "A conquest must turn a card (off: the seed's literal 'may', a matching discard "
        "without a capture is a turn)",
    )
    first_player: str = seat_option("Who takes the first turn")
    timer: int = option(0, "Seconds for each turn (0: no timer)", min=0, max=3600)

    def validate(self) -> None:
        if self.royal_domination and self.deck != STANDARD:
            raise ValueError(
                "Royal Domination adds J Q K to the standard deck as royals: "
                f"it cannot be played with the {self.deck} deck"
            )

    @property
    def values(self) -> int:
        """How many values a region needs to win (1 to this)."""
        return DECK_VALUES[self.deck]

    def full_deck(self) -> list[Card]:
        """Every card of the game, in the fixed order of ``rules.cards.deck``."""
        top = 13 if self.royal_domination else self.values
        return deck(range(1, top + 1))

    def is_royal(self, card: Card) -> bool:
        """A royal of Royal Domination (never explored; attacks and fortifies)."""
        return self.royal_domination and card & 15 > 10


# Presets: the seed's variants. The seed suggests a hand of four with an
# extended deck, "to counter the difficulties in getting a Blitzing capable hand".
PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "royal": {"royal_domination": True},
    "royals-deck": {"deck": ROYALS, "hand_size": 4},
    "tarot": {"deck": TAROT, "hand_size": 4},
    "literal": {"conquest_requires_capture": False},
}
