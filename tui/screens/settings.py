"""Settings: theme, card style, four-colour suits, bot pace, round summaries.

Every change applies at once and is saved at once (tui/settings.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Label, Select, Static

from tui.plain import plain_text
from tui.services import SERVICES
from tui.settings import BOT_PACES, ROUND_SUMMARIES
from tui.styles import FORMS, TABLE
from tui.widgets.cards import CardFace, CardRow
from tui.widgets.footer import FittingFooter

if TYPE_CHECKING:
    from tui.textual_seams import CSSPathType

PREVIEW = (
    CardFace("AS", playable=True, label="1"),
    CardFace("10H", playable=True, selected=True, label="2"),
    CardFace("QD", playable=False, label="3"),
    CardFace("7C", playable=True, label="4"),
    CardFace("4H", sideways=True),
)


ON_OFF = [("on", True), ("off", False)]


class SettingsScreen(Screen[None]):
    CSS_PATH: ClassVar[CSSPathType | None] = [FORMS, TABLE]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="settings.close")
    ]

    services = SERVICES  # the app, typed (tui/services.py)

    def compose(self) -> ComposeResult:
        s = self.services.settings
        themes = sorted(self.app.available_themes)
        yield Header()
        with VerticalScroll(id="settings", classes="form"):
            with Horizontal(classes="row"):
                yield Label("Theme", classes="name")
                yield Select(
                    [(t, t) for t in themes],
                    value=s.theme,
                    allow_blank=False,
                    id="theme",
                    compact=True,
                )
            with Horizontal(classes="row"):
                yield Label("Cards", classes="name")
                yield Select(
                    [("Unicode suits ♠ ♥ ♦ ♣", "unicode"), ("ASCII letters S H D C", "ascii")],
                    value=s.card_style,
                    allow_blank=False,
                    id="card_style",
                    compact=True,
                )
            with Horizontal(classes="row"):
                yield Label("Four-colour suits", classes="name")
                yield Select(
                    ON_OFF, value=s.four_colour, allow_blank=False, id="four_colour", compact=True
                )
            with Horizontal(classes="row"):
                yield Label("Computer's pace", classes="name")
                paces = sorted(set(BOT_PACES) | {s.bot_pace})
                yield Select(
                    [(_pace_label(p), p) for p in paces],
                    value=s.bot_pace,
                    allow_blank=False,
                    id="bot_pace",
                    compact=True,
                )
            with Horizontal(classes="row"):
                yield Label("Round summary", classes="name")
                lingers = sorted(set(ROUND_SUMMARIES) | {s.round_summary})
                yield Select(
                    [(_summary_label(p), p) for p in lingers],
                    value=s.round_summary,
                    allow_blank=False,
                    id="round_summary",
                    compact=True,
                )
            with Horizontal(classes="row"):
                yield Label("Tips in first games", classes="name")
                yield Select(ON_OFF, value=s.tips, allow_blank=False, id="tips", compact=True)
            with Horizontal(classes="row"):
                yield Label("Bell when away", classes="name")
                yield Select(
                    ON_OFF, value=s.away_bell, allow_blank=False, id="away_bell", compact=True
                )
            with Horizontal(classes="row"):
                yield Label("Desktop notices", classes="name")
                yield Select(
                    ON_OFF,
                    value=s.away_notifications,
                    allow_blank=False,
                    id="away_notifications",
                    compact=True,
                )
            yield Static("Preview", classes="caption")
            yield CardRow(PREVIEW, id="preview")
            if self.services.force_ascii:
                yield Static(
                    "--ascii is on for this run: cards are ASCII whatever is saved.", classes="hint"
                )
        # at the bottom, below the form: an open list of themes reached the line
        # under the preview, and "Saved in /x/config" read "…/config textual-dark"
        where = plain_text(f"Saved in {self.services.config_dir}", None)
        yield Static(where, classes="hint", id="settings-path")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.sub_title = "settings"
        # the first setting, not the scrolling form around it (a focus nobody sees)
        self.query_one("#theme", Select).focus()

    def _change(self, name: str, value: Any) -> None:
        if getattr(self.services.settings, name) != value:
            self.services.update_settings(**{name: value})
            self.query_one("#preview", CardRow).refresh()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id and event.value is not Select.NULL:
            self._change(event.select.id, event.value)

    def action_close(self) -> None:
        self.dismiss()


def _pace_label(pace: float) -> str:
    return "instant" if pace == 0 else f"{pace:g} s per move"


def _summary_label(seconds: float) -> str:
    return "off" if seconds == 0 else f"{seconds:g} s, or until a key"
