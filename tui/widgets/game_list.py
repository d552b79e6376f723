"""The home screen's list of games: one highlighted, up and down to move,
Enter or a click to choose.

Ours rather than Textual's OptionList because it is the first thing drawn:
a list of a handful of games never scrolls, and OptionList brings
ScrollView's machinery and styles, about 9 ms of a 240 ms start-up, which
kept start-up over 1.10x a bare Textual app (tests/perf/bench_startup.py).
Its look is OptionList's: the same border, cursor and disabled colours.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


@dataclass(frozen=True)
class GameChoice:
    id: str
    title: str
    summary: str
    playable: bool


class GameList(Widget, can_focus=True):
    # a list's keys, as in every program: system, so that the keys panel and
    # the palette keep to the home screen's own actions (tui/app_keys.py)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", "Up", show=False, system=True, id="games.up"),
        Binding("down", "move(1)", "Down", show=False, system=True, id="games.down"),
        Binding("home", "move_to_end(-1)", "First", show=False, system=True, id="games.first"),
        Binding("end", "move_to_end(1)", "Last", show=False, system=True, id="games.last"),
        Binding("enter", "choose", "Choose", show=False, system=True, id="games.choose"),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {"game-list--highlighted", "game-list--disabled"}
    # drawn as Textual's OptionList is: its border, cursor and disabled colours
    DEFAULT_CSS: ClassVar[str] = """
    GameList {
        height: auto;
        border: tall $border-blurred;
        padding: 0 1;
        background: $surface;
    }

    GameList:focus {
        border: tall $border;
        background-tint: $foreground 5%;
    }

    GameList > .game-list--highlighted {
        color: $block-cursor-blurred-foreground;
        background: $block-cursor-blurred-background;
        text-style: $block-cursor-blurred-text-style;
    }

    GameList:focus > .game-list--highlighted {
        color: $block-cursor-foreground;
        background: $block-cursor-background;
        text-style: $block-cursor-text-style;
    }

    GameList > .game-list--disabled {
        color: $text-disabled;
    }
    """

    highlighted: reactive[int] = reactive(0)

    class Chosen(Message):
        """Enter, or a click, on a game (playable or not: the screen says)."""

        def __init__(self, choice: GameChoice) -> None:
            self.choice = choice
            super().__init__()

    def __init__(self, choices: Sequence[GameChoice], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.choices = list(choices)
        # which choice each drawn line belongs to, for a click: the lines of
        # the last width drawn at
        self._owners: list[int] = []
        self._lines_at: tuple[int, list[Text]] = (-1, [])
        playable = [i for i, c in enumerate(self.choices) if c.playable]
        self.set_reactive(GameList.highlighted, playable[0] if playable else 0)

    # ------------------------------------------------------------ the choices
    @property
    def highlighted_choice(self) -> GameChoice | None:
        if not self.choices:
            return None
        return self.choices[self.highlighted]

    def choice(self, game_id: str) -> GameChoice:
        return next(c for c in self.choices if c.id == game_id)

    def highlight(self, game_id: str) -> None:
        self.highlighted = next(i for i, c in enumerate(self.choices) if c.id == game_id)

    def validate_highlighted(self, index: int) -> int:
        return max(0, min(index, len(self.choices) - 1))

    def action_move(self, step: int) -> None:
        """To the next playable game that way, staying put at an end."""
        index = self.highlighted + step
        while 0 <= index < len(self.choices):
            if self.choices[index].playable:
                self.highlighted = index
                return
            index += step

    def action_move_to_end(self, end: int) -> None:
        indices = range(len(self.choices))
        for index in reversed(indices) if end > 0 else indices:
            if self.choices[index].playable:
                self.highlighted = index
                return

    def action_choose(self) -> None:
        choice = self.highlighted_choice
        if choice is not None:
            self.post_message(self.Chosen(choice))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not 0 <= offset.y < len(self._owners):
            return
        index = self._owners[offset.y]
        if self.choices[index].playable:
            self.highlighted = index
        self.post_message(self.Chosen(self.choices[index]))

    # ---------------------------------------------------------------- drawing
    def _lines(self, width: int) -> list[Text]:
        """Each choice as its title line and its summary, wrapped to ``width``."""
        if self._lines_at[0] == width:
            return self._lines_at[1]
        lines: list[Text] = []
        owners: list[int] = []
        for index, choice in enumerate(self.choices):
            text = Text(choice.title, style="bold")
            if not choice.playable:
                text.append(" · coming soon", style="italic")
            text.append("\n" + choice.summary)
            wrapped = text.wrap(self.app.console, max(width, 1))
            lines.extend(wrapped)
            owners.extend([index] * len(wrapped))
        self._owners = owners
        self._lines_at = (width, lines)
        return lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._lines(width))

    def render(self) -> Text:
        width = self.content_size.width
        lines = self._lines(width)
        highlighted = self.get_component_rich_style("game-list--highlighted")
        disabled = self.get_component_rich_style("game-list--disabled")
        out = Text(no_wrap=True, overflow="crop")
        for number, (line, owner) in enumerate(zip(lines, self._owners, strict=True)):
            line = line.copy()
            line.pad_right(width - line.cell_len)
            if owner == self.highlighted:
                line.stylize(highlighted)
            elif not self.choices[owner].playable:
                line.stylize(disabled)
            if number:
                out.append("\n")
            out.append_text(line)
        return out

    def watch_highlighted(self) -> None:
        self.refresh()
