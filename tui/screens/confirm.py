"""A yes/no question in a small modal dialog (deleting a save, resigning)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from tui.plain import plain_text
from tui.screens.dialog import Dialog


class ConfirmScreen(Dialog[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", key_display="n/Esc", id="confirm.no"),
    ]

    def __init__(self, question: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question = question
        self.yes_label = yes
        self.no_label = no

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog"):
            # plain text: a question may quote a saved game's names
            yield Static(plain_text(self.question, None, newlines=True), id="question")
            with Horizontal(classes="buttons"):
                yield Button(f"{self.yes_label} (y)", id="yes", variant="error", compact=True)
                yield Button(f"{self.no_label} (n)", id="no", compact=True)

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")
