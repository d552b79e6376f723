"""Hot-seat hand-off: hides every hand until the next player is at the keyboard.

A full screen (not a dialog over the table), so nothing of the game, let alone a
hand, is drawn while the terminal changes hands.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Footer, Static

from tui.plain import plain, plain_text


class HandoffScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "ready", "I am ready", key_display="any key", id="handoff.ready")
    ]

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = plain(player, 40)  # a name from a save or the network

    def compose(self) -> ComposeResult:
        with Middle(), Center():
            yield Static(
                plain_text(
                    f"Pass the keyboard to {self.player}.\n\n"
                    f"{self.player}: press any key when you are ready\n"
                    "(everyone else, look away).",
                    None,
                    newlines=True,
                ),
                id="handoff-text",
            )
        yield Footer()

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        if event.key == "ctrl+q":
            self.app.exit(0)
            return
        self.action_ready()

    def on_click(self) -> None:
        self.action_ready()

    def action_ready(self) -> None:
        if self.is_current:
            self.dismiss()
