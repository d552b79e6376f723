"""The log keeps its newest line in view (N07): a line scrolls it to its end,
and so does the log's shrinking when the screen around it grows a line (a
two-line prompt), which had hidden the last play before your turn."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tui.widgets.event_log import EventLog

from .conftest import settle


class LogAndPrompt(App[None]):
    CSS = "EventLog { height: 1fr; } #prompt { height: auto; }"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield EventLog(id="log")
            yield Static("one line", id="prompt")


async def test_the_newest_line_stays_in_view_when_the_log_shrinks() -> None:
    app = LogAndPrompt()
    async with app.run_test(size=(40, 8)) as pilot:
        log = app.query_one(EventLog)
        for n in range(20):
            log.add_line(f"Computer {n} plays")
        # the log scrolls after a refresh; a loaded machine needs more than one pause
        await settle(pilot, lambda: log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y)
        assert log.scroll_y == log.max_scroll_y
        app.query_one("#prompt", Static).update("a prompt\nof three\nlines")
        await settle(pilot, lambda: log.size.height < 7 and log.scroll_y == log.max_scroll_y)
        assert log.size.height < 7  # the log gave rows to the prompt
        assert log.scroll_y == log.max_scroll_y  # and still shows its last line
