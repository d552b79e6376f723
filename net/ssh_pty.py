"""A visitor's terminal on the ssh host: its size, bounded, and a pty that
never outlives its session.

An SSH client says how big its terminal is (the pty request, then each
window change) and may say anything: 0, 70,000 columns, 65,535 rows, five
thousand changes a second. The size given to the visitor's program is
clipped to :data:`MAX_COLUMNS` x :data:`MAX_ROWS` (a screen that size is
already a wall of monitors; a 65,535-square one cost 355 MB and doubled the
other visitors' key latency), a 0 reads as the usual 80 x 24, and window
changes are coalesced to at most one every :data:`RESIZE_SECONDS` (the last
one always arrives). Opening the pty closes both of its descriptors on every
failure, so a visitor can never leave one behind (docs/hosting.md, "Sizes").
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import struct
import termios
from collections.abc import Callable
from typing import Protocol

MAX_COLUMNS = 1000
MAX_ROWS = 500
DEFAULT_SIZE = (80, 24)
# the least time between two sizes given to the program: a storm of window
# changes costs it one redraw per interval, not one per change
RESIZE_SECONDS = 0.1


def clipped(width: object, height: object) -> tuple[int, int]:
    """The size a visitor's program gets for what the client said: each side
    at most the cap; a side that is 0, negative or not a number is the usual one."""
    columns = width if type(width) is int and width > 0 else DEFAULT_SIZE[0]
    rows = height if type(height) is int and height > 0 else DEFAULT_SIZE[1]
    return min(columns, MAX_COLUMNS), min(rows, MAX_ROWS)


def set_size(fd: int, width: int, height: int) -> None:
    """Tell the terminal on ``fd`` its size (clipped: never a struct.error);
    the kernel sends its program SIGWINCH. OSError if the fd is gone."""
    columns, rows = clipped(width, height)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def open_pty(width: int, height: int) -> tuple[int, int]:
    """A new pty (master, slave) of that size; on any failure neither
    descriptor is left open (OSError says why)."""
    master, slave = os.openpty()
    try:
        set_size(master, width, height)
    except BaseException:
        os.close(master)
        os.close(slave)
        raise
    return master, slave


class Timer(Protocol):
    def cancel(self) -> None: ...


class Timing(Protocol):
    """What :class:`Resizer` needs of the event loop (tests give a fake one)."""

    def time(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer: ...


class Resizer:
    """Window changes for one pty, at most one every ``interval`` seconds: the
    first goes at once, later ones wait for the interval to pass and only the
    newest of them is applied. ``apply`` gets the size; ``timing`` is the
    event loop (by default the running one)."""

    def __init__(
        self,
        apply: Callable[[int, int], None],
        *,
        interval: float = RESIZE_SECONDS,
        timing: Timing | None = None,
    ) -> None:
        self._apply = apply
        self._interval = interval
        self._timing: Timing = timing or asyncio.get_running_loop()
        self._last = float("-inf")  # when a size was last applied
        self._waiting: tuple[int, int] | None = None  # the newest size not applied yet
        self._timer: Timer | None = None

    def request(self, width: int, height: int) -> None:
        size = clipped(width, height)
        due = self._last + self._interval
        if self._timer is None and self._timing.time() >= due:
            self._give(size)
            return
        self._waiting = size
        if self._timer is None:
            self._timer = self._timing.call_later(due - self._timing.time(), self._flush)

    def _flush(self) -> None:
        self._timer = None
        if self._waiting is not None:
            size, self._waiting = self._waiting, None
            self._give(size)

    def _give(self, size: tuple[int, int]) -> None:
        self._last = self._timing.time()
        self._apply(*size)

    def close(self) -> None:
        """Nothing more is applied (the pty is closing)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._waiting = None
