"""Tips in a player's first real games of each game (docs/learn.md): the first
time a special rule happens in a game, one line says what just happened and
why. A tip is found by the kind of event the rules emitted (and, where one
kind covers several rules, a text in its data), from the lesson file's
``tips``: one mechanism for every game, no game named here.

Shown in the first ``TIP_GAMES`` games of each game unless Settings turns
tips off; each tip at most once a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.lessons import LessonError, Tip, load_lesson
from tui.widgets.event_log import display_text

from .progress import TIP_GAMES, load_progress, save_progress

if TYPE_CHECKING:
    from net.client import Update
    from tui.app import CardTableApp
    from tui.table.screen import TableScreen


def tips_coach(app: CardTableApp, game_id: str, new: bool) -> TipsCoach | None:
    """The tips of a game about to be shown, if it still gets them; a ``new``
    game (not a resumed one) counts as one of the first few."""
    if not app.settings.tips:
        return None
    try:
        tips = load_lesson(game_id).tips
    except LessonError:
        return None  # a game with no lesson has no tips either
    progress = load_progress(app.store.root)
    played = progress.tip_games.get(game_id, 0)
    if not tips or played >= TIP_GAMES:
        return None
    if new:
        progress.tip_games[game_id] = played + 1
        save_progress(app.store.root, progress)  # a failure only means more tips later
    return TipsCoach(tips)


class TipsCoach:
    """Says each tip once, the first time its event reaches the screen."""

    def __init__(self, tips: list[Tip]) -> None:
        self.tips = list(tips)
        self.said: set[str] = set()
        self.screen: TableScreen | None = None

    def attach(self, screen: TableScreen) -> None:
        self.screen = screen

    def before_move(self, move: str) -> str | None:
        return None

    def moved(self, move: str) -> None:
        pass

    def after_update(self, update: Update) -> None:
        for tip in self.due(update):
            self.said.add(tip.key)
            if self.screen is not None:
                text = display_text(tip.text, self.screen.card_style)
                self.screen.notify(text, title="Tip", timeout=10, markup=False)

    def due(self, update: Update) -> list[Tip]:
        """The tips this update's events call for that were not yet said."""
        out: list[Tip] = []
        for tip in self.tips:
            if tip.key in self.said or tip in out:
                continue
            if any(tip.matches(event) for event in update.events):
                out.append(tip)
        return out
