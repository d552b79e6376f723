"""The table server: its parts wired together, its life (start, close with a
goodbye to every client), the connections it takes (net/listen.py) and the
requests each sends, handed to the part they concern."""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from concurrent.futures import Executor

from rules.bots import LEVELS
from rules.plain import plain
from rules.registry import games
from saves.store import SaveStore

from .. import protocol as p
from ..client import PLAYING
from ..listen import AddressCounts, Listener, listening_sockets
from .connection import Closed, Connection, Sleep, keep_alive, keep_watch
from .database_store import DatabaseStore
from .hall import Hall
from .hosted import Hosted
from .limits import AddressBuckets, Clock, Limits
from .lobby import Lobby
from .names import NameTaken
from .registry import Registry
from .restarts import Restarts
from .room import Placed, Room
from .seats import Seats
from .store import FileStore, ServerStore

log = logging.getLogger(__name__)

SHUTTING_DOWN = "the server is shutting down"


class TableServer:
    """Hosts tables over TCP. ``await start(host, port)``, then ``close()``.
    ``store``: the game records' folder (today's files), or any
    :class:`~net.server.store.ServerStore`."""

    def __init__(
        self,
        store: SaveStore | ServerStore,
        *,
        limits: Limits | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        executor: Executor | None = None,
        name: str = "cardtable",
        pace: float = 0.0,
        advertise: str | None = None,
    ) -> None:
        self.keeper: ServerStore = FileStore(store) if isinstance(store, SaveStore) else store
        self.store = self.keeper.records  # the games' records
        self.limits = limits or Limits()
        self.name = name
        self.hall = Hall(
            self.keeper, self.limits, clock=clock, sleep=sleep, executor=executor, pace=pace
        )
        self.lobby = Lobby(self.hall)
        self.seats = Seats(self.hall, self.lobby)
        self.registry = Registry(self.hall, self.lobby, self.seats)
        self.restarts = Restarts(self.hall, self.registry, self.seats)
        # one server of a card room (net/server/room.py): clients are sent to ``advertise``
        self.room: Room | None = None
        if advertise is not None:
            if not isinstance(self.keeper, DatabaseStore):
                raise ValueError("a server of a room keeps its tables in a shared database")
            self.room = Room(
                self.hall,
                self.keeper,
                advertise,
                restarts=self.restarts,
            )
        self._claims = AddressBuckets(
            self.limits.name_claims_per_second, self.limits.name_claims_burst, clock
        )
        self._bytes_by_address = AddressBuckets(
            self.limits.address_bytes_per_second, self.limits.address_bytes_burst, clock
        )
        self._counts: AddressCounts | None = None
        self._listener: Listener | None = None
        self._handlers: set[asyncio.Task[None]] = set()  # one per connection
        self._stopped = asyncio.Event()

    @property
    def clock(self) -> Clock:
        return self.hall.clock

    @property
    def tables(self) -> dict[str, Hosted]:
        return self.hall.tables

    @property
    def connections(self) -> set[Connection]:
        return {peer for peer in self.hall.peers if isinstance(peer, Connection)}

    # ------------------------------------------------------------ life
    async def start(self, host: str = "127.0.0.1", port: int = 7420) -> tuple[str, int]:
        """Bring back the unfinished tables of an earlier run, then listen;
        returns the address bound (port 0 picks a free one). OSError if it
        cannot listen."""
        games()  # the games' modules loaded now: not at a hello, out of descriptors
        await self.keeper.open()
        if self.room is not None:
            await self.room.start()
        await self.restarts.restore()
        limits = self.limits
        self._counts = counts = AddressCounts(
            limits.connections,
            limits.per_address,
            rate=limits.connects_per_second,
            burst=limits.connects_burst,
            clock=self.hall.clock,
        )
        self._listener = Listener(
            await listening_sockets(host, port),
            counts.admit,
            self._take,
            retry_seconds=limits.accept_retry_seconds,
            refusal=lambda why: p.encode(p.error(p.LIMIT, why)),
            release=counts.release,
        )
        self._listener.open = lambda: counts.open
        self._listener.start()
        bound = self._listener.sockets[0].getsockname()
        return str(bound[0]), int(bound[1])

    async def serve_forever(self) -> None:
        await self._stopped.wait()

    def people_at_tables(self, leaving_out: int = 0) -> int:
        """How many connections sit or watch at a table whose game is not over
        (the app asks before it closes a server others play at), less
        ``leaving_out`` (its own)."""
        present = sum(
            len(hosted.occupants) + len(hosted.spectators)
            for hosted in self.tables.values()
            if hosted.table.status == PLAYING
        )
        return max(0, present - leaving_out)

    async def close(self, farewell: str | None = None, reason: str = SHUTTING_DOWN) -> None:
        """Stop serving. ``farewell``: every player and spectator at a table is
        first sent ``closed`` with it (the host has closed the tables: do not
        wait to take the seat back); without it a player who drops keeps the
        seat for the next run (a server restarted). Every client is then sent
        ``closing`` with ``reason``; one that does not read is cut off after
        ``closing_grace_seconds``."""
        hall = self.hall
        hall.closing = True
        if farewell is not None:
            for hosted in self.tables.values():
                closed = p.Closed(table=hosted.id, message=farewell)
                for peer in [*hosted.occupants.values(), *hosted.spectators]:
                    peer.send(closed)
        if self._listener is not None:
            self._listener.close()
        for peer in list(hall.peers):
            if isinstance(peer, Connection) and peer.hello:
                peer.say_goodbye(reason)
            else:
                peer.close()
        hall.cancel_tasks()
        if self._handlers:  # each ends once its connection is closed
            await asyncio.wait(list(self._handlers), timeout=self.limits.closing_grace_seconds)
        if self._handlers:  # a client that does not read: cut off
            for peer in list(hall.peers):
                peer.abort()
            await asyncio.wait(list(self._handlers), timeout=1.0)
        for hosted in self.tables.values():
            for timer in hosted.holding.values():
                timer.cancel()
            await hosted.table.close()
        await hall.seats_written()
        if self.room is not None:
            await self.room.close()
        await self.keeper.close()
        self._stopped.set()

    # ------------------------------------------------------------ a connection
    def _take(self, sock: socket.socket, address: str) -> None:
        keep_alive(sock, self.limits)
        handler = asyncio.ensure_future(self._serve(sock, address))
        self._handlers.add(handler)
        handler.add_done_callback(self._handlers.discard)

    async def _serve(self, sock: socket.socket, address: str) -> None:
        assert self._listener is not None
        try:
            reader, writer = await asyncio.open_connection(sock=sock, limit=p.MAX_LINE + 2)
        except OSError:
            sock.close()
            self._listener.release(address)
            return
        hall = self.hall
        shared = self._bytes_by_address.bucket(address)
        conn = Connection(reader, writer, address, self.limits, hall.clock, shared, hall.sleep)
        hall.peers.add(conn)
        conn.watchdog = hall.spawn(keep_watch(conn, hall.sleep))
        try:
            await self._read(conn)
        except Exception:  # a bug here must end this connection only
            log.exception("a connection failed")
        finally:
            try:
                if conn.watchdog is not None:
                    conn.watchdog.cancel()
                hall.peers.discard(conn)
                self.seats.vacate(conn)
                for hosted in self.tables.values():
                    if hosted.creator is conn:  # gone: only its seat may cancel now
                        hosted.creator = None
                conn.close()
            finally:  # whatever happens above, the address's count goes down
                self._listener.release(address)

    async def _read(self, conn: Connection) -> None:
        async for line in conn.lines():
            if not conn.spend():
                # the id is echoed, so that a client knows which request was dropped
                too_fast = "too many messages: slow down"
                conn.refuse(p.ProtocolError(p.TOO_FAST, too_fast, p.request_id(line)))
                continue
            if not line:
                continue  # a keep-alive
            try:
                message = p.decode_client(line)
                await self._dispatch(conn, message)
            except p.ProtocolError as err:
                conn.refuse(err)
            except Closed:
                return
            else:
                conn.errors = 0

    # ------------------------------------------------------------ requests
    async def _dispatch(self, conn: Connection, message: p.ClientMessage) -> None:
        rid = message.id
        if isinstance(message, p.Hello):
            await self._hello(conn, message)
            return
        if not conn.hello:
            raise p.ProtocolError(p.NOT_NOW, "say hello first", rid)
        lobby, seats, registry = self.lobby, self.seats, self.registry
        try:
            if (
                self.room is not None
                and isinstance(message, Placed)
                and await self.room.redirect(conn, message)
            ):
                return  # held (or placed) at another server of the room
            match message:
                case p.ListTables():
                    lobby.list_tables(conn, message)
                case p.Pong():
                    conn.answers_pings = True  # heard already: nothing to answer
                case p.AreYouThere():  # the client's own keep-alive (net/remote_link.py)
                    conn.send(p.Ok(id=rid))
                case p.Create():
                    await registry.create_and_sit(conn, message)
                case p.Join():
                    await seats.join(conn, message)
                case p.Rejoin():
                    await seats.rejoin(conn, message)
                case p.Watch():
                    lobby.watch(conn, message)
                case p.Leave():
                    seats.vacate(conn)
                    conn.send(p.Ok(id=rid))
                case p.Move():
                    await seats.act(conn, rid, message.move, message.state_id)
                case p.Resign():
                    await seats.act(conn, rid, "resign", None)
                case p.Rematch():
                    await self.restarts.rematch(conn, message)
                case p.Chat():
                    lobby.chat(conn, message)
                case p.Cancel():
                    await registry.cancel(conn, message)
                case p.Subscribe() | p.Unsubscribe():
                    lobby.subscribe(conn, isinstance(message, p.Subscribe))
                    conn.send(p.Ok(id=rid))
                case p.GetLeaderboard() | p.GetPlayerStats():  # net/standings.py
                    await lobby.standings(conn, message)
        except p.ProtocolError as err:
            err.request_id = rid
            raise

    async def _hello(self, conn: Connection, message: p.Hello) -> None:
        if conn.hello:
            raise p.ProtocolError(p.NOT_NOW, "hello only once", message.id)
        if message.version not in p.VERSIONS:
            speaks = ", ".join(map(str, p.VERSIONS))
            why = f"this server speaks protocol version {speaks}, not {message.version}"
            # the versions as data too, for a client that speaks several
            conn.send(
                p.Error(id=message.id, code=p.BAD_VERSION, message=why, versions=list(p.VERSIONS))
            )
            raise Closed
        name = plain(message.name, p.MAX_NAME).strip() or "Player"
        # a claim is bounded per address: beyond, the name is played, not claimed
        may_claim = (
            message.name_secret is None
            or self.keeper.is_claimed(name)
            or self._claims.take(conn.address)
        )
        try:  # a name claimed by another client is refused (net/server/names.py)
            name_secret = await self.keeper.check_name(
                name, message.name_secret, may_claim=may_claim
            )
        except NameTaken as err:
            raise p.ProtocolError(p.NAME_TAKEN, str(err), message.id) from None
        conn.name = name
        conn.name_claimed = message.name_secret is not None and self.keeper.is_claimed(name)
        conn.hello = True
        conn.follows_redirects = p.REDIRECT in (message.capabilities or ())
        conn.was_redirected = p.REDIRECTED in (message.capabilities or ())
        conn.next_ping = self.hall.clock() + self.limits.ping_seconds
        if conn.watchdog is not None:  # it sleeps until the hello's deadline: now the pings
            conn.watchdog.cancel()
            conn.watchdog = self.hall.spawn(keep_watch(conn, self.hall.sleep))
        conn.send(
            p.Welcome(
                id=message.id,
                version=p.VERSION,
                server=self.name,
                capabilities=[*p.CAPABILITIES, *([p.REDIRECT] if self.room else [])],
                games=sorted(games()),
                levels=[lv.id for lv in LEVELS],
                name=conn.name,
                name_secret=name_secret,
                room=self.room.addresses() if self.room else [],
            )
        )
