"""Game over: the result, the scores and their difference; rematch or home."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from rules.events import fill_names
from rules.game import Outcome
from tui.plain import plain, plain_text
from tui.screens.input_guard import InputGuard


def result_text(
    outcome: Outcome,
    names: Sequence[str],
    hints: Sequence[int] = (),
    you: Collection[int] = (),
) -> str:
    """The result in words: plain text, whatever the names and the reason hold
    (``you``: the seats addressed in the second person)."""
    names = [plain(n, 40) for n in names]
    winner = outcome.winner
    scores = list(outcome.scores)
    lines = []
    if winner is not None and 0 <= winner < len(names):
        lines.append(fill_names(f"{{p{winner} wins|win}}.", names, you))
    elif outcome.is_draw:
        lines.append("A draw.")
    else:
        lines.append("The game is over.")
    reason = outcome.render(names, you)
    if reason:
        lines.append(f"({plain(reason)})")
    if scores and len(scores) == len(names):
        lines.append("")
        lines += [f"{n:<20}{s:>6}" for n, s in zip(names, scores, strict=True)]
        if len(scores) == 2:
            lines.append(f"{'Difference':<20}{abs(scores[0] - scores[1]):>6}")
    taken = [
        f"{name}: {n} hint{'s' if n != 1 else ''}"
        for name, n in zip(names, hints, strict=False)
        if n
    ]
    if taken:
        lines += ["", "Hints taken: " + ", ".join(taken) + "."]
    return "\n".join(lines)


class GameOverScreen(InputGuard, ModalScreen[str]):
    # Nothing focused: Enter is the play key, and a press meant for the last move
    # must not start a rematch before the result is read. r, h and v choose (or
    # Tab to a button, then Enter). Keys typed for the table just before it
    # appeared are dropped (InputGuard): a letter that plays there chooses here.

    AUTO_FOCUS = ""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "choose('rematch')", "Rematch", id="over.rematch"),
        Binding("h,escape", "choose('home')", "Home", key_display="h", id="over.home"),
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
    ) -> None:
        super().__init__()
        # where h goes: home, or the lobby of a table elsewhere
        self.back = back
        self.game_id = game_id
        self.outcome = outcome
        self.names = list(names)
        self.hints = tuple(hints)
        self.you = frozenset(you)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="game-over"):
            yield Static("Game over", classes="title")
            yield Static(self.result_renderable(), id="result")
            with Horizontal(classes="buttons"):
                yield Button("Rematch (r)", id="rematch", variant="primary", compact=True)
                yield Button(f"{self.back} (h)", id="home", compact=True)
                yield Button("Table (v)", id="view", compact=True)
                yield Button("Analyse (a)", id="analyse", compact=True)

    def result_renderable(self) -> Text:
        return plain_text(
            result_text(self.outcome, self.names, self.hints, self.you), None, newlines=True
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if not self.input_guarded:  # a click meant for the table underneath
            self.action_choose(event.button.id or "home")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
