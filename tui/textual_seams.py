"""The one place cardtable reaches into Textual's private modules.

Textual's public API does not cover these things the app needs: rewriting
what goes to the terminal in ASCII after layout (``App._display`` and
``CompositorUpdate``), writing a few bytes of our own to the terminal (the
notification escapes of tui/notify.py, through the driver, as ``App.bell``
does), the type Textual gives ``CSS_PATH``, a node's keys changed after it
is built (a replay's keys, the keys a table offers), the footer's keys and
whether its bindings are ready (tui/widgets/footer.py), and the keys panel's
table (tui/widgets/keys_panel.py), and how a screen is styled the first
time it is shown (:func:`style_first_shows_once`). Each is reached here and
nowhere else, so a Textual release that moves one breaks this module and its
test (tests/tui/test_textual_seams.py), loudly, instead of the screens quietly.
pyproject.toml pins ``textual`` below its next major release for the same reason.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, TypeVar

from textual import events
from textual._compositor import CompositorUpdate
from textual._path import CSSPathType
from textual.app import App
from textual.binding import BindingsMap
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey  # (loaded with Footer: no cost at start-up)

if TYPE_CHECKING:
    from rich.console import Console
    from textual.widgets._key_panel import BindingsTable
else:

    def __getattr__(name: str) -> Any:
        # the keys panel's table, loaded when the panel first opens: its
        # module is not among those the home screen needs
        if name == "BindingsTable":
            from textual.widgets._key_panel import BindingsTable

            return BindingsTable
        raise AttributeError(name)


ReturnType = TypeVar("ReturnType")

__all__ = [
    "AsciiDisplay",
    "BindingsTable",
    "CSSPathType",
    "CompositorUpdate",
    "FooterKey",
    "bindings_built_with",
    "footer_bindings_ready",
    "render_screen",
    "replace_bindings",
    "screen_update",
    "style_first_shows_once",
    "write_to_terminal",
]


class AsciiDisplay(App[ReturnType]):
    """An app whose terminal output can pass through :meth:`terminal_text`.

    Textual calls ``_display`` with each frame; screenshots and tests read the
    screen as drawn before this step, so only the terminal sees the change.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        style_first_shows_once()  # (Textual's Screen, once for the process)

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


def bindings_built_with(node: DOMNode) -> BindingsMap:
    """The keys ``node``'s class gives it (its BINDINGS merged with its bases'),
    whatever :func:`replace_bindings` has done to the node since."""
    return type(node)._merged_bindings or node._bindings


def replace_bindings(node: DOMNode, bindings: BindingsMap) -> None:
    """Give ``node`` ``bindings`` in place of those of its class: Textual
    declares keys per class (``BINDINGS``), and a table screen offers fewer
    (a seat not yet taken) or others (a replay's) than its class."""
    node._bindings = bindings


def footer_bindings_ready(footer: Footer, ready: bool | None = None) -> bool:
    """Whether ``footer`` has been told its screen's bindings (before, it
    composes no key); ``ready`` sets it (a recompose skipped as needless still
    counts as told)."""
    if ready is not None:
        footer._bindings_ready = ready
    return bool(footer._bindings_ready)


# the screens whose first ScreenResume has been seen (see below)
_SHOWN: weakref.WeakSet[Screen[Any]] = weakref.WeakSet()


def style_first_shows_once() -> None:
    """A screen shown for the first time is styled once, not twice.

    Textual registers a pushed screen (styling the screen's own node) before
    it loads the screen's style sheet, then composes the screen's widgets
    (each styled as it mounts, with the sheet loaded), and then, on the
    screen's first ScreenResume, styles the screen and every widget in it
    all over again, for every screen, every time one opens (a sixth of the
    app tests' CPU; the rules page opened from a table, 146 -> 117 ms of
    CPU at the median). Here that first resume styles the
    screen's own node alone, the one styled before its sheet was there;
    every later resume (a screen shown again, maybe after a theme change)
    restyles all of it as Textual does. tests/tui/test_textual_seams.py
    checks that a first show leaves every node styled as a full restyle
    would, for a dialog, a table and a form."""
    if getattr(Screen._on_screen_resume, "styles_first_show_once", False):
        return
    resume = Screen._on_screen_resume

    def _on_screen_resume(self: Screen[Any], event: events.ScreenResume) -> None:
        if self not in _SHOWN:
            _SHOWN.add(self)
            if event.refresh_styles and self.is_attached:
                event.refresh_styles = False
                self.app.stylesheet.update_nodes([self], animate=False)
        resume(self, event)

    _on_screen_resume.styles_first_show_once = True  # type: ignore[attr-defined]
    Screen._on_screen_resume = _on_screen_resume  # type: ignore[method-assign]
