"""The Stress screen: one line per opponent (face-up row, cards in hand and
face down), the stack with its top cards and what may be played on it, your
face-up and face-down rows, your hand grouped by rank, and the log.

Keys, in play: ←/→ or 1-9 choose a group of one rank (from the hand, or from
the face-up row once the hand is empty; a face-down card by its position
1-4); ↑/↓ how many cards of that rank; Enter or space plays; p picks the stack
up; m lists every legal move. Before the first turn, the swaps: ↑/↓ move
between your hand and your face-up row, ←/→ or 1-9 choose a card, Enter or
space marks it; a hand card and a face-up card marked are swapped; r says
ready. Every move is sent in the notation of docs/rules/stress.md.

When the ``timer`` option is on, the seat's countdown shows at the right of
the stack's caption, as the trick screen shows it beside its caption: the
time left comes with each table update (``Update.time_left``) and ticks on
the wall clock in between; it stands still while a menu has the clocks
stopped.

The text of the screen comes from pure functions of the view (tested in
tests/tui/test_stress_screen.py); the screen only keeps the cursor (GameScreen
keeps the countdown's deadline).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from rules.events import Event, fill_names
from rules.stress import StressView
from rules.views import View
from tui.plain import plain
from tui.styles import TABLE
from tui.widgets.cards import CARD_WIDTH, GAP, CardFace, CardRow, CardStyle, card_label, split_card
from tui.widgets.event_log import EventLog, display_text
from tui.widgets.footer import FittingFooter

from .base import URGENT_SECONDS, GameScreen, clock_text

if TYPE_CHECKING:
    from textual._path import CSSPathType

STRESS_CSS = Path(__file__).with_name("stress.tcss")

# lowest to highest (docs/rules/stress.md): suits never matter
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
POWER = {r: i for i, r in enumerate(RANKS)}
GROUP_KEYS = 9  # number keys 1-9 choose a group; arrows reach the rest
STACK_SHOWN = 12  # at most this many top cards of the stack are drawn
BACK = "##"  # the text of a face-down card (drawn as a card back)
KINDS_OF_EVENT_KEPT = ("burn", "skip", "pickup", "blind_fails", "finish", "resign", "game_over")


# the ASCII card style keeps the screen's own words to ASCII too
_ASCII = (("↑↓", "up/down"), ("↑", "up"), ("↓", "down"), ("⏎", "Enter"), ("×", "x"),
          ("…", "..."), ("⇅", "<>"), ("▸", ">"))  # fmt: skip


def for_style(text: str, style: CardStyle) -> str:
    """``text`` with its arrows and marks spelled out in the ASCII style."""
    if style.ascii:
        for mark, word in _ASCII:
            text = text.replace(mark, word)
    return text


def rank_of(card: str) -> str:
    return split_card(card)[0]


def ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


# ------------------------------------------------------------------ the stack
def allowed_text(view: StressView) -> str:
    """What may be played now, in plain words: "any card", "7 or higher, or a
    2 or a 3", "below 9 (2 to 8)"."""
    top = view.get("top")
    stack = view.get("stack", [])
    ten_wild = bool(view.get("rules", {}).get("ten_wild"))
    if top is None:
        if not stack:
            return "any card (the stack is empty)"
        if rank_of(stack[-1]) == "2" or any(rank_of(c) == "2" for c in stack):
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
    for card in reversed(view.get("stack", [])):
        if rank_of(card) != "3":
            break
        count += 1
    return count


def stack_caption(view: StressView, style: CardStyle, width: int = 200) -> str:
    """The stack in one line of at most ``width`` columns where it can: its
    size, what may be played, stock and cemetery. The note on see-through 3s
    goes first when there is no room (the cards' labels show it too)."""
    stack = view.get("stack", [])
    counts = f"stock {view.get('stock', 0)} · cemetery {len(view.get('cemetery', []))}"
    if not stack:
        return f"Stack empty: any card · {counts}"
    top = view.get("top")
    through = see_through(view)
    allowed = allowed_text(view)
    if through and top is not None:
        threes = f"3{'s' if through > 1 else ''}"
        seen = (
            f"Stack {len(stack)}: {allowed} (see through the {threes} to {card_label(top, style)})"
        )
        if len(seen) + len(counts) + 3 <= width:
            return f"{seen} · {counts}"
    return f"Stack {len(stack)}: {allowed} · {counts}"


def stack_faces(view: StressView, width: int) -> list[CardFace]:
    """The top cards of the stack that fit ``width``, oldest first: the card
    that counts is marked "top", the 3s on it "see-through" (muted)."""
    stack = view.get("stack", [])
    room = max(1, (width + GAP) // (CARD_WIDTH + GAP))
    shown = stack[-min(room, STACK_SHOWN) :]
    through = see_through(view)
    counts = view.get("top") is not None
    faces = []
    for i, card in enumerate(shown):
        from_top = len(shown) - 1 - i
        if from_top < through:
            faces.append(CardFace(card, playable=False, label="see"))
        elif from_top == through and counts:
            faces.append(CardFace(card, playable=True, label="top"))
        else:
            faces.append(CardFace(card))
    return faces


# ------------------------------------------------------------------ groups
@dataclass(frozen=True)
class Group:
    """The cards of one rank in the row being played from, and how many of
    them may be played together now (empty: none)."""

    rank: str
    cards: tuple[str, ...]
    counts: tuple[int, ...] = ()

    @property
    def playable(self) -> bool:
        return bool(self.counts)


# cards a player keeps for when nothing else goes: the cursor starts elsewhere
KEPT_FOR_LATER = ("2", "3", "10")


def first_choice(groups: Sequence[Group]) -> int:
    """The group the cursor starts on: the lowest playable rank that is not a
    2, 3 or 10 (those are worth keeping), else the first playable one."""
    playable = [i for i, g in enumerate(groups) if g.playable]
    plain_ranks = [i for i in playable if groups[i].rank not in KEPT_FOR_LATER]
    return (plain_ranks or playable or [0])[0]


def plays_in(legal: Collection[str]) -> list[list[str]]:
    """The legal plays of cards (not blind, pickup, swap or ready), as card lists."""
    plays = []
    for move in legal:
        if move in ("pickup", "ready") or move.startswith(("blind", "swap")):
            continue
        plays.append(move.split("+"))
    return plays


def hand_groups(cards: Sequence[str], legal: Collection[str] = ()) -> list[Group]:
    """``cards`` grouped by rank, lowest rank first, each with the numbers of
    its cards that ``legal`` lets be played together."""
    by_rank: dict[str, list[str]] = {}
    for card in cards:
        by_rank.setdefault(rank_of(card), []).append(card)
    counts: dict[str, set[int]] = {}
    for play in plays_in(legal):
        counts.setdefault(rank_of(play[0]), set()).add(len(play))
    return [
        Group(rank, tuple(by_rank[rank]), tuple(sorted(counts.get(rank, ()))))
        for rank in sorted(by_rank, key=lambda r: POWER.get(r, -1))
    ]


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


def play_for(group: Group, count: int, legal: Collection[str]) -> str | None:
    """The notation of playing ``count`` cards of ``group`` (its first ones), if legal."""
    chosen = "+".join(sorted(group.cards[:count], key=lambda c: "SHDC".index(c[-1])))
    if chosen in legal:
        return chosen
    # suits never matter: any legal play of that many of the rank will do
    for play in plays_in(legal):
        if rank_of(play[0]) == group.rank and len(play) == count:
            return "+".join(play)
    return None


def group_faces(
    groups: Sequence[Group],
    cursor: int | None,
    count: int,
    width: int,
    active: bool,
    labels: bool = True,
) -> list[CardFace]:
    """A row of groups: every card while they fit ``width``, else one card per
    group with its size (``1×3``). The group under ``cursor`` has its first
    ``count`` cards chosen; with ``active``, playable groups are marked."""
    total = sum(len(g.cards) for g in groups)
    compact = total * (CARD_WIDTH + GAP) - GAP > width
    faces = []
    for i, group in enumerate(groups):
        playable = group.playable if active else None
        key = str(i + 1) if labels and i < GROUP_KEYS else ""
        chosen = i == cursor
        if compact:
            size = len(group.cards)
            label = key
            if size > 1:
                label = f"{count}/{size}" if chosen else f"{key}×{size}"
            faces.append(CardFace(group.cards[0], playable, chosen, label=label))
            continue
        for j, card in enumerate(group.cards):
            faces.append(
                CardFace(card, playable, chosen and j < count, label=key if j == 0 else "")
            )
    return faces


def down_faces(
    row: Sequence[bool], cursor: int | None, active: bool, labels: bool = True
) -> list[CardFace]:
    """The face-down row by position (1-4): the backs still there, labelled
    with their positions (which keep their numbers all game)."""
    return [
        CardFace(BACK, playable=True if active else None, selected=cursor == i,
                 label=str(i + 1) if labels else "", face_down=True)
        for i, there in enumerate(row)
        if there
    ]  # fmt: skip


# ------------------------------------------------------------------ the players
def seat_state(view: StressView, seat: int) -> str:
    """Where a seat stands: finished in place N, resigned, ready, swapping."""
    finished = view.get("finished", [])
    if seat in finished:
        return f"finished {ordinal(finished.index(seat) + 1)}"
    if seat in view.get("resigned", []):
        return "resigned"
    if view.get("phase") == "swap":
        ready = view.get("ready", [])
        return "ready" if seat < len(ready) and ready[seat] else "swapping"
    return ""


def cards_text(cards: Sequence[str], style: CardStyle) -> str:
    return " ".join(card_label(c, style) for c in cards) or "-"


def opponent_line(
    view: StressView,
    seat: int,
    names: Sequence[str],
    style: CardStyle,
    width: int,
    acting: Collection[int] = (),
) -> str:
    """One opponent in one line of at most ``width`` columns: name, cards in
    hand, the face-up row, face-down count; what the table knows is in their
    hand when there is room. The name is cut first."""
    mark = (">" if style.ascii else "▸") if seat in acting else " "
    hand = view.get("hand_sizes", [0] * (seat + 1))[seat]
    up = view.get("face_up", [[]] * (seat + 1))[seat]
    down = sum(1 for there in view.get("face_down", [[]] * (seat + 1))[seat] if there)
    state = seat_state(view, seat)
    name = plain(names[seat] if seat < len(names) else f"Player {seat + 1}", 40)
    if seat in view.get("finished", []) or seat in view.get("resigned", []):
        return f"{mark}{name[: max(width - len(state) - 3, 3)]}: {state}"[:width]
    dealt = " as dealt" if view.get("phase") == "swap" else ""
    parts = [f"hand {hand}", f"up{dealt} {cards_text(up, style)}", f"down {down}"]
    if state:
        parts.append(state)
    known = view.get("known_in_hand", [[]] * (seat + 1))[seat]
    tail = " · ".join(parts)
    with_known = f"{tail} · holds {cards_text(known, style)}" if known else tail
    for rest in (with_known, tail):
        room = width - len(rest) - 4
        if room >= min(len(name), 10):
            shown = name if len(name) <= room else name[: max(room - 1, 1)] + "…"
            return f"{mark}{shown}: {rest}"[:width]
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
) -> list[str]:
    """Every seat but ``seat`` (a spectator sees all), one line each."""
    n = int(view.get("players", len(names)))
    return [opponent_line(view, s, names, style, width, acting) for s in range(n) if s != seat]


def ranking_text(view: StressView, names: Sequence[str], ranking: Sequence[Sequence[int]]) -> str:
    """The final order: "1. Ann  2. Bob and Cy  4. Dee"."""
    parts, place = [], 1
    for group in ranking:
        who = " and ".join(plain(names[s], 20) if s < len(names) else "?" for s in group)
        parts.append(f"{place}. {who}")
        place += len(group)
    return "  ".join(parts)


def swap_caption(view: StressView, marked_hand: str | None, marked_up: str | None,
                 style: CardStyle) -> str:  # fmt: skip
    left = view.get("swaps_left", 0)
    if not left:
        return "No swaps left: press r when ready."
    if marked_hand and not marked_up:
        return f"{card_label(marked_hand, style)} marked: ⏎ on a face-up card (↑) swaps"
    if marked_up and not marked_hand:
        return f"{card_label(marked_up, style)} marked: ⏎ on a hand card (↓) swaps"
    return f"{left} swaps left: ⏎ marks a card here, then one face up (↑)"


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


# ------------------------------------------------------------------ the list of moves
class MovesPicker(ModalScreen[str | None]):
    """Every legal move in the game's notation: nothing is ever out of reach."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,m", "cancel", "Back", id="stress.moves.cancel")
    ]

    def __init__(self, legal: Sequence[str], style: CardStyle) -> None:
        super().__init__()
        self.moves = list(legal)
        self.card_style = style

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="stress-moves"):
            yield Static("Every legal move", classes="title")
            options = [
                Option(Text(display_text(move_words(m, self.card_style), self.card_style)), id=m)
                for m in self.moves
            ]
            yield OptionList(*options, id="stress-move-list")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


def move_words(move: str, style: CardStyle) -> str:
    """A move's notation with a word of explanation."""
    if move == "pickup":
        return "pickup — pick up the stack"
    if move == "ready":
        return "ready — done swapping"
    if move.startswith("blind"):
        return f"{move} — turn up face-down card {move.split()[-1]}"
    if move.startswith("swap"):
        _, hand, up = move.split()
        return f"{move} — {card_label(hand, style)} face up, {card_label(up, style)} into the hand"
    return f"{move} — play {cards_text(move.split('+'), style)}"


# ------------------------------------------------------------------ the screen
class StressScreen(GameScreen):
    CSS_PATH: ClassVar[CSSPathType | None] = [TABLE, STRESS_CSS]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move_cursor(-1)", "Choose", key_display="←→", id="stress.left"),
        Binding("right", "move_cursor(1)", "Choose", show=False, id="stress.right"),
        Binding("up", "vertical(1)", "More", key_display="↑↓", show=False, id="stress.up"),
        Binding("down", "vertical(-1)", "Fewer", show=False, id="stress.down"),
        *[
            Binding(str(n), f"choose({n})", f"Choose {n}", show=False, id=f"stress.choose{n}")
            for n in range(1, GROUP_KEYS + 1)
        ],
        Binding("enter,space", "play", "Play", key_display="⏎", id="stress.play"),
        Binding("p", "pickup", "Pick up", id="stress.pickup"),
        Binding("r", "ready", "Ready", id="stress.ready"),
        Binding("m", "moves", "Moves", id="stress.moves"),
        Binding("g", "result", "Result", id="stress.result"),
    ]

    def __init__(self, client: Any) -> None:
        super().__init__(client)
        self.cursor = 0  # the group (or face-down position, or swap card) chosen
        self.count = 1  # how many cards of the chosen group
        self.area = "hand"  # swaps: the row the cursor is in, "hand" or "up"
        self.marked_hand: str | None = None
        self.marked_up: str | None = None
        self.notes: list[str] = []
        self._drawn: tuple[int | None, str, int] | None = None

    @property
    def view(self) -> StressView:
        return cast(StressView, self.update.view)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", markup=False, id="opponents")
        yield Static("", classes="spacer")  # roomy: the stack in the middle
        with Horizontal(id="stack-caption-row"):
            yield Static("", markup=False, id="stack-caption", classes="caption")
            yield Static("", markup=False, id="clock")
        yield CardRow(id="stack", empty_text="(the stack is empty)")
        yield EventLog(id="log")
        yield Static("", classes="spacer")  # roomy: your rows at the bottom
        yield Static("", markup=False, id="mine-caption", classes="caption")
        yield CardRow(id="mine", empty_text="(no cards on the table)")
        yield Static("", markup=False, id="hand-caption", classes="caption")
        yield CardRow(id="hand", empty_text="(no cards in hand)")
        yield Static("", markup=False, id="status")
        yield FittingFooter(compact=True)

    def show_clock(self) -> None:
        left = self.seconds_left()
        clock = self.query_one("#clock", Static)
        clock.update(clock_caption(left, self.phase))
        clock.set_class(left is not None and left < URGENT_SECONDS, "-urgent")

    # ------------------------------------------------------------ state
    @property
    def phase(self) -> str:
        return str(self.view.get("phase", "swap"))

    @property
    def source(self) -> str | None:
        """Where the seat on screen plays from now (play phase)."""
        seat = self.seat
        sources = self.view.get("sources", [])
        if seat is None or not 0 <= seat < len(sources):
            return None
        return str(sources[seat])

    @property
    def hand(self) -> list[str]:
        return list(self.view.get("hand", []))

    @property
    def face_up(self) -> list[str]:
        rows = self.view.get("face_up", [])
        seat = self.seat
        return list(rows[seat]) if seat is not None and seat < len(rows) else []

    @property
    def face_down(self) -> list[bool]:
        rows = self.view.get("face_down", [])
        seat = self.seat
        return list(rows[seat]) if seat is not None and seat < len(rows) else []

    def groups(self) -> list[Group]:
        """The groups of the row played from now (hand, or face-up row)."""
        legal = self.legal if self.my_turn else ()
        cards = self.face_up if self.source == "face_up" else self.hand
        return hand_groups(cards, legal)

    def choices(self) -> int:
        """How many places the cursor can take now."""
        if self.phase == "swap":
            return len(self.hand if self.area == "hand" else self.face_up)
        if self.source == "face_down":
            return sum(self.face_down)
        return len(self.groups())

    def down_positions(self) -> list[int]:
        return [i for i, there in enumerate(self.face_down) if there]

    # ------------------------------------------------------------ drawing
    def note_events(self, events: list[Event]) -> None:
        for event in events:
            note = event_note(event, self.names, self.you, self.card_style)
            if note:
                self.notes = [*self.notes[-1:], note]
            elif event.kind == "reveal":
                self.notes = []

    def show_view(self, shown: View) -> None:
        view = cast(StressView, shown)
        drawn = (self.seat, str(view.get("phase")), int(view.get("plays", 0)))  # a new turn
        if drawn != self._drawn:
            self._drawn = drawn
            self._reset_cursor()
        self._draw()
        self.refresh_bindings()

    def _reset_cursor(self) -> None:
        """Onto the first group worth playing, all its cards (a new turn or seat)."""
        self.marked_hand = self.marked_up = None
        if self.phase == "swap":
            self.cursor = min(self.cursor, max(self.choices() - 1, 0))
            return
        self.cursor = first_choice(self.groups())
        self._full_count()

    def _full_count(self) -> None:
        groups = self.groups() if self.phase != "swap" and self.source != "face_down" else []
        if 0 <= self.cursor < len(groups) and groups[self.cursor].counts:
            self.count = max(groups[self.cursor].counts)
        elif 0 <= self.cursor < len(groups):
            self.count = len(groups[self.cursor].cards)
        else:
            self.count = 1

    def _row_width(self, row_id: str) -> int:
        try:
            width = self.query_one(f"#{row_id}", CardRow).content_region.width
        except Exception:
            width = 0
        return width or max(self.size.width - 2, 20)

    def _draw(self) -> None:
        view = self.view
        if not view:
            return
        style = self.card_style
        width = max(self.size.width - 2, 20)
        acting = () if self.over else self.update.to_act
        lines = opponent_lines(view, self.seat, self.names, style, width, acting)
        self.query_one("#opponents", Static).update(Text(for_style("\n".join(lines), style)))
        self.query_one("#opponents").styles.height = max(len(lines), 1)
        self._draw_stack()
        self._draw_rows()
        self.show_clock()

    def _draw_stack(self) -> None:
        view, style = self.view, self.card_style
        caption = stack_caption(view, style, max(self.size.width - 2, 20))
        if self.over and self.update.result is not None:
            caption = "Final ranking: " + ranking_text(view, self.names, self.update.result.ranking)
        self.query_one("#stack-caption", Static).update(for_style(caption, style))
        row = self.query_one("#stack", CardRow)
        row.set_faces(stack_faces(view, self._row_width("stack")))
        row.empty_text = self.notes[-1] if self.notes else "(the stack is empty)"
        row.refresh()

    def _draw_rows(self) -> None:
        style = self.card_style
        seat = self.seat
        mine = self.query_one("#mine", CardRow)
        hand_row = self.query_one("#hand", CardRow)
        if seat is None:
            self.query_one("#mine-caption", Static).update("Watching: no hand of your own.")
            self.query_one("#hand-caption", Static).update("")
            mine.set_faces([])
            hand_row.set_faces([])
            return
        # a hot seat or a replay names whose cards these are
        mine_only = not self.hot_seat and self.replay is None
        whose = "Your" if mine_only else f"{self.seat_name(seat)}'s"
        up, down = self.face_up, self.face_down
        ups = [CardFace(c) for c in up]
        downs = down_faces(down, None, False, labels=self.phase != "swap")
        mine_caption = f"{whose} face up ({len(up)}) and face down ({sum(down)})"
        hand_caption = f"{whose} hand ({len(self.hand)})"
        hand_faces = group_faces(
            hand_groups(self.hand), None, 0, self._row_width("hand"), False, labels=False
        )
        turn = self.my_turn and not self.over
        if self.phase == "swap" and turn:
            on_hand, on_up = self.area == "hand", self.area == "up"
            mark = "<>" if style.ascii else "⇅"  # a card marked for the swap
            hand_faces = [
                CardFace(c, selected=(on_hand and i == self.cursor) or c == self.marked_hand,
                         label=mark if c == self.marked_hand else str(i + 1) if on_hand else "")
                for i, c in enumerate(self.hand)
            ]  # fmt: skip
            ups = [
                CardFace(c, selected=(on_up and i == self.cursor) or c == self.marked_up,
                         label=mark if c == self.marked_up else str(i + 1) if on_up else "")
                for i, c in enumerate(up)
            ]  # fmt: skip
            hand_caption += " · " + swap_caption(self.view, self.marked_hand, self.marked_up, style)
        elif self.phase == "play" and turn:
            source = self.source
            if source == "hand":
                hand_faces = group_faces(self.groups(), self.cursor if turn else None,
                                         self.count, self._row_width("hand"), turn)  # fmt: skip
                if turn:
                    hand_caption += " · " + self._choice_caption()
            elif source == "face_up":
                ups = group_faces(self.groups(), self.cursor if turn else None, self.count,
                                  self._row_width("mine") - 24, turn)  # fmt: skip
                if turn:
                    mine_caption += " · " + self._choice_caption()
            elif source == "face_down":
                positions = self.down_positions()
                at = positions[self.cursor] if turn and self.cursor < len(positions) else None
                downs = down_faces(down, at, turn)
                if turn:
                    mine_caption += " · choose one blind (1-4), ⏎ turns it up"
        if style.ascii:
            ups = [replace(f, label=for_style(f.label, style)) for f in ups]
            hand_faces = [replace(f, label=for_style(f.label, style)) for f in hand_faces]
        mine.set_faces([*ups, *downs])
        hand_row.set_faces(hand_faces)
        self.query_one("#mine-caption", Static).update(for_style(mine_caption, style))
        self.query_one("#hand-caption", Static).update(for_style(hand_caption, style))

    def _choice_caption(self) -> str:
        return choice_caption(self.groups(), self.cursor, self.count)

    def turn_text(self) -> str:
        if self.over:
            return "The game is over: Esc for the menu, g for the result."
        if self.my_turn and self.seat is not None:
            who = "Your turn" if not self.hot_seat else f"{self.seat_name(self.seat)}, your turn"
            if self.phase == "swap":
                first = int(self.view.get("first_player", 0))
                starts = fill_names(f"{{p{first} plays|play}} first", self.names, self.you)
                return f"{who}: swap if you like, then r (ready). {starts}."
            if self.source == "face_down":
                return (
                    f"{who}: turn up a face-down card. The stack takes {allowed_text(self.view)}."
                )
            plays = plays_in(self.legal)
            if not plays:
                return f"{who}: nothing of yours goes on the stack: p picks it up."
            return f"{who}: play {allowed_text(self.view)}."
        return super().turn_text()

    # ------------------------------------------------------------ actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "result":
            return self.over
        if action == "pickup":
            # shown in play (greyed while it is not allowed), never during the swaps
            if self.over or self.phase != "play" or self.replay is not None:
                return False
            return True if "pickup" in self.legal else None
        if action == "ready":
            return self.phase == "swap" and not self.over and self.replay is None
        if action in ("move_cursor", "vertical", "choose", "play", "moves"):
            if self.over or self.replay is not None:
                return False
            return True if self.my_turn else None
        return super().check_action(action, parameters)

    def action_move_cursor(self, step: int) -> None:
        n = self.choices()
        if n:
            self.cursor = (self.cursor + step) % n
            self._full_count()
            self._draw_rows()

    def action_choose(self, number: int) -> None:
        if self.phase == "play" and self.source == "face_down":
            # face-down cards are chosen by position, which keeps its number all game
            positions = self.down_positions()
            if number - 1 not in positions:
                self.set_status(f"Face-down card {number} is already played.", problem=True)
                return
            self.cursor = positions.index(number - 1)
            self._draw_rows()
            return
        n = self.choices()
        if not 1 <= number <= n:
            self.set_status(f"There is no choice {number} here.", problem=True)
            return
        self.cursor = number - 1
        self._full_count()
        self._draw_rows()

    def action_vertical(self, step: int) -> None:
        if self.phase == "swap":
            self.area = "up" if step > 0 else "hand"
            self.cursor = min(self.cursor, max(self.choices() - 1, 0))
            self._draw_rows()
            return
        groups = self.groups() if self.source != "face_down" else []
        if not 0 <= self.cursor < len(groups):
            return
        group = groups[self.cursor]
        counts = group.counts or tuple(range(1, len(group.cards) + 1))
        now = counts.index(self.count) if self.count in counts else len(counts) - 1
        self.count = counts[max(0, min(len(counts) - 1, now + step))]
        self._draw_rows()

    async def action_play(self) -> None:
        if not self.my_turn:
            return
        if self.phase == "swap":
            await self._mark()
            return
        if self.source == "face_down":
            positions = self.down_positions()
            if 0 <= self.cursor < len(positions):
                await self.submit(f"blind {positions[self.cursor] + 1}")
            return
        groups = self.groups()
        if not 0 <= self.cursor < len(groups):
            return
        group = groups[self.cursor]
        move = play_for(group, self.count, self.legal)
        if move is None:
            why = allowed_text(self.view)
            if not plays_in(self.legal):
                why += "; nothing of yours goes: p picks up the stack"
            self.set_status(f"No {group.rank} may be played now: play {why}.", problem=True)
            return
        await self.submit(move)

    async def _mark(self) -> None:
        cards = self.hand if self.area == "hand" else self.face_up
        if not 0 <= self.cursor < len(cards):
            return
        card = cards[self.cursor]
        if self.area == "hand":
            self.marked_hand = None if self.marked_hand == card else card
            self.area = "up" if self.marked_up is None else self.area
        else:
            self.marked_up = None if self.marked_up == card else card
            self.area = "hand" if self.marked_hand is None else self.area
        self.cursor = min(self.cursor, max(self.choices() - 1, 0))
        if self.marked_hand and self.marked_up:
            move = f"swap {self.marked_hand} {self.marked_up}"
            self.marked_hand = self.marked_up = None
            self.area, self.cursor = "hand", 0
            if move not in self.legal:
                self.set_status("That swap is not allowed now (no swaps left?).", problem=True)
            else:
                await self.submit(move)
        self._draw_rows()

    async def action_pickup(self) -> None:
        if "pickup" not in self.legal:
            self.set_status(f"You may not pick up: play {allowed_text(self.view)}.", problem=True)
            return
        await self.submit("pickup")

    async def action_ready(self) -> None:
        if "ready" in self.legal:
            await self.submit("ready")

    def action_moves(self) -> None:
        if not self.legal:
            return

        async def chosen(move: str | None) -> None:
            if move:
                await self.submit(move)

        self.app.push_screen(MovesPicker(self.legal, self.card_style), chosen)

    def action_result(self) -> None:
        if self.over:
            self._show_game_over()

    async def on_card_row_clicked(self, message: CardRow.Clicked) -> None:
        if not self.my_turn:
            return
        if self.phase == "swap":
            area = "hand" if message.row.id == "hand" else "up"
            if area == "up" and message.index >= len(self.face_up):
                return
            self.area, self.cursor = area, message.index
            await self._mark()
            return
        # the clicked card's group (or face-down position)
        if self.source == "face_down" and message.row.id == "mine":
            backs = len(self.face_up)
            index = message.index - backs
            if 0 <= index < len(self.down_positions()):
                self.cursor = index
                await self.action_play()
            return
        text = message.text
        groups = self.groups()
        for i, group in enumerate(groups):
            if text in group.cards or (text == group.cards[0]):
                self.cursor = i
                self._full_count()
                await self.action_play()
                return


SCREEN = StressScreen


def describe(
    view: StressView,
    scores: Sequence[int],
    names: Sequence[str],
    style: CardStyle,
    snapshot: dict[str, Any] | None = None,
) -> Text:
    """A Stress view as text for replays (with ``snapshot``: everything revealed)."""
    lines = []
    if scores:
        lines.append(
            "Cards left: "
            + "  ".join(f"{plain(n, 20)} {s}" for n, s in zip(names, scores, strict=False))
        )
    lines.append(stack_caption(view, style))
    stack = view.get("stack", [])
    lines.append("Stack (bottom to top): " + cards_text(stack, style))
    seat = view.get("seat")
    n = int(view.get("players", len(names)))
    for s in range(n):
        name = plain(names[s], 20) if s < len(names) else f"Player {s + 1}"
        lines.append(
            opponent_line(view, s, [*names[:s], name, *names[s + 1 :]], style, 200).strip()
        )
    if isinstance(seat, int) and view.get("hand") is not None:
        name = plain(names[seat], 20) if seat < len(names) else "You"
        lines.append(f"{name}'s hand: {cards_text(view['hand'], style)}")
    if snapshot is not None:
        lines.append("")
        lines.append("Revealed:")
        for s, hand in enumerate(snapshot.get("hands", [])):
            name = plain(names[s], 20) if s < len(names) else f"Player {s + 1}"
            down = [c or "-" for c in snapshot.get("face_down", [[]] * (s + 1))[s]]
            lines.append(
                f"{name}: hand {cards_text(hand, style)} · face down {cards_text(down, style)}"
            )
        lines.append(f"Stock (next to draw last): {cards_text(snapshot.get('stock', []), style)}")
    return Text("\n".join(lines))
