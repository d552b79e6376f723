"""A game's rules page for players (docs/play/<game>.md) rendered in the app."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Header, MarkdownViewer, Tree

from tui.widgets.footer import FittingFooter
from tui.widgets.rules_viewer import RulesViewer


def rules_text(game_id: str) -> str:
    from tui.ruledocs import rules_markdown

    try:
        return rules_markdown(game_id)
    except (FileNotFoundError, OSError):
        return f"# {game_id}\n\nThe rules page for this game is not written yet."


class RulesScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Back", key_display="esc", id="rules.close"),
        Binding("t", "toggle_contents", "Contents", id="rules.contents"),
    ]

    def __init__(self, game_id: str) -> None:
        super().__init__()
        self.game_id = game_id
        self._shown = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # shown the first time, every one of the page's widgets (a hundred
        # or more: one a paragraph) was styled as it mounted; Textual's
        # restyle of the whole screen on top of that cost a fifth of
        # opening the page. (Handlers run from the subclass up, so this runs
        # before Screen's own, which reads the flag.) A screen shown again
        # (not done here: each opening builds its page) is restyled as usual.
        if not self._shown:
            self._shown = True
            event.refresh_styles = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield RulesViewer(rules_text(self.game_id), show_table_of_contents=False, id="rules")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.sub_title = f"rules: {self.game_id}"
        self.query_one(MarkdownViewer).focus()

    def action_close(self) -> None:
        self.dismiss()

    def action_toggle_contents(self) -> None:
        viewer = self.query_one(MarkdownViewer)
        viewer.show_table_of_contents = not viewer.show_table_of_contents
        # the contents open with their first entry focused; closed, the page is
        self.call_after_refresh(self._focus_shown, viewer)

    def _focus_shown(self, viewer: MarkdownViewer) -> None:
        if viewer.show_table_of_contents:
            viewer.table_of_contents.query_one(Tree).focus()
        else:
            viewer.document.focus()
