"""Move clocks on a game screen: the seat on screen's time left, counted down
on the screen's own clock from what the table last said."""

from __future__ import annotations

from net.client import Update
from tui.clock_words import time_left_text
from tui.games.core import TableScreenCore

URGENT_SECONDS = 10  # a countdown turns urgent below this


def clock_text(seconds: float | None) -> str:
    """A move clock's countdown, "1:05 left", "23 h 59 min left"; nothing
    without a clock."""
    if seconds is None:
        return ""
    return f"{time_left_text(seconds)} left"


class MoveClocks(TableScreenCore):
    _clock_shown = ""  # the clock's words the status line shows now

    def turn_status(self) -> str:
        text = self.turn_text()
        words = self._clock_words()
        return f"{text} ({words})" if words else text

    def _clock_words(self) -> str:
        # a screen that draws its own countdown (a game whose rules have move
        # clocks: its own show_clock) shows it there; the others show a clock
        # that runs anyway (a correspondence table's) in the status line
        draws_own = type(self).show_clock is not MoveClocks.show_clock
        if draws_own or not self.my_turn or self.replay is not None:
            return ""
        return clock_text(self.seconds_left())

    def seconds_left(self) -> float | None:
        """The seat on screen's time left to move, if its clock runs."""
        seat = self.seat
        if seat is not None and seat not in self.deadlines and self.update.seat == seat:
            # no update has come yet, only the snapshot the screen opened on
            # (a network table's `joined`): its clock counts from now
            self._keep_time_left(self.update)
        if seat is None or seat not in self.deadlines or self.over:
            return None
        deadline = self.deadlines[seat]  # kept with time_left_given, from the same update
        if deadline is None:
            return None
        if self.update.paused:  # a menu is open: the table has stopped the clocks
            return self.time_left_given[seat] or 0.0
        return deadline - self.clock()

    def show_clock(self) -> None:
        """Draw the countdown (every second, and with each update): a game
        whose rules have move clocks draws its own; here, the status line's
        words change when the clock's do (a problem said stays until the
        next move)."""
        words = self._clock_words()
        if words == self._clock_shown or not self.is_mounted:
            return
        self._clock_shown = words
        if not self.query_one("#status").has_class("-problem"):
            self.set_status(self.turn_status())

    def _keep_time_left(self, update: Update) -> None:
        # the view does not carry the seat's time left: the update does
        if update.seat is None:
            return
        left = update.time_left
        self.time_left_given[update.seat] = left
        self.deadlines[update.seat] = None if left is None else self.clock() + left
