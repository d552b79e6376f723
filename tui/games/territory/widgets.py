"""The Territory screen's own widgets: the grid through a viewport, and the
list a move is chosen from when several fit (or all of them are wanted)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.screens.dialog import Dialog
from tui.widgets.cards import CardStyle
from tui.widgets.event_log import display_text

from .grid import AXIS_HEIGHT, AXIS_WIDTH, LARGE_CELL, SMALL_CELL, Cell, Line, Viewport

GRID_ROLES = (
    "axis",
    "empty",
    "legal",
    "owner0",
    "owner1",
    "owner0-fort",
    "owner1-fort",
    "cursor",
    "region",
)


class TerritoryGrid(Widget):
    """The grid through a viewport; a click on a cell posts :class:`CellClicked`."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {f"territorygrid--{r}" for r in GRID_ROLES}
    can_focus = True

    class CellClicked(Message):
        def __init__(self, cell: Cell) -> None:
            super().__init__()
            self.cell = cell

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Line] = []
        self.port = Viewport(-3, -3, 8, 8)
        self.large = False

    def show(self, lines: list[Line], port: Viewport, large: bool) -> None:
        self.lines, self.port, self.large = lines, port, large
        self.refresh()

    def fits(self, large: bool) -> tuple[int, int]:
        """How many cells fit across and down."""
        width, height = LARGE_CELL if large else SMALL_CELL
        cols = max(1, (self.content_region.width - AXIS_WIDTH) // width)
        rows = max(1, (self.content_region.height - AXIS_HEIGHT) // height)
        return cols, rows

    def render(self) -> Text:
        styles: dict[str, Style] = {
            r: self.get_component_rich_style(f"territorygrid--{r}", partial=True)
            for r in GRID_ROLES
        }
        out = Text(no_wrap=True, overflow="crop")
        for i, line in enumerate(self.lines):
            if i:
                out.append("\n")
            for text, role in line:
                style = Style()
                for part in role.split():
                    style += styles[part]
                out.append(text, style)
        return out

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        width, height = LARGE_CELL if self.large else SMALL_CELL
        col = (offset.x - AXIS_WIDTH) // width
        row = (offset.y - AXIS_HEIGHT) // height
        inside = offset.x >= AXIS_WIDTH and offset.y >= AXIS_HEIGHT
        if inside and col < self.port.cols and row < self.port.rows:
            self.post_message(self.CellClicked((self.port.left + col, self.port.top + row)))


class MoveChooser(Dialog[str | None]):
    """A list of moves to choose from, each in the rules' words: when several
    fit the chosen card and cell, or all of them (m)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="territory.chooser.cancel"),
    ]

    def __init__(
        self,
        title: str,
        moves: Sequence[str],
        words: Callable[[str], str],
        style: CardStyle,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.moves = list(moves)
        self.words = words
        self.style = style

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="territory-chooser"):
            yield Static(self.title_text, markup=False, classes="title")
            yield OptionList(
                *[
                    Option(Text(display_text(_sentence(self.words(m)), self.style)), id=m)
                    for m in self.moves
                ],
                id="territory-choices",
            )
            yield Static("Enter to play, Esc to go back", classes="hint")

    def on_mount(self) -> None:
        choices = self.query_one("#territory-choices", OptionList)
        choices.highlighted = 0
        choices.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


def _sentence(words: str) -> str:
    """A list entry starts with a capital, as the menus do."""
    return words[:1].upper() + words[1:]
