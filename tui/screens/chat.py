"""One chat line for the table (a network table): typed, sent, shown to all."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Static

from tui.screens.dialog import Dialog

MAX_CHAT = 200  # the server cuts a line to this (net/protocol.py)


class ChatScreen(Dialog[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="chat.cancel"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="chat"):
            yield Static("Say to the table (Enter sends, Esc cancels)", classes="title")
            yield Input(placeholder="a short line", max_length=MAX_CHAT, id="chat-line")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
