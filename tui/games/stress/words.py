"""The Stress screen's own text: pure functions of a typed view (tested in
tests/tui/test_stress_screen.py without the app).

What a move is called belongs to the rules (``rules.stress.words``); these
are the captions around the cards: what the stack takes, one line per
opponent, whose rows these are, the swap and choice prompts.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from rules.events import Event, fill_names
from rules.stress import StressView
from rules.stress.words import POWER, RANKS, allowed_text, see_through
from tui.glyphs import in_words
from tui.plain import plain
from tui.save_words import ordinal
from tui.table.clocks import clock_text
from tui.widgets.cards import CardStyle, card_label, split_card
from tui.widgets.event_log import display_text

if TYPE_CHECKING:
    from .groups import Group

__all__ = ["POWER", "RANKS", "allowed_text", "see_through"]
KINDS_OF_EVENT_KEPT = ("burn", "skip", "pickup", "blind_fails", "finish", "resign", "game_over")


def for_style(text: str, style: CardStyle) -> str:
    """``text`` with its arrows and marks spelled out in the ASCII style
    (tui/glyphs.py decides every glyph)."""
    return in_words(text, style.ascii)


def rank_of(card: str) -> str:
    return split_card(card)[0]


def cards_text(cards: Sequence[str], style: CardStyle) -> str:
    return " ".join(card_label(c, style) for c in cards) or "-"


# ------------------------------------------------------------------ the stack
def stack_caption(view: StressView, style: CardStyle, width: int = 200) -> str:
    """The stack in one line of at most ``width`` columns where it can: its
    size, what may be played, stock and cemetery. The note on see-through 3s
    goes first when there is no room (the cards' labels show it too)."""
    stack, top = view.stack, view.top
    counts = f"stock {view.stock} · cemetery {len(view.cemetery)}"
    if not stack:
        return f"Stack empty: any card · {counts}"
    through = see_through(view)
    allowed = allowed_text(view)
    # "Stack 8" read as the stack numbered 8: the 8 is how many cards it holds
    size = f"Stack ({len(stack)} card{'s' if len(stack) > 1 else ''})"
    if through and top is not None:
        threes = f"3{'s' if through > 1 else ''}"
        seen = f"{size}: {allowed} (see through the {threes} to {card_label(top, style)})"
        if len(seen) + len(counts) + 3 <= width:
            return f"{seen} · {counts}"
    return f"{size}: {allowed} · {counts}"


def clock_caption(seconds_left: float | None, phase: str) -> str:
    """The countdown beside the stack's caption: "0:42 left" for the turn, or
    for all the swaps before the first turn; nothing without a clock."""
    if seconds_left is None or phase == "over":
        return ""
    text = clock_text(seconds_left)
    return f"{text} to swap" if phase == "swap" else text


def event_note(event: Event, names: Sequence[str], you: Collection[int], style: CardStyle) -> str:
    """A short line for what just happened, kept under the stack."""
    if event.kind not in KINDS_OF_EVENT_KEPT:
        return ""
    return display_text(event.render(names, you), style)


# ------------------------------------------------------------------ the players
def seat_state(view: StressView, seat: int) -> str:
    """Where a seat stands: finished in place N, resigned, ready, swapping."""
    if seat in view.finished:
        return f"finished {ordinal(view.finished.index(seat) + 1)}"
    if seat in view.resigned:
        return "resigned"
    if view.phase == "swap":
        return "ready" if view.ready[seat] else "swapping"
    return ""


def opponent_line(
    view: StressView,
    seat: int,
    names: Sequence[str],
    style: CardStyle,
    width: int,
    acting: Collection[int] = (),
    open_seats: Collection[int] = (),
) -> str:
    """One opponent in one line of at most ``width`` columns: name, cards in
    hand (and those of them the table knows, from a pick-up or a swap), the
    face-up row, face-down count. The name is cut first, then the known cards.
    A seat nobody has taken yet (``open_seats``) is only that: "(open seat)"."""
    mark = (">" if style.ascii else "▸") if seat in acting else " "
    if seat in open_seats:
        name = plain(names[seat], 40)
        shown = name if "(open seat)" in name else f"{name} (open seat)"
        return f"{mark}{shown}"[:width]
    hand = view.hand_sizes[seat]
    up = view.face_up[seat]
    down = sum(1 for there in view.face_down[seat] if there)
    state = seat_state(view, seat)
    name = plain(names[seat], 40)
    if seat in view.finished or seat in view.resigned:
        return f"{mark}{name[: max(width - len(state) - 3, 3)]}: {state}"[:width]
    dealt = " as dealt" if view.phase == "swap" else ""
    rest = [f"up{dealt} {cards_text(up, style)}", f"down {down}", *([state] if state else [])]
    known = view.known_in_hand[seat]
    with_known = [f"hand {hand} (known {cards_text(known, style)})", *rest] if known else []
    for parts in (with_known, [f"hand {hand}", *rest]):
        if not parts:
            continue
        tail = " · ".join(parts)
        room = width - len(tail) - 4
        if room >= min(len(name), 10):
            shown = name if len(name) <= room else name[: max(room - 1, 1)] + "…"
            return f"{mark}{shown}: {tail}"[:width]
    short = f"h{hand} up {cards_text(up, style)} d{down}" + (f" {state}" if state else "")
    room = max(width - len(short) - 3, 3)
    shown = name if len(name) <= room else name[: room - 1] + "…"
    return f"{mark}{shown}: {short}"[:width]


def opponent_lines(
    view: StressView,
    seat: int | None,
    names: Sequence[str],
    style: CardStyle,
    width: int,
    acting: Collection[int] = (),
    open_seats: Collection[int] = (),
) -> list[str]:
    """Every seat but ``seat`` (a spectator sees all), one line each."""
    return [
        opponent_line(view, s, names, style, width, acting, open_seats)
        for s in range(view.players)
        if s != seat
    ]


def ranking_text(names: Sequence[str], ranking: Sequence[Sequence[int]]) -> str:
    """The final order: "1. Ann  2. Bob and Cy  4. Dee"."""
    parts, place = [], 1
    for group in ranking:
        who = " and ".join(plain(names[s], 20) for s in group)
        parts.append(f"{place}. {who}")
        place += len(group)
    return "  ".join(parts)


# ------------------------------------------------------------------ your rows
def whose(seat: int, names: Sequence[str], you: Collection[int]) -> str:
    """The owner of the rows on screen, to start a caption: "Your" for the
    person at the screen, else "Ann's" (a replay seen by another seat, a hot
    seat's player not named You)."""
    return fill_names(f"{{p{seat}'s}}", names, you)


WATCHING = "Watching: the players' hands are hidden; their face-up cards are above."


def out_caption(view: StressView, seat: int, names: Sequence[str], you: Collection[int]) -> str:
    """The caption of a seat's rows once it is out of the game, else ""."""
    if seat in view.finished:
        place = ordinal(view.finished.index(seat) + 1)
        return fill_names(f"{{p{seat}}} finished {place}: every card played.", names, you)
    if seat in view.resigned:
        return fill_names(f"{{p{seat}}} resigned: these cards are out of play.", names, you)
    return ""


def swap_caption(view: StressView, marked_hand: str | None, marked_up: str | None,
                 style: CardStyle) -> str:  # fmt: skip
    """What to press next in the swaps, and how many swaps are left (a card
    marked, the cursor goes over to the other row by itself)."""
    left = view.swaps_left
    if not left:
        return "no swaps left: r when ready"
    if marked_hand and not marked_up:
        return f"{card_label(marked_hand, style)} marked: ⏎ on a face-up card swaps it"
    if marked_up and not marked_hand:
        return f"{card_label(marked_up, style)} marked: ⏎ on a hand card swaps it"
    return f"swap: ⏎ a hand card, then a face-up card ({left} left)"


def blind_caption(positions: Sequence[int]) -> str:
    """The face-down cards left to choose from (1-4 keep their numbers)."""
    if len(positions) == 1:
        return f"⏎ (or {positions[0] + 1}) turns up the last one"
    keys = ", ".join(str(p + 1) for p in positions[:-1]) + f" or {positions[-1] + 1}"
    return f"choose one ({keys}), ⏎ turns it up"


def choice_caption(groups: Sequence[Group], cursor: int, count: int) -> str:
    """The ranks that may be played (in words, for every terminal) and the
    choice under the cursor: "may play 6 J A · 2 of 3 Js chosen (↑↓), ⏎ plays"."""
    ranks = [g.rank for g in groups if g.playable]
    if not ranks:
        return "nothing goes: p picks up the stack"
    may = f"may play {' '.join(ranks)}"
    if not 0 <= cursor < len(groups):
        return may
    group = groups[cursor]
    if not group.playable:
        return f"{may} · not {group.rank}"
    many = len(group.cards)
    if many > 1 and len(group.counts) > 1:
        return f"{may} · {count} of {many} {group.rank}s (↑↓), ⏎ plays"
    return f"{may} · ⏎ plays {group.rank if count == 1 else f'{count} {group.rank}s'}"
