"""Listening sockets and the accept loop, shared by `cardtable serve`
(net/server/) and `cardtable ssh-host` (net/ssh_host.py).

The servers accept on their sockets themselves (not through
:func:`asyncio.start_server`) so that:

- every connection is counted the moment it is accepted, in all and per
  address, and one over a limit is refused there (with one line saying why,
  where the protocol has lines, or simply closed);
- connections from one address are also bounded in rate (a token bucket per
  address): a client that connects and closes in a loop is refused after
  its burst instead of costing the server a handler for each;
- running out of file descriptors (or memory) pauses accepting, logged once
  (then at most once a minute), until a connection closes or a moment has
  passed: the waiting clients stay in the system's queue, nothing spins.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import socket
from collections import Counter
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

BACKLOG = 128
# accept() failing for want of descriptors or memory: wait, do not spin
_OUT_OF_DESCRIPTORS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
# the client gave up while it waited in the queue: nothing to do
_GAVE_UP = frozenset({errno.ECONNABORTED, errno.EPROTO, errno.EINTR})
_MAX_LINGERING = 64  # refused connections closed politely at once (a flood gets less)
_LINGER_SECONDS = 1.0
_SAY_STARVED_EVERY = 60.0  # seconds: out of descriptors is logged at most this often


async def listening_sockets(host: str, port: int) -> list[socket.socket]:
    """Listening sockets on every address ``host`` names (as
    :func:`asyncio.start_server` would bind them). OSError if it cannot."""
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(
        host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )
    listeners: list[socket.socket] = []
    bound: set[tuple[int, Any]] = set()
    try:
        for family, kind, proto, _, address in infos:
            if (family, address) in bound:
                continue
            bound.add((family, address))
            sock = socket.socket(family, kind, proto)
            listeners.append(sock)
            if os.name == "posix":  # a restarted server may bind at once
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:  # the IPv4 address has a socket of its own
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.listen(BACKLOG)
            sock.setblocking(False)
    except BaseException:
        for sock in listeners:
            sock.close()
        raise
    if not listeners:
        raise OSError(errno.EADDRNOTAVAIL, f"no address to listen on for {host!r}")
    return listeners


class AddressCounts:
    """Connections at once, in all and per address, and new connections per
    address per second (a token bucket each: ``rate`` a second, ``burst`` at
    once; 0 for no such bound)."""

    def __init__(
        self,
        total: int,
        per_address: int,
        *,
        rate: float = 0.0,
        burst: int = 0,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.total = total
        self.per_address = per_address
        self.rate = rate
        self.burst = burst
        self.open = 0
        self.by_address: Counter[str] = Counter()
        self._clock = clock or asyncio.get_running_loop().time
        # address -> (allowance, when it was last refilled); an address with a
        # full allowance and no connection is forgotten, so this stays small
        self._arrivals: dict[str, tuple[float, float]] = {}

    def admit(self, address: str) -> str | None:
        """Count a new connection from ``address``; or, over a limit, why not
        (a sentence for the refusal line)."""
        if self.open >= self.total:
            return "the server is full: try again in a while"
        if self.by_address[address] >= self.per_address:
            return (
                f"too many connections from your address ({self.per_address}): "
                "close one first (the server's operator can allow more: --per-address)"
            )
        if self.rate > 0 and not self._arrival(address):
            return (
                f"too many new connections from your address (more than {self.rate:g} a "
                "second): wait a moment, and keep a connection open rather than reconnect"
            )
        self.open += 1
        self.by_address[address] += 1
        return None

    def _arrival(self, address: str) -> bool:
        now = self._clock()
        allowance, then = self._arrivals.get(address, (float(self.burst), now))
        allowance = min(float(self.burst), allowance + (now - then) * self.rate)
        if allowance < 1.0:
            self._arrivals[address] = (allowance, now)
            return False
        self._arrivals[address] = (allowance - 1.0, now)
        if len(self._arrivals) > 4 * self.total:
            self._forget_rested(now)
        return True

    def _forget_rested(self, now: float) -> None:
        """Drop the buckets that are full again (they say nothing new)."""
        for address, (allowance, then) in list(self._arrivals.items()):
            if allowance + (now - then) * self.rate >= self.burst:
                del self._arrivals[address]

    def release(self, address: str) -> None:
        self.open -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]


class Listener:
    """The accept loop over ``sockets``. ``admit(address)`` counts a new
    connection or says why it is refused; ``serve(sock, address)`` takes one
    admitted (and must call :meth:`release` once it has closed). A refused
    connection gets ``refusal(why)`` as its one line before it closes, or is
    simply closed when ``refusal`` is None."""

    def __init__(
        self,
        sockets: list[socket.socket],
        admit: Callable[[str], str | None],
        serve: Callable[[socket.socket, str], None],
        *,
        retry_seconds: float = 1.0,
        refusal: Callable[[str], bytes] | None = None,
        release: Callable[[str], None] | None = None,
    ) -> None:
        self.sockets = sockets
        self._admit = admit
        self._serve = serve
        self._release = release
        self._refusal = refusal
        self.retry_seconds = retry_seconds
        self.paused = False  # out of file descriptors right now
        self.starvations = 0  # times it has been
        self._said_at: float | None = None  # when that was last logged
        self._said = False  # logged, and not yet that it is over
        self._freed = asyncio.Event()
        self._lingering: set[asyncio.Task[None]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self._closing = False
        # connections open, for the log line (set by the owner)
        self.open: Callable[[], int] = lambda: 0

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._loops = [loop.create_task(self._accept(sock)) for sock in self.sockets]

    def release(self, address: str) -> None:
        """A connection admitted has closed: its place is free again."""
        if self._release is not None:
            self._release(address)
        self._freed.set()

    def close(self) -> None:
        """Stop accepting (connections taken are their owner's to close)."""
        self._closing = True
        for task in self._loops:
            task.cancel()
        for sock in self.sockets:
            sock.close()
        for task in list(self._lingering):
            task.cancel()

    async def wait_closed(self) -> None:
        await asyncio.gather(*self._loops, return_exceptions=True)

    async def _accept(self, listening: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while not self._closing:
            try:
                sock, peer = await loop.sock_accept(listening)
            except OSError as err:
                if self._closing or listening.fileno() < 0:
                    return
                if err.errno in _GAVE_UP:
                    continue
                if err.errno not in _OUT_OF_DESCRIPTORS:
                    log.info("a connection failed before it began: %s", err)
                    continue
                await self._starved(err)
                continue
            if self.paused:
                self.paused = False
                if self._said:
                    self._said = False
                    log.warning("accepting connections again (%d open)", self.open())
            address = str(peer[0]) if isinstance(peer, tuple) and peer else "local"
            why = self._admit(address)
            if why is None:
                self._serve(sock, address)
            elif self._refusal is None:
                sock.close()
            else:
                self._turn_away(sock, self._refusal(why))

    async def _starved(self, err: OSError) -> None:
        """Out of descriptors: said once an episode (under a flood that comes
        and goes, once a minute; the count says how many there were), then
        wait for a connection to close, or a moment (something else may free
        one: then the next try finds it)."""
        loop = asyncio.get_running_loop()
        if not self.paused:
            self.paused = True
            self.starvations += 1
        if self._said_at is None or loop.time() - self._said_at >= _SAY_STARVED_EVERY:
            self._said_at = loop.time()
            self._said = True
            log.warning(
                "out of file descriptors (%s) with %d connections: new ones wait "
                "until one closes (see `--max-connections`; %d time(s) so far)",
                err.strerror,
                self.open(),
                self.starvations,
            )
        self._freed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._freed.wait(), self.retry_seconds)

    def _turn_away(self, sock: socket.socket, line: bytes) -> None:
        """One line, then the connection closes."""
        try:
            sock.setblocking(False)
            sock.send(line)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            sock.close()
            return
        if len(self._lingering) >= _MAX_LINGERING:
            sock.close()  # under a flood: the line may be lost, the descriptor is not
            return
        task = asyncio.get_running_loop().create_task(_linger(sock))
        self._lingering.add(task)
        task.add_done_callback(self._lingering.discard)


async def _linger(sock: socket.socket) -> None:
    """Read what the refused client had already sent before closing: a socket
    closed with unread data resets the connection, and the reset can overtake
    the line that says why."""
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(_LINGER_SECONDS):
            while await loop.sock_recv(sock, 4096):
                pass
    except (OSError, TimeoutError):
        pass
    finally:
        sock.close()
