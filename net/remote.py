"""The TCP transport: a :class:`~net.client.TableClient` over the protocol
(net/protocol.py, docs/protocol.md), so a game screen plays at a table on a
server exactly as at one in this process.

``client = await RemoteClient.connect(host, port, name)`` says hello; then
the lobby: ``tables()``, ``create(...)``, and one of ``join``, ``rejoin``
(with the token ``join`` gave, kept in ``client.token``) or ``watch``. After
that the client is an ordinary TableClient for its one seat (or none, as a
spectator). A seated client whose connection drops takes its seat back by
itself (``connection`` is ``reconnecting`` meanwhile; ``on_connection``
listeners hear each change), then hands its listeners the full position.
A request's error reply is raised as :class:`RemoteError` (or
:class:`~net.client.StaleMove` / :class:`rules.errors.IllegalMove` for a
refused move, as the local table raises them).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from rules.errors import IllegalMove
from rules.events import Event
from rules.registry import get_game

from . import protocol as p
from .client import (
    Hint,
    LinkDown,
    NoHints,
    SeatInfo,
    TableClient,
    Update,
    UpdateListeners,
)
from .remote_redirect import FOLLOWS, open_again, request_following
from .remote_requests import NO_WELCOME, ServerRequests
from .remote_wire import (
    Received,
    RemoteError,
    TooFast,
    UnknownMessage,
    read_events,
    read_line,
    refusal,
    seat_info,
    to_update,
)

__all__ = ["RemoteClient", "RemoteError", "TooFast"]

log = logging.getLogger(__name__)

Listener = Callable[[Update], None]
# seconds before each try to take the seat back after a drop (about a minute in
# all, the server's default grace period)
RETRY_DELAYS = (0.0, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0)


class RemoteClient(ServerRequests, TableClient):
    """One connection to a table server: a lobby, then one seat or a spectator."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        tap: Callable[[bytes], None] | None = None,
    ) -> None:
        self._tap = tap  # sees every line as it arrives (tests scan the bytes)
        self._reader = reader
        self._writer = writer
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[p.ServerMessage]] = {}
        self._listeners = UpdateListeners()
        self._latest: Update | None = None
        self._history: list[Event] = []
        self._changed = asyncio.Event()
        self._closed = False  # for good: closed by us, or the seat is lost
        self._online = True  # the current connection is up
        self._address: tuple[str, int, str, str] | None = None  # host, port, name, client
        self._reconnector: asyncio.Task[None] | None = None
        self._moving = False  # to another server of a room (net/remote_redirect.py)
        self.door: tuple[str, int] | None = None  # the room's server first connected to
        self.sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep  # tests replace it
        self.retry_delays: tuple[float, ...] = RETRY_DELAYS
        # told "connected", "reconnecting" or "closed" when the connection changes
        self.on_connection: list[Callable[[str], None]] = []
        self.reconnecting: tuple[int, ...] = ()  # seats held for a player who dropped
        self.chat: list[p.ChatLine] = []  # chat lines seen at this table
        self._chat_listeners: list[Callable[[str, str], None]] = []
        self.can_chat = True
        self.gives_hints = False  # a server's tables give no hints
        self.welcome = NO_WELCOME  # the server's, once it has said hello
        self._name_secret: str | None = None  # what the hello says of the name (connect)
        self.token: str | None = None
        self._sent_tokens: list[str] = []  # chosen for a request not answered yet
        self.table_id: str | None = None
        self.game_id = ""
        self.config = {}
        self.preset = None
        self.seats = []
        self.record_id = ""
        self.my_seats = ()
        self._reading = asyncio.get_running_loop().create_task(self._read(reader))

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        name: str,
        *,
        client: str = "cardtable",
        tap: Callable[[bytes], None] | None = None,
        name_secret: str | None = None,
    ) -> RemoteClient:
        """Connect and say hello; RemoteError if the server will not have us,
        OSError if it cannot be reached. ``name_secret``: the secret that keeps
        ``name`` at this server, "" to claim it (the welcome's ``name_secret``
        is the one to keep: docs/protocol.md, "Standings"); None claims nothing."""
        reader, writer = await asyncio.open_connection(host, port, limit=p.MAX_SERVER_LINE)
        self = cls(reader, writer, tap)
        self._address = (host, port, name, client)
        self._name_secret = name_secret
        self.address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        try:
            self.welcome = await self._ask(self._hello(), p.Welcome)
        except BaseException:
            await self.close()
            raise
        return self

    def _hello(self) -> p.Hello:
        assert self._address is not None
        name, client = self._address[2], self._address[3]
        # the secret the server gave for the name, once it has given one
        secret = self.welcome.name_secret or self._name_secret
        hello = p.Hello(version=p.VERSION, client=client, name=name, name_secret=secret)
        return msgspec.structs.replace(hello, capabilities=FOLLOWS)  # net/remote_redirect.py

    # ------------------------------------------------------------ the wire
    async def request(self, message: p.ClientMessage) -> p.ServerMessage:
        """A request's reply, ``elsewhere`` followed; RemoteError for an error reply."""
        return await request_following(self, message)

    async def request_here(self, message: p.ClientMessage) -> p.ServerMessage:
        """Send a request to this connection's server and return its reply."""
        if self._closed or not self._online:
            raise ConnectionError(f"the connection to the server is {self.connection}")
        rid = next(self._ids)
        future: asyncio.Future[p.ServerMessage] = asyncio.get_running_loop().create_future()
        self._pending[rid] = future
        self._writer.write(p.encode(msgspec.structs.replace(message, id=rid)))
        try:
            await self._writer.drain()
            return await future
        finally:
            self._pending.pop(rid, None)
            self._changed.set()

    async def _read(self, reader: asyncio.StreamReader) -> None:
        try:
            while True:
                line = await reader.readline()
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
                self._receive(received)
        except (OSError, ValueError, asyncio.IncompleteReadError) as err:
            log.info("the server connection ended: %s", err)
        finally:
            self._online = False
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ConnectionError("the server closed the connection"))
            self._dropped()
            self._changed.set()

    # ------------------------------------------------------------ reconnecting
    @property
    def connection(self) -> str:
        """``connected``, ``reconnecting`` (the seat is being taken back) or ``closed``."""
        if self._closed:
            return "closed"
        return "connected" if self._online else "reconnecting"

    def watch_connection(self, listener: Callable[[str], None]) -> Callable[[], None]:
        self.on_connection.append(listener)

        def stop() -> None:
            if listener in self.on_connection:
                self.on_connection.remove(listener)

        return stop

    def watch_chat(self, listener: Callable[[str, str], None]) -> Callable[[], None]:
        self._chat_listeners.append(listener)

        def stop() -> None:
            if listener in self._chat_listeners:
                self._chat_listeners.remove(listener)

        return stop

    def _announce(self) -> None:
        self._changed.set()
        for listener in list(self.on_connection):
            try:
                listener(self.connection)
            except Exception:
                log.exception("a connection listener failed")

    def _dropped(self) -> None:
        """The connection ended: a seated client takes its seat back by itself."""
        if self._closed or self._moving:
            return
        if self._reconnector is not None and not self._reconnector.done():
            return  # the reconnector is at it already (this was one of its tries)
        if self.token is None or self.table_id is None or self._address is None:
            self._closed = True
        else:
            self._reconnector = asyncio.get_running_loop().create_task(self._reconnect())
        self._announce()

    async def _reconnect(self) -> None:
        assert self._address is not None and self.table_id is not None
        for delay in self.retry_delays:
            await self.sleep(delay)
            if (opened := await open_again(self)) is None:  # here, or at the room's door
                continue
            reader, writer = opened
            self._reader, self._writer, self._online = reader, writer, True
            self._reading = asyncio.get_running_loop().create_task(self._read(reader))
            try:
                await self.request(self._hello())
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
            self.farewell = None  # (a server that said it was going is back)
            self._announce()
            if self._latest is not None:
                self._deliver(self._latest)  # the screen redraws from the full position
            return
        self._closed = True
        writer = self._writer
        if not writer.is_closing():
            writer.close()
        self._announce()
        self._changed.set()

    async def _take_back(self) -> bool:
        """Rejoin with our token, or with one we chose for an earlier rejoin
        whose reply never came (the server may have taken it): False if the
        server knows none of them."""
        assert self.table_id is not None
        for token in [self.token, *self._sent_tokens]:
            if token is None:
                continue
            try:
                await self._ask(
                    p.Rejoin(table=self.table_id, token=token, next_token=self._next_token()),
                    p.Joined,
                )
            except RemoteError as err:
                if err.code == p.BAD_TOKEN:
                    continue
                raise
            return True
        return False

    def _next_token(self) -> str:
        """The token we choose for taking a seat back next time, sent with a
        join/rejoin/rematch and noted until the reply confirms it (a lost
        reply must not lose the seat)."""
        chosen = secrets.token_urlsafe(24)
        self._sent_tokens = [*self._sent_tokens[-7:], chosen]
        return chosen

    def _deliver(self, update: Update) -> None:
        self._listeners.tell(update)

    def _receive(self, received: Received) -> None:
        message = received.message
        if isinstance(message, p.Game):
            assert received.view is not None
            update = to_update(message.update, received.view, get_game(self.game_id))
            self.reconnecting = tuple(message.reconnecting)
            self._rename(message.names)
            self._note_seats(message.seats)
            self._latest = update
            self._history.extend(update.events)
            self._deliver(update)
        elif isinstance(message, p.Joined | p.Watching):
            # taken in here, in the order the lines came: a `game` line right
            # behind it (the game starting) must not be overwritten by it
            assert received.view is not None
            self._enter(message, received.view)
        elif isinstance(message, p.ChatLine):
            self.chat.append(message)
            self._tell_chat(message.name, message.text)
        elif isinstance(message, p.RematchOffer):
            self._tell_chat(message.name, "asks for a rematch (Rematch to join)")
        elif isinstance(message, p.Closed) and message.table == self.table_id:
            # the table is gone for good (its host quit): no seat to take back
            self.farewell = message.message or "the table closed"
            self._closed = True
            self._announce()
        elif isinstance(message, p.Closing) and not self._closed:
            # the server is going (shutting down): why, before the line drops
            # (a table closed just before keeps its own reason: "the host closed it")
            self.farewell = message.reason or "the server closed the connection"
        elif isinstance(message, p.Ping):  # the server checks that we are still here
            self._writer.write(p.encode(p.Pong()))
        rid = getattr(message, "id", None)
        if rid is not None and rid in self._pending:
            future = self._pending[rid]
            if not future.done():
                if isinstance(message, p.Error):
                    future.set_exception(refusal(message))
                else:
                    future.set_result(message)
        elif isinstance(message, p.Error):
            log.warning("the server says: %s", message.message)
        self._changed.set()

    def _rename(self, names: list[str]) -> None:
        """The seats' names as the server has them now (someone sat down)."""
        if len(names) != len(self.seats):
            return
        self.seats = [
            SeatInfo(name, seat.kind, seat.level)
            for name, seat in zip(names, self.seats, strict=True)
        ]

    def _note_seats(self, seats: list[p.SeatSummary]) -> None:
        """Each seat as the server describes it now. A seat comes back to
        its person after a computer stood in: it is theirs again (a stand-in
        is still the person's seat, named "Computer for Bea" by its state)."""
        self.seat_states = tuple(seats)
        if len(seats) == len(self.seats):
            self.seats = [
                seat_info(info.name, s) for info, s in zip(self.seats, seats, strict=True)
            ]
        self.seat_states_at = asyncio.get_running_loop().time()

    def _tell_chat(self, name: str, text: str) -> None:
        for listener in list(self._chat_listeners):
            try:
                listener(name, text)
            except Exception:
                log.exception("a chat listener failed")

    def _enter(self, reply: p.Joined | p.Watching, view: msgspec.Raw) -> None:
        summary = reply.table
        self.table_id = self.record_id = summary.table
        self.game_id = summary.game
        self.config = dict(summary.options)
        self.preset = summary.preset
        self.seats = [
            seat_info(name, s) for name, s in zip(reply.names, summary.seats, strict=True)
        ]
        if isinstance(reply, p.Joined):
            self.my_seats, self.token = (reply.seat,), reply.token
        else:
            self.my_seats, self.token = (), None
        self._sent_tokens = []  # the reply came: the token it names is the one
        self.invited = {}
        game = get_game(self.game_id)
        self._history = read_events(reply.history, game)
        self.reconnecting = tuple(reply.reconnecting)
        self._note_seats(summary.seats)
        self._latest = to_update(reply.update, view, game)

    # ------------------------------------------------------------ TableClient
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self._listeners.add(listener)

    async def start(self) -> None:
        """The server starts the game once every open seat is taken."""

    def snapshot(self, seat: int | None) -> Update:
        self._check_mine(seat)
        if self._latest is None:
            raise RuntimeError("no table yet: join or watch one first")
        return self._latest

    def history(self, seat: int | None) -> list[Event]:
        self._check_mine(seat)
        return list(self._history)

    async def play(self, seat: int, move: str, state_id: int) -> None:
        self._check_mine(seat)
        await self._act(p.Move(move=move, state_id=state_id))

    async def resign(self, seat: int) -> None:
        self._check_mine(seat)
        await self._act(p.Resign())

    async def _act(self, message: p.ClientMessage) -> None:
        """A move or a resignation: whatever stops it (the game has not started,
        the link is down) is a refused move with its sentence, as at a local table."""
        try:
            await self.request(message)
        except RemoteError as err:
            if err.code == p.TOO_FAST:
                raise TooFast(str(err)) from None
            raise IllegalMove(str(err)) from None
        except ConnectionError:
            raise LinkDown("the connection to the server is down: wait until it is back") from None

    async def hint(self, seat: int) -> Hint:
        raise NoHints("a network table gives no hints (the server does not allow them)")

    async def rematch(self) -> TableClient:
        """The same seats again at a new table once this game is over: the first
        player to ask creates it, the others who ask sit at it too (their own
        seats); the game starts once every person is back. This client moves
        to the new table (the same connection) and is returned."""
        # the people of this game, whose seats wait for them at the new table
        others = {
            seat: info.name
            for seat, info in enumerate(self.seats)
            if info.kind != "bot" and seat not in self.my_seats
        }
        try:
            await self._ask(p.Rematch(next_token=self._next_token()), p.Joined)
        except RemoteError as err:
            raise IllegalMove(str(err)) from None
        except ConnectionError:
            raise IllegalMove("the connection to the server is down") from None
        self.invited = {
            seat: name
            for seat, name in others.items()
            if seat < len(self.seat_states) and self.seat_states[seat].kind == "open"
        }
        return self

    async def wait_for(self, condition: Callable[[Update], bool]) -> Update:
        """The first update (the latest included) for which ``condition`` holds;
        ConnectionError if the connection ends first."""
        while True:
            self._changed.clear()
            if self._latest is not None and condition(self._latest):
                return self._latest
            if self._closed:
                raise ConnectionError("the connection to the server is closed")
            await self._changed.wait()

    async def idle(self) -> None:
        while True:
            self._changed.clear()
            latest = self._latest
            if not self._pending and (latest is None or latest.over or not latest.thinking):
                return
            if self._closed:
                raise ConnectionError("the connection to the server is closed")
            await self._changed.wait()

    @property
    def closed(self) -> bool:
        return self._closed

    async def close(self) -> None:
        self._closed = True  # before the reader ends: no reconnecting now
        if self._reconnector is not None and not self._reconnector.done():
            self._reconnector.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reconnector
        self._listeners.clear()
        if not self._writer.is_closing():
            self._writer.close()
        with contextlib.suppress(Exception):
            await self._writer.wait_closed()
        self._reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reading

    def _check_mine(self, seat: int | None) -> None:
        if seat is not None and seat not in self.my_seats:
            raise IllegalMove(f"you do not play seat {seat + 1}")
