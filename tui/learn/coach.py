"""A lesson's guide on the game's own screen: a panel under the status line
says what is happening and what to try; a move other than the one the step
waits for is held back and explained; when the script is played out, the
lesson's summary (tui/learn/screens.py).

The rules of the lesson (the step, what a move means) are the pure
``rules.lessons.LessonRun``; this is only how they are shown.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.timer import Timer
from textual.widgets import Static

from rules.lessons import Lesson, LessonRun
from tui.screens.dialog import Dialog
from tui.services import SERVICES
from tui.widgets.event_log import EventLog, display_text

if TYPE_CHECKING:
    from net.client import Update
    from tui.table.screen import TableScreen


# the panel's height at most, in lines (the game keeps the rest of an 80x24 screen)
PANEL_LINES = 9


class CoachPanel(Static):
    DEFAULT_CSS: ClassVar[str] = """
    CoachPanel {
        height: auto;
        max-height: 9;
        padding: 0 1;
        border-left: thick $accent;
        background: $boost;
        color: $text;
    }
    """


class LessonIntroScreen(Dialog[None]):
    """The lesson's first words, before its first step."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "begin", "Begin", key_display="⏎", id="lesson.begin")
    ]

    services = SERVICES  # the app, typed (tui/services.py)

    def __init__(self, lesson: Lesson) -> None:
        super().__init__()
        self.lesson = lesson

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="lesson-intro"):
            yield Static(Text(f"Learn {self.lesson.spec.title}", style="bold"))
            yield Static(Text(display_text(self.lesson.intro, self.services.card_style)))
            yield Static(Text(f"\nAbout {self.lesson.minutes} minutes. Press Enter to begin."))

    def action_begin(self) -> None:
        self.dismiss()


class LessonCoach:
    """The coach of one lesson. ``finished`` is called once, when the last
    step's moves have all been played."""

    def __init__(self, lesson: Lesson, finished: Callable[[], None]) -> None:
        self.lesson = lesson
        self.run = LessonRun(lesson)
        self._finished = finished
        self._done = False
        self.screen: TableScreen | None = None
        self.panel = CoachPanel("", id="coach")
        self._ends = self.run.ends  # where each step's moves end (LessonRun.ends)
        self._state_id = 0
        self._told = ""  # what just happened, last shown as a notification
        self._timer: Timer

    # ------------------------------------------------------------ Coach
    def attach(self, screen: TableScreen) -> None:
        self.screen = screen
        status = screen.query_one("#status")
        screen.mount(self.panel, after=status)
        self._say()
        screen.app.push_screen(LessonIntroScreen(self.lesson))

    def before_move(self, move: str) -> str | None:
        legal = self.screen.legal if self.screen is not None else ()
        if not any(self.run.same_move(move, m) for m in legal):
            return None  # the rules refuse it, with their own reason
        objection = self.run.objection(move)
        if objection is None:
            return None
        self._say(objection)
        return "The lesson waits for another move: see the note below."

    def moved(self, move: str) -> None:
        self.run.played()
        self._say()

    def after_update(self, update: Update) -> None:
        self._state_id = update.state_id
        self._say()
        if not self._done and self.run.finished and update.state_id >= self._ends[-1]:
            self._done = True
            if self.screen is not None:
                # after whatever the last move opened (a round's summary) has closed
                self._timer = self.screen.set_interval(0.2, self._finish_when_free)

    def _finish_when_free(self) -> None:
        """The summary comes once the round's summary has closed, or over the
        result when the lesson's last move ended the game."""
        from tui.screens.game_over import GameOverScreen

        screen = self.screen
        if screen is None:
            return
        free = screen.is_current and not screen.rounds.summary_open
        result = screen.app.screen if screen.over else None
        if isinstance(result, GameOverScreen):
            # one box at a time: the lesson's summary takes the result's place
            # (g brings the result back, from the table) (N27)
            self._timer.stop()
            result.dismiss("")
            screen.call_after_refresh(self._finished)
        elif free:
            self._timer.stop()
            self._finished()

    # ------------------------------------------------------------ the panel
    def parts(self, brief: bool = False) -> tuple[str, str]:
        """What the panel says now (rules/lessons: ``LessonRun.parts``)."""
        return self.run.parts(self._state_id, brief)

    def text(self, brief: bool = False) -> str:
        return "\n".join(part for part in self.parts(brief) if part)

    def _say(self, objection: str = "") -> None:
        screen = self.screen
        if screen is None:
            return
        head, body = self.parts(brief=bool(objection))
        if objection:
            head = objection
        width = max(20, screen.size.width - 6)  # the panel's border and padding
        if head and not objection and _lines(f"{head}\n{body}", width) > PANEL_LINES:
            # no room for both: what just happened goes to the log, the step stays
            if head != self._told:
                self._told = head
                line = display_text(f"{self.lesson.opponent}: {head}", screen.card_style)
                screen.query_one(EventLog).write(Text(line, style="italic"))
            head = ""
        text = f"{head}\n{body}" if head else body
        style = screen.card_style
        # line by line: a card text at a line's end is a word of its own
        shown = Text("\n".join(display_text(line, style) for line in text.split("\n")))
        if objection:
            shown.stylize("bold", 0, len(objection))
        self.panel.update(shown)


def _lines(text: str, width: int) -> int:
    """How many lines ``text`` takes wrapped at ``width``."""
    return sum(len(textwrap.wrap(line, width)) or 1 for line in text.split("\n"))
