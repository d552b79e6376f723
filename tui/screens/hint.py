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
from tui.plain import plain_text
from tui.screens.dialog import Dialog
from tui.screens.input_guard import InputGuard
from tui.widgets.cards import CardStyle
from tui.widgets.event_log import display_text

SHOWN = 8  # moves listed at most: the best ones


def hint_lines(
    hint: Hint, style: CardStyle, words: Callable[[str], str] = lambda move: move
) -> list[str]:
    """Each move in ``words`` (the game's, ``GameSpec.move_words``) with its
    estimated chance to win (and expected points where the game reads them
    so), the likeliest win first: "Best" is the top of the list."""
    moves = sorted(
        hint.moves,
        key=lambda m: (m.win_chance, m.points if m.points is not None else 0.0),
        reverse=True,
    )
    if not moves:
        return ["No move to weigh."]

    def shown(move: str) -> str:
        return display_text(words(move), style)

    width = max(len(shown(m.move)) for m in moves[:SHOWN])
    lines = [f"Best: {shown(moves[0].move)}", ""]
    for i, estimate in enumerate(moves[:SHOWN]):
        move = shown(estimate.move).ljust(width)
        chance = f"{round(estimate.win_chance * 100):>3}% to win"
        points = f"   {estimate.points:+.1f} points" if estimate.points is not None else ""
        mark = "→" if i == 0 and not style.ascii else (">" if i == 0 else " ")
        lines.append(f"{mark} {move}  {chance}{points}")
    if len(moves) > SHOWN:
        lines.append(f"  ... and {len(moves) - SHOWN} more")
    lines += ["", f"Hints taken this game: {hint.used}. Estimates from simulated games."]
    return lines


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
