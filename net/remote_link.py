"""One TCP connection to a table server, as a :class:`~net.remote.RemoteClient`
uses it: numbered requests and the futures their replies settle, and the
reader that decodes each line the server sends (net/remote_wire.py) and
hands it on. A client that takes its seat back after a drop opens a new link;
the request ids go on counting where the last link left them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator
from typing import TypeVar

import msgspec

from . import protocol as p
from .remote_wire import Received, UnknownMessage, read_line, refusal

log = logging.getLogger("net.remote")
T = TypeVar("T")


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
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._ids = ids
        self._received = received
        self._ended = ended
        self._tap = tap
        self._pending: dict[int, asyncio.Future[p.ServerMessage]] = {}
        self.online = True  # until the connection ends
        self._reading = asyncio.get_running_loop().create_task(self._read())

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
        self._writer.write(p.encode(msgspec.structs.replace(message, id=rid)))
        try:
            await self._writer.drain()
            return await future
        finally:
            self._pending.pop(rid, None)

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

    def hang_up(self) -> None:
        """Close the socket (the reader then ends)."""
        if not self._writer.is_closing():
            self._writer.close()

    async def close(self) -> None:
        """Close the socket and wait until the reader has stopped."""
        self.hang_up()
        with contextlib.suppress(Exception):
            await self._writer.wait_closed()
        self._reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reading


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
