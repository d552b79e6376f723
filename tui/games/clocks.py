"""Move clocks on a game screen: the seat on screen's time left, counted down
on the screen's own clock from what the table last said."""

from __future__ import annotations

from net.client import Update
from tui.games.core import TableScreenCore

URGENT_SECONDS = 10  # a countdown turns urgent below this


def clock_text(seconds: float | None) -> str:
    """A move clock's countdown, "1:05 left"; nothing without a clock."""
    if seconds is None:
        return ""
    whole = max(0, int(seconds + 0.999))  # 0.2 s left still reads 0:01
    return f"{whole // 60}:{whole % 60:02d} left"


class MoveClocks(TableScreenCore):
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
        """Draw the countdown (every second, and with each update); a game
        whose rules have move clocks shows it."""

    def _keep_time_left(self, update: Update) -> None:
        # the view does not carry the seat's time left: the update does
        if update.seat is None:
            return
        left = update.time_left
        self.time_left_given[update.seat] = left
        self.deadlines[update.seat] = None if left is None else self.clock() + left
