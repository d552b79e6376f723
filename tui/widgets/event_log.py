"""The event log: what happened, newest at the bottom, in the players' names."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from textual.widgets import RichLog

from rules.events import Event
from tui.plain import plain, plain_text

from .cards import CardStyle, card_label

_CARD_WORD_END = ".,!:;)"
# Events say "{p0} plays 10H"; when a seat is named "You" that needs "You play".
_YOU_VERB = re.compile(r"\bYou ([a-z]+s)\b")
_IRREGULAR = {"has": "have", "is": "are", "was": "were", "does": "do"}
# ...and "{p1}'s Steal" needs "your Steal" ("Your" where a sentence starts).
_YOUR_START = re.compile(r"(^|[.!?:]\s+)You's\b")


def second_person(text: str) -> str:
    def fix(match: re.Match[str]) -> str:
        verb = match.group(1)
        if verb in _IRREGULAR:
            return f"You {_IRREGULAR[verb]}"
        if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
            return f"You {verb[:-2]}"
        if verb.endswith("ies"):
            return f"You {verb[:-3]}y"
        return f"You {verb[:-1]}"

    text = _YOUR_START.sub(lambda m: m.group(1) + "Your", text)
    return _YOU_VERB.sub(fix, text.replace("You's", "your"))


def display_text(text: str, style: CardStyle) -> str:
    """Card texts in a sentence shown with the player's card style (10H -> 10♥);
    no escapes or control characters (names in events come from outside)."""
    words = []
    for word in second_person(plain(text, None, newlines=True)).split(" "):
        core = word.rstrip(_CARD_WORD_END)
        tail = word[len(core) :]
        head = ""
        if core.startswith(("(", "[")):
            head, core = core[0], core[1:]
        words.append(head + card_label(core, style) + tail)
    return " ".join(words)


class EventLog(RichLog):
    """A scrolling log of rendered events (markup off: event text is plain)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(
            id=id, classes=classes, wrap=True, markup=False, max_lines=500, min_width=20
        )
        self.can_focus = False

    def add_events(self, events: Iterable[Event], names: Sequence[str], style: CardStyle) -> None:
        for event in events:
            self.add_line(display_text(event.render(names), style))

    def add_line(self, text: str) -> None:
        # a Text: RichLog would otherwise render a str itself (emoji codes and all)
        self.write(plain_text(text, None, newlines=True), scroll_end=True)
