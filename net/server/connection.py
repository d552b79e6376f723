"""One TCP connection of the table server: its stream (lines in, lines out,
the cap on what waits unread), its timers (the hello, the lobby's idle
timeout, pings) and its socket options. What it says is the dispatcher's
business (net/server/tables.py); to the lobby and the seats it is a
:class:`~net.server.peer.Peer`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from .. import protocol as p
from .limits import Clock, Limits, TokenBucket
from .peer import Peer

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[Any]]
_PING = p.Ping()


class Closed(Exception):
    """The connection is to be closed after the error reply."""


class StreamSender:
    """A peer's lines onto its stream; one that lets more than ``max_unsent``
    bytes pile up unread is cut off (a table never waits for a client).

    The lines given in one turn of the event loop go out together, in one
    write at the end of the turn: a client that sends its requests in a
    burst (a `watch` and a `leave`, over and over) costs one system call for
    all their replies, not one a reply.

    :meth:`hold` keeps the lines back a little longer, until :meth:`release`:
    a move's own update waits for its ``ok`` (which follows the commit), so
    the mover gets both in one write, one system call on each side, not two.
    A hold lapses after ``HOLD_MOST`` seconds (a slow commit must not keep a
    ``pong`` or the other seats' moves from the client)."""

    HOLD_MOST = 0.05

    def __init__(self, writer: asyncio.StreamWriter, max_unsent: int) -> None:
        self.writer = writer
        self.max_unsent = max_unsent
        self._queued: list[bytes] = []
        self._dropped = False
        self._holds = 0
        self._held_since = 0.0

    def deliver(self, line: bytes) -> bool:
        if self._dropped or self.writer.transport.get_write_buffer_size() > self.max_unsent:
            self.abort()
            return False
        if self._holds and asyncio.get_running_loop().time() - self._held_since > self.HOLD_MOST:
            self._holds = 0  # lapsed: what was held goes with this line
            if self._queued:
                asyncio.get_running_loop().call_soon(self.flush)
        if not self._queued and not self._holds:
            asyncio.get_running_loop().call_soon(self.flush)
        self._queued.append(line)
        return True

    def hold(self) -> None:
        """Keep this client's lines back until :meth:`release` (at most
        ``HOLD_MOST`` seconds)."""
        if not self._holds:
            self._held_since = asyncio.get_running_loop().time()
        self._holds += 1

    def release(self) -> None:
        """The end of a :meth:`hold`: what it kept back goes now."""
        if self._holds:
            self._holds -= 1
            if not self._holds:
                self.flush()

    def flush(self) -> None:
        """Write what this turn queued (what the kernel does not take at once
        waits in the transport: too much of it and the client is cut off)."""
        if not self._queued or self._dropped or self._holds:
            return
        data = b"".join(self._queued)
        self._queued.clear()
        if self.writer.transport.is_closing():
            # the client is gone (or going): nobody to read it. uvloop raises
            # where asyncio's loop passes over it, so the check is ours: a
            # flush may come after the close (a turn's lines, a close's flush)
            return
        self.writer.write(data)
        if self.writer.transport.get_write_buffer_size() > self.max_unsent:
            self.abort()

    def close(self) -> None:
        self._holds = 0
        self.flush()
        self.writer.close()

    def abort(self) -> None:
        self._dropped = True
        self._queued.clear()
        self.writer.transport.abort()


class Connection(Peer):
    """A peer over a socket."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        address: str,
        limits: Limits,
        clock: Clock,
        address_bytes: TokenBucket | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        sender = StreamSender(writer, limits.max_unsent)
        super().__init__(sender, address, limits, clock, address_bytes)
        self.reader = reader
        self.writer = writer
        self._sleep = sleep
        self._wake: asyncio.Future[None] | None = None  # ends a pause early: closed

    async def lines(self) -> Any:
        """The client's lines, stripped, until it goes (an async iterator);
        an over-long line is answered and ends it. While its reads are
        paused (``Peer.pause_reads``) nothing is read: its lines wait in the
        socket (the system's buffers, then the client's own)."""
        while not self.closed:
            if self.reads_paused_until > self.clock():
                await self._paused()
                continue
            try:
                line = await self.reader.readline()
            except (ValueError, asyncio.LimitOverrunError):
                # readline has dropped the over-long line; say why and go
                self.send(p.error(p.BAD_JSON, f"a line may be at most {p.MAX_LINE} bytes"))
                return
            except (ConnectionError, OSError):
                return
            if not line:
                return  # the client has gone
            yield line.strip(b" \t\r\n")

    async def _paused(self) -> None:
        """Until the pause is over, or the connection closes."""
        wait = self.reads_paused_until - self.clock()
        self._wake = asyncio.get_running_loop().create_future()
        nap = asyncio.ensure_future(self._sleep(wait))
        try:
            await asyncio.wait((nap, self._wake), return_when=asyncio.FIRST_COMPLETED)
        finally:
            nap.cancel()
            self._wake = None

    def close(self) -> None:
        super().close()
        self._woken()

    def abort(self) -> None:
        super().abort()
        self._woken()

    def _woken(self) -> None:
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    def refuse(self, err: p.ProtocolError) -> None:
        """An error reply; too many in a row and the connection closes."""
        self.send(p.error(err.code, err.message, err.request_id))
        self.errors += 1
        if self.errors >= self.limits.errors_in_a_row:
            self.send(p.error(p.LIMIT, "too many errors in a row: goodbye"))
            self.close()

    def say_goodbye(self, reason: str) -> None:
        """``closing`` with why, then the connection closes."""
        if not self.closed:
            self.send(p.Closing(reason=reason))
        self.close()


async def keep_watch(peer: Peer, sleep: Sleep) -> None:
    """The connection's timers: the hello, the idle timeout, and (after
    the hello) a `ping` every ``ping_seconds``. A client at a seat of a
    game under way, or one that has answered a ping, is gone once two
    pings in a row go unanswered for ``dead_seconds`` (any line
    answers)."""
    limits = peer.limits
    while not peer.closed:
        now = peer.clock()
        if not peer.hello:  # keep-alives do not buy time for the hello
            wait = peer.opened + limits.hello_seconds - now
            if wait <= 0:
                why = f"no hello for {limits.hello_seconds:g} seconds: goodbye"
                peer.send(p.error(p.LIMIT, why))
                peer.close()
                return
            await sleep(wait)
            continue
        in_lobby = peer.hosted is None
        if in_lobby and now >= peer.idle_since + limits.idle_seconds:
            why = f"no message for {limits.idle_seconds:g} seconds in the lobby: goodbye"
            peer.send(p.error(p.LIMIT, why))
            peer.close()
            return
        dead_at = math.inf
        if (peer.answers_pings or peer.seated()) and len(peer.unanswered) >= 2:
            dead_at = peer.unanswered[0] + limits.dead_seconds
            if now >= dead_at:
                log.info("%s answers no ping: taken as gone", peer.address)
                peer.abort()
                return
        if now >= peer.next_ping:
            peer.send(_PING)
            peer.unanswered.append(now)
            peer.next_ping = now + limits.ping_seconds
        idle_at = peer.idle_since + limits.idle_seconds if in_lobby else math.inf
        wake = min(idle_at, peer.next_ping, dead_at)
        await sleep(max(0.0, wake - now))


def keep_alive(sock: socket.socket, limits: Limits) -> None:
    """Let the system find a peer that has vanished without closing (a
    machine switched off, a network gone): TCP keep-alive probes while
    nothing is sent, and a user timeout while something waits unacknowledged
    (the server's pings see to it that something is sent). Where the system
    lacks an option the pings and the idle timeout remain."""
    options = [
        (socket.SOL_SOCKET, "SO_KEEPALIVE", 1),
        (socket.IPPROTO_TCP, "TCP_KEEPIDLE", max(1, round(limits.ping_seconds))),
        (socket.IPPROTO_TCP, "TCP_KEEPINTVL", max(1, round(limits.ping_seconds / 2))),
        (socket.IPPROTO_TCP, "TCP_KEEPCNT", 3),
        (socket.IPPROTO_TCP, "TCP_USER_TIMEOUT", max(1, round(limits.dead_seconds * 1000))),
    ]
    for level, name, value in options:
        option = getattr(socket, name, None)
        if option is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(level, option, value)
