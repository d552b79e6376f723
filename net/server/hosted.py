"""A table on the server (net/table.py's :class:`~net.table.Table`) with who
sits where: seats, tokens' hashes, grace timers, spectators, and its summary
as the lobby shows it."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from rules.registry import get_game

from .. import protocol as p
from ..client import PLAYING, Update
from ..table import Table
from ..table_parts.clocks import correspondence

if TYPE_CHECKING:
    from .peer import Peer


@dataclass(eq=False)
class Hosted:
    """A table on the server, with who sits where."""

    id: str
    table: Table
    if_gone: str  # computer | resign
    open_seats: frozenset[int]  # the seats for people (the rest are computers)
    occupants: dict[int, Peer] = field(default_factory=dict)
    tokens: dict[int, bytes] = field(default_factory=dict)  # seat -> sha256 of its token
    holding: dict[int, asyncio.Task[None]] = field(default_factory=dict)  # grace timers
    # when each held seat's grace period ends (on ``clock``), for the seat's
    # "away, 0:42" wherever it shows
    hold_until: dict[int, float] = field(default_factory=dict)
    clock: Callable[[], float] = time.monotonic
    spectators: set[Peer] = field(default_factory=set)
    started: bool = False
    rematch: str | None = None  # the table of the rematch, once someone asked
    # the rematch being made (by the first to ask): every other request for
    # it waits for this one, so that any number of them make one table
    rematch_making: asyncio.Future[Hosted] | None = field(default=None, repr=False)
    # a seat was left before the start: its player saw a hand of this deal, so
    # the game is dealt again as it starts (not at each leave: a player could
    # then leave and come back until the cards suited them)
    redeal: bool = False
    # who created it (the quotas count a creator's unfinished tables); empty
    # for a table brought back after a restart
    creator_address: str = ""
    creator_name: str = ""
    # since when nobody has sat at it (None: someone does, or it has begun),
    # and the task that closes it if that lasts
    empty_since: float | None = None
    expiry: asyncio.Task[None] | None = None
    # bumped at every change the summary shows that the table does not
    # (seats, spectators, the start); with the table's status it keys the
    # cached summary, so that a list does not rebuild every table's
    revision: int = 0
    _summary: tuple[tuple[int, str, int], p.TableSummary] | None = field(default=None, repr=False)
    # the connection that created it, and the seat it took (with `sit`):
    # either may cancel it while nobody else sits there
    creator: Peer | None = field(default=None, repr=False)
    creator_seat: int | None = None
    # a correspondence table (docs/protocol.md): each seat's seconds for each
    # move, and what a clock that runs out does; its seats are held for the
    # whole game (no grace period, no computer standing in for a drop)
    per_move: int | None = None
    if_late: Literal["computer", "lose"] = "computer"
    # the seats whose person sat with a claimed name: `rejoin` by that name
    # (a hello with its secret) takes the seat back as the token does
    named: set[int] = field(default_factory=set)
    # told of every change the lobby shows (the server pushes it to subscribers)
    on_change: Callable[[Hosted], None] | None = field(default=None, repr=False)

    def correspond(
        self, per_move: int, if_late: Literal["computer", "lose"], wall: Callable[[], float]
    ) -> None:
        """Make this a correspondence table, before it starts: its clocks
        count ``per_move`` seconds for each move on ``wall`` (Unix time)."""
        self.per_move, self.if_late = per_move, if_late
        record = self.table.record
        self.table.clocks.correspond(correspondence(per_move, if_late, lambda: record.moves), wall)

    def touch(self) -> None:
        self.revision += 1
        if self.on_change is not None:
            self.on_change(self)

    def lobby_entry(self) -> p.TableSummary:
        """The table's summary, built once per change."""
        # whose turn it is changes with each move (no push to the lobby's
        # subscribers for that: a list, or a player's own tables, reads it)
        key = (self.revision, self.table.status, self.table.state_id)
        if self.holding or self._clocks_run():  # seconds left change as time goes by
            return self._build_summary()
        if self._summary is None or self._summary[0] != key:
            self._summary = (key, self._build_summary())
        return self._summary[1]

    def summary(self) -> dict[str, Any]:
        """:meth:`lobby_entry` as plain data."""
        data: dict[str, Any] = msgspec.to_builtins(self.lobby_entry())
        return data

    def nobody_seated(self) -> bool:
        return not self.started and not self.tokens

    def reconnecting(self) -> list[int]:
        return sorted(self.holding)

    def free_seats(self) -> list[int]:
        """The seats a newcomer may take: open seats nobody holds, and only
        before the game starts. Once it has started every person's seat
        belongs to whoever sat there, even after they resigned, dropped for
        good or were replaced by a computer: a stranger who took it would be
        sent its hand (and a finished table has nothing left to play)."""
        if self.started or self.table.status != PLAYING:
            return []
        return sorted(self.open_seats - set(self.tokens))

    def why_no_seat(self) -> str:
        """Why ``join`` finds no seat, and what to do instead."""
        if self.table.status != PLAYING:
            return (
                f"the game at table {self.id} is over: no seat is open "
                "(watch it to see how it ended)"
            )
        if self.started:
            return f"the game at table {self.id} has started: no seat is open (watch it instead)"
        return f"table {self.id} has no open seat (watch it instead)"

    def shown(self, update: Update) -> Update:
        """``update`` as a client may have it: until every open seat is taken
        the game has not begun, so nobody is to act and no move is legal (a
        client that played one would only be refused)."""
        if self.started:
            return update
        no_clock: tuple[float | None, ...] = (None,) * len(self.table.record.seats)
        return replace(update, to_act=(), legal=(), clocks=no_clock)

    def _build_summary(self) -> p.TableSummary:
        record = self.table.record
        return p.TableSummary(
            table=self.id,
            game=record.game,
            preset=record.preset or next(iter(get_game(record.game).presets)),
            options=dict(record.config),
            status=self.status(),
            seats=self.seats_summary(),
            if_gone="resign" if self.if_gone == "resign" else "computer",
            spectators=len(self.spectators),
            per_move=self.per_move,
            if_late=self.if_late if self.per_move is not None else None,
        )

    def _clocks_run(self) -> bool:
        return any(self.table.time_left(s) is not None for s in range(len(self.table.seats)))

    def status(self) -> Literal["waiting", "playing", "finished"]:
        if not self.started:
            return "waiting"
        return "playing" if self.table.status == PLAYING else "finished"

    def seats_summary(self) -> list[p.SeatSummary]:
        """Each seat, with whether the game waits for it and its clock."""
        playing = self.started and self.table.status == PLAYING
        acting = set(self.table.state.to_act()) if playing else set()
        seats = []
        for seat in range(len(self.table.record.seats)):
            summary = self.seat_summary(seat)
            left = self.table.time_left(seat) if playing else None
            if seat in acting or left is not None:
                clock = None if left is None else math.ceil(left)
                summary = msgspec.structs.replace(summary, acts=seat in acting, clock=clock)
            seats.append(summary)
        return seats

    def seat_summary(self, seat: int) -> p.SeatSummary:
        info = self.table.record.seats[seat]
        if info.kind == "bot":
            # stands_in: a person's seat the computer plays since its grace ran
            # out; ``name`` is still the person's, who may take it back
            return p.SeatSummary(
                seat=seat,
                kind="computer",
                name=info.name,
                level=info.level,
                stands_in=self.table.stands_in(seat),
                named=seat in self.named and self.table.stands_in(seat),
            )
        if seat not in self.tokens:
            if seat in self.free_seats():
                return p.SeatSummary(seat=seat, kind="open", name=None, level=None)
            # (a seat gone for good: not taken back, by name or token)
            # a person's seat after the start whose player has gone for good
            # (resigned, or not back in time): it stays theirs, and is not open
            return p.SeatSummary(seat=seat, kind="person", name=info.name, level=None, state="gone")
        if seat not in self.holding:
            # a player who left a finished table (nothing is held after the
            # end) has gone: "connected" only while the connection is there;
            # at a correspondence table a seat not connected is still its
            # player's ("away": they come back whenever they like)
            here: Literal["connected", "away", "gone"] = "connected"
            if seat not in self.occupants:
                unfinished = self.table.status == PLAYING
                here = "away" if self.per_move is not None and unfinished else "gone"
            return p.SeatSummary(
                seat=seat,
                kind="person",
                name=info.name,
                level=None,
                state=here,
                named=seat in self.named and here != "gone",
            )
        left = max(0, math.ceil(self.hold_until.get(seat, 0.0) - self.clock()))
        return p.SeatSummary(
            seat=seat,
            kind="person",
            name=info.name,
            level=None,
            state="reconnecting",
            grace=left,
            named=seat in self.named,
        )
