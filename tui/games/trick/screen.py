"""The Five-Card Trick screen: five action cards, a Block-target picker, lock in,
wait, and a reveal that says in words what became of every action.

Always on screen: chips and their difference, the pot, the round with its
extension and cap (scoreboard); each player's lights, the actions they may not
use this round and why, the Block in force on them, the defender and the items
(player panel); the countdown when the timer is on (beside the caption).

Keys: 1-5 pick or drop an action (in ``final`` pressing a picked one again adds
a second copy while there is room), a mouse click does the same; t changes the
Block's target; o and r switch Overload and Limit Reset on or off (``final``);
p uses Claim Priority while its window is open; Enter locks the choice in; x
clears it. A choice the rules would (partly) disregard asks before it is sent.

One seat's view at a time; the choice being made lives only here and is forgotten
when the seat on screen changes (hot-seat): nobody sees another's.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import ModalScreen
from textual.widgets import Header, Static

from rules.events import Event
from rules.trick.events import RoundRevealed
from rules.trick.notation import BLOCK, NO_TARGET, Submission, make_submission, parse_move
from rules.trick.options import TrickConfig
from rules.trick.state import disregarded_in_view
from rules.trick.view import TrickView
from rules.trick.words import TITLES, Words, clock_words, disregard_warning
from rules.views import View
from tui.styles import TABLE
from tui.table.clocks import URGENT_SECONDS, clock_text
from tui.table.screen import TableScreen, TableUpdated
from tui.widgets.event_log import EventLog
from tui.widgets.footer import FittingFooter
from tui.widgets.scoreboard import Scoreboard

from . import words as say
from .widgets import ActionCards, ActionFace, BlockTargetPicker, Choosing, action_faces

if TYPE_CHECKING:
    from tui.textual_seams import CSSPathType

TRICK_CSS = Path(__file__).with_name("trick.tcss")

__all__ = ["ActionCards", "BlockTargetPicker", "TrickScreen", "clock_text"]


class TrickScreen(TableScreen):
    CSS_PATH: ClassVar[CSSPathType | None] = [TABLE, TRICK_CSS]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "pick(0)", "Pick", key_display="1-5", id="trick.pick1"),
        *[
            Binding(str(n), f"pick({n - 1})", f"Pick action {n}", show=False, id=f"trick.pick{n}")
            for n in range(2, 6)
        ],
        Binding("enter", "lock_in", "Lock in", key_display="⏎", id="trick.lock"),
        Binding("t", "choose_target", "Target", id="trick.target"),
        Binding("o", "toggle_overload", "Overload", id="trick.overload"),
        Binding("r", "toggle_reset", "Reset", id="trick.reset"),
        Binding("p", "priority", "Priority", id="trick.priority"),
        # p when Claim Priority cannot be used: not in the footer, but it says why
        Binding("p", "priority_why", "Why no Claim Priority", show=False, id="trick.priority.why"),
        Binding("x,backspace", "clear", "Clear", key_display="x", id="trick.clear"),
        Binding("g", "result", "Result", id="trick.result"),
    ]
    # at 80 columns a round with Block, both items and Claim Priority open has
    # more keys than fit: Backspace clears, and the items are in the palette
    FOOTER_SPARE: ClassVar[tuple[str, ...]] = (
        "clear",
        *TableScreen.FOOTER_SPARE,
        "toggle_reset",
        "toggle_overload",
    )

    @property
    def view(self) -> TrickView:
        return cast(TrickView, self.update.view)

    def __init__(self, client: Any) -> None:
        super().__init__(client)
        # the choice being made, in the order picked (repeats: two copies)
        self.picks: list[int] = []
        self.target = NO_TARGET
        self.overload = False
        self.reset = False
        # what happened since the last reveal that the view does not keep
        self.notes: list[str] = []
        self._drawn: tuple[int | None, int] | None = None  # (seat, round) the choice is for
        self._dialog: ModalScreen[Any] | None = None
        self._log_from_start = False  # the next lines of the log begin the game's

    def compose(self) -> ComposeResult:
        yield Header()
        yield Scoreboard(id="scores")
        yield Static("", markup=False, id="players")
        with Horizontal(id="caption-row"):
            yield Static("", markup=False, id="choose-caption", classes="caption")
            yield Static("", markup=False, id="other-state")
            yield Static("", markup=False, id="clock")
        yield ActionCards(id="actions")
        yield Static("", markup=False, id="choice")
        with Horizontal(id="middle"):
            yield Static("", markup=False, id="reveal")
            yield EventLog(id="log")
        yield Static("", markup=False, id="status")
        # compact: with the items of `final` there are up to eight keys to show
        yield FittingFooter(compact=True)

    @on(events.Mount)
    def _dress_the_table(self) -> None:
        # runs before TableScreen.on_mount (Textual calls the handlers of every
        # class in the MRO, subclass first), so the title is right from the start
        setna = cast(TrickConfig, self.game_config).names == "setna"
        self.title = TITLES["setna" if setna else "trick"]
        self.set_class(setna, "-setna")

    def _fit(self, width: int, height: int) -> None:
        super()._fit(width, height)
        if self.is_mounted and hasattr(self, "update"):  # a resize before the first update
            self._draw()  # the player panel wraps its restrictions to the width

    # ------------------------------------------------------------ state
    @property
    def words(self) -> Words:
        return say.words_of(self.view)

    @property
    def ascii(self) -> bool:
        return self.card_style.ascii

    @property
    def dots(self) -> str:
        return "..." if self.ascii else "…"

    @property
    def times(self) -> str:
        return "x" if self.ascii else "×"

    @property
    def locked(self) -> str | None:
        """This seat's submission this round, once locked in (notation)."""
        return self.view.pending

    @property
    def choosing(self) -> bool:
        return self.my_turn and not self.over and self.locked is None

    def item_unused(self, key: str) -> bool:
        if self.seat is None:
            return False
        return self.view.items[self.seat][key] == "unused"

    @property
    def capacity(self) -> int:
        return 3 if self.overload else 2

    @property
    def doubles(self) -> bool:
        return self.view.doubles

    def submission(self) -> Submission:
        target = self.target if BLOCK in self.picks else NO_TARGET
        return make_submission(self.picks, target, self.overload, self.reset)

    def disregarded_now(self) -> dict[str, str]:
        """What the rules would disregard of the current choice, by action id."""
        if self.seat is None:
            return {}
        return disregarded_in_view(self.view, self.seat, self.submission())

    def opponent(self) -> str:
        return self.seat_name(1 - self.seat) if self.seat in (0, 1) else "the opponent"

    # ------------------------------------------------------------ updates
    @on(TableUpdated)
    def _close_a_stale_dialog(self, message: TableUpdated) -> None:
        # TableScreen.on_table_updated draws the update, right after this: here we
        # close a dialog the update has made stale (a time-out locked the round in)
        update = message.update
        if update.seat is not None and update.seat == self.seat and self._dialog is not None:
            view = cast(TrickView, update.view)
            if view.pending is not None or view.round != self.view.round:
                dialog, self._dialog = self._dialog, None
                if dialog.is_current:
                    dialog.dismiss(None)

    def show_seat(self, seat: int | None) -> None:
        # the log is filled afresh from the game's first event: the clock goes first
        self._log_from_start = True
        super().show_seat(seat)

    def add_to_log(self, events: Sequence[Event]) -> None:
        if self._log_from_start:
            # said before round 1: a countdown alone does not say what running out costs
            self._log_from_start = False
            config = cast(TrickConfig, self.game_config)
            clock = clock_words(config.timer, config.missed_replays)
            if clock:
                self.query_one(EventLog).add_line(clock)
        super().add_to_log(events)

    def round_ended(self, event: Event) -> int | None:
        return event.data.round if isinstance(event.data, RoundRevealed) else None

    def scores_after(self, event: Event) -> list[int] | None:
        return event.data.chips if isinstance(event.data, RoundRevealed) else None

    _own_block_lines: tuple[str, ...] = ()  # your Block's target the reveal hid (N17)

    def round_summary(self, event: Event) -> list[str]:
        lines = say.reveal_summary(event, self.names, self.you, self.card_style)
        return [*lines, *self._own_block_lines]  # (note_events saw this update first)

    def note_events(self, events: list[Event]) -> None:
        self._own_block_lines = tuple(self.narrate(e) for e in events if e.kind == "block_target")
        # what happened since the last reveal, said short under it (the log has it all)
        timeouts: list[str] = []
        for event in events:
            if event.kind == "reveal":
                # a time-out just before a reveal is part of the round it ended
                self.notes, timeouts = timeouts[-2:], []
                continue
            note = say.event_note(event, self.names, self.you)
            if note:
                self.notes = [*self.notes[-1:], note]
                if event.kind == "timeout":
                    timeouts.append(note)

    def show_view(self, shown: View) -> None:
        view = cast(TrickView, shown)
        drawn = (self.seat, view.round)
        if drawn != self._drawn or view.pending is not None or self.over:
            # a new person at the keyboard, a new round, or locked in: start afresh
            self._clear_choice()
            self._drawn = drawn
        self._draw()
        self.refresh_bindings()

    def _clear_choice(self) -> None:
        self.picks = []
        self.target = NO_TARGET
        self.overload = False
        self.reset = False

    # ------------------------------------------------------------ drawing
    def _draw(self) -> None:
        view = self.view
        if not view:
            return
        words = self.words
        styles = say.SETNA_STYLES if self.has_class("-setna") else say.SCREEN_STYLES
        self.query_one("#scores", Scoreboard).set_scores(
            self.score_labels,
            view.chips,
            [f"pot {words.count(view.pot)}", say.round_text(view)],
            acting=() if self.over else self.update.to_act,
            ascii=self.ascii,
        )
        players = self.query_one("#players", Static)
        # before the first layout the panel has no size: the screen's, less its padding
        width = players.content_region.width or self.size.width - 2 or say.PANEL_WIDTH
        players.update(
            say.to_content(say.player_lines(view, self.labels, self.ascii, width), styles)
        )
        self.query_one("#choose-caption", Static).update(self._caption())
        self.query_one("#other-state", Static).update(self._other_state())
        self.query_one("#actions", ActionCards).set_faces(self._faces())
        self.query_one("#choice", Static).update(say.to_content([self._choice_line()], styles))
        reveal = say.reveal_lines(view, self.names, self.you, self.times)
        if self.notes:
            reveal.append(say.notes_line(self.notes))
        self.query_one("#reveal", Static).update(say.to_content(reveal, styles))
        self.show_clock()

    def _caption(self) -> str:
        if self.over or self.seat is None:
            state = "over" if self.over else "watching"
        else:
            state = "locked" if self.locked is not None else "choosing"
        return say.caption(self.view, state, self.opponent(), self.dots, self.overload)

    def _other_state(self) -> str:
        """Whether the opponent has locked in (never what)."""
        if self.seat is None or self.over or self.locked is not None:
            return ""
        submitted = self.view.submitted[1 - self.seat]
        if submitted:
            return f"{self.opponent()}: locked in"
        if (1 - self.seat) not in self.update.to_act:
            return ""  # nobody there to choose yet (an open seat of a table elsewhere)
        # hot-seat: the other person waits for the keyboard, they are not choosing
        waiting = self.hot_seat and (1 - self.seat) in self.client.my_seats
        return f"{self.opponent()}: {'chooses next' if waiting else 'choosing'}"

    def _faces(self) -> list[ActionFace]:
        if self.seat is None:
            return action_faces(self.words, None)
        locked = parse_move(self.locked) if self.locked not in (None, "-", "missed") else None
        return action_faces(
            self.words,
            Choosing(
                restricted=set(self.view.restrictions[self.seat]),
                blocked=self.view.blocked[self.seat],
                choosing=self.choosing,
                locked=locked if isinstance(locked, Submission) else None,
                picks=self.picks,
                target=self.target,
                reset=self.reset,
                dropped=self.disregarded_now() if self.choosing else {},
            ),
        )

    def _choice_line(self) -> say.Line:
        if self.seat is None or self.over:
            return []
        if self.locked is not None:
            return say.locked_line(self.locked, self.words, self.times)
        if not self.my_turn:
            return []
        priority = self.view.priority_window[self.seat]
        sub = self.submission()
        return say.choice_line(
            self.words, sub, self.disregarded_now(), self.view.pot if priority else None, self.times
        )

    def show_clock(self) -> None:
        clock = self.query_one("#clock", Static)
        left = self.clocks.seconds_left() if self.view.timer else None
        clock.update(clock_text(left))
        clock.set_class(left is not None and left < URGENT_SECONDS, "-urgent")

    def turn_text(self) -> str:
        if self.over:
            return "The game is over: Esc for the menu, g for the result."
        if self.seat is not None and self.locked is not None:
            acting = [s for s in self.update.to_act if s != self.seat]
            if acting:
                return f"Waiting for {self.opponent()} to lock in{self.dots}"
        if self.choosing:
            who = f"{self.seat_name(self.seat)}: " if self.hot_seat else ""
            enter = "Enter" if self.ascii else "⏎"
            return f"{who}1-5 or click to pick, {enter} to lock in."
        return super().turn_text()

    # ------------------------------------------------------------ actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("pick", "lock_in", "clear"):
            if self.over:
                return False  # hidden: nothing more to play
            return True if self.choosing else None  # greyed while locked in
        if action == "choose_target":
            return bool(self.choosing and BLOCK in self.picks)
        if action == "toggle_overload":
            return bool(self.choosing and self.item_unused("overload"))
        if action == "toggle_reset":
            return bool(self.choosing and self.item_unused("reset"))
        if action == "priority":
            return bool(
                self.choosing and self.seat is not None and self.view.priority_window[self.seat]
            )
        if action == "priority_why":
            return not self.over
        if action == "result":
            return self.over
        return super().check_action(action, parameters)  # the shared keys: Hint, Finish...

    def _redraw_choice(self) -> None:
        self._draw()
        self.refresh_bindings()

    def action_pick(self, index: int) -> None:
        if not self.choosing:
            self.set_status(self.turn_text(), problem=True)
            return
        count = self.picks.count(index)
        full = len(self.picks) >= self.capacity
        if count == 0:
            if index == BLOCK:
                self._open_picker(add=True)
                return
            if full:
                self.picks.pop(0)  # room for the new pick: the oldest goes
            self.picks.append(index)
        elif count == 1 and self.doubles and not full:
            self.picks.append(index)
        else:
            self.picks = [a for a in self.picks if a != index]
        self.set_status(self.turn_status())
        self._redraw_choice()

    def _open_picker(self, add: bool) -> None:
        round_no = self.view.round
        seat = self.seat
        picker = BlockTargetPicker(self.words, self.opponent(), self.target)

        def chosen(target: int | None) -> None:
            if self._dialog is picker:
                self._dialog = None
            if target is None or self.seat != seat or self.view.round != round_no:
                return
            if not self.choosing:
                return
            self.target = target
            if add and BLOCK not in self.picks:
                if len(self.picks) >= self.capacity:
                    self.picks.pop(0)
                self.picks.append(BLOCK)
            self._redraw_choice()

        self._dialog = picker
        self.app.push_screen(picker, chosen)

    def action_choose_target(self) -> None:
        if self.choosing and BLOCK in self.picks:
            self._open_picker(add=False)

    def action_clear(self) -> None:
        if self.choosing:
            self._clear_choice()
            self._redraw_choice()

    def action_toggle_overload(self) -> None:
        if self.choosing and self.item_unused("overload"):
            self.overload = not self.overload
            if not self.overload and len(self.picks) > 2:
                self.picks = self.picks[-2:]
            self.set_status("Overload on: pick three cards." if self.overload else "Overload off.")
            self._redraw_choice()

    def action_toggle_reset(self) -> None:
        if self.choosing and self.item_unused("reset"):
            self.reset = not self.reset
            self.set_status(
                "Limit Reset on: no restrictions this round." if self.reset else "Limit Reset off."
            )
            self._redraw_choice()

    async def action_priority(self) -> None:
        if self.check_action("priority", ()):
            await self.submit("priority")

    def action_priority_why(self) -> None:
        self.set_status(say.priority_why_not(self.view, self.seat, self.choosing), problem=True)

    def action_result(self) -> None:
        if self.over:
            self.ending.show_result()

    async def on_action_cards_clicked(self, message: ActionCards.Clicked) -> None:
        self.action_pick(message.index)

    async def action_lock_in(self) -> None:
        if not self.choosing:
            self.set_status(self.turn_text(), problem=True)
            return
        sub = self.submission()
        text = str(sub)
        if text not in self.legal:
            self.set_status(say.why_not(self.view, sub, self.words, self.times), problem=True)
            return
        dropped = self.disregarded_now()
        if dropped:
            warning = disregard_warning(dropped, sub, self.words)
            self._confirm(f"{warning} Lock it in anyway?", text)
        elif not sub.cards:
            self._confirm("Lock in no actions at all this round?", text)
        else:
            await self._send(text)

    def _confirm(self, question: str, move: str) -> None:
        from tui.screens.confirm import ConfirmScreen

        round_no = self.view.round
        seat = self.seat
        dialog = ConfirmScreen(question, yes="Lock in", no="Change it")

        async def answered(yes: bool | None) -> None:
            if self._dialog is dialog:
                self._dialog = None
            if yes and self.seat == seat and self.view.round == round_no:
                await self._send(move)

        self._dialog = dialog
        self.app.push_screen(dialog, answered)

    async def _send(self, move: str) -> None:
        if await self.submit(move):
            self._clear_choice()
            self._redraw_choice()
            self.set_status(self.turn_status())
