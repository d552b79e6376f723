"""A saved game played back on its game's own screen: the replay's keys
instead of the game's (nothing can be played; the arrows move through the
game), and where the replay stands on the status line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding, BindingsMap, BindingType

from tui.games.core import TableScreenCore
from tui.screens.replay import next_perspective, open_text_view, replay_caption

if TYPE_CHECKING:
    from net.client import TableClient

REPLAY_BINDINGS: list[BindingType] = [
    Binding("right,l", "replay_step(1)", "Next", key_display="→", id="replay.next"),
    Binding("left", "replay_step(-1)", "Back", key_display="←", id="replay.back"),
    Binding("home", "replay_jump(0)", "Start", show=False, id="replay.start"),
    Binding("end", "replay_jump(-1)", "End", show=False, id="replay.end"),
    Binding("v", "replay_perspective", "Seen by", id="replay.perspective"),
    Binding("t", "replay_text", "As text", id="replay.text"),
    Binding("s", "score_history", "Scores", id="replay.scores"),
    Binding("question_mark,f1", "rules", "Rules", key_display="?", id="replay.rules"),
    Binding("escape", "replay_close", "Close", id="replay.close"),
]


class ReplayNavigation(TableScreenCore):
    def __init__(self, client: TableClient) -> None:
        super().__init__(client)
        if self.replay is not None:
            self._bindings = BindingsMap(REPLAY_BINDINGS)

    def replay_caption(self) -> str:
        """Where a replay stands, for the status line."""
        return replay_caption(self, self.replay) if self.replay is not None else ""

    def action_replay_step(self, step: int) -> None:
        if self.replay is not None:
            self.replay.go(self.replay.position + step)

    def action_replay_jump(self, where: int) -> None:
        if self.replay is not None:
            self.replay.go(where if where >= 0 else self.replay.game.last)

    def action_replay_perspective(self) -> None:
        if self.replay is not None:
            next_perspective(self, self.replay)

    def action_replay_text(self) -> None:
        if self.replay is not None:
            open_text_view(self, self.replay)

    def action_replay_close(self) -> None:
        self.app.pop_screen()
