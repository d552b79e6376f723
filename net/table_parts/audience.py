"""Who hears a table, and what each of them hears.

Watchers get one :class:`~net.client.Update` per seat they watch (a seat, or
None for a spectator) after every change, built from that seat's view, legal
moves and the events it may see (``visible_events``): nothing else ever
leaves the table, so a transport cannot leak what a seat must not know. The
audience also counts the clients sitting at each person's seat, so that a
seat shows as connected, and its person's leaving and coming back are told.

A server sends a table's spectators its whole history, and some send
``watch`` after ``watch``: :meth:`Audience.history_json` keeps each
perspective's history encoded as the wire carries it, each event encoded
once, so that what a watch costs does not grow with the game's length.
"""

from __future__ import annotations

import contextlib
import logging
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from rules.events import Event, visible_events

from .. import protocol as p
from ..client import PLAYING, Notice, Update

if TYPE_CHECKING:
    from ..table import Table

log = logging.getLogger("net.table")

Listener = Callable[[Update], None]
Perspective = int | None


class Audience:
    """The watchers of ``table`` and the people at its seats."""

    def __init__(self, table: Table, events: list[Event]) -> None:
        self.table = table
        self._events = events  # the table's own list, unredacted: appended to, or cleared
        self._histories: dict[Perspective, _EncodedHistory] = {}
        self._watchers: list[tuple[tuple[Perspective, ...], Listener]] = []
        self._followers: list[Callable[[], None]] = []  # told of a change, shown nothing
        self._present: Counter[int] = Counter()  # person seats -> clients attached there
        self._queued: list[Notice] = []  # notices for the next update

    def present(self, seat: int) -> bool:
        return self._present[seat] > 0

    def forget(self, seat: int) -> None:
        """``seat`` is nobody's now (a computer plays it)."""
        self._present.pop(seat, None)

    def watch(self, perspectives: Iterable[Perspective], listener: Listener) -> Callable[[], None]:
        entry = (tuple(perspectives), listener)
        self._watchers.append(entry)

        def unwatch() -> None:
            with contextlib.suppress(ValueError):
                self._watchers.remove(entry)

        return unwatch

    def follow(self, changed: Callable[[], None]) -> Callable[[], None]:
        """Call ``changed`` after every change, with nothing of the game: for
        whoever only reads the table's status (no view is built for it)."""
        self._followers.append(changed)

        def unfollow() -> None:
            with contextlib.suppress(ValueError):
                self._followers.remove(changed)

        return unfollow

    def attach(self, seats: Iterable[int]) -> None:
        table = self.table
        back = []
        for seat in seats:
            if self._present[seat] == 0 and table.started:
                back.append(seat)
            self._present[seat] += 1
        if back and not table.closed:
            self.tell([], tuple(table.stand_ins.back_notice(s) for s in back))

    def detach(self, seats: Iterable[int]) -> None:
        table = self.table
        gone = []
        for seat in seats:
            self._present[seat] -= 1
            if self._present[seat] <= 0:
                del self._present[seat]
                gone.append(seat)
        if gone and table.started and not table.closed and table.status == PLAYING:
            self.tell([], tuple(Notice("left", f"{{p{s} has|have}} left.", s) for s in gone))

    def queue(self, notice: Notice) -> None:
        """Send ``notice`` with the next update."""
        self._queued.append(notice)

    def tell(self, events: Sequence[Event], notices: Sequence[Notice] = ()) -> None:
        """Every watcher's update for these new events and notices."""
        if self._queued:
            notices = (*self._queued, *notices)
            self._queued.clear()
        views: dict[Perspective, Any] = {}
        for perspectives, listener in list(self._watchers):
            for seat in perspectives:
                update = self.update(seat, events, notices, views)
                try:
                    listener(update)
                except Exception:  # a broken screen must not stop the table
                    log.exception("a table listener failed")
        for changed in list(self._followers):
            try:
                changed()
            except Exception:
                log.exception("a table follower failed")

    def update(
        self,
        seat: Perspective,
        events: Sequence[Event],
        notices: Sequence[Notice],
        views: dict[Perspective, Any],
    ) -> Update:
        """The table as ``seat`` may see it (``views``: those built already
        for this change, shared by the watchers of one seat)."""
        table = self.table
        state = table.state
        playing = table.status == PLAYING
        if seat not in views:
            views[seat] = state.view(seat)
        to_act = state.to_act()
        legal = (
            tuple(str(m) for m in state.legal_moves(seat))
            if seat is not None and seat in to_act and playing
            else ()
        )
        return Update(
            state_id=table.state_id,
            seat=seat,
            view=views[seat],
            to_act=to_act if playing else (),
            legal=legal,
            scores=state.scores(),
            events=tuple(visible_events(events, seat)),
            status=table.status,
            result=state.outcome(),
            thinking=table.thinking(),
            connected=table.connected(),
            notices=tuple(notices),
            clocks=tuple(table.time_left(s) for s in range(len(table.seats))),
            paused=table.paused,
            hints=tuple(table.record.hints),
        )

    def history_json(self, seat: Perspective) -> bytes:
        """What ``seat`` may see of the history so far, as the JSON array the
        wire carries (``p.wire_events``, encoded), each event encoded once."""
        history = self._histories.get(seat)
        if history is None:
            history = self._histories[seat] = _EncodedHistory(seat)
        return history.of(self._events)

    def forget_histories(self) -> None:
        """The history starts over (the game dealt again)."""
        self._histories.clear()


class _EncodedHistory:
    """One perspective's history, encoded event by event as the table's
    events are appended (an event's visibility depends on itself alone)."""

    def __init__(self, seat: Perspective) -> None:
        self.seat = seat
        self._parts: list[bytes] = []
        self._looked_at = 0  # how many of the table's events are in (or left out)
        self._joined = b"[]"

    def of(self, events: Sequence[Event]) -> bytes:
        if len(events) > self._looked_at:
            new = visible_events(events[self._looked_at :], self.seat)
            self._parts.extend(msgspec.json.encode(wire) for wire in p.wire_events(new))
            self._looked_at = len(events)
            self._joined = b"[" + b",".join(self._parts) + b"]"
        return self._joined
