"""The hint dialog: what the engine makes of the player's legal moves.

:func:`hint_lines` is the text, a pure function of a :class:`~net.client.Hint`
(tested without the app); the dialog shows it over the table, best first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from net.client import Hint, HintEstimate
from rules.bots.advice import advice_lines, error_words
from tui.plain import plain_text
from tui.screens.dialog import Dialog
from tui.screens.input_guard import InputGuard
from tui.widgets.cards import CardStyle
from tui.widgets.event_log import display_text

SHOWN = 8  # choices listed at most: the best ones


def hint_lines(
    hint: Hint, style: CardStyle, words: Callable[[str], str] = lambda move: move
) -> list[str]:
    """The advice in words (``rules.bots.advice.advice_lines``: each choice
    in ``words``, the game's ``GameSpec.move_words``, with its chance to win
    and the error of it, best first), its cards drawn in the screen's style."""
    lines = advice_lines(hint.moves, lambda move: display_text(words(move), style), SHOWN)
    if not hint.moves:
        return lines
    if not style.ascii:
        lines = [("→" + line[1:]) if line.startswith(">") else line for line in lines]
    return [
        *lines,
        "",
        error_words(hint.moves),
        f"Hints taken this game: {hint.used}. {hint_source(hint.moves)}",
    ]


def hint_source(choices: Sequence[HintEstimate]) -> str:
    """Where the figures come from, in a sentence."""
    if choices and choices[0].share is not None:
        return "Solved round by round."
    return "From sampled deals."


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
