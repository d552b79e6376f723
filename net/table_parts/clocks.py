"""A table's move clocks.

The rules say which seat has a clock (``state.clock(seat)``): a person's clock
starts when their seat must act and restarts only when the clock's turn key
changes (the steps of one turn share a clock). People who share one screen
(hot-seat, :meth:`MoveClocks.share_screen`) get their clocks one after the
other, lowest seat first, as the screen shows them. :meth:`MoveClocks.pause`
stops every clock where it stands (local play: a menu is open).

A watchdog task sleeps until the earliest clock runs out, then calls the
table back (``expire``); the table plays the timeout moves of the seats
:meth:`MoveClocks.run_out` lists. The clock and the sleep are injected, so
tests drive time by hand.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable, Iterable
from typing import Any

from rules.game import GameState

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[Any]]


class MoveClocks:
    """The running clocks of one table's seats. ``live`` says whether the
    table still plays (started, not over, not closed); ``expire`` is awaited
    when a clock may have run out."""

    def __init__(
        self,
        clock: Clock,
        sleep: Sleep,
        live: Callable[[], bool],
        expire: Callable[[], Awaitable[None]],
    ) -> None:
        self.now = clock
        self.sleep = sleep
        self._live = live
        self._expire = expire
        # seat -> (turn key, clock time it runs out); while paused, seconds left instead
        self._running: dict[int, tuple[Hashable, float]] = {}
        self.paused = False
        self._one_screen: frozenset[int] = frozenset()  # hot-seat people, see share_screen
        self._watchdog: asyncio.Task[None] | None = None
        self._stopped = False

    def time_left(self, seat: int) -> float | None:
        held = self._running.get(seat)
        if held is None:
            return None
        if self.paused:
            return held[1]
        return max(0.0, held[1] - self.now())

    def share_screen(self, seats: Iterable[int]) -> None:
        """These seats' people share one screen (hot-seat) and so act one at a
        time, lowest seat first, even in a simultaneous phase: only the first
        of them still to act has a running clock; the next one's starts when it
        has moved. Otherwise the second person's time would run out while the
        first one chose."""
        self._one_screen = frozenset(seats)

    def arm(self, state: GameState[Any, Any], acting: Iterable[int]) -> None:
        """Bring every clock in line with the rules after a change: a seat of
        ``acting`` (the people who must act now) keeps its clock while the
        turn key stays, gets a fresh one when it changes; any other seat loses
        its clock."""
        people = set(acting)
        waiting = sorted(people & self._one_screen)[1:]  # not their turn at the screen yet
        people.difference_update(waiting)
        now = self.now()
        clocks: dict[int, tuple[Hashable, float]] = {}
        for seat in sorted(people):
            rule = state.clock(seat)
            if rule is None:
                continue
            held = self._running.get(seat)
            if held is not None and held[0] == rule.turn:
                clocks[seat] = held
            else:
                fresh = rule.seconds if self.paused else now + rule.seconds
                clocks[seat] = (rule.turn, fresh)
        changed = clocks != self._running
        self._running = clocks
        if changed:
            self._rearm_watchdog()

    def pause(self, paused: bool) -> bool:
        """Stop or restart every clock where it stands; False if nothing changed."""
        if paused == self.paused:
            return False
        now = self.now()
        if paused:
            self._running = {s: (t, max(0.0, end - now)) for s, (t, end) in self._running.items()}
        else:
            self._running = {s: (t, now + left) for s, (t, left) in self._running.items()}
        self.paused = paused
        self._rearm_watchdog()
        return True

    def run_out(self) -> list[tuple[int, Hashable, float]]:
        """The clocks that have run out, as (seat, turn key, end), lowest
        seat first; :meth:`take` each before playing its timeout move."""
        if self.paused:
            return []
        now = self.now()
        return [(s, t, end) for s, (t, end) in sorted(self._running.items()) if end <= now]

    def take(self, seat: int, turn: Hashable, end: float) -> bool:
        """Stop the clock :meth:`run_out` listed, if it still runs (the seat
        may have moved, or the game changed, meanwhile)."""
        if self._running.get(seat) != (turn, end):
            return False
        del self._running[seat]
        return True

    def stop(self) -> asyncio.Task[None] | None:
        """No clock runs from now on; the watchdog to cancel, if one runs."""
        self._stopped = True
        self._running.clear()
        return self._watchdog

    def _rearm_watchdog(self) -> None:
        # Clocks may differ in length (a setup phase has its own), so the
        # watchdog is restarted whenever they change, sleeping to the earliest.
        # A watchdog that is itself playing a timeout move is left to finish
        # that move (cancelling it could cut a save short); it stops looping
        # once it is no longer the table's watchdog.
        old = self._watchdog
        if old is not None and not old.done() and old is not asyncio.current_task():
            old.cancel()
        self._watchdog = None
        if self._running and not self.paused and not self._stopped:
            self._watchdog = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        me = asyncio.current_task()
        while (
            self._watchdog is me
            and self._running
            and self._live()
            and not self._stopped
            and not self.paused
        ):
            wait = min(end for _, end in self._running.values()) - self.now()
            if wait > 0:
                await self.sleep(wait)
            else:
                await self._expire()
