"""Five-Card Trick in words: the one place its moves, reasons and reveals are said.

The narration (the reveal event), the hint and analysis (``TrickSpec.move_words``)
and the screen all call these functions, so that a round reads the same in the
log, the reveal panel and a replay. Seats are written as ``{p0}`` placeholders
(rules/events.py), filled with names by whoever shows the text.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..choices import Choice, ChoiceGroup, ChoiceRow
from ..errors import NotationError
from ..events import fill_names
from .core import (
    BLOCKED,
    COLLIDED,
    DOUBLED_LAST_ROUND,
    NO_BLOCK_TARGET,
    OUTNUMBERED,
    REPEATED_PAIR,
    THREE_IN_A_ROW,
)
from .notation import (
    ACTION_IDS,
    ACTIONS,
    BLOCK,
    HIDDEN_TARGET,
    NO_TARGET,
    Submission,
    parse_move,
)
from .view import RevealedAction, RoundReveal, TrickView

NAMES = {
    "trick": ("Score", "Grow", "Claim", "Steal", "Block"),
    "setna": ("Score", "Raise", "Claim", "Steal", "Block"),
}
# a view carries these as they are: its JSON form must not change
WORDS = {
    "trick": {"chip": "chip", "chips": "chips", "lights": "lights", "grows": "grows"},
    "setna": {"chip": "Gem", "chips": "Gems", "lights": "torches", "grows": "raises"},
}
TITLES = {"trick": "Five-Card Trick", "setna": "Setna's Curse"}

# why an action is disregarded (or may not be played this round): the one table,
# short enough for the player panel's line and the reveal's column
REASONS = {
    THREE_IN_A_ROW: "played the last two rounds",
    REPEATED_PAIR: "last round's pair",
    DOUBLED_LAST_ROUND: "played twice last round",
    NO_BLOCK_TARGET: "the Block named nothing",
}

NOTHING = "nothing"
OUT_OF_TIME = "nothing (out of time)"
TARGET_HIDDEN = "target hidden"


def clock_words(timer: int, missed_replays: int) -> str:
    """The round clock, said once at the start of a game ("" without one): what
    the table plays for a seat that runs out (the empty submission, or in
    ``original`` the marker that replays a round both seats miss)."""
    if not timer:
        return ""
    text = (
        f"Each round has a {timer} s clock: a player who has not locked in when it "
        "runs out plays nothing."
    )
    if missed_replays:
        times = "once" if missed_replays == 1 else f"{missed_replays} times"
        text += f" If both players run out, the round is replayed (at most {times})."
    return text


def reason_words(code: str) -> str:
    """A disregard or restriction code in words (an unknown code as it is)."""
    return REASONS.get(code, code)


@dataclass(frozen=True)
class Words:
    """A preset's names: its five actions, chips or Gems, lights or torches."""

    actions: tuple[str, ...]
    chip: str
    chips: str
    lights: str
    grows: str
    kind: str  # "actions", or "abilities" in Setna's Curse

    @classmethod
    def of(cls, names: str) -> Words:
        """The words of the preset names ``names`` ("trick" or "setna")."""
        return cls.read(names, NAMES[names], WORDS[names])

    @classmethod
    def read(cls, names: str, actions: Sequence[str], words: Mapping[str, str]) -> Words:
        """The words a view carries (``names``, ``action_names``, ``words``)."""
        return cls(
            tuple(actions),
            words["chip"],
            words["chips"],
            words["lights"],
            words["grows"],
            "abilities" if names == "setna" else "actions",
        )

    @property
    def one(self) -> str:
        """One action: "action", or "ability"."""
        return "ability" if self.kind == "abilities" else "action"

    def name(self, action: str | int) -> str:
        index = action if isinstance(action, int) else ACTION_IDS.index(action)
        return self.actions[index]

    def count(self, n: int) -> str:
        """ "1 chip", "3 Gems"."""
        return f"{n} {self.chip if n == 1 else self.chips}"


# ===================================================================== moves
def submission_words(
    sub: Submission, words: Words, times: str = "×", show_target: bool = True
) -> str:
    """A submission for people: "Score + Block (on Claim)", "Score ×2 + Grow",
    "Block (target hidden)", "Block (no target)", "nothing"."""
    parts = []
    for a in ACTIONS:
        n = sub.counts[a]
        if not n:
            continue
        text = words.name(a) + (f" {times}{n}" if n > 1 else "")
        if a == BLOCK and sub.target == NO_TARGET:
            text += " (no target)"  # the rules disregard it: a Block must name an action
        elif a == BLOCK:
            text += f" (on {words.name(sub.target)})" if show_target else f" ({TARGET_HIDDEN})"
        parts.append(text)
    text = " + ".join(parts) if parts else NOTHING
    used = [label for label, on in (("Overload", sub.overload), ("Limit Reset", sub.reset)) if on]
    if used:
        text += f" with {' and '.join(used)}"
    return text


def move_words(move: str, words: Words, times: str = "×") -> str:
    """A move's notation for people, a hidden Block target (``block:?``) included."""
    if move.strip() in ("-", ""):
        return NOTHING
    if move == "missed":
        return OUT_OF_TIME
    if move == "priority":
        return "Claim Priority"
    try:
        sub = parse_move(move)
    except NotationError:
        return move
    if not isinstance(sub, Submission):
        return move
    return submission_words(sub, words, times, show_target=sub.target != HIDDEN_TARGET)


def shown_move(last: RoundReveal, seat: int, words: Words, times: str = "×") -> str:
    """What ``seat`` played in the revealed round, as this view may see it."""
    return OUT_OF_TIME if last.missed[seat] else move_words(last.moves[seat], words, times)


def disregard_warning(dropped: Mapping[str, str], sub: Submission, words: Words) -> str:
    """Before locking in a choice the rules would (partly) throw out: what and why
    ("Score + Claim is last round's pair, so both would be thrown out.")."""
    sentences = []
    pair = [a for a, why in dropped.items() if why == REPEATED_PAIR]
    if pair:
        joined = " + ".join(words.name(a) for a in pair)
        sentences.append(f"{joined} is last round's pair, so both would be thrown out.")
    for action, why in dropped.items():
        if why != REPEATED_PAIR:
            sentences.append(f"{words.name(action)} would be thrown out ({reason_words(why)}).")
    played = sum(1 for a in ACTIONS if sub.counts[a])
    if len(dropped) == played and len(pair) != played:
        sentences.append("Nothing of this choice would count.")
    return " ".join(sentences)


# ==================================================================== reveal
class ActionOutcome(NamedTuple):
    """What became of one revealed action: the outcome ("live", "collided"...),
    what it did (seats as placeholders), and its tone: live, cancel, bad, muted."""

    outcome: str
    effect: str
    tone: str


def action_outcome(
    entry: RevealedAction, seat: int, last: RoundReveal, words: Words
) -> ActionOutcome:
    """One action of a revealed round, for the reveal's column."""
    other = f"{{p{1 - seat}}}"
    also_blocked = ", blocked too" if entry.blocked else ""
    if entry.status == "disregarded":
        return ActionOutcome("disregarded", reason_words(entry.reason or ""), "bad")
    if entry.status == COLLIDED:
        return ActionOutcome("collided", f"both played it{also_blocked}", "cancel")
    if entry.status == OUTNUMBERED:
        return ActionOutcome(
            "outnumbered", f"{entry.copies} copy against 2{also_blocked}", "cancel"
        )
    if entry.status == BLOCKED:
        return ActionOutcome("blocked", f"no effect ({{p{1 - seat}'s}} Block)", "cancel")
    taken = words.count(last.taken)
    if entry.action == "score":
        return ActionOutcome("live", f"+1 {words.chip}", "live")
    if entry.action == "grow":
        return ActionOutcome(
            "live", f"+1 {words.chip} to the pot, now {last.pot_before + 1}", "live"
        )
    if entry.action == "claim":
        if last.taker == 1 - seat and last.taken_by == "steal":
            return ActionOutcome("stolen", f"{other} took the pot ({taken})", "cancel")
        return ActionOutcome("live", f"took the pot ({taken})", "live")
    if entry.action == "steal":
        if last.taker == seat and last.taken_by == "steal":
            return ActionOutcome("live", f"stole the pot ({taken})", "live")
        return ActionOutcome("live", f"no live {words.name('claim')} to steal", "muted")
    target = last.block_targets[seat]
    what = words.name(target) if target else TARGET_HIDDEN
    return ActionOutcome("live", f"blocks {{p{1 - seat}'s}} {what} next round", "live")


def action_label(entry: RevealedAction, words: Words, times: str = "×") -> str:
    """ "Score", "Grow ×2"."""
    name = words.name(entry.action)
    return name + (f" {times}{entry.copies}" if entry.copies > 1 else "")


def round_lines(last: RoundReveal, words: Words) -> list[str]:
    """The revealed round told in sentences: the reveal event's text and the
    round's summary."""
    nm = words.name
    shown = [shown_move(last, s, words) for s in (0, 1)]
    lines = [f"Round {last.round}: {{p0 plays|play}} {shown[0]}; {{p1 plays|play}} {shown[1]}."]
    counted: list[dict[str, int]] = [{}, {}]
    for seat in (0, 1):
        for entry in last.actions[seat]:
            if entry.status == "disregarded":
                lines.append(
                    f"{{p{seat}'s}} {nm(entry.action)} is disregarded "
                    f"({reason_words(entry.reason or '')})."
                )
            else:
                counted[seat][entry.action] = entry.copies
    for action in ACTION_IDS:
        mine, theirs = counted[0].get(action, 0), counted[1].get(action, 0)
        if mine and mine == theirs:
            lines.append(f"Both play {nm(action)}: they cancel.")
        elif mine and theirs:
            more = 0 if mine > theirs else 1
            lines.append(f"{{p{more}'s}} two {nm(action)}s outnumber {{p{1 - more}'s}} one.")
    for seat in (0, 1):
        for entry in last.actions[seat]:
            if entry.status == BLOCKED:
                lines.append(f"{{p{seat}'s}} {nm(entry.action)} is blocked.")
            elif entry.blocked and entry.status in (COLLIDED, OUTNUMBERED):
                lines.append(f"{{p{seat}'s}} {nm(entry.action)} was blocked, and still cancels.")
    for seat in last.scored:
        lines.append(f"{{p{seat} scores|score}} 1 {words.chip}.")
    if last.grew is not None:
        grow = f"{{p{last.grew} {words.grows}|{words.grows[:-1]}}}"
        lines.append(f"{grow} the pot to {words.count(last.pot_before + 1)}.")
    if last.taker is not None:
        taken = words.count(last.taken)
        if last.taken_by == "steal":
            lines.append(
                f"{{p{1 - last.taker} claims|claim}}, but {{p{last.taker} steals|steal}} "
                f"the pot: {taken}."
            )
        else:
            lines.append(f"{{p{last.taker} claims|claim}} the pot: {taken}.")
    for seat in last.failed_steal:
        lines.append(f"{{p{seat}'s}} Steal finds no Claim to steal.")
    for seat in (0, 1):
        target = last.block_targets[seat]
        live = any(e.action == "block" and e.status == "live" for e in last.actions[seat])
        if live and target is not None:
            lines.append(f"{{p{seat} blocks|block}} {{p{1 - seat}'s}} {nm(target)} for next round.")
    for seat in last.bonus:
        lines.append(bonus_line(seat, words))
    if last.refilled:
        lines.append(f"The pot is refilled to 1 {words.chip}.")
    lines.append(
        f"{words.chips.capitalize()}: {{p0}} {last.chips[0]}, {{p1}} {last.chips[1]}; "
        f"pot {last.pot}."
    )
    return lines


def bonus_line(seat: int, words: Words) -> str:
    return f"{{p{seat} has|have}} all five {words.lights} on: +1 {words.chip}, {words.lights} off."


def refill_line(words: Words) -> str:
    return f"The pot was taken: refilled to 1 {words.chip}."


def table_lines(view: TrickView, names: Sequence[str], you: Collection[int]) -> list[str]:
    """The position in a few lines (``GameSpec.table_lines``): the chips and
    the pot, each player's lights, and the last round revealed."""
    words = Words.read(view.names, view.action_names, view.words)
    chips = ", ".join(f"{{p{s}}} {n}" for s, n in enumerate(view.chips))
    lines = [
        f"Round {view.round} of {view.rounds}. {words.chips.capitalize()}: {chips}; "
        f"pot {view.pot}.",
    ]
    for seat, lit in enumerate(view.lights):
        shown = ", ".join(words.name(a) for a in lit) or "none"
        lines.append(f"{{p{seat}'s}} {words.lights} on: {shown}.")
    if view.last_round is not None:
        lines += round_lines(view.last_round, words)
    if view.pending is not None:
        lines.append(f"Submitted: {move_words(view.pending, words)}.")
    return [fill_names(line, names, you) for line in lines]


# ===================================================================== choices
def choice_groups(moves: Sequence[str], words: Words) -> list[ChoiceGroup]:
    """The submissions by their first action (``GameSpec.choice_groups``):
    one action or none first, then "Score and: Grow, Claim...", and where
    three actions may be played (``final``), a row for each first two, and
    one for each set of items used ("Score and, with Limit Reset")."""
    title = f"One {words.one} or none"
    rows: dict[int, dict[str, list[Choice]]] = {}
    for move in moves:
        said = move_words(move, words, "×").replace("×2", "twice").replace("×3", "three times")
        said, _, items = said.partition(" with ")
        used = f", with {items}" if items else ""
        parts = said.split(" + ")
        sub = parse_move(move) if move not in ("-", "missed", "priority") else None
        if not isinstance(sub, Submission) or len(parts) == 1:
            rows.setdefault(-1, {}).setdefault(title + used, []).append(Choice(move, said))
            continue
        first = next(a for a in ACTIONS if sub.counts[a])
        head = " + ".join(parts[:-1]) + " and" + used
        rows.setdefault(first, {}).setdefault(head, []).append(Choice(move, parts[-1]))
    groups = []
    for first, by_head in sorted(rows.items()):
        name = words.name(first) if first >= 0 else ""
        groups.append(
            ChoiceGroup(
                ACTION_IDS[first] if first >= 0 else "one",
                f"{name} and" if name else title,
                f"{name} with other {words.kind}" if name else title.lower(),
                tuple(ChoiceRow(head, tuple(cs)) for head, cs in by_head.items()),
            )
        )
    return groups
