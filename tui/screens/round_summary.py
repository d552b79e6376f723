"""The end of a round, held in view: who won, how much and why, the new scores.

It stays until a key (or a click), or until ``linger`` seconds have passed,
which it counts down ("closes in 3 s"); the table's clocks stand still
meanwhile (the game screen pauses them), so reading it costs nobody time. It
closes with "timer" when its time ran out, so that the table can ignore a
key pressed for the summary a moment too late (tui/table/rounds.py). The
timer is injected (``schedule``): tests close it by hand instead of waiting on
the wall clock. A key typed for the table just before
it appeared (the move that ended the round, pressed twice) does not close it
unread (:class:`~tui.screens.input_guard.InputGuard`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from tui.plain import plain, plain_text
from tui.screens.dialog import Dialog
from tui.screens.input_guard import InputGuard, Schedule

__all__ = ["RoundSummaryScreen", "Schedule"]


# what the summary returns when its time ran out, rather than a key closing it
BY_TIMER = "timer"


class RoundSummaryScreen(InputGuard, Dialog[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", "Play on", key_display="any key", id="summary.close")
    ]

    def __init__(
        self,
        title: str,
        lines: Sequence[str],
        linger: float | None = None,
        schedule: Schedule | None = None,
    ) -> None:
        super().__init__()
        self.heading = plain(title, 80)
        self.lines = [plain(line) for line in lines]
        self.linger = linger
        self.schedule = schedule

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="round-summary"):
            yield Static(plain_text(self.heading, None), classes="title")
            yield Static(plain_text("\n".join(self.lines), None, newlines=True), id="summary-text")
            yield Static(self._closing_text(), classes="hint", id="summary-closing")

    def _closing_text(self) -> str:
        if not self.linger:
            return "\nAny key to play on."
        left = max(1, math.ceil(self.linger - self.ticks))
        return f"\nAny key to play on; it closes by itself in {left} s."

    ticks = 0  # seconds counted down so far

    def tick(self) -> None:
        """One second less to go (the countdown only: the close has its own timer)."""
        self.ticks += 1
        self.query_one("#summary-closing", Static).update(self._closing_text())

    def on_mount(self) -> None:
        if self.linger:
            schedule = self.schedule or (lambda seconds, then: self.set_timer(seconds, then))
            schedule(self.linger, self._time_up)
            if self.schedule is None:  # an injected timer (tests) ticks by hand
                self.set_interval(1.0, self.tick)

    def _time_up(self) -> None:
        if self.is_current:
            self.dismiss(BY_TIMER)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        if event.key == "ctrl+q":
            self.app.exit(0)
            return
        self.action_close()

    def on_click(self) -> None:
        if not self.input_guarded:
            self.action_close()

    def action_close(self) -> None:
        # the timer may fire after a key closed it, or while a screen is above it
        if self.is_current:
            self.dismiss()
