"""A screen that does not take keys meant for the screen before it.

A screen that a key brought up (a move hands the keyboard to the next player,
ends a round or the game, a hint arrives) would otherwise take the keys that
follow at once: the second of two presses 0.3 s apart, a key held down and
repeating, keys buffered while the table was busy. At a hot seat that second
press dismisses the hand-off and shows the next player's hand to the one who
just played.

:class:`InputGuard` keeps such a screen deaf until the keyboard has been quiet
for :data:`GUARD_SECONDS` after it appeared: every key meanwhile is dropped and
starts the wait again, so a key held down never gets through. A key typed before
the screen appeared is dropped whenever it arrives (its timestamp says so).

The guard ends on a timer started through :attr:`InputGuard.guard_schedule`
(Textual's ``set_timer`` by default). Tests put their own there: they end the
guard by calling what it was given, never by waiting on the wall clock.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.screen import Screen

# schedule(seconds, callback): run callback once, later
Schedule = Callable[[float, Callable[[], None]], Any]

# Long enough for a second press or a key's repeat to land inside it, short
# enough that the person who takes the keyboard never waits for it.
GUARD_SECONDS = 0.8


if TYPE_CHECKING:
    _GuardBase = Screen[Any]
else:
    _GuardBase = object


class InputGuard(_GuardBase):
    """A screen deaf to keys until the keyboard has been quiet for a moment
    after it appeared: mixed in before Screen or ModalScreen.

    Not a Screen itself: Textual takes a screen's CSS types from the first
    DOM class among its bases, so a guard that were a Screen would hide
    ModalScreen's styles (centred, the table dimmed behind) from the dialogs
    that mix it in."""

    guard_seconds: ClassVar[float] = GUARD_SECONDS
    # How the guard's timer is started: None is the screen's own set_timer.
    # Read from this class, so a test sets it once for every guarded screen.
    guard_schedule: ClassVar[Schedule | None] = None

    # deaf from the start: a key may reach the screen before it is shown
    _guarded = True
    _guard_round = 0  # which timer may end the guard: the latest one started
    _shown_at: float | None = None  # the moment the screen was put in front

    @property
    def input_guarded(self) -> bool:
        """True while the screen ignores keys (and clicks, where it takes them)."""
        return self._guarded

    def hold_input(self) -> None:
        """Start the quiet wait (again): input is ignored until it has passed."""
        self._guarded = True
        self._guard_round += 1
        this_round = self._guard_round

        def elapsed() -> None:
            # an older timer, overtaken by a later key, ends nothing
            if this_round == self._guard_round and self._guarded:
                self.end_guard()

        if InputGuard.guard_schedule is not None:
            InputGuard.guard_schedule(self.guard_seconds, elapsed)
        else:
            self.set_timer(self.guard_seconds, elapsed)

    def end_guard(self) -> None:
        """Listen to keys from now on (what the guard's timer calls)."""
        self._guarded = False
        self.guard_lifted()

    def guard_lifted(self) -> None:
        """The screen now takes keys: a screen may say so."""

    def guard_restarted(self) -> None:
        """A key arrived while the screen was deaf: a screen may say why nothing happened."""

    def typed_before_shown(self, event: events.Event) -> bool:
        return self._shown_at is None or event.time < self._shown_at

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.ScreenResume):
            # in front now (again, if another screen covered it): from here the wait
            self._shown_at = event.time
            self.hold_input()
        elif isinstance(event, events.Key) and (self._guarded or self.typed_before_shown(event)):
            # neither this screen nor the app's bindings see it
            event.stop()
            event.prevent_default()
            if self._guarded:
                self.hold_input()  # still typing: wait for the keyboard to go quiet
                self.guard_restarted()
            return
        await super().on_event(event)
