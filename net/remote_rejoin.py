"""A seated :class:`~net.remote.RemoteClient` takes its seat back by itself.

When the connection drops (or its server goes silent: net/remote_link.py),
the client opens a new one after each of its ``retry_delays`` (about a
minute in all, the server's default grace period; at a correspondence table,
whose seat is its player's to the end, then every few minutes for as long as
the client is open), says hello again
(net/remote_redirect.py: at another server of the room first if its own
went silent) and rejoins with its token, or with one it chose for an
earlier request whose reply never came (a lost reply must not lose the
seat). Meanwhile its ``connection`` is ``reconnecting``; listeners hear each
change. A table gone, or a seat the server no longer knows, ends it: the
client is ``closed``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from . import protocol as p
from .remote_redirect import open_again
from .remote_wire import RemoteError

if TYPE_CHECKING:
    from .remote import RemoteClient

log = logging.getLogger("net.remote")

# seconds before each try to take the seat back after a drop (about a minute in
# all, the server's default grace period)
RETRY_DELAYS = (0.0, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0)
# then, at a correspondence table (the server keeps the seat for the whole
# game, however long its player is away), a try this often until one works:
# a server down for an hour is no reason to stop waiting for a move a day
KEPT_SEAT_RETRY = 120.0


class Reconnection:
    """``client``'s way back to its seat, and who hears how it goes."""

    def __init__(self, client: RemoteClient) -> None:
        self.client = client
        # told "connected", "reconnecting" or "closed" when the connection changes
        self.listeners: list[Callable[[str], None]] = []
        self._task: asyncio.Task[None] | None = None
        self._sent_tokens: list[str] = []  # chosen for a request not answered yet
        # from the drop until the seat is back (or lost): the client is
        # ``reconnecting`` meanwhile, though a try's new link is up (its hello
        # answered, its rejoin not yet, or refused and to be tried again)
        self.taking_back = False

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def watch(self, listener: Callable[[str], None]) -> Callable[[], None]:
        self.listeners.append(listener)

        def stop() -> None:
            if listener in self.listeners:
                self.listeners.remove(listener)

        return stop

    def announce(self, state: str) -> None:
        for listener in list(self.listeners):
            try:
                listener(state)
            except Exception:
                log.exception("a connection listener failed")

    def next_token(self) -> str:
        """The token we choose for taking a seat back next time, sent with a
        join/rejoin/rematch and noted until the reply confirms it."""
        chosen = secrets.token_urlsafe(24)
        self._sent_tokens = [*self._sent_tokens[-7:], chosen]
        return chosen

    def confirmed(self) -> None:
        """A reply came: the token it names is the one."""
        self._sent_tokens = []

    def start(self) -> bool:
        """Begin to take the seat back; False if there is no seat to take."""
        client = self.client
        if client.token is None or client.table_id is None or client.home is None:
            return False
        self.taking_back = True
        self._task = asyncio.get_running_loop().create_task(self._run())
        return True

    async def stop(self) -> None:
        self.taking_back = False
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def _delays(self) -> Iterator[float]:
        yield from self.client.retry_delays
        while self.client.per_move is not None:  # (a seat kept to the game's end)
            yield KEPT_SEAT_RETRY

    async def _run(self) -> None:
        client = self.client
        for delay in self._delays():
            await client.sleep(delay)
            try:
                if not await open_again(client):  # here, or at another server of the room
                    continue
                taken = await self._take_back()
            except RemoteError as err:
                log.warning("cannot take the seat back: %s", err)
                if err.code == p.NO_TABLE:
                    break
                continue
            except (OSError, ConnectionError):
                continue
            if not taken:
                break  # the seat is gone (the grace period passed)
            self.taking_back = False
            client.back()
            return
        else:  # every try failed: say why in words, where a server went silent
            silent = ", ".join(f"{host}:{port}" for host, port in sorted(client.silent_places))
            if silent and client.farewell is None:
                others = len(client.welcome.room) > 1  # (a room's other servers were tried)
                client.farewell = f"the server stopped answering ({silent})" + (
                    "; its room did not take us back" if others else ""
                )
        self.taking_back = False
        client.lost()

    async def _take_back(self) -> bool:
        """Rejoin with our token, or with one we chose for an earlier rejoin
        whose reply never came (the server may have taken it): False if the
        server knows none of them."""
        client = self.client
        assert client.table_id is not None
        for token in [client.token, *self._sent_tokens]:
            if token is None:
                continue
            rejoin = p.Rejoin(table=client.table_id, token=token, next_token=self.next_token())
            try:
                await client.ask(rejoin, p.Joined)
            except RemoteError as err:
                if err.code == p.BAD_TOKEN:
                    continue
                raise
            return True
        return False
