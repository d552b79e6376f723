"""Every dialog's base: a ModalScreen with the dialogs' style sheet.

The sheet (tui/styles/dialogs.tcss) loads with the first dialog shown, not at
start-up: the home screen parses only tui/app.tcss (tests/perf/bench_startup.py).

Behind the box (the screen's ``.dialog``) lies a band as wide as the screen
and as tall as the box: the rows the box takes show nothing of the table
beside it, where half words ("│rd.", "│· hand 3") read as garbage even
dimmed; the rows above and below keep the table in view (D18). Both sit
centred on layers of their own, so one height lines them up; the band takes
the box's height each time the screen's layout changes (a hint that fills in).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widget import Widget

from tui.styles import DIALOGS

if TYPE_CHECKING:
    from textual.screen import Screen

    from tui.textual_seams import CSSPathType

ResultType = TypeVar("ResultType")


class DialogBand(Widget):
    """The blank band behind a dialog's box (see the module's docstring)."""

    def render(self) -> str:
        return ""


class Dialog(ModalScreen[ResultType]):
    CSS_PATH: ClassVar[CSSPathType | None] = [DIALOGS]

    def on_mount(self) -> None:
        try:
            self.query_one(".dialog")
        except NoMatches:
            return  # no box: nothing to lay a band behind
        self.mount(DialogBand(), before=0)
        self.screen_layout_refresh_signal.subscribe(self, self._fit_band)

    def _fit_band(self, _: Screen[Any] | None = None) -> None:
        try:
            box, band = self.query_one(".dialog"), self.query_one(DialogBand)
        except NoMatches:
            return
        height = box.outer_size.height
        if band.outer_size.height != height:
            band.styles.height = height
