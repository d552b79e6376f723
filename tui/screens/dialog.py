"""Every dialog's base: a ModalScreen with the dialogs' style sheet.

The sheet (tui/styles/dialogs.tcss) loads with the first dialog shown, not at
start-up: the home screen parses only tui/app.tcss (tests/perf/bench_startup.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, TypeVar

from textual.screen import ModalScreen

from tui.styles import DIALOGS

if TYPE_CHECKING:
    from tui.textual_seams import CSSPathType

ResultType = TypeVar("ResultType")


class Dialog(ModalScreen[ResultType]):
    CSS_PATH: ClassVar[CSSPathType | None] = [DIALOGS]
