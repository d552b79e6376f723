"""Move clocks on a table screen (:class:`Clocks`): the seat on screen's time
left, counted down on the screen's own clock from what the table last said,
and a call to a player looking elsewhere when a quarter of it is left."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from tui.clock_words import time_left_text

if TYPE_CHECKING:
    from net.client import Update
    from tui.table.side import ClocksSide

URGENT_SECONDS = 10  # a countdown turns urgent below this


def clock_text(seconds: float | None) -> str:
    """A move clock's countdown, "1:05 left", "23 h 59 min left"; nothing
    without a clock."""
    if seconds is None:
        return ""
    return f"{time_left_text(seconds)} left"


class Clocks:
    """Each seat's deadline, kept from its updates, and the countdown's words."""

    def __init__(self, screen: ClocksSide) -> None:
        self.screen = screen
        # per seat: when its move clock runs out (on self.clock), and the time
        # left as the table last said (shown as it stands while the clocks stop)
        self.deadlines: dict[int, float | None] = {}
        self.time_left_given: dict[int, float | None] = {}
        # the countdown's clock (a test gives the screen and its table one fake clock)
        self.clock: Callable[[], float] = time.monotonic
        # the deadline whose running out a player looking elsewhere was told of
        self._warned_for: float | None = None
        self._shown = ""  # the clock's words the status line shows now

    def keep(self, update: Update) -> None:
        """The time left ``update`` gives its seat (the view does not carry it)."""
        if update.seat is None:
            return
        left = update.time_left
        self.time_left_given[update.seat] = left
        self.deadlines[update.seat] = None if left is None else self.clock() + left

    def seconds_left(self) -> float | None:
        """The seat on screen's time left to move, if its clock runs."""
        screen = self.screen
        seat, update = screen.seat, screen.update
        if seat is not None and seat not in self.deadlines and update.seat == seat:
            # no update has come yet, only the snapshot the screen opened on
            # (a network table's `joined`): its clock counts from now
            self.keep(update)
        if seat is None or seat not in self.deadlines or screen.over:
            return None
        deadline = self.deadlines[seat]  # kept with time_left_given, from the same update
        if deadline is None:
            return None
        if update.paused:  # a menu is open: the table has stopped the clocks
            return self.time_left_given[seat] or 0.0
        return deadline - self.clock()

    def words(self) -> str:
        """The countdown for the status line: a screen that draws its own (a
        game whose rules have move clocks) shows it there; the others show a
        clock that runs anyway (a correspondence table's) in the status line."""
        screen = self.screen
        if screen.draws_own_clock or not screen.my_turn or not screen.interactive:
            return ""
        return clock_text(self.seconds_left())

    def show_in_status(self) -> None:
        """The status line's words change when the clock's do (a problem said
        stays until the next move)."""
        words = self.words()
        if words == self._shown or not self.screen.is_mounted:
            return
        self._shown = words
        if not self.screen.status_is_problem():
            self.screen.set_status(self.screen.turn_status())

    def tick(self) -> None:
        """Every second: the countdown drawn, and once per turn, when a quarter
        of the time given is left (at least the urgent seconds), a call to a
        player in another window, who still has time to come."""
        screen = self.screen
        screen.show_clock()
        left, seat = self.seconds_left(), screen.seat
        given = self.time_left_given.get(seat) if seat is not None else None
        deadline = self.deadlines.get(seat) if seat is not None else None
        if left is None or given is None or deadline is None or not screen.my_turn:
            return
        if left <= max(URGENT_SECONDS, given / 4) and self._warned_for != deadline:
            self._warned_for = deadline
            screen.call_if_away(f"{clock_text(left)} to move")
