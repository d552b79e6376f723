"""Stress moves and scores in a person's words (``GameSpec.move_words``,
``GameSpec.score_label``).

The notation (``notation.py``) is for saves and the wire; these are the words
a hint, a list of moves or a replay shows: "play 5S 5H 5C", "turn up
face-down card 2", "pick up the stack (6 cards)". Cards stay card texts
(``5S``): how they are drawn is the screen's choice.

A move alone does not say where its cards come from (a play is from the hand,
or from the face-up row once the hand is empty) or how big the stack is: given
the seat's view, the words say so too.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..cards import card_text
from ..choices import Choice, ChoiceGroup, ChoiceRow
from ..events import fill_names
from ..game import Resign
from .notation import Blind, PickUp, Play, Ready, StressMove, Swap
from .view import StressView

SCORE_LABEL = "cards left (fewer is better)"
# lowest to highest (docs/rules/stress.md): suits never matter
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
POWER = {r: i for i, r in enumerate(RANKS)}


def move_words(move: StressMove | Resign, view: StressView | None = None) -> str:
    """``move`` in words; with ``view`` (its seat's, before the move) also
    where the cards come from and how many a pick-up takes."""
    match move:
        case Play(cards=cards):
            played = "play " + " ".join(card_text(c) for c in cards)
            if _source(view) == "face_up":
                return f"{played} from the face-up cards"
            return played
        case Blind(position=position):
            return f"turn up face-down card {position}"
        case PickUp():
            if view is None:
                return "pick up the stack"
            size = len(view.stack)
            return f"pick up the stack ({size} card{'' if size == 1 else 's'})"
        case Swap(hand_card=hand, up_card=up):
            return f"swap {card_text(hand)} from the hand for face-up {card_text(up)}"
        case Ready():
            return "ready (done swapping)"
        case Resign():
            return "resign"


def _source(view: StressView | None) -> str | None:
    """Where the view's seat plays from now, if the view says."""
    if view is None or view.seat is None or not 0 <= view.seat < len(view.sources):
        return None
    return view.sources[view.seat]


def rank_of(card: str) -> str:
    return card[:-1]


def allowed_text(view: StressView) -> str:
    """What may be played now, in plain words: "any card", "7 or higher, or a
    2 or a 3", "below 9 (2 to 8)"."""
    top, stack = view.top, view.stack
    ten_wild = view.rules["ten_wild"]
    if top is None:
        if not stack:
            return "any card (the stack is empty)"
        if any(rank_of(c) == "2" for c in stack):
            return "any card (a 2 resets the stack)"
        return "any card (nothing but 3s on the stack)"
    rank = rank_of(top)
    if rank == "9":
        return "below 9 (2 to 8)" + (", or a 10" if ten_wild else "")
    extras = ["2", "3"]
    if ten_wild and POWER[rank] > POWER["10"]:
        extras.append("10")
    extra = ", ".join(f"a {r}" for r in extras[:-1]) + f" or a {extras[-1]}"
    if rank == "A":
        return f"an A, or {extra}"
    return f"{rank} or higher, or {extra}"


def see_through(view: StressView) -> int:
    """How many 3s lie on the effective top card (seen through)."""
    count = 0
    for card in reversed(view.stack):
        if rank_of(card) != "3":
            break
        count += 1
    return count


def table_lines(view: StressView, names: Sequence[str], you: Collection[int]) -> list[str]:
    """The position in a few lines (``GameSpec.table_lines``): the stack and
    what may follow it, then each player's cards."""
    stack = view.stack
    lines = [
        f"Stack, bottom to top: {', '.join(stack)}." if stack else "The stack is empty.",
        f"Playable now: {allowed_text(view)}.",
        f"Stock {view.stock}, cemetery {len(view.cemetery)}.",
    ]
    for seat in range(view.players):
        held = fill_names(f"{{p{seat} holds|hold}} {view.hand_sizes[seat]} in hand", names, you)
        up = ", ".join(view.face_up[seat]) or "none"
        down = sum(1 for d in view.face_down[seat] if d)
        state = ""
        if seat in view.finished:
            state = f" (finished, place {view.finished.index(seat) + 1})"
        elif seat in view.resigned:
            state = " (resigned)"
        elif view.phase == "swap":
            state = " (ready)" if view.ready[seat] else " (swapping)"
        lines.append(f"{held}; face up: {up}; face down: {down}{state}.")
    if view.phase == "swap" and view.swaps_left is not None:
        lines.append(f"Swaps left: {view.swaps_left}.")
    return lines


RANK_WORDS = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
# several of a rank in words: "9s" would read as a card (the 9 of spades)
RANK_PLURALS = {
    **dict(
        zip(
            RANKS,
            ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens"),
            strict=False,
        )
    ),
    "J": "Jacks",
    "Q": "Queens",
    "K": "Kings",
    "A": "Aces",
}
COUNT_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight")


def choice_groups(moves: Sequence[StressMove], view: StressView) -> list[ChoiceGroup]:
    """The moves by what they do, plays by rank and then by how many cards
    (``GameSpec.choice_groups``): "Play two nines: 9S and 9H, 9S and 9D..."."""
    source = " from the face-up cards" if _source(view) == "face_up" else ""
    plays: dict[str, dict[str, list[Choice]]] = {}
    others: dict[str, list[Choice]] = {}
    for move in moves:
        match move:
            case Play(cards=cards):
                rank = card_text(cards[0])[:-1]
                said = RANK_PLURALS[rank] if len(cards) > 1 else RANK_WORDS.get(rank, rank)
                head = f"Play {COUNT_WORDS[len(cards) - 1]} {said}"
                rows = plays.setdefault(rank, {})
                rows.setdefault(head + source, []).append(
                    Choice(str(move), " and ".join(card_text(c) for c in cards))
                )
            case Blind(position=position):
                others.setdefault("Turn up face-down card", []).append(
                    Choice(str(move), f"card {position}")
                )
            case Swap(hand_card=hand, up_card=up):
                head = f"Swap {card_text(hand)} from the hand for face-up"
                others.setdefault(head, []).append(Choice(str(move), card_text(up)))
            case _:
                others.setdefault(move_words(move, view), []).append(Choice(str(move), ""))
    groups = []
    for rank in sorted(plays, key=POWER.__getitem__):
        said = RANK_PLURALS[rank]
        rows = plays[rank]
        singles = [c.words for c in next(iter(rows.values()))]
        held = f"{', '.join(singles[:-1])} and {singles[-1]}" if len(singles) > 1 else singles[0]
        groups.append(
            ChoiceGroup(
                said.lower(),  # what `list` takes: "list nines", "list jacks"
                f"Play {said}{source}",
                f"one or more of {held}" if len(rows) > 1 else held,
                tuple(ChoiceRow(h, tuple(cs)) for h, cs in rows.items()),
            )
        )
    for head, choices in others.items():
        name = head.split(" ")[0].lower()
        groups.append(ChoiceGroup(name, head, head.lower(), (ChoiceRow(head, tuple(choices)),)))
    return groups
