"""The Stress screen's dialog: every legal move, in the rules' words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from rules.stress import POWER, Blind, Play, StressMove, StressView, Swap, parse_move
from rules.stress.words import move_words
from tui.screens.dialog import Dialog
from tui.widgets.cards import CardStyle
from tui.widgets.event_log import display_text


class MovesPicker(Dialog[str | None]):
    """Every legal move, so that nothing is ever out of reach of the keys:
    dismissed with the chosen move's notation, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,m", "cancel", "Back", id="stress.moves.cancel")
    ]

    def __init__(self, legal: Sequence[str], view: StressView, style: CardStyle) -> None:
        super().__init__()
        self.moves = sorted(legal, key=lambda move: _in_hand_order(parse_move(move)))
        self.view = view
        self.card_style = style

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="stress-moves"):
            yield Static("Every legal move", classes="title")
            options = [Option(Text(self.words(move)), id=move) for move in self.moves]
            yield OptionList(*options, id="stress-move-list")

    def words(self, move: str) -> str:
        """``move`` as the list shows it: the rules' words, cards in the table's style."""
        return display_text(move_words(parse_move(move), self.view), self.card_style)

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


def _in_hand_order(move: StressMove) -> tuple[int, ...]:
    """Plays as the hand shows its cards (weakest rank first, fewer cards
    first), then the face-down cards by position, then picking up; the swaps
    by hand card, then ready."""
    match move:
        case Play(cards=cards):
            return (0, POWER[cards[0] & 15], len(cards), *cards)
        case Swap(hand_card=hand, up_card=up):
            return (0, POWER[hand & 15], hand, POWER[up & 15], up)
        case Blind(position=position):
            return (1, position)
        case _:
            return (2,)
