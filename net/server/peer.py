"""One client as the lobby and the seats see it: its name, its place (a
seat, spectating, or the lobby), its budgets, and a :class:`Sender` to put
lines on its way. No socket here: the connection (net/server/connection.py)
gives a peer a sender over its stream; the tests give it a list."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Protocol

from .. import protocol as p
from ..client import Update
from .limits import Clock, Limits, TokenBucket

if TYPE_CHECKING:
    from .hosted import Hosted

log = logging.getLogger(__name__)


class Sender(Protocol):
    """Where a peer's lines go (the connection's stream, or a test's list)."""

    def deliver(self, line: bytes) -> bool:
        """Queue one line; False if the client is dropped for not reading."""
        ...

    def close(self) -> None: ...

    def abort(self) -> None: ...

    def hold(self) -> None:
        """Keep the lines back a moment (see StreamSender.hold); a sender
        that sends at once may do nothing."""
        ...

    def release(self) -> None: ...


class Peer:
    """A client of the server, whatever carries its lines."""

    def __init__(
        self,
        sender: Sender,
        address: str,
        limits: Limits,
        clock: Clock,
        address_bytes: TokenBucket | None = None,
    ) -> None:
        self.sender = sender
        self.address = address
        self.limits = limits
        self.clock = clock
        self.name = ""
        # the hello proved the name's secret (or claimed it): the name is this client's
        self.name_claimed = False
        self.hello = False
        self.closed = False
        self.opened = self.last_seen = clock()
        self.messages = TokenBucket(limits.messages_per_second, limits.burst, clock)
        # every byte this client is sent (may go below zero: requests whose
        # answer is large are refused until it is back above)
        self.bytes = TokenBucket(limits.bytes_per_second, limits.bytes_burst, clock)
        # the same for every connection of its address together (shared)
        self.address_bytes = address_bytes or TokenBucket(
            limits.address_bytes_per_second, limits.address_bytes_burst, clock
        )
        self.sent = 0  # bytes sent in all (for the log and the benchmarks)
        self.errors = 0
        self.next_ping = 0.0  # set at the hello
        self.answers_pings = False  # it has sent a `pong`
        self.unanswered: list[float] = []  # when each ping not yet answered went out
        self.watchdog: asyncio.Task[None] | None = None  # its timers (connection.py)
        self.hosted: Hosted | None = None
        self.seat: int | None = None
        self.unwatch: Callable[[], None] | None = None
        self.idle_since = self.opened  # last heard, or back in the lobby
        self.subscribed = False  # it is sent the lobby's changes
        self.follows_redirects = False  # its hello announced "redirect" (net/server/room.py)
        self.was_redirected = False  # ... and "redirected": another server sent it here
        # the seat's legal moves as last sent, since which state id, and the
        # state id of the latest update sent: a move chosen at any state
        # since its options last changed is not stale (docs/protocol.md)
        self.options: tuple[str, ...] = ()
        self.options_since = 0
        self.seen_state = -1
        # nothing more is read from it until then (``pause_reads``; the
        # connection honours it, net/server/connection.py)
        self.reads_paused_until = 0.0

    def send(self, message: p.ServerMessage) -> None:
        """Queue a message; never waits. A client that lets too much pile up
        unread is dropped on the spot."""
        self.send_line(p.encode(message))

    def send_line(self, line: bytes) -> None:
        """Queue one encoded message (newline included), charged to the
        client's byte budget."""
        if self.closed:
            return
        self.bytes.charge(len(line))
        self.address_bytes.charge(len(line))
        self.sent += len(line)
        if not self.sender.deliver(line):
            log.info("dropping %s: it stopped reading", self.address)
            self.closed = True

    @contextlib.contextmanager
    def lines_held(self) -> Iterator[None]:
        """Its lines go out together when this ends (a move's update with
        its ``ok``, net/server/seats.py), or after StreamSender.HOLD_MOST."""
        self.sender.hold()
        try:
            yield
        finally:
            self.sender.release()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.sender.close()

    def abort(self) -> None:
        """Close without waiting for what is queued (the peer is gone)."""
        self.closed = True
        self.sender.abort()

    def heard(self) -> None:
        """A line came in: the client is there (every ping is answered)."""
        self.last_seen = self.idle_since = self.clock()
        self.unanswered.clear()

    def spend(self) -> bool:
        """One message's worth of the rate allowance; False when none is left."""
        self.heard()
        return self.messages.take()

    def pause_reads(self, wait: float) -> float:
        """Read nothing more from this client for ``wait`` seconds (at least
        ``refused_pause_seconds``, at most ``refused_pause_most_seconds``):
        it was just refused ``too_fast`` for a request whose answer is large,
        and told to wait. A player seated at a game under way is never paused
        (its moves and pongs must get through). Returns the seconds the
        client is to wait (what its refusal says)."""
        if self.seated():
            return wait
        limits = self.limits
        pause = min(max(wait, limits.refused_pause_seconds), limits.refused_pause_most_seconds)
        self.reads_paused_until = max(self.reads_paused_until, self.clock() + pause)
        return max(wait, pause)

    def check_bytes(self, what: str) -> None:
        """Refuse (``too_fast``) a request whose answer is large while the
        byte budget is spent; the client's reads are paused meanwhile."""
        limits = self.limits
        wait = self.bytes.wait()
        if wait > 0:
            wait = self.pause_reads(wait)
            raise p.ProtocolError(
                p.TOO_FAST,
                f"{what}: what one connection is sent is limited to "
                f"{limits.bytes_per_second / 1024:g} KiB a second: ask again in "
                f"{wait:.1f} s (or for fewer tables: `limit`)",
            )
        wait = self.address_bytes.wait()
        if wait > 0:
            wait = self.pause_reads(wait)
            raise p.ProtocolError(
                p.TOO_FAST,
                f"{what}: what the connections of one address are sent together is "
                f"limited to {limits.address_bytes_per_second / 1024:g} KiB a second: "
                f"ask again in {wait:.1f} s",
            )

    def note_options(self, update: Update) -> None:
        """Keep what a move needs to tell a stale one (net/server/seats.py)."""
        if update.legal != self.options:
            self.options = update.legal
            self.options_since = update.state_id
        self.seen_state = update.state_id

    def seated(self) -> bool:
        """At a seat of a game under way (then silence means it has gone)."""
        hosted = self.hosted
        return self.seat is not None and hosted is not None and hosted.started


class ListSender:
    """A :class:`Sender` that keeps the lines (for tests, and for whoever
    wants to see what a peer was sent)."""

    def __init__(self) -> None:
        self.lines: list[bytes] = []
        self.closed = False

    def deliver(self, line: bytes) -> bool:
        self.lines.append(line)
        return True

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.closed = True

    def hold(self) -> None:
        pass  # (the lines are kept as they come: their order is what tests read)

    def release(self) -> None:
        pass

    def messages(self) -> list[dict[str, object]]:
        import json

        return [json.loads(line) for line in self.lines]
