"""Domination's moves and moments in a person's words (the contract's
``move_words`` and ``turn_label``): "play 10H", "concede the round",
"Round 5, card 3". Cards stay card texts; a screen draws them its way."""

from __future__ import annotations

CONCEDE_WORDS = "concede the round"


def move_words(move: str) -> str:
    """A move's notation (``10H``, ``concede``, ``resign``) in words."""
    text = move.strip()
    lowered = text.lower()
    if lowered == "concede":
        return CONCEDE_WORDS
    if lowered == "resign":
        return "resign"
    return f"play {text.upper()}"


def turn_label(round_number: int, cards_on_table: int) -> str:
    """The moment before a card is played: the round, and which card of it
    (the first is the lead)."""
    return f"Round {round_number}, card {cards_on_table + 1}"
