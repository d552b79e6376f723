"""Game over: the result, the scores and their difference; rematch or home."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from rules.game import Outcome
from tui.glyphs import in_words
from tui.plain import plain_text
from tui.result_words import result_text
from tui.screens.dialog import Dialog
from tui.screens.input_guard import InputGuard


def rating_text(lines: Sequence[str], ascii: bool) -> str:
    """The rating lines in the app's glyphs: "25.0 → 21.6", in ASCII "25.0 -> 21.6"."""
    return in_words("\n".join(lines), ascii)


class GameOverScreen(InputGuard, Dialog[str]):
    # Nothing focused: Enter is the play key, and a press meant for the last move
    # must not start a rematch before the result is read. r, Esc and v choose (or
    # Tab to a button, then Enter). Home is Esc, not h: at the table h is Hint,
    # and one key must not mean "help me" there and "leave" here. Keys typed for
    # the table just before it appeared are dropped (InputGuard): a letter that
    # plays there chooses here.

    AUTO_FOCUS = ""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "choose('rematch')", "Rematch", id="over.rematch"),
        Binding("escape", "choose('home')", "Home", key_display="esc", id="over.home"),
        Binding("v", "choose('view')", "View the table", id="over.view"),
        Binding("a", "choose('analyse')", "Analyse", id="over.analyse"),
        Binding("s", "choose('scores')", "Scores", id="over.scores"),
    ]

    def __init__(
        self,
        game_id: str,
        outcome: Outcome,
        names: Sequence[str],
        hints: Sequence[int] = (),
        you: Collection[int] = (),
        back: str = "Home",
        score_label: str = "points",
        resigned: Collection[int] = (),
        rating_change: Callable[[], Awaitable[list[str]]] | None = None,
        can_rematch: bool = True,
    ) -> None:
        super().__init__()
        # a spectator has no seat to play again from: no Rematch
        self.can_rematch = can_rematch
        # what the game did to the ratings (docs/stats.md), worked out after the dialog shows
        self.rating_change = rating_change
        # where h goes: home, or the lobby of a table elsewhere
        self.back = back
        self.game_id = game_id
        self.outcome = outcome
        self.names = list(names)
        self.hints = tuple(hints)
        self.you = frozenset(you)
        self.score_label = score_label
        self.resigned = frozenset(resigned)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="game-over"):
            yield Static("Game over", classes="title")
            yield Static(self.result_renderable(), id="result")
            yield Static("", id="rating-change")
            with Horizontal(classes="buttons"):
                if self.can_rematch:
                    yield Button("Rematch (r)", id="rematch", variant="primary", compact=True)
                yield Button(
                    f"{self.back} (Esc)",
                    id="home",
                    compact=True,
                    variant="default" if self.can_rematch else "primary",
                )
                yield Button("Table (v)", id="view", compact=True)
                yield Button("Analyse (a)", id="analyse", compact=True)

    def result_renderable(self) -> Text:
        return plain_text(
            result_text(
                self.outcome, self.names, self.hints, self.you, self.score_label, self.resigned
            ),
            None,
            newlines=True,
        )

    def on_mount(self) -> None:
        if self.rating_change is not None:
            self.run_worker(self._show_rating_change(), exit_on_error=False)

    async def _show_rating_change(self) -> None:
        assert self.rating_change is not None
        lines = await self.rating_change()
        if lines and self.is_attached:  # the player may have chosen meanwhile
            text = plain_text(
                rating_text(lines, bool(getattr(self.app, "ascii", False))), None, newlines=True
            )
            self.query_one("#rating-change", Static).update(text)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if not self.input_guarded:  # a click meant for the table underneath
            self.action_choose(event.button.id or "home")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.can_rematch or parameters != ("rematch",)

    def action_choose(self, choice: str) -> None:
        if choice == "rematch" and not self.can_rematch:
            return
        self.dismiss(choice)
