"""A clock's time left in the unit that reads best: "0:42" under an hour,
"3 h 05 min" under a day, "2 days 4 h" beyond (a correspondence table's
clocks run for hours or days: docs/protocol.md, "Correspondence tables").
One wording for the game screens, the lobby, the home screen's "Your turn"
and `cardtable tables`."""

from __future__ import annotations

import math

HOUR = 3600
DAY = 86400


def time_left_text(seconds: float) -> str:
    """``seconds`` (rounded up: 0.2 s still reads 0:01) in words."""
    whole = max(0, math.ceil(seconds))
    if whole < HOUR:
        return f"{whole // 60}:{whole % 60:02d}"
    if whole < DAY:
        return f"{whole // HOUR} h {whole % HOUR // 60:02d} min"
    days, hours = whole // DAY, whole % DAY // HOUR
    said = f"{days} day{'s' if days != 1 else ''}"
    return f"{said} {hours} h" if hours else said


def per_move_text(seconds: int) -> str:
    """A correspondence table's time for each move: "a move a day", "a move
    every 3 days", "a move an hour", "a move every 12 h"."""
    if seconds % DAY == 0:
        days = seconds // DAY
        return "a move a day" if days == 1 else f"a move every {days} days"
    if seconds % HOUR == 0:
        hours = seconds // HOUR
        return "a move an hour" if hours == 1 else f"a move every {hours} h"
    return f"a move every {time_left_text(seconds)}"
