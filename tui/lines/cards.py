"""Cards in line mode's words (docs/lines.md, "Card words").

Screen readers read suit symbols inconsistently (some skip them, some say
"black spade suit"), so line mode names cards in words by default: "4 of
spades", "queen of hearts". Two other styles: ``letters``, the notation
itself ("4S", short for a braille display), and ``symbols`` ("4♠", the app's).

A sentence from the rules names a card by its notation (``10H``): :func:`name_cards`
finds each such word and names it in the chosen style, punctuation kept.
"""

from __future__ import annotations

from collections.abc import Callable

from tui.settings import LINE_CARDS

CARD_WORDS = LINE_CARDS
DEFAULT_CARD_WORDS = "words"

SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_WORDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king", "N": "knight"}
_RANKS = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "N"}
# what may stand around a card's text in a sentence: "(7H)", "7H,", "[7H]."
_OPENERS = "(["
_CLOSERS = ".,!:;)]"


def card_name(text: str, style: str = DEFAULT_CARD_WORDS) -> str | None:
    """``text`` as a card named in ``style``, or None if it is not a card."""
    upper = text.upper()
    if len(upper) < 2 or upper[-1] not in SUIT_WORDS or upper[:-1] not in _RANKS:
        return None
    if text != upper and text[:-1] not in _RANKS:  # "as", "is": words, not cards
        return None
    rank, suit = upper[:-1], upper[-1]
    if style == "letters":
        return upper
    if style == "symbols":
        return rank + SUIT_SYMBOLS[suit]
    return f"{RANK_WORDS.get(rank, rank)} of {SUIT_WORDS[suit]}"


def name_cards(text: str, style: str = DEFAULT_CARD_WORDS) -> str:
    """Every card's notation in ``text`` (a sentence of the rules) named in
    ``style``: "Computer plays 7H." -> "Computer plays 7 of hearts."."""
    words: list[str] = []
    last_was_card = False  # a card with nothing after it: a list goes on
    for word in text.split(" "):
        head = ""
        core = word
        while core[:1] and core[0] in _OPENERS:
            head, core = head + core[0], core[1:]
        body = core.rstrip(_CLOSERS)
        tail = core[len(body) :]
        named = card_name(body, style) if body[:1].isupper() or body[:1].isdigit() else None
        if named is not None and last_was_card and not head and style == "words":
            words[-1] += ","  # "10 of spades, queen of diamonds": heard as two cards
        words.append(head + (named if named is not None else body) + tail)
        last_was_card = named is not None and not tail
    return " ".join(words)


def namer(style: str) -> Callable[[str], str]:
    """:func:`name_cards` in one style."""
    return lambda text: name_cards(text, style)
