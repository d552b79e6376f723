"""Domination's moves and moments in a person's words (the contract's
``move_words`` and ``turn_label``): "play 10H", "concede the round",
"Round 5, card 3". Cards stay card texts; a screen draws them its way."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from ..events import fill_names
from .view import DominationView

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


SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
# the discard grid's column heads, ace first
RANK_HEADS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _same(card: str) -> str:
    return card


def run_caption(
    view: DominationView,
    names: Sequence[str],
    card: Callable[[str], str] = _same,
    you: Collection[int] = (),
    over: bool = False,
) -> str:
    """The round on the table in one line: its value, the multiplier, the
    Domination and who led (``card`` draws a card's text: a screen's style)."""
    run = view.run
    seat = view.leader
    leader = fill_names(f"{{p{seat}}}", names, ())
    if over:  # nobody leads again: the last round is under the caption
        return f"Round {view.round}: the game is over."
    if not run:
        who = fill_names(f"{{p{seat} leads|lead}}", names, you)
        return f"Round {view.round}: {who}, any card."
    # what the round is worth comes first: at 80 columns the end may be cut
    note = " (Inelegant lead)" if view.inelegant_lead else ""
    parts = [f"Round {view.round}", f"worth {view.round_value}{note}", f"x{view.multiplier}"]
    start, dominated = view.domination_start, view.domination_suit
    if start is not None and dominated is not None:  # the view gives both or neither
        suit = SUIT_NAMES[dominated]
        parts.append(f"Domination in {suit} from {card(run[start])}")
    parts.append(f"led by {leader}")
    return " · ".join(parts)


def score_extras(view: DominationView) -> list[str]:
    extra = []
    if view.target_score:
        extra.append(f"to {view.target_score}")
    if view.rounds:
        extra.append(f"{view.rounds} rounds")
    extra.append(f"deck {view.stock}")
    return extra


def holdings_caption(
    sizes: Sequence[int], names: Sequence[str], you: Collection[int], seat: int | None
) -> str:
    """How many cards the other hands hold: "Computer holds 4", "You hold 4"."""
    return ", ".join(
        fill_names(f"{{p{s} holds|hold}} {n}", names, you)
        for s, n in enumerate(sizes)
        if s != seat and s < len(names)
    )


def table_lines(view: DominationView, names: Sequence[str], you: Collection[int]) -> list[str]:
    """The position in a few lines (``GameSpec.table_lines``): the round, the
    run with its Domination start, the discards by suit, the other hands."""
    start = view.domination_start
    run = [f"{c} (Domination starts)" if i == start else c for i, c in enumerate(view.run)]
    caption = run_caption(view, names, you=you)
    lines = [
        caption if caption.endswith(".") else caption + ".",
        "Table: " + (", ".join(run) if run else "empty") + ".",
        "Game: " + ", ".join(score_extras(view)) + ".",
    ]
    for suit, ranks in view.discards.items():
        shown = " ".join(RANK_HEADS[r - 1] for r in ranks)
        lines.append(f"Discarded {SUIT_NAMES.get(suit, suit)}: {shown or 'none'}.")
    holdings = holdings_caption(view.hand_sizes, names, you, view.seat)
    if holdings:
        lines.append(holdings + ".")
    return lines
