"""ASCII mode's last step: what the app writes to the terminal passes through
``tui.glyphs.ascii_cells``, so borders, scrollbars and marks drawn by Textual
itself come out in ASCII too, cell for cell, after layout."""

from __future__ import annotations

from rich.console import Console
from textual._compositor import CompositorUpdate

from .glyphs import ascii_cells


class AsciiUpdate(CompositorUpdate):
    """A screen update written in ASCII."""

    def __init__(self, update: CompositorUpdate) -> None:
        self.update = update

    def render_segments(self, console: Console) -> str:
        return ascii_cells(self.update.render_segments(console))
