"""The keys panel (the palette's "Keys", or F1 where a screen has no rules):
Textual's panel, listing the app's own actions (tui/app_keys.py) instead of
every binding of the focused widget."""

from __future__ import annotations

from typing import ClassVar

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import HelpPanel, KeyPanel

from tui.textual_seams import BindingsTable

from ..app_keys import app_actions


class AppBindingsTable(BindingsTable):
    def render_bindings_table(self) -> Table:
        key_style = self.get_component_rich_style("bindings-table--key")
        description_style = self.get_component_rich_style("bindings-table--description")
        table = Table(padding=(0, 0), show_header=False, box=box.SIMPLE)
        table.add_column("", justify="right")
        for found in app_actions(self.screen):
            table.add_row(
                Text(found.key, style=key_style),
                Text(found.description, style=description_style, end=""),
            )
        return table


class AppKeyPanel(KeyPanel):
    def compose(self) -> ComposeResult:
        yield AppBindingsTable(shrink=True, expand=False)


class AppHelpPanel(HelpPanel):
    # Over the screen, on a layer of its own, instead of splitting the screen
    # as Textual's panel does: at 80 columns a table has no 30 columns to give,
    # and a split wrapped Territory's grid and Trick's cards into nonsense.
    # (Textual arranges each layer on its own, so the table keeps its width.)
    DEFAULT_CSS: ClassVar[str] = """
    AppHelpPanel {
        layer: keys-panel;
        background: $panel;
    }
    """

    def compose(self) -> ComposeResult:
        yield from (w for w in super().compose() if not isinstance(w, KeyPanel))
        yield AppKeyPanel(id="keys-help")
