"""One screen per game, found by game id: ``tui/games/<game id>.py`` defines
``SCREEN`` (its TableScreen subclass) and may define ``describe(view, scores, names,
style, snapshot)`` for the replay viewer. A game without a module gets the generic
screen, which shows the view and lets the player choose or type a legal move.

Screens are imported the first time a game is opened, never at startup.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from rules.views import View

if TYPE_CHECKING:
    from rich.console import RenderableType

    from tui.table.screen import TableScreen
    from tui.widgets.cards import CardStyle

# describe(view, scores, names, style, snapshot or None)
Describe = Callable[
    ["View", Sequence[int], Sequence[str], "CardStyle", "dict[str, Any] | None"],
    "RenderableType",
]


def _module(game_id: str) -> ModuleType | None:
    if not game_id.isidentifier() or game_id in ("generic", "refusals"):
        return None
    name = f"{__name__}.{game_id}"
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)


def screen_class(game_id: str) -> type[TableScreen]:
    module = _module(game_id)
    if module is not None and hasattr(module, "SCREEN"):
        screen: type[TableScreen] = module.SCREEN
        return screen
    from .generic import GenericGameScreen

    return GenericGameScreen


def describer(game_id: str) -> Describe:
    """How the replay viewer draws a view of this game (generic: the view's fields)."""
    module = _module(game_id)
    if module is not None and hasattr(module, "describe"):
        describe: Describe = module.describe
        return describe
    from .generic import describe as generic_describe

    return generic_describe
