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

# each the screen's ``replay`` action, handed to ReplayKeys.press
REPLAY_BINDINGS: list[BindingType] = [
    Binding("right,l", "replay('step', 1)", "Next", key_display="→", id="replay.next"),
    Binding("left", "replay('step', -1)", "Back", key_display="←", id="replay.back"),
    Binding("home", "replay('jump', 0)", "Start", show=False, id="replay.start"),
    Binding("end", "replay('jump', -1)", "End", show=False, id="replay.end"),
    Binding("v", "replay('perspective')", "Seen by", id="replay.perspective"),
    Binding("t", "replay('text')", "As text", id="replay.text"),
    Binding("s", "score_history", "Scores", id="replay.scores"),
    Binding("question_mark,f1", "rules", "Rules", key_display="?", id="replay.rules"),
    Binding("escape", "replay('close')", "Close", id="replay.close"),
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

    def press(self, key: str, step: int = 0) -> None:
        """One of the replay's keys (REPLAY_BINDINGS): move through the game
        (``step``: by one move, ``jump``: to the start, or the end for -1),
        other eyes, the game as text, or close."""
        replay = self.replay
        if key == "step":
            replay.go(replay.position + step)
        elif key == "jump":
            replay.go(step if step >= 0 else replay.game.last)
        elif key == "perspective":
            next_perspective(self.screen, replay)
        elif key == "text":
            open_text_view(self.screen, replay)
        elif key == "close":
            self.screen.app.pop_screen()
