"""The screen for a game without its own: the view as text, the legal moves to
choose from, and a box to type a move in the game's notation. Enough to play
any game of the contract, if not beautifully."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Header, Input, OptionList, Static
from textual.widgets.option_list import Option

from rules.views import View
from tui.table.screen import TableScreen
from tui.widgets.cards import CardStyle
from tui.widgets.event_log import EventLog, display_text
from tui.widgets.footer import FittingFooter
from tui.widgets.scoreboard import Scoreboard

# Shown elsewhere on the screen, or not for people.
_HIDDEN_KEYS = {"game", "seat"}


def view_lines(view: Mapping[str, Any], style: CardStyle) -> list[str]:
    lines = []
    for key, value in view.items():
        if key in _HIDDEN_KEYS:
            continue
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            shown = " ".join(display_text(v, style) for v in value) or "-"
        elif isinstance(value, str):
            shown = display_text(value, style)
        else:
            shown = json.dumps(value, ensure_ascii=False)
        lines.append(f"{key.replace('_', ' ')}: {shown}")
    return lines


class GenericGameScreen(TableScreen):
    AUTO_FOCUS = "#moves"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "focus_moves", "Moves", id="generic.moves"),
        Binding("t", "focus_type", "Type a move", id="generic.type"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Scoreboard(id="scores")
        with Horizontal(id="generic-body"):
            with Vertical(id="generic-left"):
                yield VerticalScroll(Static("", markup=False, id="view-text"), id="view-box")
                yield EventLog(id="log")
            with Vertical(id="generic-right"):
                yield Static("Legal moves", classes="caption")
                yield OptionList(id="moves")
                yield Input(placeholder="type a move", id="move-input", compact=True)
        yield Static("", markup=False, id="status")
        yield FittingFooter(compact=True)

    def show_view(self, view: View) -> None:
        style = self.card_style
        self.query_one("#scores", Scoreboard).set_scores(
            self.score_labels,
            list(self.update.scores),
            acting=() if self.over else self.update.to_act,
            ascii=self.card_style.ascii,
        )
        self.query_one("#view-text", Static).update(
            Text("\n".join(view_lines(view.to_json(), style)))
        )
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        legal = self.legal
        moves.add_options([Option(Text(display_text(m, style)), id=m) for m in legal])  # not markup
        if legal:
            moves.highlighted = 0

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            await self.submit(event.option.id)

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if text and await self.submit(text):
            event.input.value = ""

    def action_focus_moves(self) -> None:
        self.query_one("#moves").focus()

    def action_focus_type(self) -> None:
        self.query_one("#move-input").focus()


SCREEN = GenericGameScreen


def describe(
    view: View,
    scores: Sequence[int],
    names: Sequence[str],
    style: CardStyle,
    snapshot: dict[str, Any] | None = None,
) -> RenderableType:
    lines = []
    if scores:
        lines.append(
            "scores: " + "  ".join(f"{n} {s}" for n, s in zip(names, scores, strict=False))
        )
    lines += view_lines(view.to_json(), style)
    if snapshot is not None:
        hidden = {k: v for k, v in snapshot.items() if k != "view"}
        lines += ["", "revealed:", *view_lines(hidden, style)]
    return Text("\n".join(lines))
