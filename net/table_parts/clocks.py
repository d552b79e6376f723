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

Correspondence (games that last days; issue 39): a table may have clocks of
its own instead of the game's, :func:`per_move` (hours or days for each
move, restarted only by the seat's own move), set as ``MoveClocks.override``.
Counted on the server's wall clock (``time.time``), the clocks are data:
:meth:`MoveClocks.deadlines` gives each running clock's turn key and the
Unix time it runs out, for the server to keep with the table, and
:meth:`MoveClocks.restore` gives them back to the table brought back after
a restart, so a restart neither restarts nor stops a clock (a clock whose
turn is over by then is dropped at the next :meth:`MoveClocks.arm`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.game import RESIGN, MoveClock

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[Any]]
# a seat's clock as the rules (``state.clock``) or a table's own clocks give it
ClockRule = Callable[[int], MoveClock | None]


@dataclass(frozen=True)
class Deadline:
    """A running clock as data: its turn key and the time (of the clocks'
    own clock: Unix seconds for a correspondence table) it runs out."""

    turn: Hashable
    ends_at: float


class _ComputerPlays:
    """The timeout move of a correspondence table where the computer plays
    the one move a late seat did not (net/table_parts/timeouts.py)."""

    def __repr__(self) -> str:
        return "COMPUTER_PLAYS"


COMPUTER_PLAYS = _ComputerPlays()


def per_move(seconds: float, moves_made: Callable[[int], int], timeout_move: Hashable) -> ClockRule:
    """A correspondence table's clocks: every seat that must act has
    ``seconds`` (hours, days) for each of its moves, whatever the game's own
    clock says; a seat's clock restarts when it has moved (its turn key is
    how many moves it has made, ``moves_made(seat)``: a number, kept as it
    is across a restart), not when another seat moves. ``timeout_move`` is
    what the table plays when it runs out (the table's option decides)."""

    def rule(seat: int) -> MoveClock:
        return MoveClock(seconds, timeout_move, moves_made(seat))

    return rule


def correspondence(
    seconds: float, if_late: str, moves: Callable[[], Sequence[tuple[int, str]]]
) -> ClockRule:
    """:func:`per_move` for a table whose record's ``moves`` are counted:
    a clock that runs out makes the computer play that one move (``if_late``
    "computer") or the seat resign ("lose")."""

    def moves_made(seat: int) -> int:
        return sum(1 for mover, _ in moves() if mover == seat)

    return per_move(seconds, moves_made, RESIGN if if_late == "lose" else COMPUTER_PLAYS)


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
        # the table's own clocks instead of the game's (a correspondence table)
        self.override: ClockRule | None = None

    def correspond(self, rule: ClockRule, wall: Clock) -> None:
        """A correspondence table's own clocks (:func:`correspondence`),
        before it starts, counted on ``wall`` (Unix time: the deadlines mean
        the same after a restart)."""
        self.now = wall
        self.override = rule

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

    def rule(self, seat: int, rules: ClockRule) -> MoveClock | None:
        """``seat``'s clock now: the table's own (``override``) or the game's."""
        return (self.override or rules)(seat)

    def arm(self, rules: ClockRule, acting: Iterable[int]) -> None:
        """Bring every clock in line with the rules (``state.clock``, or the
        ``override``) after a change: a seat of ``acting`` (the people who
        must act now) keeps its clock while the turn key stays, gets a fresh
        one when it changes; any other seat loses its clock."""
        people = set(acting)
        waiting = sorted(people & self._one_screen)[1:]  # not their turn at the screen yet
        people.difference_update(waiting)
        now = self.now()
        clocks: dict[int, tuple[Hashable, float]] = {}
        for seat in sorted(people):
            rule = self.rule(seat, rules)
            if rule is None:
                continue
            held = self._running.get(seat)
            if held is not None and held[0] == rule.turn:
                clocks[seat] = held
            else:
                fresh = rule.seconds if self.paused else now + rule.seconds
                clocks[seat] = (rule.turn, fresh)
        # (clocks restored after a restart run, but no watchdog watches them yet)
        changed = clocks != self._running or (bool(clocks) and self._watchdog is None)
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

    def deadlines(self) -> dict[int, Deadline]:
        """Every running clock as data (while paused, as if it ran on from now)."""
        now = self.now()
        return {
            seat: Deadline(turn, now + end if self.paused else end)
            for seat, (turn, end) in self._running.items()
        }

    def restore(self, deadlines: Mapping[int, Deadline]) -> None:
        """The clocks of a table brought back (after a restart), before it
        starts: each keeps running from where it was at the next
        :meth:`arm` if its seat must still act at the same turn."""
        now = self.now()
        self._running = {
            seat: (held.turn, held.ends_at - now if self.paused else held.ends_at)
            for seat, held in deadlines.items()
        }

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
