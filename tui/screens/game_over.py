"""Game over: the result, the scores and their difference; rematch or home."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from rules.events import fill_names
from rules.game import Outcome
from tui.glyphs import in_words
from tui.plain import plain, plain_text
from tui.save_words import ordinal
from tui.screens.dialog import Dialog
from tui.screens.input_guard import InputGuard


def places(outcome: Outcome, players: int) -> list[tuple[str, int]]:
    """(finishing place, seat) in the ranking's order: tied seats share a
    place ("=2nd"); seats the ranking leaves out follow, unplaced."""
    rows: list[tuple[str, int]] = []
    place = 1
    for group in outcome.ranking:
        seats = [s for s in group if 0 <= s < players]
        shown = ("=" if len(seats) > 1 else "") + ordinal(place)
        rows += [(shown, s) for s in seats]
        place += len(seats)
    placed = {s for _, s in rows}
    rows += [("", s) for s in range(players) if s not in placed]
    return rows


def result_text(
    outcome: Outcome,
    names: Sequence[str],
    hints: Sequence[int] = (),
    you: Collection[int] = (),
    score_label: str = "points",
    resigned: Collection[int] = (),
) -> str:
    """The result in words: plain text, whatever the names and the reason hold
    (``you``: the seats addressed in the second person). The scores in a
    labelled column (``score_label``: what they count), each name with its
    finishing place; ``resigned``: seats that resigned, named with the reason
    when it does not say so itself."""
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
    reasons = [outcome.render(names, you)] if outcome.reason else []
    reasons += [
        fill_names(f"{{p{seat}}} resigned", names, you)
        for seat in sorted(set(resigned))
        if 0 <= seat < len(names) and outcome.reason != f"{{p{seat}}} resigned"
    ]
    if reasons:
        lines.append(f"({plain('; '.join(reasons))})")
    if scores and len(scores) == len(names):
        label = plain(score_label, 40)
        label = label[:1].upper() + label[1:]  # a heading, as "Place" beside it
        width = max(6, len(label))
        lines.append("")
        # no line starts with a space: a dialog's text drops leading blanks
        lines.append(f"{'Place':<6}{'':<20}{label:>{width}}")
        lines += [
            f"{place or '-':<6}{names[seat]:<20}{scores[seat]:>{width}}"
            for place, seat in places(outcome, len(names))
        ]
        if len(scores) == 2:
            lines.append(f"{'Difference':<26}{abs(scores[0] - scores[1]):>{width}}")
    taken = [
        f"{name}: {n} hint{'s' if n != 1 else ''}"
        for name, n in zip(names, hints, strict=False)
        if n
    ]
    if taken:
        lines += ["", "Hints taken: " + ", ".join(taken) + "."]
    return "\n".join(lines)


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
