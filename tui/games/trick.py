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

The screen shows one seat's view at a time; the choice being made lives only
here and is forgotten when the seat on screen changes (hot-seat), so nobody
sees another person's choice before the reveal.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

import msgspec
from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from rules.errors import NotationError
from rules.events import Event, fill_names
from rules.trick.core import (
    DOUBLED_LAST_ROUND,
    NO_BLOCK_TARGET,
    REPEATED_PAIR,
    THREE_IN_A_ROW,
)
from rules.trick.notation import (
    ACTION_IDS,
    BLOCK,
    HIDDEN_TARGET,
    NO_TARGET,
    Submission,
    make_submission,
    parse_move,
)
from rules.trick.state import REASONS, TrickView, disregarded_in_view
from rules.views import View
from tui.styles import TABLE
from tui.widgets.cards import CardStyle, card_style_of
from tui.widgets.event_log import EventLog, display_text
from tui.widgets.footer import FittingFooter
from tui.widgets.scoreboard import Scoreboard

from .base import URGENT_SECONDS, GameScreen, TableUpdated, clock_text

if TYPE_CHECKING:
    from textual._path import CSSPathType

TRICK_CSS = Path(__file__).with_name("trick.tcss")

# a segment of a line: its text and its role (how it is styled, by meaning)
Segment = tuple[str, str]
Line = list[Segment]

# roles -> styles: theme variables only, and every role that colour shows is
# also carried by a word ("live:", "blocked:") or a shape, for NO_COLOR
SCREEN_STYLES = {
    "": "",
    "name": "bold",
    "lit": "$accent bold",
    "off": "$text-muted",
    "muted": "$text-muted",
    "live": "$success bold",
    "cancel": "$warning bold",
    "bad": "$error bold",
    "warn": "$warning",
    "head": "bold underline",
}
SETNA_STYLES = {**SCREEN_STYLES, "lit": "$warning bold", "head": "$warning bold underline"}
# the replay viewer renders with Rich alone (no theme): weight, not colour
PLAIN_STYLES = {
    "name": "bold",
    "lit": "bold",
    "off": "dim",
    "muted": "dim",
    "live": "bold",
    "cancel": "bold",
    "bad": "bold",
    "warn": "italic",
    "head": "bold underline",
}

# why an action may not be played this round, said short (the panel has one line)
SHORT_REASONS = {
    THREE_IN_A_ROW: "2 rounds running",
    DOUBLED_LAST_ROUND: "played twice",
}
TITLES = {"trick": "Five-Card Trick", "setna": "Setna's Curse"}
ITEM_LABELS = (("overload", "Overload"), ("reset", "Reset"), ("priority", "Priority"))


# ====================================================================== words
@dataclass(frozen=True)
class Words:
    """The preset's names: actions, chips or Gems, lights or torches."""

    actions: tuple[str, ...]
    chip: str
    chips: str
    lights: str
    kind: str = "actions"  # Setna's Curse speaks of abilities

    @property
    def one(self) -> str:
        return "ability" if self.kind == "abilities" else "action"

    @classmethod
    def of(cls, view: TrickView) -> Words:
        names = view.get("action_names") or ["Score", "Grow", "Claim", "Steal", "Block"]
        words = view.get("words") or {}
        return cls(
            tuple(names),
            words.get("chip", "chip"),
            words.get("chips", "chips"),
            words.get("lights", "lights"),
            "abilities" if view.get("names") == "setna" else "actions",
        )

    def name(self, action: str | int) -> str:
        index = action if isinstance(action, int) else ACTION_IDS.index(action)
        return self.actions[index]

    def count(self, n: int) -> str:
        return f"{n} {self.chip if n == 1 else self.chips}"


def possessive(name: str) -> str:
    return "your" if name == "You" else f"{name}'s"


def seat_label(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Player {seat + 1}"


def submission_words(sub: Submission, words: Words, times: str = "×") -> str:
    """A submission for people: "Score + Block (on Claim)", "Score ×2 + Grow"."""
    parts = []
    for a in range(5):
        n = sub.counts[a]
        if not n:
            continue
        text = words.name(a) + (f" {times}{n}" if n > 1 else "")
        if a == BLOCK:
            shown = sub.target not in (NO_TARGET, HIDDEN_TARGET)
            text += f" (on {words.name(sub.target)})" if shown else " (on ?)"
        parts.append(text)
    text = " + ".join(parts) if parts else "no actions"
    used = [label for label, on in (("Overload", sub.overload), ("Limit Reset", sub.reset)) if on]
    if used:
        text += f", with {' and '.join(used)}"
    return text


def move_words(move: str, words: Words, times: str = "×") -> str:
    """A move's notation (``block:?`` included) for people."""
    if move in ("-", ""):
        return "no actions"
    if move == "missed":
        return "nothing (out of time)"
    if move == "priority":
        return "Claim Priority"
    # a hidden Block target (``block:?``) reads "(on ?)", as does a Block that
    # named nothing (the reveal says it was disregarded)
    try:
        sub = parse_move(move)
    except NotationError:
        return move
    return submission_words(sub, words, times) if isinstance(sub, Submission) else move


def how_many(view: TrickView, overload: bool) -> str:
    """What the preset lets this seat submit now, in words."""
    if overload:
        return "three cards (not all alike)"
    if view.get("doubles"):
        return "two cards (doubles OK) or none"
    if view.get("exact_two"):
        return f"two {Words.of(view).kind}, or none"
    return f"up to two {Words.of(view).kind}"


def round_text(view: TrickView) -> str:
    """ "round 7 of 25, cap 50" / "round 27 of 30 (extension 1), cap 50"."""
    text = f"round {view.get('round', 1)} of {view.get('end_round', view.get('rounds', 25))}"
    if view.get("extension"):
        text += f" (extension {view['extension']})"
    return text + f", cap {view.get('round_cap', '?')}"


# ============================================================== player panel
def lights_segments(lit: Sequence[str], words: Words, ascii: bool) -> Line:
    out: Line = []
    for i, action in enumerate(ACTION_IDS):
        if i:
            out.append((" ", ""))
        if action in lit:
            out.append((words.name(action)[:2], "lit"))
        else:
            out.append((".." if ascii else "··", "off"))
    return out


def player_lines(view: TrickView, names: Sequence[str], ascii: bool) -> list[Line]:
    """Two lines per player: name, defender, lights, items; then what they may
    not play this round and why, and the Block in force on them."""
    words = Words.of(view)
    lines: list[Line] = []
    defender = view.get("defender")
    heads = [seat_label(names, s) + (" (defender)" if defender == s else "") for s in (0, 1)]
    width = max(len(h) for h in heads) + 2
    restrictions = view.get("restrictions") or [{}, {}]
    pairs = view.get("repeat_pair") or [None, None]
    blocked = view.get("blocked") or [None, None]
    items = view.get("items") or [{}, {}]
    priority = view.get("priority_window") or [False, False]
    for s in (0, 1):
        name = seat_label(names, s)
        first: Line = [(name, "name")]
        if defender == s:
            first.append((" (defender)", "muted"))
        first.append((" " * (width - len(heads[s])), ""))
        first.append((f"{words.lights} ", "muted"))
        lit = (view.get("lights") or [[], []])[s]
        first += lights_segments(lit, words, ascii)
        owned = items[s] if s < len(items) else {}
        if any(owned.get(key) for key, _ in ITEM_LABELS):
            unused = [label for key, label in ITEM_LABELS if owned.get(key) == "unused"]
            used = [label for key, label in ITEM_LABELS if owned.get(key) == "used"]
            first.append(("  items ", "muted"))
            first.append((", ".join(unused) if unused else "none left", ""))
            if used:
                # which ones is plain from the rest: the line has no room to name them
                first.append((f" ({len(used)} used)", "muted"))
        lines.append(first)
        second: Line = [("  ", "")]
        parts: list[Line] = []
        for action, why in (restrictions[s] or {}).items():
            parts.append(
                [(f"no {words.name(action)}", "warn"), (f" ({SHORT_REASONS.get(why, why)})", "")]
            )
        pair = pairs[s]
        if pair and len(pair) > 1:  # a double last round is "played twice" above
            joined = "+".join(words.name(a) for a in pair)
            parts.append([(f"no {joined}", "warn"), (" (last round's pair)", "")])
        if blocked[s]:
            parts.append(
                [
                    (f"{words.name(str(blocked[s]))} blocked", "bad"),
                    (f" by {seat_label(names, 1 - s)}", ""),
                ]
            )
        if priority[s]:
            parts.append([("may use Claim Priority now", "live")])
        if not parts:
            parts.append([("free choice: no restrictions, nothing blocked", "muted")])
        for i, part in enumerate(parts):
            if i:
                second.append((" · ", "muted"))
            second += part
        lines.append(second)
    return lines


# ==================================================================== reveal
# why an action was disregarded, short enough for the reveal's column
DISREGARD_REASONS = {
    THREE_IN_A_ROW: "played the last two rounds",
    REPEATED_PAIR: "same pair as last round",
    DOUBLED_LAST_ROUND: "played twice last round",
    NO_BLOCK_TARGET: "the Block named nothing",
}


def _action_result(
    entry: dict[str, Any], seat: int, last: dict[str, Any], names: Sequence[str], words: Words
) -> tuple[str, str, str]:
    """(what became of it, what it did, role) for one action of a revealed round."""
    other = seat_label(names, 1 - seat)
    action = entry.get("action", "")
    status = entry.get("status", "")
    also_blocked = ", blocked too" if entry.get("blocked") else ""
    if status == "disregarded":
        reason = entry.get("reason", "")
        return "disregarded", DISREGARD_REASONS.get(reason, reason), "bad"
    if status == "collided":
        return "collided", f"both played it{also_blocked}", "cancel"
    if status == "outnumbered":
        return "outnumbered", f"{entry.get('copies', 1)} copy against 2{also_blocked}", "cancel"
    if status == "blocked":
        return "blocked", f"no effect ({possessive(other)} Block)", "cancel"
    taker = last.get("taker")
    taken = words.count(int(last.get("taken") or 0))
    by = last.get("taken_by")
    if action == "score":
        return "live", f"+1 {words.chip}", "live"
    if action == "grow":
        pot = int(last.get("pot_before") or 0) + 1
        return "live", f"+1 {words.chip} to the pot, now {pot}", "live"
    if action == "claim":
        if taker == 1 - seat and by == "steal":
            return "stolen", f"{other} took the pot ({taken})", "cancel"
        return "live", f"took the pot ({taken})", "live"
    if action == "steal":
        if taker == seat and by == "steal":
            return "live", f"stole the pot ({taken})", "live"
        return "live", f"no live {words.name('claim')} to steal", "muted"
    if action == "block":
        targets = last.get("block_targets") or [None, None]
        what = words.name(targets[seat]) if targets[seat] else "?"
        return "live", f"blocks {possessive(other)} {what} next round", "live"
    return status, "", ""


def reveal_lines(view: TrickView, names: Sequence[str], times: str = "×") -> list[Line]:
    """The last round as the seat on screen may see it, action by action."""
    last = view.get("last_round")
    words = Words.of(view)
    if not last:
        return intro_lines(view)
    lines: list[Line] = [[(f"Round {last.get('round', '?')} revealed", "head")]]
    moves = last.get("moves") or ["-", "-"]
    missed = last.get("missed") or [False, False]
    for s in (0, 1):
        shown = "nothing (out of time)" if missed[s] else move_words(moves[s], words, times)
        lines.append([(f"{seat_label(names, s)}: ", "name"), (shown, "")])
        for entry in (last.get("actions") or [[], []])[s]:
            status, did, role = _action_result(entry, s, last, names, words)
            label = words.name(entry.get("action", "score"))
            if entry.get("copies", 1) > 1:
                label += f" {times}{entry['copies']}"
            lines.append([(f"  {label:<9}", ""), (f"{status}: ", role), (did, "")])
    for s in last.get("bonus") or []:
        who = seat_label(names, s)
        lines.append([(f"{who}: all five {words.lights} lit, +1 {words.chip}", "")])
    if last.get("refilled"):
        lines.append([(f"The pot was taken: refilled to 1 {words.chip}.", "")])
    return lines


def intro_lines(view: TrickView) -> list[Line]:
    """Before the first reveal: what the five actions do."""
    w = Words.of(view)
    n = w.actions
    lines: list[Line] = []
    if view.get("names") == "setna":
        lines.append([("The tomb of Nefrekeptah: the Book of Thoth awaits.", "head")])
    else:
        lines.append([("Pick secretly; both choices are revealed at once.", "head")])
    lines += [
        [(f"{n[0]:<6}", "name"), (f"+1 {w.chip}", "")],
        [(f"{n[1]:<6}", "name"), (f"+1 {w.chip} to the pot (before any {n[2]})", "")],
        [(f"{n[2]:<6}", "name"), (f"take the pot, unless the opponent {n[3]}s", "")],
        [(f"{n[3]:<6}", "name"), (f"take the pot if the opponent {n[2]}s", "")],
        # short lines: the column is about 50 wide at 80 columns, and Setna's
        # longer words ("abilities") made the old one wrap mid-sentence
        [(f"{n[4]:<6}", "name"), (f"name an {w.one} to cancel", "")],
        [("      ", ""), ("for the opponent next round", "")],
        [(f"The same {w.one} on both sides: both cancel.", "muted")],
        [(f"All five {w.lights} lit: +1 {w.chip}.", "muted")],
    ]
    return lines


def event_note(event: Event, names: Sequence[str], words: Words) -> str:
    """A short line for the events that the view does not keep in sight."""
    data = event.data
    seat = data.get("seat")
    who = seat_label(names, seat) if isinstance(seat, int) else "?"
    if event.kind == "priority":
        return f"Claim Priority: {who} took the pot ({words.count(data.get('taken', 0))})."
    if event.kind == "timeout":
        return f"{who} ran out of time."
    if event.kind == "replay":
        return f"Both missed round {data.get('round')}: it is replayed."
    if event.kind == "extension":
        return f"Tied: 5 more rounds, to round {data.get('end_round')}."
    return ""


def reveal_summary(
    event: Event, names: Sequence[str], you: Collection[int], style: CardStyle
) -> list[str]:
    """A revealed round for its summary: what each played, what came of it,
    and the chips (the narration's own lines, for the person at the screen)."""
    lines = event.data.get("lines")
    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        return [display_text(event.render(names, you), style)]
    return [display_text(fill_names(line, names, you), style) for line in lines]


def priority_why_not(view: TrickView, seat: int | None, choosing: bool) -> str:
    """Why Claim Priority cannot be used now, in words (``p`` when it cannot)."""
    if seat is None:
        return "You are watching: there is no seat to play."
    owned = (view.get("items") or [{}, {}])[seat] or {}
    item = owned.get("priority")
    if not item:
        if any(owned.values()):
            return "No Claim Priority: it is not one of your items."
        return "No Claim Priority: this game has no items (the final preset has them)."
    if item == "used":
        return "No Claim Priority: you have already used it this game."
    if not choosing:
        return "No Claim Priority now: you have locked in this round."
    return (
        "No Claim Priority now: it can be used only in the round after both Claims "
        "collided, and only if your opponent's Steal did not take the pot."
    )


def notes_line(notes: Sequence[str]) -> Line:
    return [(" ".join(notes), "warn")] if notes else []


def to_content(lines: Sequence[Line], styles: dict[str, str]) -> Content:
    parts: list[str | tuple[str, str]] = []
    for i, line in enumerate(lines):
        if i:
            parts.append("\n")
        for text, role in line:
            style = styles.get(role, "")
            parts.append((text, style) if style else text)
    return Content.assemble(*parts)


def to_text(lines: Sequence[Line]) -> Text:
    out = Text()
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        for text, role in line:
            out.append(text, PLAIN_STYLES.get(role, ""))
    return out


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
class BlockTargetPicker(ModalScreen[int | None]):
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


# ================================================================ the screen
class TrickScreen(GameScreen):
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
        "rules",
        "clear",
        *GameScreen.FOOTER_SPARE[1:],
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
        # runs before GameScreen.on_mount (Textual calls the handlers of every
        # class in the MRO, subclass first), so the title is right from the start
        setna = self.client.config.get("names") == "setna"
        self.title = TITLES["setna" if setna else "trick"]
        self.set_class(setna, "-setna")

    # ------------------------------------------------------------ state
    @property
    def words(self) -> Words:
        return Words.of(self.view)

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
        pending = self.view.get("pending")
        return str(pending) if pending is not None else None

    @property
    def choosing(self) -> bool:
        return self.my_turn and not self.over and self.locked is None

    def item_unused(self, key: str) -> bool:
        if self.seat is None:
            return False
        items = self.view.get("items") or [{}, {}]
        return bool(items[self.seat].get(key) == "unused")

    @property
    def capacity(self) -> int:
        return 3 if self.overload else 2

    @property
    def doubles(self) -> bool:
        return bool(self.view.get("doubles"))

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
        # GameScreen.on_table_updated draws the update, right after this: here we
        # close a dialog the update has made stale (a time-out locked the round in)
        update = message.update
        if update.seat is not None and update.seat == self.seat and self._dialog is not None:
            view = update.view
            if view.get("pending") is not None or view.get("round") != self.view.get("round"):
                dialog, self._dialog = self._dialog, None
                if dialog.is_current:
                    dialog.dismiss(None)

    def round_ended(self, event: Event) -> int | None:
        if event.kind != "reveal":
            return None
        number = event.data.get("round")
        return number if isinstance(number, int) else None

    def scores_after(self, event: Event) -> list[int] | None:
        chips = event.data.get("chips")
        if isinstance(chips, list) and all(isinstance(c, int) for c in chips):
            return chips
        return None

    def round_summary(self, event: Event) -> list[str]:
        return reveal_summary(event, self.names, self.you, self.card_style)

    def note_events(self, events: list[Event]) -> None:
        # what happened since the last reveal, said short under it (the log has it all)
        timeouts: list[str] = []
        for event in events:
            if event.kind == "reveal":
                # a time-out just before a reveal is part of the round it ended
                self.notes, timeouts = timeouts[-2:], []
                continue
            note = event_note(event, self.names, self.words)
            if note:
                self.notes = [*self.notes[-1:], note]
                if event.kind == "timeout":
                    timeouts.append(note)

    def show_view(self, shown: View) -> None:
        view = cast(TrickView, shown)
        drawn = (self.seat, int(view.get("round", 0)))
        if drawn != self._drawn or view.get("pending") is not None or self.over:
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
        styles = SETNA_STYLES if self.has_class("-setna") else SCREEN_STYLES
        self.query_one("#scores", Scoreboard).set_scores(
            self.names,
            view.get("chips", [0, 0]),
            [f"pot {words.count(int(view.get('pot', 1)))}", round_text(view)],
            acting=() if self.over else self.update.to_act,
            ascii=self.ascii,
        )
        self.query_one("#players", Static).update(
            to_content(player_lines(view, self.names, self.ascii), styles)
        )
        self.query_one("#choose-caption", Static).update(self._caption())
        self.query_one("#other-state", Static).update(self._other_state())
        self.query_one("#actions", ActionCards).set_faces(self._faces())
        self.query_one("#choice", Static).update(to_content([self._choice_line()], styles))
        reveal = reveal_lines(view, self.names, self.times)
        if self.notes:
            reveal.append(notes_line(self.notes))
        self.query_one("#reveal", Static).update(to_content(reveal, styles))
        self.show_clock()

    def _caption(self) -> str:
        view = self.view
        r = view.get("round", 1)
        other = self.opponent()
        if self.over:
            return f"Round {r}: the game is over."
        if self.seat is None:
            return f"Round {r}: watching."
        if self.locked is not None:
            return f"Round {r}: locked in. Waiting for {other}{self.dots}"
        return f"Round {r}: pick {how_many(view, self.overload)}."

    def _other_state(self) -> str:
        """Whether the opponent has locked in (never what)."""
        if self.seat is None or self.over or self.locked is not None:
            return ""
        submitted = (self.view.get("submitted") or [False, False])[1 - self.seat]
        if submitted:
            return f"{self.opponent()}: locked in"
        # hot-seat: the other person waits for the keyboard, they are not choosing
        waiting = self.hot_seat and (1 - self.seat) in self.client.my_seats
        return f"{self.opponent()}: {'chooses next' if waiting else 'choosing'}"

    def _faces(self) -> list[ActionFace]:
        view = self.view
        seat = self.seat
        words = self.words
        if seat is None:
            return [ActionFace(str(i + 1), n, available=False) for i, n in enumerate(words.actions)]
        locked_sub: Submission | None = None
        if self.locked is not None and self.locked not in ("-", "missed"):
            parsed = parse_move(self.locked)
            locked_sub = parsed if isinstance(parsed, Submission) else None
        restrictions = (view.get("restrictions") or [{}, {}])[seat]
        blocked = (view.get("blocked") or [None, None])[seat]
        dropped = self.disregarded_now() if self.choosing else {}
        faces = []
        for i, action in enumerate(ACTION_IDS):
            copies = locked_sub.counts[i] if locked_sub else self.picks.count(i)
            note, warn = "", False
            if not self.choosing:
                note = "locked" if copies else ""
            elif action in dropped:
                note, warn = "disregard!", True
            elif action in restrictions and not self.reset:
                note, warn = "not now", True
            elif blocked == action:
                note, warn = "blocked", True
            elif action == "block" and copies and self.target != NO_TARGET:
                note = f"on {words.name(self.target)}"
            faces.append(
                ActionFace(
                    str(i + 1),
                    words.name(i),
                    copies,
                    note,
                    available=self.choosing,
                    warn=warn,
                )
            )
        return faces

    def _choice_line(self) -> Line:
        words = self.words
        if self.seat is None or self.over:
            return []
        if self.locked is not None:
            return [("Locked in: ", "muted"), (move_words(self.locked, words, self.times), "name")]
        if not self.my_turn:
            return []
        line: Line = []
        if (self.view.get("priority_window") or [False, False])[self.seat]:
            pot = words.count(int(self.view.get("pot", 1)))
            line += [("p: Claim Priority takes the pot now", "live"), (f" ({pot}) · ", "")]
        sub = self.submission()
        chosen = sub.cards or self.overload or self.reset
        line.append(("Your choice: ", "muted"))
        line.append((submission_words(sub, words, self.times) if chosen else "nothing yet", "name"))
        dropped = self.disregarded_now()
        if dropped:
            names = ", ".join(words.name(a) for a in dropped)
            line.append((f"  ! {names} would be disregarded", "bad"))
        return line

    def show_clock(self) -> None:
        clock = self.query_one("#clock", Static)
        left = self.seconds_left() if self.view.get("timer") else None
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
            window = self.view.get("priority_window") or [False, False]
            return bool(self.choosing and self.seat is not None and window[self.seat])
        if action == "priority_why":
            return not self.over
        if action == "hint":
            return not self.over  # nothing to weigh once it is over
        if action == "result":
            return self.over
        return True

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
        self.set_status(self.turn_text())
        self._redraw_choice()

    def _open_picker(self, add: bool) -> None:
        round_no = self.view.get("round")
        seat = self.seat
        picker = BlockTargetPicker(self.words, self.opponent(), self.target)

        def chosen(target: int | None) -> None:
            if self._dialog is picker:
                self._dialog = None
            if target is None or self.seat != seat or self.view.get("round") != round_no:
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
        self.set_status(priority_why_not(self.view, self.seat, self.choosing), problem=True)

    def action_result(self) -> None:
        if self.over:
            self._show_game_over()

    async def on_action_cards_clicked(self, message: ActionCards.Clicked) -> None:
        self.action_pick(message.index)

    async def action_lock_in(self) -> None:
        if not self.choosing:
            self.set_status(self.turn_text(), problem=True)
            return
        sub = self.submission()
        text = str(sub)
        if text not in self.legal:
            self.set_status(self._why_not(sub), problem=True)
            return
        dropped = self.disregarded_now()
        if dropped:
            words = self.words
            parts = [f"{words.name(a)} ({REASONS.get(why, why)})" for a, why in dropped.items()]
            what = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
            whole = len(dropped) == len([a for a in range(5) if sub.counts[a]])
            tail = " Nothing of this choice would count." if whole else ""
            self._confirm(f"The rules would disregard {what}.{tail} Lock it in anyway?", text)
        elif not sub.cards:
            self._confirm("Lock in no actions at all this round?", text)
        else:
            await self._send(text)

    def _why_not(self, sub: Submission) -> str:
        n = sub.cards
        if self.overload and n != 3:
            return f"With Overload, pick three cards (you have {n})."
        if self.view.get("exact_two") and n not in (0, 2):
            return f"Pick exactly two cards, or none (you have {n})."
        return f"{submission_words(sub, self.words, self.times)} is not allowed now."

    def _confirm(self, question: str, move: str) -> None:
        from tui.screens.confirm import ConfirmScreen

        round_no = self.view.get("round")
        seat = self.seat
        dialog = ConfirmScreen(question, yes="Lock in", no="Change it")

        async def answered(yes: bool | None) -> None:
            if self._dialog is dialog:
                self._dialog = None
            if yes and self.seat == seat and self.view.get("round") == round_no:
                await self._send(move)

        self._dialog = dialog
        self.app.push_screen(dialog, answered)

    async def _send(self, move: str) -> None:
        if await self.submit(move):
            self._clear_choice()
            self._redraw_choice()
            self.set_status(self.turn_text())


SCREEN = TrickScreen


def describe(
    view: TrickView,
    scores: Sequence[int],
    names: Sequence[str],
    style: CardStyle,
    snapshot: dict[str, Any] | None = None,
) -> RenderableType:
    """A Five-Card Trick view for the replay viewer: the board, the players, the
    last round revealed; with ``snapshot``, the submissions not yet revealed."""
    words = Words.of(view)
    last = (snapshot or {}).get("last")
    last_round = view.last_round
    if last and last_round:
        # everything revealed: Block targets that stayed secret are shown too
        targets = [None if t < 0 else ACTION_IDS[t] for t in last.get("targets", [])]
        revealed = {**last_round, "moves": last["moves"], "block_targets": targets}
        view = msgspec.structs.replace(view, last_round=revealed)
    chips = view.get("chips", [0, 0])
    head = (
        f"{TITLES.get(view.get('names', 'trick'), 'Five-Card Trick')} · "
        f"{seat_label(names, 0)} {chips[0]}, {seat_label(names, 1)} {chips[1]} · "
        f"pot {words.count(int(view.get('pot', 1)))} · {round_text(view)}"
    )
    parts: list[RenderableType] = [
        Text(head, style="bold"),
        to_text(player_lines(view, names, style.ascii)),
        Text(""),
        to_text(reveal_lines(view, names, "x" if style.ascii else "×")),
    ]
    pending = (snapshot or {}).get("pending")
    if pending:
        for s, move in enumerate(pending):
            if move is not None:
                # worded so that no verb must agree with a seat named You
                parts.append(
                    Text(f"Submitted by {seat_label(names, s)}: {move_words(move, words)}.")
                )
    elif (mine := view.get("pending")) is not None:
        seat = view.get("seat")
        who = seat_label(names, seat) if isinstance(seat, int) else "You"
        parts.append(Text(f"Submitted by {who}: {move_words(mine, words)}."))
    return Group(*parts)
