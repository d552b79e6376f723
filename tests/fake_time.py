"""The one fake clock of the tests: time moves only when a test moves it, so
nothing waits on the wall clock and every deadline is exact.

It imports nothing of the project (no textual, no net.server), so that any
test may use it."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable


class FakeTimer:
    """A callback that :meth:`FakeTime.call_later` runs once its time comes,
    unless it was cancelled first (the handle ``loop.call_later`` returns)."""

    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when, self.callback, self.cancelled = when, callback, False

    def cancel(self) -> None:
        self.cancelled = True


class FakeTime:
    """A clock, sleeps and timers that move only when the test says so.

    - ``now`` is the time; a test may set it or add to it by hand (``clock.now
      += 3``), which moves the clock but wakes nothing: code that reads the
      clock sees the new time, a sleeper keeps sleeping (a test that calls the
      timeouts itself, such as ``expire_clocks()``, wants exactly that).
    - the object itself, :meth:`clock` and :meth:`time` all return ``now``:
      the first for code that takes a clock function, the last for code that
      takes the event loop's ``time()`` (net/ssh_pty.py's ``Timing``).
    - :meth:`sleep` wakes only when :meth:`advance` (or :meth:`run_until` or
      :meth:`leap`) moves time past its end; :meth:`leap` is a sleep that
      moves time itself and returns at once, for code whose timers should run
      out on their own.
    - :meth:`call_later` as the event loop's, fired by the same moves.
    """

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._timers: list[tuple[float, int, FakeTimer]] = []
        self._order = itertools.count()  # ties keep the order they came in

    def __call__(self) -> float:
        return self.now

    def clock(self) -> float:
        return self.now

    def time(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + seconds, next(self._order), future))
        await future

    async def leap(self, seconds: float) -> None:
        """A sleep that does not wait: time jumps ahead by ``seconds`` (waking
        what is due by then) and the sleeper goes on at once."""
        self.run_until(self.now + seconds)
        await asyncio.sleep(0)

    def call_later(self, delay: float, callback: Callable[[], None]) -> FakeTimer:
        timer = FakeTimer(self.now + delay, callback)
        heapq.heappush(self._timers, (timer.when, next(self._order), timer))
        return timer

    async def sleeping_until(self, when: float) -> None:
        """Return once something sleeps until ``when`` (a task that has just
        been started may not have reached its sleep yet)."""
        for _ in range(10_000):
            if any(abs(due - when) < 1e-9 for due, _, _ in self._sleepers):
                return
            await asyncio.sleep(0)
        raise AssertionError(f"nothing came to sleep until {when}")

    def run_until(self, when: float) -> None:
        """Time is ``when``: the timers due by then run now, in the order of
        their times, and the sleepers due by then wake at the event loop's next
        turn. Not async, so that a test without an event loop can move time."""
        self.now = when
        while self._sleepers and self._sleepers[0][0] <= self.now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():  # (a sleeper cancelled meanwhile)
                future.set_result(None)
        while self._timers and self._timers[0][0] <= self.now:
            _, _, timer = heapq.heappop(self._timers)
            if not timer.cancelled:
                timer.callback()

    async def advance(self, seconds: float) -> None:
        """Time moves ``seconds`` ahead (see :meth:`run_until`), then the woken
        tasks get to run (and send what they send) before this returns."""
        self.run_until(self.now + seconds)
        for _ in range(20):
            await asyncio.sleep(0)
