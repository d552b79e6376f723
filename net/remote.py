"""The TCP transport: a :class:`~net.client.TableClient` over the protocol
(net/protocol/, docs/protocol.md), so a game screen plays at a table on a
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
import itertools
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import msgspec

from rules.errors import IllegalMove
from rules.events import Event
from rules.registry import get_game

from . import protocol as p
from .client import (
    Hint,
    NoHints,
    SeatInfo,
    TableClient,
    Update,
    UpdateListeners,
)
from .remote_link import PATIENCE, ChatLines, Patience, ServerLink
from .remote_redirect import hello, request_following
from .remote_rejoin import RETRY_DELAYS, Reconnection
from .remote_requests import NO_WELCOME, ServerRequests
from .remote_wire import (
    Received,
    RemoteError,
    TooFast,
    read_events,
    seat_info,
    to_update,
)

__all__ = ["RemoteClient", "RemoteError", "TooFast"]

log = logging.getLogger(__name__)

Listener = Callable[[Update], None]


def described_seats(
    seats: list[SeatInfo], described: Sequence[p.SeatSummary], names: Sequence[str] = ()
) -> list[SeatInfo]:
    """``seats`` as the server describes them now, with their ``names``
    (someone sat down). A seat comes back to its person after a computer stood
    in: it is theirs again (a stand-in is still the person's seat, named
    "Computer for Bea" by its state)."""
    if names and len(names) == len(seats):
        seats = [
            SeatInfo(name, seat.kind, seat.level) for name, seat in zip(names, seats, strict=True)
        ]
    if len(described) == len(seats):
        seats = [seat_info(info.name, s) for info, s in zip(seats, described, strict=True)]
    return seats


class RemoteClient(ServerRequests, TableClient):
    """One connection to a table server: a lobby, then one seat or a spectator."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        tap: Callable[[bytes], None] | None = None,
    ) -> None:
        self._tap = tap  # sees every line as it arrives (tests scan the bytes)
        self._ids = itertools.count(1)  # request ids, counted on over reconnections
        self._listeners = UpdateListeners()
        self._latest: Update | None = None
        self._history: list[Event] = []
        self._changed = asyncio.Event()
        self._closed = False  # for good: closed by us, or the seat is lost
        self.home: tuple[str, int, str, str] | None = None  # host, port, name, client
        self._rejoin = Reconnection(self)
        self.moving = False  # to another server of a room (net/remote_redirect.py)
        self.door: tuple[str, int] | None = None  # the room's server first connected to
        # how long a silent server is waited for (net/remote_link.py), and the
        # addresses found silent lately (tried last when the link is lost)
        self.patience: Patience = PATIENCE
        self.silent_places: set[tuple[str, int]] = set()
        self.sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep  # tests replace it
        self.retry_delays: tuple[float, ...] = RETRY_DELAYS
        # told "connected", "reconnecting" or "closed" when the connection changes
        self.on_connection = self._rejoin.listeners
        self.reconnecting: tuple[int, ...] = ()  # seats held for a player who dropped
        self._chat = ChatLines()
        self.chat = self._chat.lines  # chat lines seen at this table
        self.can_chat = True
        self.gives_hints = False  # a server's tables give no hints
        self.welcome = NO_WELCOME  # the server's, once it has said hello
        self.name_secret: str | None = None  # what the hello says of the name (connect)
        self.token: str | None = None
        self.table_id: str | None = None
        self.game_id = ""
        self.config = {}
        self.preset = None
        self.seats = []
        self.record_id = ""
        self.my_seats = ()
        self.relink(reader, writer)

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
        OSError if it cannot be reached (TimeoutError if it does not answer).
        ``name_secret``: the secret that keeps
        ``name`` at this server, "" to claim it (the welcome's ``name_secret``
        is the one to keep: docs/protocol.md, "Standings"); None claims nothing."""
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, limit=p.MAX_SERVER_LINE), PATIENCE.connect
        )
        self = cls(reader, writer, tap)
        self.home = (host, port, name, client)
        self.name_secret = name_secret
        self.address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        try:
            self.welcome = await asyncio.wait_for(
                self.ask(hello(self), p.Welcome), self.patience.hello
            )
        except BaseException:
            await self.close()
            raise
        return self

    # ------------------------------------------------------------ the wire
    def relink(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Talk over this connection (a new one, once the last has dropped)."""
        self.link = ServerLink(
            reader, writer, self._ids, received=self._receive, ended=self._ended, tap=self._tap
        )
        self.link.watch(self)  # its silence, while at a table (net/remote_link.py)

    async def request(self, message: p.ClientMessage) -> p.ServerMessage:
        """A request's reply, ``elsewhere`` followed; RemoteError for an error reply."""
        return await request_following(self, message)

    async def request_here(self, message: p.ClientMessage) -> p.ServerMessage:
        """Send a request to this connection's server and return its reply."""
        if self._closed or not self.link.online:
            raise ConnectionError(f"the connection to the server is {self.connection}")
        try:
            return await self.link.request(message)
        finally:
            self._changed.set()

    def _ended(self) -> None:
        self._dropped()
        self._changed.set()

    # ------------------------------------------------------------ reconnecting
    @property
    def connection(self) -> str:
        """``connected``, ``reconnecting`` (the seat is being taken back) or
        ``closed``. A try's new link being up is not enough: the seat is back
        once its ``rejoin`` is answered (before, a move is refused "you have
        no seat", and another server of a room may be about to send us on)."""
        if self._closed:
            return "closed"
        if self._rejoin.taking_back or not self.link.online:
            return "reconnecting"
        return "connected"

    def watch_connection(self, listener: Callable[[str], None]) -> Callable[[], None]:
        return self._rejoin.watch(listener)

    def watch_chat(self, listener: Callable[[str, str], None]) -> Callable[[], None]:
        return self._chat.watch(listener)

    def watch_offers(self, listener: Callable[[str], None]) -> Callable[[], None]:
        return self._chat.watch_offers(listener)

    def _announce(self) -> None:
        self._changed.set()
        self._rejoin.announce(self.connection)

    def _dropped(self) -> None:
        """The connection ended: a seated client takes its seat back by itself."""
        if self._closed or self.moving or self._rejoin.running:
            # (moving: to another server of the room, no drop; running: the
            # reconnection is at it already, this was one of its tries)
            return
        if not self._rejoin.start():
            self._closed = True
        self._announce()

    # (for net/remote_rejoin.py)
    def back(self) -> None:
        """The seat is ours again: the screen redraws from the full position."""
        self.farewell = None  # (a server that said it was going is back)
        self._announce()
        if self._latest is not None:
            self._listeners.tell(self._latest)

    def lost(self) -> None:
        """The seat could not be taken back: closed for good."""
        self._closed = True
        self.link.hang_up()
        self._announce()

    def _next_token(self) -> str:
        return self._rejoin.next_token()

    def _receive(self, received: Received) -> None:
        message = received.message
        if isinstance(message, p.Game):
            assert received.view is not None
            update = to_update(message.update, received.view, get_game(self.game_id))
            self.reconnecting = tuple(message.reconnecting)
            self._note_seats(message.seats, message.names)
            self._latest = update
            self._history.extend(update.events)
            self._listeners.tell(update)
        elif isinstance(message, p.Joined | p.Watching):
            # taken in here, in the order the lines came: a `game` line right
            # behind it (the game starting) must not be overwritten by it
            assert received.view is not None
            self._enter(message, received.view)
        elif isinstance(message, p.ChatLine):
            self.chat.append(message)
            self._chat.tell(message.name, message.text)
        elif isinstance(message, p.RematchOffer):
            self._chat.offered(message.name)
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
            self.link.send(p.Pong())
        elif isinstance(message, p.RoomServers):  # where to go if this server stops
            self.welcome = msgspec.structs.replace(self.welcome, room=message.servers)
        if not self.link.answer(message) and isinstance(message, p.Error):
            log.warning("the server says: %s", message.message)
        self._changed.set()

    def _note_seats(self, seats: list[p.SeatSummary], names: Sequence[str] = ()) -> None:
        """Each seat as the server describes it now, and its names."""
        self.seats = described_seats(self.seats, seats, names)
        self.seat_states = tuple(seats)
        self.seat_states_at = asyncio.get_running_loop().time()

    def _enter(self, reply: p.Joined | p.Watching, view: msgspec.Raw) -> None:
        summary = reply.table
        self.table_id = self.record_id = summary.table
        self.game_id = summary.game
        self.config = dict(summary.options)
        self.preset = summary.preset
        self.per_move = summary.per_move
        self.seats = [
            seat_info(name, s) for name, s in zip(reply.names, summary.seats, strict=True)
        ]
        if isinstance(reply, p.Joined):
            self.my_seats, self.token = (reply.seat,), reply.token
        else:
            self.my_seats, self.token = (), None
        self._rejoin.confirmed()  # the reply came: the token it names is the one
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
        await self.act(p.Move(move=move, state_id=state_id))

    async def resign(self, seat: int) -> None:
        self._check_mine(seat)
        await self.act(p.Resign())

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
            await self.ask(p.Rematch(next_token=self._next_token()), p.Joined)
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
            if not self.link.waiting and (latest is None or latest.over or not latest.thinking):
                return
            if self._closed:
                raise ConnectionError("the connection to the server is closed")
            await self._changed.wait()

    @property
    def closed(self) -> bool:
        return self._closed

    async def close(self) -> None:
        self._closed = True  # before the reader ends: no reconnecting now
        await self._rejoin.stop()
        self._listeners.clear()
        await self.link.close()

    def _check_mine(self, seat: int | None) -> None:
        if seat is not None and seat not in self.my_seats:
            raise IllegalMove(f"you do not play seat {seat + 1}")
