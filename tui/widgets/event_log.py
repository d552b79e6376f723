"""The event log: what happened, newest at the bottom, in the players' names."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from textual.widgets import RichLog

from rules.events import Event
from tui.plain import plain, plain_text

from .cards import CardStyle, card_label

_CARD_WORD_END = ".,!:;)"


def round_marker(number: int, ascii: bool = False) -> str:
    """The log's line where a round ends."""
    rule = "--" if ascii else "──"
    return f"{rule} end of round {number} {rule}"


def display_text(text: str, style: CardStyle) -> str:
    """Card texts in a sentence shown with the player's card style (10H -> 10♥);
    no escapes or control characters (names in events come from outside)."""
    words = []
    for word in plain(text, None, newlines=True).split(" "):
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

    def add_events(
        self,
        events: Iterable[Event],
        names: Sequence[str],
        style: CardStyle,
        you: Collection[int] = (),
    ) -> None:
        """``you``: the seats the narration addresses in the second person."""
        for event in events:
            self.add_line(display_text(event.render(names, you), style))

    def add_notice(self, text: str, problem: bool = False) -> None:
        """A notice (a save failed, someone left, a chat line) as a line of the
        log: over a game, notices are read here, never in a toast over the
        hand or the prompt (docs/app.md, "Notices")."""
        line = plain_text(("Problem: " if problem else "") + text, None, newlines=True)
        line.stylize("bold" if problem else "italic")
        self.write(line, scroll_end=True)

    def on_resize(self) -> None:  # type: ignore[override]  # RichLog's runs too: Textual calls each
        # Each line scrolls the log to its end, for the height it had then; a
        # screen that then grows a line elsewhere (a two-line prompt) takes a
        # row from the log, and the newest line fell out of view: the last
        # play before your turn was missing (N07). Every new line goes to the
        # end, so after a resize the end stays in view too.
        self.scroll_end(animate=False, immediate=True)

    def add_line(self, text: str) -> None:
        # a Text: RichLog would otherwise render a str itself (emoji codes and all)
        self.write(plain_text(text, None, newlines=True), scroll_end=True)
