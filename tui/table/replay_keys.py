"""A saved game played back on its game's own screen (:class:`ReplayKeys`):
the replay's keys in the footer instead of the game's (nothing can be
played; the arrows move through the game), and where the replay stands on
the status line.

The screen asks its client whether a person may play (``interactive``);
only a replay's client says no, and only then does the screen hold this part
(:meth:`ReplayKeys.of`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType

from net.replay import ReplayClient
from tui.screens.replay import next_perspective, open_text_view, replay_caption

if TYPE_CHECKING:
    from net.client import TableClient
    from tui.table.side import TableSide

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


class ReplayKeys:
    def __init__(self, screen: TableSide, replay: ReplayClient) -> None:
        self.screen = screen
        self.replay = replay

    @classmethod
    def of(cls, screen: TableSide, client: TableClient) -> ReplayKeys | None:
        """The part for a replay's client; None for a table a person plays."""
        if client.interactive or not isinstance(client, ReplayClient):
            return None
        return cls(screen, client)

    def caption(self) -> str:
        """Where the replay stands, for the status line."""
        return replay_caption(self.screen, self.replay)

    def step(self, step: int) -> None:
        self.replay.go(self.replay.position + step)

    def jump(self, where: int) -> None:
        self.replay.go(where if where >= 0 else self.replay.game.last)

    def next_perspective(self) -> None:
        next_perspective(self.screen, self.replay)

    def as_text(self) -> None:
        open_text_view(self.screen, self.replay)
