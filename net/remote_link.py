"""One TCP connection to a table server, as a :class:`~net.remote.RemoteClient`
uses it: numbered requests and the futures their replies settle, and the
reader that decodes each line the server sends (net/remote_wire.py) and
hands it on. A client that takes its seat back after a drop opens a new link;
the request ids go on counting where the last link left them.

A link also notices a server that has gone **silent** (its machine switched
off, the network gone: no reset, no end, just nothing), which would
otherwise leave the client waiting on a dead socket until the system's own
keep-alive, minutes later. While the client waits on the server (at a
table, or a request pending) and has heard nothing for ``quiet`` seconds,
it sends its own ``ping`` (capability ``client_ping``: the server answers
``ok`` at once); nothing at all heard ``answer`` seconds after that and the
link is taken as lost (the reconnection takes over); ``quiet_alone`` and
``answer_alone`` seconds where there is no other server of a room to go to. A server without the
capability pings by itself every 10 s (docs/protocol.md, "Keep-alives"):
its link is lost after ``unpinged`` seconds of silence.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol, TypeVar

import msgspec

from . import protocol as p
from .remote_wire import Received, UnknownMessage, read_line, refusal

log = logging.getLogger("net.remote")
T = TypeVar("T")


@dataclass(frozen=True)
class Patience:
    """How long a client waits on a server before it takes it for gone.

    Why these figures: a table's goal is to be playable again within 10 s of
    its server vanishing (issue 36), and a loaded machine must not make the
    client give up on a live server. ``quiet`` 1.5 s: a game in play talks
    more often than that, and a ping costs a server one short line (no
    database). ``answer`` 2.5 s more: the server answers a ping without
    touching its database, and any line it sends counts, so only a server
    whose loop is stuck for 2.5 s is missed (on this 2-core machine under
    the room benchmark's load, 150 tables at a load average of 6 to 9, no
    client at a live server took its server for gone: docs/scaling.md). 4 s
    of silence in all: a client is back at another server of the room as
    the room's own probe finds the silent server (3 s late to beat, 2 s
    without an answer), so its table is taken where it comes back. Its
    reconnection's connect and hello each have a bound: a silent address
    accepts the connection (its system does) and never answers."""

    quiet: float = 1.5  # seconds heard nothing before the client's own `ping`
    answer: float = 2.5  # seconds after that for any line at all
    # the same, for a client with nowhere else to go (its server is no room's,
    # or the room's only live one): a server whose loop is stuck for 10 s is
    # as good as gone, and a shorter wait only adds reconnections to a server
    # that is slow, not gone (docs/store.md: from 600 tables on a loaded
    # machine, 2,000 clients gave up on their live server at 2.5 s and came
    # back by the thousand, each a connection, a hello and a rejoin more)
    answer_alone: float = 10.0
    # and it pings after 5 s of silence, not 1.5: finding a lone server gone
    # sooner gains its player nothing (there is nowhere else to go), while
    # at a table a ping every 1.5 s of silence is, for a player thinking for
    # a few seconds, a ping (a read and a write on the server) nearly every
    # move (docs/store.md: 2,000 clients' pings were more lines than their moves)
    quiet_alone: float = 5.0
    unpinged: float = 30.0  # silence from a server that does not answer pings (it pings every 10)
    # while a request the server answers only after its database (or a
    # take-over: a `rejoin`) is pending, its replies come in order behind it
    busy: float = 20.0
    connect: float = 3.0  # seconds for a connection to be made
    hello: float = 5.0  # seconds for the hello's welcome (a name is read from the database)


PATIENCE = Patience()


class Watcher(Protocol):
    """What a link asks of its client to watch the server's silence."""

    patience: Patience
    table_id: str | None  # at a table: the server's silence matters
    welcome: p.Welcome  # its capabilities: whether the server answers a `ping`

    @property
    def closed(self) -> bool: ...


class _Nobody:
    """No client watching: the default patience, nothing waited on."""

    patience = PATIENCE
    table_id: str | None = None
    welcome = p.Welcome(
        id=None, version=0, server="", capabilities=[], games=[], levels=[], name=""
    )
    closed = True


# what a server answers at once (a move's `game` comes before its commit's `ok`)
QUICK = (p.Move, p.Resign, p.Chat, p.Leave, p.AreYouThere, p.Subscribe, p.Unsubscribe)


class ServerLink:
    """The wire of one connection. ``received`` hears every message read
    (before its request's future is settled: :meth:`answer`), ``ended`` is
    called once when the connection ends; ``tap`` sees every line as it
    arrives (tests scan the bytes)."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        ids: Iterator[int],
        *,
        received: Callable[[Received], None],
        ended: Callable[[], None],
        tap: Callable[[bytes], None] | None = None,
        watcher: Watcher | None = None,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._ids = ids
        self._received = received
        self._ended = ended
        self._tap = tap
        self._pending: dict[int, asyncio.Future[p.ServerMessage]] = {}
        self._busy: set[int] = set()  # the pending requests that are not QUICK
        self._waker: asyncio.Future[None] | None = None  # the watch's nap, ended by a request
        self.online = True  # until the connection ends
        self.silent = False  # ended because the server said nothing for too long
        self._watcher: Watcher = watcher or _Nobody()  # (read at each look: it changes)
        loop = asyncio.get_running_loop()
        self.heard_at = loop.time()  # when the last line came
        self._reading = loop.create_task(self._read())
        self._watching = loop.create_task(self._watch())

    def watch(self, watcher: Watcher) -> None:
        """Watch the server's silence for ``watcher`` (the client)."""
        self._watcher = watcher

    @property
    def waiting(self) -> bool:
        """A request is waiting for its reply."""
        return bool(self._pending)

    async def request(self, message: p.ClientMessage) -> p.ServerMessage:
        """Send ``message`` with the next id and return its reply; RemoteError
        for an error reply, ConnectionError if the connection ends first."""
        rid = next(self._ids)
        future: asyncio.Future[p.ServerMessage] = asyncio.get_running_loop().create_future()
        self._pending[rid] = future
        if self._waker is not None:  # (a request changes what the watch waits for)
            _wake(self._waker)
        if not isinstance(message, QUICK):
            self._busy.add(rid)
        self._writer.write(p.encode(msgspec.structs.replace(message, id=rid)))
        try:
            await self._writer.drain()
            return await future
        finally:
            self._pending.pop(rid, None)
            self._busy.discard(rid)
            if future.done() and not future.cancelled():
                future.exception()  # (the link ended while the request was being sent)

    def send(self, message: p.ClientMessage) -> None:
        """A message that gets no reply (a ``pong``)."""
        self._writer.write(p.encode(message))

    def answer(self, message: p.ServerMessage) -> bool:
        """Settle the request ``message`` replies to; False if it replies to none."""
        rid = getattr(message, "id", None)
        if rid is None or rid not in self._pending:
            return False
        future = self._pending[rid]
        if not future.done():
            if isinstance(message, p.Error):
                future.set_exception(refusal(message))
            else:
                future.set_result(message)
        return True

    async def _read(self) -> None:
        try:
            while True:
                line = await self._reader.readline()
                if not line:
                    break
                self.heard_at = asyncio.get_running_loop().time()
                if self._tap is not None:
                    self._tap(line)
                if not line.strip():
                    continue
                try:
                    received = read_line(line)
                except UnknownMessage as err:
                    log.info("passed over %s", err)
                    continue
                self._received(received)
        except (OSError, ValueError, asyncio.IncompleteReadError) as err:
            log.info("the server connection ended: %s", err)
        finally:
            self.online = False
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ConnectionError("the server closed the connection"))
            self._ended()

    async def _watch(self) -> None:
        """Take the link for lost when the server has gone silent while the
        client waits on it (see the module's docstring): never before a
        ``ping`` of ours has gone unanswered, where the server answers them."""
        loop = asyncio.get_running_loop()
        pinged_for, pinged_at = -1.0, 0.0  # the ``heard_at`` a ping followed, and when
        while self.online:
            watcher = self._watcher
            patience = watcher.patience
            elsewhere = len(watcher.welcome.room) > 1  # (another server of its room)
            quiet = patience.quiet if elsewhere else patience.quiet_alone
            if not (self._pending or (watcher.table_id is not None and not watcher.closed)):
                await self._nap(quiet)  # (nothing to watch until a request is sent)
                continue
            now = loop.time()
            if p.CLIENT_PING in watcher.welcome.capabilities:
                if now - self.heard_at >= quiet and pinged_for != self.heard_at:
                    self.send(p.AreYouThere(id=next(self._ids)))  # its `ok` settles nothing
                    pinged_for, pinged_at = self.heard_at, now
                waiting = pinged_for == self.heard_at
                answer = patience.answer if elsewhere else patience.answer_alone
                lost_at = pinged_at + answer if waiting else math.inf
                wake_at = lost_at if waiting else self.heard_at + quiet
            else:
                lost_at = wake_at = self.heard_at + patience.unpinged
            if self._busy:  # (its answer comes in order, after the busy one's)
                lost_at = max(lost_at, self.heard_at + patience.busy)
            if now >= lost_at:
                log.warning(
                    "the server has said nothing for %.1f s: taking the connection as lost",
                    now - self.heard_at,
                )
                self.abort()
                return
            # (at most ``quiet`` asleep: a busy request ends, the bound shrinks;
            # woken by a request: the client's patience may have changed)
            await self._nap(max(0.01, min(wake_at - now, lost_at - now, quiet)))

    async def _nap(self, seconds: float) -> None:
        """Sleep ``seconds``, or until a request is sent: one future and one
        timer (``asyncio.wait_for`` on an event made a task of every nap, and
        the watch naps again after every move the client sends)."""
        loop = asyncio.get_running_loop()
        waker = self._waker = loop.create_future()
        timer = loop.call_later(seconds, _wake, waker)
        try:
            await waker
        finally:
            timer.cancel()
            self._waker = None

    def hang_up(self) -> None:
        """Close the socket (the reader then ends)."""
        if not self._writer.is_closing():
            self._writer.close()

    def abort(self) -> None:
        """Drop the socket at once, unsent data and all (a silent server)."""
        self.silent = True
        self._writer.transport.abort()

    async def close(self) -> None:
        """Close the socket and wait until the reader has stopped."""
        self.hang_up()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._writer.wait_closed(), self._watcher.patience.connect)
        for task in (self._reading, self._watching):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _wake(waker: asyncio.Future[None]) -> None:
    if not waker.done():
        waker.set_result(None)


class ChatLines:
    """What the others at a client's table say: the chat lines it has heard,
    and rematch offers; and who listens for each (one listener that fails
    does not stop the others)."""

    def __init__(self) -> None:
        self.lines: list[p.ChatLine] = []
        self._listeners: list[Callable[[str, str], None]] = []
        self._offer_listeners: list[Callable[[str], None]] = []

    def watch(self, listener: Callable[[str, str], None]) -> Callable[[], None]:
        return _watch(self._listeners, listener)

    def watch_offers(self, listener: Callable[[str], None]) -> Callable[[], None]:
        return _watch(self._offer_listeners, listener)

    def tell(self, name: str, text: str) -> None:
        for listener in list(self._listeners):
            try:
                listener(name, text)
            except Exception:
                log.exception("a chat listener failed")

    def offered(self, name: str) -> None:
        """``name`` asks for a rematch: said in the chat, and to who waits for offers."""
        self.tell(name, "asks for a rematch (Rematch to join)")
        for offered in list(self._offer_listeners):
            try:
                offered(name)
            except Exception:
                log.exception("a rematch listener failed")


def _watch(listeners: list[T], listener: T) -> Callable[[], None]:
    """Add ``listener``; returns a function that removes it."""
    listeners.append(listener)

    def stop() -> None:
        if listener in listeners:
            listeners.remove(listener)

    return stop
