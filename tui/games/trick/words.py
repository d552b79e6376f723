"""The Five-Card Trick screen's texts, laid out as lines of styled segments.

Every sentence about the game comes from rules/trick/words.py (the narration's
own functions); this module only puts them in lines and columns, and picks a
style for each part by its meaning.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from rich.text import Text
from textual.content import Content

from rules.events import Event, fill_names
from rules.trick.events import RoundRevealed
from rules.trick.notation import ACTION_IDS, Submission
from rules.trick.view import TrickView
from rules.trick.words import (
    Words,
    action_label,
    action_outcome,
    bonus_line,
    move_words,
    reason_words,
    refill_line,
    shown_move,
    submission_words,
)
from tui.widgets.cards import CardStyle
from tui.widgets.event_log import display_text

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
ITEM_LABELS = (("overload", "Overload"), ("reset", "Reset"), ("priority", "Priority"))
# the seats' kinds of event the view keeps no trace of: said under the reveal
NOTED_EVENTS = ("priority", "timeout", "replay", "extension")


def words_of(view: TrickView) -> Words:
    """The words the view carries (the preset's names)."""
    return Words.read(view.names, view.action_names, view.words)


def seat_label(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Player {seat + 1}"


def how_many(view: TrickView, overload: bool) -> str:
    """What the preset lets this seat submit now, in words."""
    if overload:
        return "three cards (not all alike)"
    if view.doubles:
        return "two cards (doubles OK) or none"
    if view.exact_two:
        return f"two {words_of(view).kind}, or none"
    return f"up to two {words_of(view).kind}"


def caption(view: TrickView, state: str, other: str, dots: str, overload: bool) -> str:
    """The line over the cards: ``state`` is over, watching, locked or choosing."""
    r = view.round
    if state == "over":
        return f"Round {r}: the game is over."
    if state == "watching":
        return f"Round {r}: watching."
    if state == "locked":
        return f"Round {r}: locked in. Waiting for {other}{dots}"
    return f"Round {r}: pick {how_many(view, overload)}."


def why_not(view: TrickView, sub: Submission, words: Words, times: str) -> str:
    """Why a choice cannot be locked in (the number of cards, mostly)."""
    n = sub.cards
    if sub.overload and n != 3:
        return f"With Overload, pick three cards (you have {n})."
    if view.exact_two and n not in (0, 2):
        return f"Pick exactly two cards, or none (you have {n})."
    return f"{submission_words(sub, words, times)} is not allowed now."


def round_text(view: TrickView) -> str:
    """ "round 7 of 25, cap 50" / "round 27 of 30 (extension 1), cap 50"."""
    text = f"round {view.round} of {view.end_round}"
    if view.extension:
        text += f" (extension {view.extension})"
    return text + f", cap {view.round_cap}"


def defender_note(view: TrickView) -> str:
    """The defender matters only where the rules hand it a tie: said there only."""
    return " (wins a final tie)" if view.tie_rule == "defender" else ""


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


# the player panel's width at 80 columns (its padding taken off)
PANEL_WIDTH = 78
INDENT = "  "
SEPARATOR = " · "


def wrap_parts(parts: Sequence[Line], width: int) -> list[Line]:
    """Lines of ``parts`` joined by " · ", each line at most ``width`` wide where
    the parts allow: a part is never cut, so no sentence is lost at 80 columns
    (a blocked action is part of the game's state)."""
    lines: list[Line] = []
    line: Line = [(INDENT, "")]
    used = len(INDENT)
    for part in parts:
        size = sum(len(text) for text, _ in part)
        if used > len(INDENT):
            if used + len(SEPARATOR) + size > width:
                lines.append(line)
                line, used = [(INDENT, "")], len(INDENT)
            else:
                line.append((SEPARATOR, "muted"))
                used += len(SEPARATOR)
        line += part
        used += size
    lines.append(line)
    return lines


def player_lines(
    view: TrickView, names: Sequence[str], ascii: bool, width: int = PANEL_WIDTH
) -> list[Line]:
    """Two lines per player: name, lights, items; then what they may not play
    this round and why, and the Block in force on them (wrapped onto a third
    line where ``width`` is too narrow for all of it)."""
    words = words_of(view)
    lines: list[Line] = []
    note = defender_note(view)
    heads = [seat_label(names, s) + (note if view.defender == s else "") for s in (0, 1)]
    name_width = max(len(h) for h in heads) + 2
    for s in (0, 1):
        first: Line = [(seat_label(names, s), "name")]
        if view.defender == s and note:
            first.append((note, "muted"))
        first.append((" " * (name_width - len(heads[s])), ""))
        first.append((f"{words.lights} ", "muted"))
        first += lights_segments(view.lights[s], words, ascii)
        owned = view.items[s]
        if any(owned.values()):
            unused = [label for key, label in ITEM_LABELS if owned[key] == "unused"]
            used = [label for key, label in ITEM_LABELS if owned[key] == "used"]
            first.append(("  items ", "muted"))
            first.append((", ".join(unused) if unused else "none left", ""))
            if used:
                # which ones is plain from the rest: the line has no room to name them
                first.append((f" ({len(used)} used)", "muted"))
        lines.append(first)
        parts: list[Line] = []
        for action, why in view.restrictions[s].items():
            parts.append([(f"no {words.name(action)}", "warn"), (f" ({reason_words(why)})", "")])
        pair = view.repeat_pair[s]
        if pair and len(pair) > 1:  # a double last round is "played twice" above
            joined = "+".join(words.name(a) for a in pair)
            parts.append([(f"no {joined}", "warn"), (" (last round's pair)", "")])
        blocked = view.blocked[s]
        if blocked:
            parts.append(
                [(f"{words.name(blocked)} blocked", "bad"), (f" by {seat_label(names, 1 - s)}", "")]
            )
        if view.priority_window[s]:
            parts.append([("may use Claim Priority now", "live")])
        if not parts:
            parts.append([("free choice: no restrictions, nothing blocked", "muted")])
        lines += wrap_parts(parts, width)
    return lines


# ==================================================================== choice
def locked_line(move: str, words: Words, times: str) -> Line:
    return [("Locked in: ", "muted"), (move_words(move, words, times), "name")]


def choice_line(
    words: Words, sub: Submission, dropped: Mapping[str, str], priority_pot: int | None, times: str
) -> Line:
    """The choice being made, and what the rules would throw out of it; first,
    while Claim Priority may be used, the pot it would take (``priority_pot``)."""
    line: Line = []
    if priority_pot is not None:
        pot = words.count(priority_pot)
        line += [("p: Claim Priority takes the pot now", "live"), (f" ({pot}) · ", "")]
    chosen = sub.cards or sub.overload or sub.reset
    line.append(("Your choice: ", "muted"))
    line.append((submission_words(sub, words, times) if chosen else "nothing yet", "name"))
    if dropped:
        # the lock-in dialog's plain words (rules/trick/words.py disregard_warning)
        names = " + ".join(words.name(a) for a in dropped)
        line.append((f"  ! {names} would be thrown out", "bad"))
    return line


# ==================================================================== reveal
def reveal_lines(
    view: TrickView, names: Sequence[str], you: Collection[int] = (), times: str = "×"
) -> list[Line]:
    """The last round as the seat on screen may see it, action by action (the
    words are the rules': rules/trick/words.py)."""
    last = view.last_round
    words = words_of(view)
    if last is None:
        return intro_lines(view)
    lines: list[Line] = [[(f"Round {last.round} revealed", "head")]]
    for s in (0, 1):
        lines.append(
            [(f"{seat_label(names, s)}: ", "name"), (shown_move(last, s, words, times), "")]
        )
        for entry in last.actions[s]:
            outcome, effect, tone = action_outcome(entry, s, last, words)
            label = action_label(entry, words, times)
            effect = fill_names(effect, names, you)
            lines.append([(f"  {label:<9}", ""), (f"{outcome}: ", tone), (effect, "")])
    for s in last.bonus:
        lines.append([(fill_names(bonus_line(s, words), names, you), "")])
    if last.refilled:
        lines.append([(refill_line(words), "")])
    return lines


def intro_lines(view: TrickView) -> list[Line]:
    """Before the first reveal: what the five actions do."""
    w = words_of(view)
    n = w.actions
    lines: list[Line] = []
    if view.names == "setna":
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


def event_note(event: Event, names: Sequence[str], you: Collection[int] = ()) -> str:
    """The events that the view does not keep in sight, in the rules' own words
    (said under the reveal until the next one)."""
    if event.kind not in NOTED_EVENTS:
        return ""
    return event.render(names, you)


def reveal_summary(
    event: Event, names: Sequence[str], you: Collection[int], style: CardStyle
) -> list[str]:
    """A revealed round for its summary: what each played, what came of it,
    and the chips (the narration's own lines, for the person at the screen)."""
    if not isinstance(event.data, RoundRevealed):
        return [display_text(event.render(names, you), style)]
    return [display_text(fill_names(line, names, you), style) for line in event.data.lines]


def priority_why_not(view: TrickView, seat: int | None, choosing: bool) -> str:
    """Why Claim Priority cannot be used now, in words (``p`` when it cannot)."""
    if seat is None:
        return "You are watching: there is no seat to play."
    owned = view.items[seat]
    item = owned["priority"]
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
