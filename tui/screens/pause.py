"""The pause menu (Esc in a game): resume, save and quit, resign, rules, settings."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.screens.dialog import Dialog

CHOICES = (
    ("resume", "Back to the game", "Esc"),
    ("quit", "Save and quit to home", "q"),
    ("resign", "Resign", "r"),
    ("rules", "Rules", "?"),
    ("settings", "Settings", ","),
)


class PauseScreen(Dialog[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape", "choose('resume')", "Back to the game", key_display="esc", id="pause.resume"
        ),
        Binding("q", "choose('quit')", "Save and quit", id="pause.quit"),
        Binding("r", "choose('resign')", "Resign", id="pause.resign"),
        Binding("question_mark,f1", "choose('rules')", "Rules", key_display="?", id="pause.rules"),
        Binding("comma", "choose('settings')", "Settings", key_display=",", id="pause.settings"),
    ]

    def __init__(
        self,
        can_resign: bool = True,
        can_pause: bool = True,
        keeps_game: bool = True,
        *,
        saves: bool = True,
        seated: bool = True,
        over: bool = False,
        closed: str | None = None,
        kept_all_game: bool = False,
    ) -> None:
        super().__init__()
        # the game is over: nothing is paused, and quitting saves nothing new
        self.over = over
        self.can_resign = can_resign
        # False: a table that saves nothing (a lesson); seated False: a spectator
        self.saves, self.seated = saves, seated
        # a table elsewhere runs on while the menu is open: say so
        self.can_pause = can_pause
        # False: a game opened here with no move yet, which quitting does not
        # keep; the menu says so before, not after
        self.keeps_game = keeps_game
        # a table elsewhere that has closed under us: why, in a few words
        self.closed = closed
        # a correspondence table: a seat left is its player's to the end
        self.kept_all_game = kept_all_game

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="pause"):
            title = "Game over" if self.over else "Game paused" if self.can_pause else "Menu"
            yield Static(title, classes="title")
            labels = [(cid, self._label(cid, label), key) for cid, label, key in CHOICES]
            width = max(24, *(len(label) for _, label, _ in labels))
            yield OptionList(
                *[
                    Option(f"{label:<{width}}{key:>4}", id=cid)
                    for cid, label, key in labels
                    # nothing to resign (a spectator, a game over): not offered
                    if cid != "resign" or self.can_resign
                ],
                id="pause-menu",
            )
            if self.closed is not None:
                yield Static(
                    f"This table is closed ({self.closed}): the game stopped there. "
                    "Leaving takes you back.",
                    classes="hint",
                )
            elif not self.saves:
                yield Static("This table is not saved: leaving ends it.", classes="hint")
            elif not self.keeps_game:
                yield Static(
                    "No move yet: this game is not kept if you quit now.",
                    classes="hint",
                )
            elif self.over and self.can_pause:
                yield Static(
                    "The game is kept: Resume lists it, to replay or analyse.", classes="hint"
                )
            elif self.can_pause:
                yield Static("The game is saved after every move.", classes="hint")
            else:
                held = " a seat you leave is held for a while." if self.seated else ""
                if self.seated and self.kept_all_game:
                    held = " your seat is yours until the game ends: come back when you like."
                yield Static(
                    "A network table cannot be paused: the clocks keep running. "
                    f"The server saves the game;{held or ' you may watch again from the lobby.'}",
                    classes="hint",
                )

    def _label(self, choice: str, label: str) -> str:
        if choice == "quit" and not self.can_pause:
            return "Leave the table"  # for the lobby; the server keeps the game
        if choice == "quit" and not self.saves:
            return "Leave the table"  # a lesson: nothing is saved, nothing promised
        if choice == "quit" and self.over:
            return "Back to home"  # the game was saved as it ended
        if choice == "quit" and not self.keeps_game:
            return "Quit (nothing played yet: not kept)"
        return label

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (action == "choose" and parameters == ("resign",) and not self.can_resign)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_choose(event.option.id or "resume")

    def action_choose(self, choice: str) -> None:
        self.dismiss(None if choice == "resume" else choice)
