"""Hot-seat hand-off: hides every hand until the next player is at the keyboard.

A full screen (not a dialog over the table), so nothing of the game, let alone a
hand, is drawn while the terminal changes hands. It goes only on Enter or Space,
the keys it names, and only once the keyboard has been quiet for a moment after
it appeared (:class:`~tui.screens.input_guard.InputGuard`): the player who just
moved cannot dismiss it with a second press, a key held down, or a key typed
before it showed, and so never sees the next player's hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

from tui.plain import plain, plain_text
from tui.screens.input_guard import InputGuard
from tui.seating import handoff_prompt, handoff_text
from tui.styles import DIALOGS
from tui.widgets.footer import FittingFooter

if TYPE_CHECKING:
    from tui.textual_seams import CSSPathType

READY_KEYS = ("enter", "space")


class HandoffScreen(InputGuard, Screen[None]):
    CSS_PATH: ClassVar[CSSPathType | None] = [DIALOGS]
    # shown in the footer; the keys themselves are read in on_key
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "ready", "I have the keyboard", key_display="⏎", id="handoff.ready")
    ]

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = plain(player, 40)  # a name from a save or the network

    def compose(self) -> ComposeResult:
        with Middle(), Center():
            yield Static(self._text(), id="handoff-text")
        yield FittingFooter()

    def _text(self) -> Text:
        prompt = handoff_prompt(self.player)
        if self.input_guarded:
            # as wide as the prompt it stands for: the box keeps its size
            prompt = "One moment…".center(len(prompt))
        text = plain_text(
            f"{handoff_text(self.player)}\n\n",
            None,
            newlines=True,
        )
        text.append(plain_text(prompt, None, style="bold"))
        return text

    def _show_prompt(self) -> None:
        if self.is_mounted:
            self.query_one("#handoff-text", Static).update(self._text())

    def guard_lifted(self) -> None:
        self._show_prompt()

    def guard_restarted(self) -> None:
        self._show_prompt()

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        if event.key in READY_KEYS:
            self.action_ready()
        else:
            # not the key it asks for: someone may still be typing at the last screen
            self.hold_input()
            self._show_prompt()

    def action_ready(self) -> None:
        if self.is_current and not self.input_guarded:
            self.dismiss()
