"""A compact footer that keeps the keys that matter in view on a narrow terminal.

Textual's footer clips whatever does not fit at the right edge, so the key
bound last (``^t Chat`` at a network table) was the first to vanish at 80
columns. This footer drops keys the screen calls *spare* instead, in the
screen's order, until the rest fits. A dropped key still works, and stays
in the ^p palette (and the Menu, for Rules).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from tui.textual_seams import FooterKey, footer_bindings_ready

# what the ^p palette key at the right edge takes: its border, "^p palette",
# and a column of room (measured in a compact footer)
PALETTE_WIDTH = 12


def key_width(key_display: str, description: str) -> int:
    """Columns a key takes in a compact footer: the key, a space, the
    description, and the one-column margin after it."""
    return cell_len(key_display) + 1 + cell_len(description) + 1


def keys_to_drop(keys: Sequence[tuple[str, int]], spare: Iterable[str], room: int) -> set[str]:
    """The actions to leave out so that ``keys`` ((action, width) in footer
    order) fit in ``room`` columns: spare actions first, in the order given,
    then the last keys, whole (a key cut mid-word, "t Stati", says nothing);
    none if everything fits, and no more than needed."""
    used = sum(width for _, width in keys)
    widths: dict[str, int] = {}
    for action, width in keys:
        widths[action] = widths.get(action, 0) + width
    dropped: set[str] = set()
    for action in [*spare, *reversed([a for a, _ in keys])]:
        if used <= room:
            break
        if action in widths and action not in dropped:
            dropped.add(action)
            used -= widths[action]
    return dropped


class FittingFooter(Footer):
    """Every screen's footer: compact, and whole at any width. With more keys
    than the width holds, the screen's ``FOOTER_SPARE`` (action names, least
    needed first) leave it first, then the last keys; they still work, and
    the ^p palette lists them."""

    def __init__(self, *, compact: bool = True, **kwargs: Any) -> None:
        super().__init__(compact=compact, **kwargs)

    def compose(self) -> ComposeResult:
        # Footer.compose yields one FooterKey per binding (and a KeyGroup for
        # Binding groups, which no game screen uses); the keys are filtered here
        shown = list(super().compose())
        if footer_bindings_ready(self):  # (before, Footer composes nothing)
            self._composed_from = self._keys_shown(self.screen)
        keys = [
            (w.action, key_width(w.key_display, w.description))
            for w in shown
            if isinstance(w, FooterKey) and not w.has_class("-command-palette")
        ]
        spare: Sequence[str] = getattr(self.screen, "FOOTER_SPARE", ())
        width = self.size.width or self.app.size.width
        room = width - (PALETTE_WIDTH if self.show_command_palette else 0)
        dropped = keys_to_drop(keys, spare, room)
        for widget in shown:
            if isinstance(widget, FooterKey):
                # A FooterKey starts compact and its watcher adds the class as it
                # mounts, restyling the key: a fifth of a game screen's start-up.
                # The class given before it mounts leaves the watcher nothing to do.
                widget.set_class(self.compact, "-compact", update=False)
        yield from (w for w in shown if not _is_dropped(w, dropped))

    _fitted_to = 0  # the width the keys were last chosen for
    _composed_from: tuple[object, ...] | None = None  # the bindings the keys show

    def bindings_changed(self, screen: Screen[Any]) -> None:
        # Textual recomposes a footer whenever anything asks for the bindings to
        # be refreshed (every update of a table does, every change of focus):
        # tens of times a game for keys that mostly stay the same, and a screen
        # that mounts asks four times before the first recompose has run.
        # Recompose only when what the keys show has changed, and at most one
        # recompose waits at a time (it reads the bindings as it runs).
        # (What they were composed from is taken as they are composed: a
        # recompose for a resize, or one still pending, is counted right.)
        footer_bindings_ready(self, True)
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            return  # as Textual's footer: it recomposes when focus comes back
        if self._composed_from is not None and self._keys_shown(screen) == self._composed_from:
            return
        self._queue_recompose()

    _recompose_queued = False

    def _queue_recompose(self) -> None:
        if not self._recompose_queued:
            self._recompose_queued = True
            self.call_after_refresh(self._queued_recompose)

    async def _queued_recompose(self) -> None:
        self._recompose_queued = False
        await self.recompose()

    def _keys_shown(self, screen: Screen[Any]) -> tuple[object, ...]:
        return tuple(
            (key, b.action, b.description, self.app.get_key_display(b), b.show, enabled, tip)
            for key, (_, b, enabled, tip) in screen.active_bindings.items()
        )

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._fitted_to:
            self._fitted_to = event.size.width
            self._queue_recompose()


def _is_dropped(widget: Widget, dropped: set[str]) -> bool:
    return isinstance(widget, FooterKey) and widget.action in dropped
