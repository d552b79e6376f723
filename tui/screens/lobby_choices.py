"""The lobby's two small choices: which game a new table plays, and which
open seat to take at a table with more than one."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.plain import plain_text
from tui.screens.dialog import Dialog


class GameChoiceScreen(Dialog[str | None]):
    """Which game the new table plays."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Back", id="lobby.choice.back"),
    ]

    def __init__(self, choices: list[tuple[str, str]]) -> None:
        super().__init__()
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="game-choice"):
            yield Static("A table for which game?", classes="title")
            yield OptionList(*[Option(title, id=gid) for gid, title in self.choices])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class SeatChoiceScreen(Dialog[int | None]):
    """Which open seat to take at a table with more than one: every seat is
    listed with who sits there; the taken ones cannot be chosen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Back", id="lobby.seat.back"),
    ]

    def __init__(self, choices: list[tuple[int, str, bool]]) -> None:
        super().__init__()
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="seat-choice"):
            yield Static("Which seat?", classes="title")
            yield OptionList(
                *[
                    # names come from the network: plain text, never markup
                    Option(plain_text(line, None), id=str(seat), disabled=not is_open)
                    for seat, line, is_open in self.choices
                ]
            )

    def on_mount(self) -> None:
        listing = self.query_one(OptionList)
        listing.highlighted = next(i for i, (_, _, ok) in enumerate(self.choices) if ok)
        listing.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_cancel(self) -> None:
        self.dismiss(None)
