"""The one place cardtable reaches into Textual's private modules.

Textual's public API does not cover three things the app needs: rewriting
what goes to the terminal in ASCII after layout (``App._display`` and
``CompositorUpdate``), writing a few bytes of our own to the terminal (the
notification escapes of tui/notify.py, through the driver, as ``App.bell``
does), and the type Textual gives ``CSS_PATH``. Each is reached here and
nowhere else, so a Textual release that moves one breaks this module and its
test (tests/tui/test_textual_seams.py), loudly, instead of the screens quietly.
pyproject.toml pins ``textual`` below its next major release for the same reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from textual._compositor import CompositorUpdate
from textual._path import CSSPathType
from textual.app import App

if TYPE_CHECKING:
    from rich.console import Console
    from textual.screen import Screen

ReturnType = TypeVar("ReturnType")

__all__ = [
    "AsciiDisplay",
    "CSSPathType",
    "CompositorUpdate",
    "render_screen",
    "screen_update",
    "write_to_terminal",
]


class AsciiDisplay(App[ReturnType]):
    """An app whose terminal output can pass through :meth:`terminal_text`.

    Textual calls ``_display`` with each frame; screenshots and tests read the
    screen as drawn before this step, so only the terminal sees the change.
    """

    def rewrite_frames(self) -> bool:
        """Whether frames go through :meth:`terminal_text` (ASCII mode)."""
        return False

    def terminal_text(self, text: str) -> str:
        """A frame's text as the terminal is to receive it."""
        return text

    def _display(self, screen: Screen[Any], renderable: Any) -> None:
        if self.rewrite_frames() and isinstance(renderable, CompositorUpdate):
            renderable = _RewrittenUpdate(renderable, self.terminal_text)
        super()._display(screen, renderable)


class _RewrittenUpdate(CompositorUpdate):
    """A compositor update whose rendered text is rewritten before it is written."""

    def __init__(self, update: CompositorUpdate, rewrite: Any) -> None:
        self.update = update
        self.rewrite = rewrite

    def render_segments(self, console: Console) -> str:
        return str(self.rewrite(self.update.render_segments(console)))


def write_to_terminal(app: App[Any], text: str) -> bool:
    """Write ``text`` to the app's terminal as it is (escape sequences included),
    as ``App.bell`` writes its BEL. False when there is no terminal (headless,
    not started, or closed)."""
    driver = getattr(app, "_driver", None)
    if app.is_headless or driver is None:
        return False
    driver.write(text)
    driver.flush()
    return True


def screen_update(app: App[Any], *, with_background: bool = True) -> Any:
    """The whole active screen as one renderable (with the screens behind a
    modal one), as the terminal would be sent it: tests and screenshots in
    text read the screen through this."""
    stack = app._background_screens if with_background else None
    return app.screen._compositor.render_update(full=True, screen_stack=stack)


def render_screen(app: App[Any], console: Console) -> None:
    """Print the active screen to ``console`` as the terminal would show it."""
    console.print(screen_update(app))
