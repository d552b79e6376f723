"""The Textual internals cardtable depends on (tui/textual_seams.py) are still
where we reach for them. A Textual release that moves one fails here, by name,
rather than in a screen."""

from __future__ import annotations

import inspect
import io
import re
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Console
from textual.app import App
from textual.binding import Binding, BindingsMap, BindingType
from textual.driver import Driver
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from tui import textual_seams
from tui.glyphs import ascii_cells
from tui.textual_seams import (
    AsciiDisplay,
    CompositorUpdate,
    bindings_built_with,
    footer_bindings_ready,
    replace_bindings,
    screen_update,
    write_to_terminal,
)

from .conftest import make_app, play_launch, screen_text, settle

TUI = Path(__file__).resolve().parents[2] / "tui"


def test_app_display_still_takes_a_screen_and_a_renderable() -> None:
    # AsciiDisplay overrides it: Textual must still call it with every frame
    assert list(inspect.signature(App._display).parameters) == ["self", "screen", "renderable"]
    assert "_display" in AsciiDisplay.__dict__


def test_compositor_update_still_renders_to_text() -> None:
    assert callable(getattr(CompositorUpdate, "render_segments", None))


def test_driver_still_writes_and_flushes() -> None:
    assert callable(Driver.write) and callable(Driver.flush)


# a private module of Textual's (textual._x, textual.widgets._x) or one of the
# private attributes the seams module reaches for
_INTERNAL = re.compile(r"textual(\.\w+)*\._|\._(merged_)?bindings\b|\._bindings_ready")


def test_no_other_module_of_the_app_reaches_into_textual_internals() -> None:
    reaching = [
        str(path.relative_to(TUI))
        for path in TUI.rglob("*.py")
        if path.name != "textual_seams.py" and _INTERNAL.search(path.read_text("utf-8"))
    ]
    assert reaching == []


def test_a_node_still_keeps_its_keys_where_the_seams_change_them() -> None:
    class Keyed(Screen[None]):
        BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "quit", "Leave")]

    screen = Keyed()
    assert "x" in bindings_built_with(screen).key_to_bindings
    replace_bindings(screen, BindingsMap([Binding("y", "quit", "Leave")]))
    now = screen._bindings.key_to_bindings  # (the attribute the seam writes)
    assert "y" in now and "x" not in now
    assert "x" in bindings_built_with(screen).key_to_bindings  # the class's, unchanged


def test_the_footer_still_knows_whether_its_bindings_are_ready() -> None:
    footer = Footer()
    assert footer_bindings_ready(footer) is False  # not told yet: no keys composed
    assert footer_bindings_ready(footer, True) is True


def test_the_keys_panel_table_loads_when_first_asked() -> None:
    table = textual_seams.BindingsTable
    assert issubclass(table, Widget) and table.__name__ == "BindingsTable"


async def test_ascii_frames_are_rewritten_for_the_terminal_only(dirs: Any) -> None:
    app = make_app(dirs, ascii=True)
    async with app.run_test(size=(80, 24)):
        assert app.rewrite_frames()
        update = screen_update(app)
        console = Console(file=io.StringIO(), width=80, height=24, legacy_windows=False)
        drawn = update.render_segments(console)
        assert any(ord(c) > 127 for c in drawn)  # Textual draws its borders in box lines
        written: list[Any] = []

        def capture(_app: Any, screen: Any, renderable: Any) -> None:
            written.append(renderable)

        # what reaches App._display (and so the driver) is the rewritten frame
        original = App._display
        try:
            App._display = capture  # type: ignore[method-assign,assignment]
            app._display(app.screen, update)
        finally:
            App._display = original  # type: ignore[method-assign]
        sent = written[0].render_segments(console)
        assert sent == ascii_cells(drawn)
        assert all(ord(c) < 128 for c in sent)


async def test_writing_to_a_headless_terminal_writes_nothing(dirs: Any) -> None:
    app = make_app(dirs)
    async with app.run_test(size=(80, 24)):
        assert write_to_terminal(app, "\x07") is False


def _styles_of(screen: Screen[Any]) -> list[tuple[str, str]]:
    return [(repr(node), node.styles.css) for node in screen.walk_children(with_self=True)]


async def test_a_screen_shown_the_first_time_is_styled_as_a_full_restyle_styles_it(
    dirs: Any,
) -> None:
    """style_first_shows_once styles a first show's screen node alone: every
    node of a table, a dialog (the first, whose sheet loads with it) and a
    form is then as Textual's own full restyle leaves it, and so is the
    screen drawn. A Textual that styles a screen's widgets before its sheet
    is there fails here."""
    app = make_app(dirs, launch=play_launch(seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        shown = []
        for key in ("", "escape", "comma"):  # the table, the pause menu, the settings
            if key:
                await pilot.press(key)
                await settle(pilot)
            screen = app.screen
            shown.append(type(screen).__name__)
            assert screen in textual_seams._SHOWN  # Textual still calls the handler wrapped
            styled, drawn = _styles_of(screen), screen_text(app)
            assert len(styled) > 5
            app.stylesheet.update(screen)  # Textual's full restyle
            await settle(pilot)
            assert _styles_of(screen) == styled, f"{screen!r} first styled otherwise"
            assert screen_text(app) == drawn
        assert shown == ["DominationScreen", "PauseScreen", "SettingsScreen"]


def test_the_seams_module_lists_what_it_offers() -> None:
    assert set(textual_seams.__all__) >= {"AsciiDisplay", "write_to_terminal", "CSSPathType"}
