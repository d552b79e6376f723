"""The Five-Card Trick screen's widgets: the five action cards and the dialog
that asks which action a Block names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from rules.trick.notation import ACTION_IDS, NO_TARGET, Submission
from rules.trick.words import Words
from tui.screens.dialog import Dialog
from tui.widgets.cards import card_style_of


def possessive(name: str) -> str:
    return "your" if name == "You" else f"{name}'s"


# ============================================================== action cards
@dataclass(frozen=True)
class ActionFace:
    """One action card as drawn: its key, name, copies chosen, a note in its
    bottom edge ("blocked", "disregard!"), and whether it is a choice now."""

    key: str
    name: str
    copies: int = 0
    note: str = ""
    available: bool = True
    warn: bool = False


@dataclass(frozen=True)
class Choosing:
    """What the cards show of the seat at the keyboard: what it may not play or
    has blocked, and its choice (being made, or locked in)."""

    restricted: set[str]  # action ids it may not play this round
    blocked: str | None  # the action the opponent's Block cancels this round
    choosing: bool
    locked: Submission | None  # its submission once locked in
    picks: list[int]  # the choice being made, in the order picked
    target: int  # the Block's target (NO_TARGET: none yet)
    reset: bool  # Limit Reset on: no restrictions
    dropped: dict[str, str]  # what the rules would disregard of the choice


def action_faces(words: Words, seat: Choosing | None) -> list[ActionFace]:
    """The five cards as the seat sees them (None: watching, nothing to pick)."""
    if seat is None:
        return [ActionFace(str(i + 1), n, available=False) for i, n in enumerate(words.actions)]
    faces = []
    for i, action in enumerate(ACTION_IDS):
        copies = seat.locked.counts[i] if seat.locked else seat.picks.count(i)
        note, warn = "", False
        if not seat.choosing:
            note = "locked" if copies else ""
        elif action in seat.dropped:
            note, warn = "thrown out", True  # the warning under the cards says why
        elif action in seat.restricted and not seat.reset:
            note, warn = "not now", True
        elif seat.blocked == action:
            note, warn = "blocked", True
        elif action == "block" and copies and seat.target != NO_TARGET:
            note = f"on {words.name(seat.target)}"
        faces.append(
            ActionFace(str(i + 1), words.name(i), copies, note, available=seat.choosing, warn=warn)
        )
    return faces


_BOXES = {
    ("unicode", "plain"): "╭─╮│╰╯",
    ("unicode", "chosen"): "╔═╗║╚╝",
    ("ascii", "plain"): "+-+|++",
    ("ascii", "chosen"): "#=####",
}
ACTION_CARD_WIDTH = 14
ACTION_CARD_GAP = 1


class ActionCards(Widget):
    """The five action cards. Chosen cards have a double edge and say how many
    copies; the bottom edge carries a warning; a click posts :class:`Clicked`."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "actioncards--border",
        "actioncards--chosen",
        "actioncards--body",
        "actioncards--chosen-body",
        "actioncards--unavailable",
        "actioncards--note",
        "actioncards--warn",
    }

    class Clicked(Message):
        def __init__(self, cards: ActionCards, index: int) -> None:
            super().__init__()
            self.cards = cards
            self.index = index

        @property
        def control(self) -> ActionCards:
            return self.cards

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._faces: tuple[ActionFace, ...] = ()

    @property
    def faces(self) -> tuple[ActionFace, ...]:
        return self._faces

    def set_faces(self, faces: Sequence[ActionFace]) -> None:
        faces = tuple(faces)
        if faces != self._faces:
            self._faces = faces
            self.refresh()

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"actioncards--{name}", partial=True)

    def _indent(self) -> int:
        """Columns left of the first card: the row is centred in its width."""
        n = len(self._faces)
        used = n * ACTION_CARD_WIDTH + max(n - 1, 0) * ACTION_CARD_GAP
        return max(0, (self.content_region.width - used) // 2)

    def render(self) -> Text:
        ascii = card_style_of(self.app).ascii
        indent = " " * self._indent()
        lines = [Text(indent), Text(indent), Text(indent)]
        inner = ACTION_CARD_WIDTH - 2
        for i, face in enumerate(self._faces):
            if i:
                for line in lines:
                    line.append(" " * ACTION_CARD_GAP)
            chosen = face.copies > 0
            box = _BOXES[("ascii" if ascii else "unicode", "chosen" if chosen else "plain")]
            tl, h, tr, v, bl, br = box[0], box[1], box[2], box[3], box[4], box[5]
            border = self._style("border") + (self._style("chosen") if chosen else Style())
            body_style = self._style("chosen-body" if chosen else "body")
            if not face.available and not chosen:
                border += self._style("unavailable")
                body_style += self._style("unavailable")
            times = "x" if ascii else "×"
            body = face.name + (f" {times}{face.copies}" if face.copies > 1 else "")
            if chosen:
                body = ("*" if ascii else "✓") + " " + body
            key = f" {face.key} "
            top = Text(tl + key.center(inner, h) + tr, border)
            mid = Text.assemble((v, border), (body[:inner].center(inner), body_style), (v, border))
            note_style = self._style("warn" if face.warn else "note")
            note = f" {face.note} " if face.note else ""
            note = note[:inner]
            left = (inner - len(note)) // 2
            bottom = Text.assemble(
                (bl + h * left, border),
                (note, note_style),
                (h * (inner - left - len(note)) + br, border),
            )
            for line, part in zip(lines, (top, mid, bottom), strict=True):
                line.append_text(part)
        return Text("\n").join(lines)

    def index_at(self, x: int) -> int | None:
        """Which card is drawn at column ``x`` of the content (gaps: none)."""
        step = ACTION_CARD_WIDTH + ACTION_CARD_GAP
        x -= self._indent()
        if x < 0 or x % step >= ACTION_CARD_WIDTH:
            return None
        index = x // step
        return index if index < len(self._faces) else None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)  # None: on the padding
        index = None if offset is None else self.index_at(offset.x)
        if index is not None:
            self.post_message(self.Clicked(self, index))


# ========================================================= the target picker
class BlockTargetPicker(Dialog[int | None]):
    """Which action the Block names: keys 1-5, arrows and Enter, or a click."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="trick.picker.cancel"),
        *[
            Binding(str(n), f"pick({n - 1})", f"Block {n}", show=False, id=f"trick.picker.{n}")
            for n in range(1, 6)
        ],
    ]

    def __init__(self, words: Words, opponent: str, current: int = NO_TARGET) -> None:
        super().__init__()
        self.words = words
        self.opponent = opponent
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="block-picker"):
            yield Static(
                f"Block which of {possessive(self.opponent)} {self.words.kind} next round?",
                markup=False,  # the opponent's name comes from outside
                classes="title",
            )
            options = [
                Option(f"{i + 1}  {name}", id=str(i)) for i, name in enumerate(self.words.actions)
            ]
            yield OptionList(*options, id="block-targets")
            enter = "Enter" if card_style_of(self.app).ascii else "⏎"
            yield Static(f"1-5 or {enter} to choose, Esc to leave Block out", classes="hint")

    def on_mount(self) -> None:
        targets = self.query_one("#block-targets", OptionList)
        targets.highlighted = self.current if self.current != NO_TARGET else 0
        targets.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(int(event.option.id or 0))

    def action_pick(self, index: int) -> None:
        self.dismiss(index)

    def action_cancel(self) -> None:
        self.dismiss(None)
