"""The Stress screen: one line per opponent (face-up row, cards in hand and
face down), the stack with its top cards and what may be played on it, your
face-up and face-down rows, your hand grouped by rank, and the log.

Keys (the bindings below): in play ←/→ or 1-9 choose a rank's group, ↑/↓ how
many of it, Enter plays, p picks the stack up, m lists every move; in the
swaps ↑/↓ go between your hand and face-up row, Enter marks a card of each
to swap them, r says ready. Moves are sent in the rules' notation. With the
``timer`` option the seat's countdown shows right of the stack's caption
(``Update.time_left``, ticking on the wall clock in between). The screen only lays out: its
text comes from pure functions of the typed view (``words``, ``groups``); it keeps the cursor.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Header, Static

from rules.cards import parse_card
from rules.events import Event, fill_names
from rules.stress import BLINDS, PICKUP, READY, SWAPS, StressView
from rules.views import View
from tui.styles import TABLE
from tui.table.clocks import URGENT_SECONDS
from tui.table.screen import TableScreen
from tui.widgets.cards import CardFace, CardRow
from tui.widgets.event_log import EventLog
from tui.widgets.footer import FittingFooter

from .groups import (
    GROUP_KEYS,
    Group,
    compact_legend,
    down_faces,
    first_choice,
    group_faces,
    hand_groups,
    play_for,
    plays_in,
    stack_faces,
)
from .widgets import MovesPicker
from .words import (
    WATCHING,
    allowed_text,
    blind_caption,
    choice_caption,
    clock_caption,
    event_note,
    for_style,
    opponent_lines,
    out_caption,
    ranking_text,
    stack_caption,
    swap_caption,
    whose,
)

if TYPE_CHECKING:
    from net.client import TableClient
    from tui.textual_seams import CSSPathType

STRESS_CSS = Path(__file__).with_name("stress.tcss")


class StressScreen(TableScreen):
    CSS_PATH: ClassVar[CSSPathType | None] = [TABLE, STRESS_CSS]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move_cursor(-1)", "Choose", key_display="←→", id="stress.left"),
        Binding("right", "move_cursor(1)", "Choose", show=False, id="stress.right"),
        # in the swaps ↑/↓ go between the rows, and the footer says so (N23);
        # in play they choose how many cards, which the caption says
        Binding("up", "row(1)", "Row", key_display="↑↓", id="stress.row-up"),
        Binding("down", "row(-1)", "Row", show=False, id="stress.row-down"),
        Binding("up", "vertical(1)", "More or fewer", key_display="↑↓", show=False, id="stress.up"),
        Binding("down", "vertical(-1)", "Fewer", show=False, id="stress.down"),
        *[
            Binding(
                str(n),
                f"choose({n})",
                "Choose" if n == 1 else f"Choose {n}",
                key_display=f"1-{GROUP_KEYS}" if n == 1 else None,
                show=False,
                id=f"stress.choose{n}",
            )
            for n in range(1, GROUP_KEYS + 1)
        ],
        Binding("enter,space", "play", "Play", key_display="⏎", id="stress.play"),
        Binding("p", "pickup", "Pick up", id="stress.pickup"),
        Binding("r", "ready", "Ready", id="stress.ready"),
        Binding("m", "moves", "Moves", id="stress.moves"),
        Binding("g", "result", "Result", id="stress.result"),
    ]

    def __init__(self, client: TableClient) -> None:
        super().__init__(client)
        self.cursor = 0  # the group (or face-down position, or swap card) chosen
        self.count = 1  # how many cards of the chosen group
        self.area = "hand"  # swaps: the row the cursor is in, "hand" or "up"
        self.marked_hand: str | None = None
        self.marked_up: str | None = None
        self.notes: list[str] = []
        self._drawn: tuple[int | None, str, int] | None = None

    def seat_in_play(self) -> bool:  # a finisher or a resigned seat: no keys, nothing to resign
        view = self.update.view
        return not isinstance(view, StressView) or self.seat not in {*view.finished, *view.resigned}

    @property
    def shown(self) -> bool:
        """Whether a view of the game has come (not yet behind a hot seat's hand-off)."""
        return isinstance(self.update.view, StressView)

    @property
    def view(self) -> StressView:
        # the client decodes every view into the spec's view_type (StressView)
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
        if not self.shown:
            return
        left = self.clocks.seconds_left()
        clock = self.query_one("#clock", Static)
        clock.update(clock_caption(left, self.phase))
        clock.set_class(left is not None and left < URGENT_SECONDS, "-urgent")

    # ------------------------------------------------------------ state
    @property
    def phase(self) -> str:
        return self.view.phase

    @property
    def source(self) -> str | None:
        """Where the seat on screen plays from now (play phase); None for a spectator."""
        return None if self.seat is None else self.view.sources[self.seat]

    @property
    def hand(self) -> list[str]:
        return list(self.view.hand or ())  # a spectator's view has no hand

    @property
    def face_up(self) -> list[str]:
        return [] if self.seat is None else list(self.view.face_up[self.seat])

    @property
    def face_down(self) -> list[bool]:
        return [] if self.seat is None else list(self.view.face_down[self.seat])

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
        drawn = (self.seat, view.phase, view.plays)  # a new turn
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
        width = self.query_one(f"#{row_id}", CardRow).content_region.width
        return width or max(self.size.width - 2, 20)

    def _draw(self) -> None:
        style = self.card_style
        width = max(self.size.width - 2, 20)
        acting = () if self.over else self.update.to_act
        lines = opponent_lines(
            self.view, self.seat, self.labels, style, width, acting, self.link.open_seats()
        )
        self.query_one("#opponents", Static).update(Text(for_style("\n".join(lines), style)))
        self.query_one("#opponents").styles.height = max(len(lines), 1)
        self._draw_stack()
        self._draw_rows()
        self.show_clock()

    def _draw_stack(self) -> None:
        view, style = self.view, self.card_style
        # less the caption's padding and the countdown's room beside it ("0:42 to swap")
        clock = 3 + (len(clock_caption(0, "swap")) if self.clocks.seconds_left() is not None else 0)
        caption = stack_caption(view, style, max(self.size.width - 2 - clock, 20))
        if self.over and self.update.result is not None:
            caption = "Final ranking: " + ranking_text(self.names, self.update.result.ranking)
        self.query_one("#stack-caption", Static).update(for_style(caption, style))
        row = self.query_one("#stack", CardRow)
        row.set_faces(stack_faces(view, self._row_width("stack")))
        row.empty_text = self.notes[-1] if self.notes else "(the stack is empty)"
        row.refresh()

    def _draw_rows(self) -> None:
        seat = self.seat
        mine = self.query_one("#mine", CardRow)
        hand_row = self.query_one("#hand", CardRow)
        # a spectator has no rows of its own: the opponents' lines show everyone
        for row in (mine, hand_row, self.query_one("#hand-caption")):
            row.display = seat is not None
        if seat is None:
            self.query_one("#mine-caption", Static).update(WATCHING)
            return
        style = self.card_style
        # the person at this screen reads "Your" (here or across the network);
        # a hot seat or a replay names whose cards these are
        mine_only = self.interactive and not self.hot_seat
        owner = "Your" if mine_only else whose(seat, self.names, self.you)
        up, down = self.face_up, self.face_down
        ups = [CardFace(c) for c in up]
        # the positions 1-4 are keys only when a face-down card is to be chosen
        downs = down_faces(down, None, False, labels=False)
        mine_caption = (
            out_caption(self.view, seat, self.names, self.you)
            or f"{owner} face up ({len(up)}) and face down ({sum(down)})"
        )
        hand_caption = f"{owner} hand ({len(self.hand)})"
        hand_faces = group_faces(
            hand_groups(self.hand), None, 0, self._row_width("hand"), False, labels=False
        )
        # a replay shows whose turn it was, not what to press: it has no moves
        turn = self.can_act()
        if self.phase == "swap" and turn:
            on_hand, on_up = self.area == "hand", self.area == "up"
            mark = "⇅"  # a card marked for the swap
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
            groups = self.groups()
            # nothing goes: no card looks chosen, as if it could be played
            cursor = self.cursor if any(g.playable for g in groups) else None
            if self.source == "hand":
                hand_faces = group_faces(groups, cursor, self.count, self._row_width("hand"), True)
                hand_caption += " · " + self._choice_caption()
                legend = compact_legend(hand_faces)
                hand_caption += f" · {for_style(legend, style)}" if legend else ""
            elif self.source == "face_up":
                ups = group_faces(groups, cursor, self.count, self._row_width("mine") - 24, True)
                mine_caption += " · " + self._choice_caption()
            elif self.source == "face_down":
                positions = self.down_positions()
                at = positions[self.cursor] if self.cursor < len(positions) else None
                downs = down_faces(down, at, True)
                mine_caption += " · " + blind_caption(positions)
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
                first = self.view.first_player
                you = self.you if self.hot_seat else self.you | {self.seat}  # "You play first"
                starts = fill_names(f"{{p{first} plays|play}} first", self.names, you)
                return f"{who}: swap if you like, then r (ready). {starts}."
            if self.source == "face_down":
                return f"{who}: turn up a face-down card, blind."
            if not plays_in(self.legal):
                return f"{who}: nothing of yours goes on the stack: p picks it up."
            return f"{who}: play {allowed_text(self.view)}."
        return super().turn_text()

    # ------------------------------------------------------------ actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        stress_actions = ("result", "pickup", "ready", "move_cursor", "vertical", "row",
                          "choose", "play", "moves")  # fmt: skip
        if action in stress_actions and not self.shown:
            return False  # nothing to play before the first view
        if action == "result":
            return self.over
        if action == "ready":
            return self.phase == "swap" and not self.over and self.interactive
        if action == "row" and self.phase != "swap":
            return False  # ↑/↓ choose how many cards (action_vertical)
        if action == "vertical" and self.phase == "swap":
            return False  # ↑/↓ go between the rows (action_row)
        if action in ("pickup", "move_cursor", "vertical", "row", "choose", "play", "moves"):
            if self.over or not self.interactive or not self.seat_in_play():
                return False
            if action == "pickup" and self.phase != "play":
                return False  # never during the swaps
            allowed = str(PICKUP) in self.legal if action == "pickup" else self.my_turn
            return True if allowed else None  # shown, greyed while not allowed
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

    def action_row(self, step: int) -> None:
        """The swaps: ↑ to the face-up row, ↓ back to the hand."""
        self.area = "up" if step > 0 else "hand"
        self.cursor = min(self.cursor, max(self.choices() - 1, 0))
        self._draw_rows()

    def action_vertical(self, step: int) -> None:
        """In play: ↑/↓ more or fewer cards of the chosen rank."""
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
                await self.submit(str(BLINDS[positions[self.cursor]]))
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
            swap = SWAPS[(parse_card(self.marked_hand), parse_card(self.marked_up))]
            self.marked_hand = self.marked_up = None
            self.area, self.cursor = "hand", 0
            if str(swap) not in self.legal:
                self.set_status("That swap is not allowed now (no swaps left?).", problem=True)
            else:
                await self.submit(str(swap))
        self._draw_rows()

    async def action_pickup(self) -> None:
        if str(PICKUP) not in self.legal:
            self.set_status(f"You may not pick up: play {allowed_text(self.view)}.", problem=True)
            return
        await self.submit(str(PICKUP))

    async def action_ready(self) -> None:
        if str(READY) in self.legal:
            await self.submit(str(READY))

    def action_moves(self) -> None:
        if not self.legal:
            return

        async def chosen(move: str | None) -> None:
            if move:
                await self.submit(move)

        self.app.push_screen(MovesPicker(self.legal, self.view, self.card_style), chosen)

    def action_result(self) -> None:
        if self.over:
            self.ending.show_result()

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
            index = message.index - len(self.face_up)
            if 0 <= index < len(self.down_positions()):
                self.cursor = index
                await self.action_play()
            return
        for i, group in enumerate(self.groups()):
            if message.text in group.cards:
                self.cursor = i
                self._full_count()
                await self.action_play()
                return
