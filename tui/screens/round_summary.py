"""The end of a round, held in view: who won, how much and why, the new scores.

It stays until a key (or a click), or until ``linger`` seconds have passed; the
table's clocks stand still meanwhile (the game screen pauses them), so reading
it costs nobody time. The timer is injected (``schedule``): tests close it by
hand instead of waiting on the wall clock. A key typed for the table just before
it appeared (the move that ended the round, pressed twice) does not close it
unread (:class:`~tui.screens.input_guard.InputGuard`).
"""

from __future__ import annotations

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


class RoundSummaryScreen(InputGuard, Dialog[None]):
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
            yield Static("\nAny key to play on.", classes="hint")

    def on_mount(self) -> None:
        if self.linger:
            schedule = self.schedule or (lambda seconds, then: self.set_timer(seconds, then))
            schedule(self.linger, self.action_close)

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
