"""The Territory screen, as a package: ``grid`` (the grid as text: viewport,
marks, cells; pure), ``players`` (the regions, counts and result beside it;
pure), ``widgets`` (the grid widget and the move chooser), ``screen`` (the
screen that lays them out) and ``replay`` (``describe``, for the replay
viewer). tui/games/__init__.py finds ``SCREEN`` and ``describe`` here."""

from __future__ import annotations

from .grid import (
    AXIS_HEIGHT,
    AXIS_WIDTH,
    Bounds,
    Marks,
    Viewport,
    cells_of,
    follow,
    grid_bounds,
    grid_lines,
    line_text,
    matching_cells,
    moves_at,
    pan,
    target_cells,
)
from .players import checklist, region_lines, result_text
from .replay import describe
from .screen import TerritoryScreen
from .widgets import MoveChooser, TerritoryGrid

SCREEN = TerritoryScreen

__all__ = [
    "AXIS_HEIGHT",
    "AXIS_WIDTH",
    "SCREEN",
    "Bounds",
    "Marks",
    "MoveChooser",
    "TerritoryGrid",
    "TerritoryScreen",
    "Viewport",
    "cells_of",
    "checklist",
    "describe",
    "follow",
    "grid_bounds",
    "grid_lines",
    "line_text",
    "matching_cells",
    "moves_at",
    "pan",
    "region_lines",
    "result_text",
    "target_cells",
]
