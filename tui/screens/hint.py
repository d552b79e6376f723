"""The hint dialog: what the engine makes of the player's legal moves.

:func:`hint_lines` is the text, a pure function of a :class:`~net.client.Hint`
(tested without the app); the dialog shows it over the table, best first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from net.client import Hint
from tui.hint_words import hint_text
from tui.plain import plain_text
from tui.screens.dialog import Dialog
from tui.screens.input_guard import InputGuard
from tui.widgets.cards import CardStyle
from tui.widgets.event_log import display_text


def hint_lines(
    hint: Hint, style: CardStyle, words: Callable[[str], str] = lambda move: move
) -> list[str]:
    """The hint's text (tui/hint_words.py) with the cards in ``style``."""
    return hint_text(
        hint, lambda text: display_text(text, style), words, best_mark="" if style.ascii else "→"
    )


class HintScreen(InputGuard, Dialog[None]):
    # it comes up while the player may be typing: a key meant for the table
    # does not close it unread (InputGuard)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape,enter,h,space", "close", "Back to the table", key_display="esc", id="hint.close"
        )
    ]

    def __init__(
        self, hint: Hint, style: CardStyle, words: Callable[[str], str] = lambda move: move
    ) -> None:
        super().__init__()
        self.hint = hint
        self.card_style = style
        self.words = words

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="hint"):
            yield Static("The engine's view", classes="title")
            text = "\n".join(hint_lines(self.hint, self.card_style, self.words))
            yield Static(plain_text(text, None, newlines=True), id="hint-text")
            # the game's footer is behind the dialog, covered or dimmed: the way back here
            yield Static("Esc or Enter: back to the table", classes="hint")

    def action_close(self) -> None:
        self.dismiss()
