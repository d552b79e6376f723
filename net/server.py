"""The table server: tables (net/table.py) hosted over TCP for players anywhere.

One asyncio server, many :class:`~net.table.Table` objects: the same
authority as local play. A connection says hello, then uses the lobby (list
tables, create one, join a seat, watch one) and plays at one table at a time.
Everything a client learns about a game is an :class:`~net.client.Update`
built by the table for that client's seat (a spectator's: seat None), so a
connection can send nothing the table would not show that seat.

Seats and tokens. Joining a seat returns a token (from :mod:`secrets`); only
its SHA-256 is kept. A player who loses the connection takes the seat back
with ``rejoin`` and the token, and gets a fresh token (the old one is dead:
a reused token never works twice). Meanwhile the seat is held for
``Limits.grace_seconds`` (the others see it under ``reconnecting``), then
the table's policy applies: a computer player takes over, or the seat
resigns; the token dies with it. A seat left before the game starts is open
again (and the game is dealt again as it starts: its player saw cards of the
deal). Once the game has started no seat is ever open again.

Limits, each per connection: the line length (the reader's own limit: an
over-long line gets an error and the connection closes), messages per second
(a token bucket), an idle timeout, 10 s for the hello, a cap on the output
not yet taken by the client (one that stops reading is dropped: a table
never waits for a client), connections per address, and errors in a row
(the connection closes). Names and chat lines are cleaned of control
characters and escapes (:func:`rules.plain.plain`) and capped. A bad message
changes nothing and affects only its own connection.

Restarts: each table's game is saved after every move (saves.store), and
who may take which seat back (hashes of the tokens, the table's policy) in
``<data>/server/tables.json``; a restarted server replays the unfinished
games and holds every seated player's seat as after a drop.

Time (the hello and idle timeouts, the grace period, the tables' move clocks)
comes from an injected ``clock`` and ``sleep``, so tests move it by hand.
Deals are seeded from :mod:`secrets`; the seed is in no message.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import logging
import math
import os
import secrets
import socket
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from rules.bots import LEVELS
from rules.errors import IllegalMove, MoveError, UnknownGame
from rules.plain import plain
from rules.registry import games, get_game
from saves.atomic import write_json_atomically
from saves.errors import SaveError
from saves.record import GameRecord, SeatInfo, check_field, numbered_alike
from saves.store import SaveStore

from . import protocol as p
from .client import PLAYING, StaleMove, Update
from .standings import NameTaken, Standings
from .table import Table

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[Any]]
GONE_LEVEL = "medium"  # the computer player that takes over a seat left for good
_PING = p.Ping()
# accept() failing for want of descriptors or memory: wait, do not spin
_OUT_OF_DESCRIPTORS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
_MAX_LINGERING = 64  # refused connections closed politely at once (a flood gets less)
_LINGER_SECONDS = 1.0
_BACKLOG = 128
_SAY_STARVED_EVERY = 60.0  # seconds: out of descriptors is logged at most this often


@dataclass(frozen=True)
class Limits:
    messages_per_second: float = 20.0
    burst: int = 40  # messages at once before the rate applies
    # no line at all (a blank one counts) for this long in the lobby: closed (at
    # a table the server's pings and TCP's own timeouts find a vanished peer)
    idle_seconds: float = 300.0
    hello_seconds: float = 10.0
    grace_seconds: float = 60.0  # a seat is held this long for its player to come back
    max_unsent: int = 512 * 1024  # bytes queued for a client that is not reading: dropped
    errors_in_a_row: int = 10
    per_address: int = 16  # connections at once from one address
    connections: int = 1000  # connections at once in all (each is a file descriptor)
    tables: int = 1000  # tables held at once (finished ones nobody is at make room)
    # unfinished tables created from one address, and by one name from one
    # address (so that one member of a club behind one address cannot take
    # the whole address's share)
    tables_per_address: int = 16
    tables_per_name: int = 8
    empty_table_seconds: float = 300.0  # a waiting table nobody sits at closes after this
    # a finished table leaves the lobby this long after its end (once nobody is at it)
    finished_table_seconds: float = 600.0
    list_page: int = 50  # tables in a `tables` reply unless the client asks for another limit
    # the bytes of `tables` replies one connection may have, as a token bucket:
    # a list costs what it sends, so its cost per client is bounded whatever
    # the page size or the number of tables
    list_bytes_per_second: float = 64 * 1024
    list_bytes_burst: int = 256 * 1024
    ping_seconds: float = 10.0  # the server sends `ping` this often
    # a client that answers pings and leaves two unanswered, the older this
    # long, is gone (a seat goes to its grace period); also the TCP user
    # timeout: data unacknowledged this long ends the connection
    dead_seconds: float = 20.0
    accept_retry_seconds: float = 1.0  # out of descriptors: try again after this at most
    # seconds at least between the moves of a table where only computers play
    # (created so, or every person gone for good): it costs the server a move
    # a second, not as many as the computers can make, and people can watch
    computers_only_pace: float = 1.0


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


class _Closed(Exception):
    """The connection is to be closed after the error reply."""


@dataclass(eq=False)
class Hosted:
    """A table on the server, with who sits where."""

    id: str
    table: Table
    if_gone: str  # computer | resign
    open_seats: frozenset[int]  # the seats for people (the rest are computers)
    occupants: dict[int, Connection] = field(default_factory=dict)
    tokens: dict[int, bytes] = field(default_factory=dict)  # seat -> sha256 of its token
    holding: dict[int, asyncio.Task[None]] = field(default_factory=dict)  # grace timers
    # when each held seat's grace period ends (on ``clock``), for the seat's
    # "away, 0:42" wherever it shows
    hold_until: dict[int, float] = field(default_factory=dict)
    clock: Callable[[], float] = time.monotonic
    spectators: set[Connection] = field(default_factory=set)
    started: bool = False
    rematch: str | None = None  # the table of the rematch, once someone asked
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
    _summary: tuple[tuple[int, str], p.TableSummary] | None = field(default=None, repr=False)
    # the connection that created it, and the seat it took (with `sit`):
    # either may cancel it while nobody else sits there
    creator: Connection | None = field(default=None, repr=False)
    creator_seat: int | None = None
    # told of every change the lobby shows (the server pushes it to subscribers)
    on_change: Callable[[Hosted], None] | None = field(default=None, repr=False)

    def touch(self) -> None:
        self.revision += 1
        if self.on_change is not None:
            self.on_change(self)

    def lobby_entry(self) -> p.TableSummary:
        """The table's summary, built once per change."""
        key = (self.revision, self.table.status)
        if self.holding:  # the seconds of grace left change as time goes by
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
        )

    def status(self) -> Literal["waiting", "playing", "finished"]:
        if not self.started:
            return "waiting"
        return "playing" if self.table.status == PLAYING else "finished"

    def seats_summary(self) -> list[p.SeatSummary]:
        return [self.seat_summary(i) for i in range(len(self.table.record.seats))]

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
            )
        if seat not in self.tokens:
            if seat in self.free_seats():
                return p.SeatSummary(seat=seat, kind="open", name=None, level=None)
            # a person's seat after the start whose player has gone for good
            # (resigned, or not back in time): it stays theirs, and is not open
            return p.SeatSummary(seat=seat, kind="person", name=info.name, level=None, state="gone")
        if seat not in self.holding:
            # a player who left a finished table (nothing is held after the
            # end) has gone: "connected" only while the connection is there
            here: Literal["connected", "gone"] = "connected" if seat in self.occupants else "gone"
            return p.SeatSummary(seat=seat, kind="person", name=info.name, level=None, state=here)
        left = max(0, math.ceil(self.hold_until.get(seat, 0.0) - self.clock()))
        return p.SeatSummary(
            seat=seat, kind="person", name=info.name, level=None, state="reconnecting", grace=left
        )


class Connection:
    """One client: its stream, its place (a seat, spectating, or the lobby)
    and its limits."""

    def __init__(
        self,
        server: TableServer,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        address: str,
    ) -> None:
        self.server = server
        self.reader = reader
        self.writer = writer
        self.address = address
        self.name = ""
        self.hello = False
        self.closed = False
        self.opened = self.last_seen = server.clock()
        self.allowance = float(server.limits.burst)
        # bytes of table lists this connection may still be sent (may go
        # below zero: a list is refused until it is back above)
        self.list_allowance = float(server.limits.list_bytes_burst)
        self.list_refilled = self.opened
        self.errors = 0
        self.next_ping = 0.0  # set at the hello
        self.answers_pings = False  # it has sent a `pong`: silence now means it has gone
        self.unanswered: list[float] = []  # when each ping not yet answered went out
        self.watchdog: asyncio.Task[None] | None = None  # its timers (TableServer._keep_watch)
        self.hosted: Hosted | None = None
        self.seat: int | None = None
        self.unwatch: Callable[[], None] | None = None
        self.idle_since = self.opened  # last heard, or back in the lobby
        self.subscribed = False  # it is sent the lobby's changes
        # the seat's legal moves as last sent, since which state id, and the
        # state id of the latest update sent: a move chosen at any state
        # since its options last changed is not stale (docs/protocol.md)
        self.options: tuple[str, ...] = ()
        self.options_since = 0
        self.seen_state = -1

    def send(self, message: p.ServerMessage) -> None:
        """Queue a message; never waits. A client that lets too much pile up
        unread is dropped on the spot."""
        self.send_line(p.encode(message))

    def send_line(self, line: bytes) -> None:
        """Queue one encoded message (newline included), as :meth:`send`."""
        if self.closed:
            return
        self.writer.write(line)
        transport = self.writer.transport
        if transport.get_write_buffer_size() > self.server.limits.max_unsent:
            log.info("dropping %s: it stopped reading", self.address)
            self.closed = True
            transport.abort()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.writer.close()

    def abort(self) -> None:
        """Close without waiting for what is queued (the peer is gone)."""
        self.closed = True
        self.writer.transport.abort()

    def heard(self) -> None:
        """A line came in: the client is there (every ping is answered)."""
        self.last_seen = self.idle_since = self.server.clock()
        self.unanswered.clear()

    def note_options(self, update: Update) -> None:
        """Keep what :meth:`TableServer._act` needs to tell a stale move."""
        if update.legal != self.options:
            self.options = update.legal
            self.options_since = update.state_id
        self.seen_state = update.state_id

    def list_wait(self) -> float:
        """Seconds until this connection may be sent a table list (0: now)."""
        limits = self.server.limits
        now = self.server.clock()
        self.list_allowance = min(
            float(limits.list_bytes_burst),
            self.list_allowance + (now - self.list_refilled) * limits.list_bytes_per_second,
        )
        self.list_refilled = now
        if self.list_allowance > 0:
            return 0.0
        return -self.list_allowance / limits.list_bytes_per_second + 1e-3

    def spend(self) -> bool:
        """One message's worth of the rate allowance; False when none is left."""
        limits = self.server.limits
        now = self.server.clock()
        self.allowance = min(
            float(limits.burst),
            self.allowance + (now - self.last_seen) * limits.messages_per_second,
        )
        self.heard()
        if self.allowance < 1.0:
            return False
        self.allowance -= 1.0
        return True


class TableServer:
    """Hosts tables over TCP. ``await start(host, port)``, then ``close()``."""

    def __init__(
        self,
        store: SaveStore,
        *,
        limits: Limits | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        executor: Executor | None = None,
        name: str = "cardtable",
        pace: float = 0.0,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.clock = clock
        self.sleep = sleep
        self.executor = executor
        self.name = name
        # seconds between a move and a computer player's answer (people can
        # follow the play; a headless server for bots wants none)
        self.pace = pace
        self.tables: dict[str, Hosted] = {}
        self.connections: set[Connection] = set()
        self._open = 0  # connections taken, their handlers starting or running
        self._per_address: Counter[str] = Counter()
        self._listeners: list[socket.socket] = []
        self._accepting: list[asyncio.Task[None]] = []
        self._stopped = asyncio.Event()
        self._freed = asyncio.Event()  # a connection closed: a descriptor is free again
        self._starved = False  # accept is failing for want of descriptors
        self._starvations = 0  # times it has
        self._starvation_said: float | None = None  # when it was last logged (monotonic)
        self._starved_said = False  # logged, and not yet that it is over
        self._lingering = 0  # refused connections still being closed politely
        self._tasks: set[asyncio.Task[Any]] = set()
        self._handlers: set[asyncio.Task[Any]] = set()  # one per connection
        self._closing = False
        self.wall: Clock = time.time  # the timestamps updates carry (Unix time)
        self._lobby_dirty: dict[str, Hosted] = {}  # changed since subscribers were told
        # who may take which seat back, kept beside the saves so that a restarted
        # server brings its unfinished tables back (only hashes of the tokens)
        self.seats_file = Path(store.root) / "server" / "tables.json"
        # the names' statistics, ratings and secrets (net/standings.py)
        self.standings = Standings(store)

    # ------------------------------------------------------------ life
    async def start(self, host: str = "127.0.0.1", port: int = 7420) -> tuple[str, int]:
        """Bring back the unfinished tables of an earlier run, then listen;
        returns the address bound (port 0 picks a free one). OSError if it
        cannot listen."""
        await self._restore()
        self._listeners = await _listen(host, port)
        for listener in self._listeners:
            self._accepting.append(asyncio.ensure_future(self._accept_loop(listener)))
        bound = self._listeners[0].getsockname()
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

    async def close(self, farewell: str | None = None) -> None:
        """Stop serving. ``farewell``: every player and spectator at a table is
        first sent ``closed`` with it (the host has closed the tables: do not
        wait to take the seat back); without it a player who drops keeps the
        seat for the next run (a server restarted)."""
        self._closing = True  # players who drop now keep their seats for the next run
        if farewell is not None:
            for hosted in self.tables.values():
                closed = p.Closed(table=hosted.id, message=farewell)
                for conn in [*hosted.occupants.values(), *hosted.spectators]:
                    conn.send(closed)
        for accepting in self._accepting:
            accepting.cancel()
        for listener in self._listeners:
            listener.close()
        for conn in list(self.connections):
            conn.close()
        for task in list(self._tasks):
            task.cancel()
        if self._handlers:  # each ends once its connection is closed
            await asyncio.wait(list(self._handlers), timeout=5)
        for hosted in self.tables.values():
            for timer in hosted.holding.values():
                timer.cancel()
            await hosted.table.close()
        self._stopped.set()

    def _spawn(self, work: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ------------------------------------------------------------ accepting
    async def _accept_loop(self, listener: socket.socket) -> None:
        """Take connections as they come. Out of file descriptors, stop
        taking them (they wait in the system's queue) until a connection
        closes, and say so once, not at every try."""
        loop = asyncio.get_running_loop()
        while not self._closing:
            try:
                sock, peer = await loop.sock_accept(listener)
            except OSError as err:
                if self._closing:
                    return
                if err.errno not in _OUT_OF_DESCRIPTORS:
                    log.info("a connection failed before it began: %s", err)
                    continue
                if not self._starved:
                    self._starved = True
                    self._starvations += 1
                said = self._starvation_said
                if said is None or time.monotonic() - said >= _SAY_STARVED_EVERY:
                    # once an episode; under a flood that comes and goes, once
                    # a minute (the count says how many there were)
                    self._starvation_said = time.monotonic()
                    self._starved_said = True
                    log.warning(
                        "out of file descriptors (%s) with %d connections: new ones wait "
                        "until one closes (see `cardtable serve --max-connections`; "
                        "%d time(s) so far)",
                        err.strerror,
                        self._open,
                        self._starvations,
                    )
                self._freed.clear()
                with contextlib.suppress(TimeoutError):
                    # freed by a connection that closes; or by something else
                    # (a save's file): then the next try finds it
                    await asyncio.wait_for(self._freed.wait(), self.limits.accept_retry_seconds)
                continue
            self._starved = False
            if self._starved_said:
                self._starved_said = False
                log.warning("accepting connections again (%d open)", self._open)
            self._take(sock, peer)

    def _take(self, sock: socket.socket, peer: Any) -> None:
        """A new connection: refused with one line if over a limit, else served."""
        address = str(peer[0]) if isinstance(peer, tuple) else "local"
        limits = self.limits
        if self._open >= limits.connections:
            self._turn_away(sock, "the server is full: try again in a while")
            return
        if self._per_address[address] >= limits.per_address:
            self._turn_away(
                sock,
                f"too many connections from your address ({limits.per_address}): "
                "close one first (the server's operator can allow more: --per-address)",
            )
            return
        self._open += 1
        self._per_address[address] += 1
        _keep_alive(sock, limits)
        handler = asyncio.ensure_future(self._serve(sock, address))
        self._handlers.add(handler)
        handler.add_done_callback(self._handlers.discard)

    def _turn_away(self, sock: socket.socket, why: str) -> None:
        """One error line, then the connection closes."""
        try:
            sock.setblocking(False)
            sock.send(p.encode(p.error(p.LIMIT, why)))
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            sock.close()
            return
        if self._lingering >= _MAX_LINGERING:
            sock.close()  # under a flood: the line may be lost, the descriptor is not
            return
        self._lingering += 1
        self._spawn(self._linger(sock))

    async def _linger(self, sock: socket.socket) -> None:
        """Read what the refused client had already sent before closing: a
        socket closed with unread data resets the connection, and the reset
        can overtake the line that says why."""
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(_LINGER_SECONDS):
                while await loop.sock_recv(sock, 4096):
                    pass
        except (OSError, TimeoutError):
            pass
        finally:
            sock.close()
            self._lingering -= 1

    # ------------------------------------------------------------ a connection
    async def _serve(self, sock: socket.socket, address: str) -> None:
        try:
            reader, writer = await asyncio.open_connection(sock=sock, limit=p.MAX_LINE + 2)
        except OSError:
            sock.close()
            self._release(address)
            return
        conn = Connection(self, reader, writer, address)
        self.connections.add(conn)
        conn.watchdog = self._spawn(self._keep_watch(conn))
        try:
            await self._read(conn)
        except Exception:  # a bug here must end this connection only
            log.exception("a connection failed")
        finally:
            if conn.watchdog is not None:
                conn.watchdog.cancel()
            self.connections.discard(conn)
            self._vacate(conn)
            for hosted in self.tables.values():
                if hosted.creator is conn:  # gone: only its seat may cancel now
                    hosted.creator = None
            conn.close()
            self._release(address)

    def _release(self, address: str) -> None:
        self._open -= 1
        self._per_address[address] -= 1
        if self._per_address[address] <= 0:
            del self._per_address[address]
        self._freed.set()

    async def _read(self, conn: Connection) -> None:
        while not conn.closed:
            try:
                line = await conn.reader.readline()
            except (ValueError, asyncio.LimitOverrunError):
                # readline has dropped the over-long line; say why and go
                conn.send(p.error(p.BAD_JSON, f"a line may be at most {p.MAX_LINE} bytes"))
                return
            except (ConnectionError, OSError):
                return
            if not line:
                return  # the client has gone
            line = line.strip(b" \t\r\n")
            if not conn.spend():
                # the id is echoed, so that a client knows which request was dropped
                too_fast = "too many messages: slow down"
                self._refuse(conn, p.ProtocolError(p.TOO_FAST, too_fast, p.request_id(line)))
                continue
            if not line:
                continue  # a keep-alive
            try:
                message = p.decode_client(line)
                await self._dispatch(conn, message)
            except p.ProtocolError as err:
                self._refuse(conn, err)
            except _Closed:
                return
            else:
                conn.errors = 0

    def _refuse(self, conn: Connection, err: p.ProtocolError) -> None:
        conn.send(p.error(err.code, err.message, err.request_id))
        conn.errors += 1
        if conn.errors >= self.limits.errors_in_a_row:
            conn.send(p.error(p.LIMIT, "too many errors in a row: goodbye"))
            conn.close()

    async def _keep_watch(self, conn: Connection) -> None:
        """The connection's timers: the hello, the idle timeout, and (after
        the hello) a `ping` every ``ping_seconds``. A client that answers
        pings is gone once two in a row go unanswered for ``dead_seconds``."""
        limits = self.limits
        while not conn.closed:
            now = self.clock()
            if not conn.hello:  # keep-alives do not buy time for the hello
                wait = conn.opened + limits.hello_seconds - now
                if wait <= 0:
                    why = f"no hello for {limits.hello_seconds:g} seconds: goodbye"
                    conn.send(p.error(p.LIMIT, why))
                    conn.close()
                    return
                await self.sleep(wait)
                continue
            in_lobby = conn.hosted is None
            if in_lobby and now >= conn.idle_since + limits.idle_seconds:
                why = f"no message for {limits.idle_seconds:g} seconds in the lobby: goodbye"
                conn.send(p.error(p.LIMIT, why))
                conn.close()
                return
            dead_at = math.inf
            if conn.answers_pings and len(conn.unanswered) >= 2:
                dead_at = conn.unanswered[0] + limits.dead_seconds
                if now >= dead_at:
                    log.info("%s answers no ping: taken as gone", conn.address)
                    conn.abort()
                    return
            if now >= conn.next_ping:
                conn.send(_PING)
                conn.unanswered.append(now)
                conn.next_ping = now + limits.ping_seconds
            idle_at = conn.idle_since + limits.idle_seconds if in_lobby else math.inf
            wake = min(idle_at, conn.next_ping, dead_at)
            await self.sleep(max(0.0, wake - now))

    # ------------------------------------------------------------ requests
    async def _dispatch(self, conn: Connection, message: p.ClientMessage) -> None:
        rid = message.id
        if isinstance(message, p.Hello):
            self._hello(conn, message)
            return
        if not conn.hello:
            raise p.ProtocolError(p.NOT_NOW, "say hello first", rid)
        try:
            match message:
                case p.ListTables():
                    self._list(conn, message)
                case p.Pong():
                    conn.answers_pings = True  # heard already: nothing to answer
                case p.Create():
                    await self._create_and_sit(conn, message)
                case p.Join():
                    await self._join(conn, message)
                case p.Rejoin():
                    await self._rejoin(conn, message)
                case p.Watch():
                    self._watch(conn, message)
                case p.Leave():
                    self._vacate(conn)
                    conn.send(p.Ok(id=rid))
                case p.Move():
                    await self._act(conn, rid, message.move, message.state_id)
                case p.Resign():
                    await self._act(conn, rid, "resign", None)
                case p.Rematch():
                    await self._rematch(conn, message)
                case p.Chat():
                    self._chat(conn, message)
                case p.Cancel():
                    await self._cancel(conn, message)
                    conn.send(p.Ok(id=rid))
                case p.Subscribe():
                    conn.subscribed = True
                    conn.send(p.Ok(id=rid))
                case p.Unsubscribe():
                    conn.subscribed = False
                    conn.send(p.Ok(id=rid))
                case p.GetLeaderboard() | p.GetPlayerStats():  # net/standings.py
                    await self._standings(conn, message)
        except p.ProtocolError as err:
            err.request_id = rid
            raise

    def _hello(self, conn: Connection, message: p.Hello) -> None:
        if conn.hello:
            raise p.ProtocolError(p.NOT_NOW, "hello only once", message.id)
        if message.version not in p.VERSIONS:
            speaks = ", ".join(map(str, p.VERSIONS))
            why = f"this server speaks protocol version {speaks}, not {message.version}"
            # the versions as data too, for a client that speaks several
            conn.send(
                p.Error(id=message.id, code=p.BAD_VERSION, message=why, versions=list(p.VERSIONS))
            )
            raise _Closed
        name = plain(message.name, p.MAX_NAME).strip() or "Player"
        try:  # a name claimed by another client is refused (net/standings.py)
            name_secret = self.standings.names.check(name, message.name_secret)
        except NameTaken as err:
            raise p.ProtocolError(p.NAME_TAKEN, str(err), message.id) from None
        conn.name = name
        conn.hello = True
        conn.next_ping = self.clock() + self.limits.ping_seconds
        if conn.watchdog is not None:  # it sleeps until the hello's deadline: now the pings
            conn.watchdog.cancel()
            conn.watchdog = self._spawn(self._keep_watch(conn))
        conn.send(
            p.Welcome(
                id=message.id,
                version=p.VERSION,
                server=self.name,
                capabilities=list(p.CAPABILITIES),
                games=sorted(games()),
                levels=[lv.id for lv in LEVELS],
                name=conn.name,
                name_secret=name_secret,
            )
        )

    async def _standings(
        self, conn: Connection, message: p.GetLeaderboard | p.GetPlayerStats
    ) -> None:
        """A leaderboard or a player's record, from the server's saved games."""
        if isinstance(message, p.GetLeaderboard):
            if message.game not in games():
                raise p.ProtocolError(p.BAD_MESSAGE, f"no game {message.game!r} here")
            reply = await self.standings.leaderboard(message.game, message.limit)
            conn.send(msgspec.convert({"id": message.id, **reply}, p.Leaderboard))
            return
        name = conn.name if message.name is None else plain(message.name, p.MAX_NAME).strip()
        reply = await self.standings.player(name, message.game)
        conn.send(msgspec.convert({"id": message.id, **reply}, p.PlayerRecord))

    def _list(self, conn: Connection, message: p.ListTables) -> None:
        """One page of the tables that match, from the cached summaries; its
        bytes are charged to the connection's list allowance."""
        limits = self.limits
        wait = conn.list_wait()
        if wait > 0:
            raise p.ProtocolError(
                p.TOO_FAST,
                f"table lists are limited to {limits.list_bytes_per_second / 1024:g} KiB a "
                f"second: ask again in {wait:.1f} s, or for fewer tables (`limit`)",
            )
        wanted = None if message.tables is None else {t.lower() for t in message.tables}
        matching = [
            hosted
            for hosted in self.tables.values()
            if (message.game is None or hosted.table.record.game == message.game)
            and (message.status is None or hosted.status() == message.status)
            and (wanted is None or hosted.id in wanted)
        ]
        size = limits.list_page if message.limit is None else message.limit
        page = matching[message.offset : message.offset + size]
        line = p.encode(
            p.Tables(
                id=message.id,
                tables=[hosted.lobby_entry() for hosted in page],
                total=len(matching),
                offset=message.offset,
            )
        )
        conn.list_allowance -= len(line)
        conn.send_line(line)

    async def _rematch(self, conn: Connection, message: p.Rematch) -> None:
        hosted, seat = conn.hosted, conn.seat
        if hosted is None or seat is None:
            raise p.ProtocolError(p.NOT_NOW, "a rematch is for a player at a table")
        if hosted.table.status == PLAYING:
            raise p.ProtocolError(p.NOT_NOW, "the game is not over yet")
        again = self.tables.get(hosted.rematch or "")
        if again is None:
            record = hosted.table.record
            outcome = hosted.table.state.outcome()
            spec = get_game(record.game)
            config = spec.config(record.preset, **record.config)
            if outcome is not None:
                config = spec.rematch_config(config, outcome)
            # every option, the number of players too: where it is an option
            # (stress) the preset's default need not be this table's
            options = config.to_dict()
            seats = [
                "open" if i in hosted.open_seats else f"computer:{s.level or GONE_LEVEL}"
                for i, s in enumerate(record.seats)
            ]
            create = p.Create(
                game=record.game,
                seats=seats,
                preset=record.preset,
                options=options,
                if_gone="resign" if hosted.if_gone == "resign" else "computer",
            )
            again = await self._create(create, conn)
            hosted.rematch = again.id
            offer = p.RematchOffer(table=hosted.id, rematch=again.id, name=conn.name)
            for other in [*hosted.occupants.values(), *hosted.spectators]:
                if other is not conn:
                    other.send(offer)
        self._vacate(conn, hold=False)
        free = again.free_seats()
        if not free:
            raise p.ProtocolError(p.SEAT_TAKEN, "the rematch has no open seat left")
        await self._join(
            conn,
            p.Join(
                table=again.id,
                seat=seat if seat in free else free[0],
                next_token=message.next_token,
                id=message.id,
            ),
        )

    def _check_quotas(self, conn: Connection) -> None:
        """Refuse a new table (``quota``) to an address or a name that has
        as many unfinished tables as it may, or when the server has."""
        limits = self.limits
        if len(self.tables) >= limits.tables:
            self._forget_finished()
        if len(self.tables) >= limits.tables:
            raise p.ProtocolError(
                p.QUOTA,
                f"the server holds as many tables as it can ({limits.tables}): "
                "join one of them, or try again later",
            )
        unfinished = [
            hosted
            for hosted in self.tables.values()
            if hosted.creator_address == conn.address and hosted.table.status == PLAYING
        ]
        expiry = f"a table nobody sits at closes after {limits.empty_table_seconds:g} s"
        if len(unfinished) >= limits.tables_per_address:
            raise p.ProtocolError(
                p.QUOTA,
                f"your address has created {len(unfinished)} tables not yet finished, the "
                f"most one address may have: play them out first ({expiry})",
            )
        by_name = sum(1 for hosted in unfinished if hosted.creator_name == conn.name)
        if by_name >= limits.tables_per_name:
            raise p.ProtocolError(
                p.QUOTA,
                f"{conn.name} has created {by_name} tables not yet finished, the most one "
                f"name may have: play them out first ({expiry})",
            )

    async def _create(self, message: p.Create, conn: Connection) -> Hosted:
        self._check_quotas(conn)
        try:
            spec = get_game(message.game)
            config = spec.config(message.preset, **message.options)
            # the table's save must read back, or the game is lost at a restart
            # (the Config holds options to what a save holds; this says so again)
            check_field("config", config.to_dict(), "the options")
        except (UnknownGame, MoveError, ValueError, TypeError, SaveError) as err:
            raise p.ProtocolError(p.BAD_OPTIONS, _one_line(err)) from None
        if len(message.seats) != config.players:
            given = len(message.seats)
            hint = (
                f" (for {given} players send the option `players`: {given})"
                if spec.min_players <= given <= spec.max_players
                and "players" not in message.options
                else ""
            )
            raise p.ProtocolError(
                p.BAD_OPTIONS, f"{given} seats given for a {config.players}-player game{hint}"
            )
        levels = {lv.id for lv in LEVELS}
        seats = []
        for i, choice in enumerate(message.seats):
            if choice == "open":
                seats.append(SeatInfo(f"Player {i + 1}", "remote"))
                continue
            level = choice.removeprefix("computer:")
            if level not in levels:
                raise p.ProtocolError(
                    p.BAD_OPTIONS, f"no computer level {level!r}; levels: {', '.join(levels)}"
                )
            seats.append(SeatInfo("Computer", "bot", level))
        # named as at a local table: "Computer" alone, several numbered from 1
        seats = numbered_alike(seats)
        seed = secrets.randbits(32)
        state = spec.new(config, seed)
        # the preset by name even when the create named none (its first): a
        # lobby shows what the table plays, never a null
        preset = message.preset or next(iter(spec.presets))
        record = GameRecord.new(
            spec.id, config, seed, seats, preset=preset, record_id=self.store.unused_id()
        )
        computers_only = all(seat.kind == "bot" for seat in seats)
        table = Table(
            spec,
            state,
            record,
            self.store,
            executor=self.executor,
            pace=max(self.pace, self.limits.computers_only_pace) if computers_only else self.pace,
            clock=self.clock,
            sleep=self.sleep,
            hints=False,
        )
        try:
            await asyncio.to_thread(self.store.save, record.copy())
        except SaveError as err:
            table.save_failed(err)
        open_seats = frozenset(i for i, s in enumerate(seats) if s.kind == "remote")
        hosted = Hosted(
            record.id,
            table,
            message.if_gone,
            open_seats,
            creator_address=conn.address,
            creator_name=conn.name,
            creator=conn,
            clock=self.clock,
        )
        self._host(hosted)
        self._persist()
        if open_seats:
            self._expire_if_empty(hosted)
        else:
            await self._begin(hosted)
        return hosted

    # ------------------------------------------------------------ the lobby's life
    def _host(self, hosted: Hosted) -> None:
        """A table enters the lobby: its changes are pushed to subscribers,
        and its end starts the time after which it leaves."""
        self.tables[hosted.id] = hosted
        hosted.on_change = self._lobby_changed
        ended = False

        def follow(update: Update) -> None:
            nonlocal ended
            if update.over and not ended:
                ended = True
                hosted.touch()  # the summary's status changes
                self._spawn(self._forget_later(hosted))

        # the table tells its spectators' perspective of every change; only
        # the end matters here (moves do not change the summary)
        hosted.table.watch([None], follow)
        self._lobby_changed(hosted)

    def _unhost(self, hosted: Hosted, why: str) -> None:
        """A table leaves the lobby; subscribers are told at once."""
        if self.tables.get(hosted.id) is not hosted:
            return
        del self.tables[hosted.id]
        hosted.on_change = None
        self._lobby_dirty.pop(hosted.id, None)
        gone = p.TableRemoved(table=hosted.id, reason=why)
        for conn in self.connections:
            if conn.subscribed:
                conn.send(gone)

    def _lobby_changed(self, hosted: Hosted) -> None:
        """Note a change to push; the pushes of one moment go out together
        (a join changes a table several times: its subscribers hear once)."""
        if not self._lobby_dirty:
            asyncio.get_running_loop().call_soon(self._push_lobby)
        self._lobby_dirty[hosted.id] = hosted

    def _push_lobby(self) -> None:
        changed = [h for h in self._lobby_dirty.values() if self.tables.get(h.id) is h]
        self._lobby_dirty.clear()
        listeners = [conn for conn in self.connections if conn.subscribed]
        for hosted in changed:
            line = p.encode(p.TableUpdate(table=hosted.lobby_entry()))
            for conn in listeners:
                conn.send_line(line)

    async def _forget_later(self, hosted: Hosted) -> None:
        """A finished table leaves the lobby ``finished_table_seconds`` after
        its end, once nobody sits at it or watches it (its game stays saved)."""
        while self.tables.get(hosted.id) is hosted:
            await self.sleep(self.limits.finished_table_seconds)
            if not hosted.occupants and not hosted.spectators:
                self._unhost(hosted, "the game is over")
                self._persist()
                return

    async def _create_and_sit(self, conn: Connection, message: p.Create) -> None:
        """``create``; with ``sit``, the creator sits at once (``joined``)."""
        if not message.sit:
            if message.seat is not None or message.next_token is not None:
                raise p.ProtocolError(
                    p.BAD_MESSAGE, "`seat` and `next_token` go with `sit`: true (or send `join`)"
                )
            hosted = await self._create(message, conn)
            conn.send(p.Created(id=message.id, table=hosted.lobby_entry()))
            return
        self._check_free(conn)
        open_seats = [i for i, choice in enumerate(message.seats) if choice == "open"]
        seat = open_seats[0] if open_seats and message.seat is None else message.seat
        if seat is None or seat not in open_seats:
            raise p.ProtocolError(
                p.BAD_MESSAGE,
                "`sit` needs an open seat: "
                + (
                    f"seat {seat} is not one of the open seats {open_seats}"
                    if open_seats
                    else "every seat is a computer's"
                ),
            )
        hosted = await self._create(message, conn)
        hosted.creator_seat = seat
        join = p.Join(table=hosted.id, seat=seat, next_token=message.next_token, id=message.id)
        await self._join(conn, join)

    async def _cancel(self, conn: Connection, message: p.Cancel) -> None:
        """Close a waiting table its creator made, while nobody else sits."""
        hosted = self._table(message.table)
        mine = hosted.creator is conn or (
            conn.hosted is hosted and conn.seat is not None and conn.seat == hosted.creator_seat
        )
        if not mine:
            raise p.ProtocolError(p.NOT_NOW, f"only who created table {hosted.id} may cancel it")
        if hosted.started:
            raise p.ProtocolError(
                p.NOT_NOW,
                f"the game at table {hosted.id} has begun: it cannot be cancelled (resign instead)",
            )
        own = {conn.seat} if conn.hosted is hosted else set()
        if set(hosted.tokens) - own:
            raise p.ProtocolError(
                p.NOT_NOW, f"someone else sits at table {hosted.id}: it cannot be cancelled now"
            )
        if conn.hosted is hosted and conn.seat is not None:
            # the creator's own seat goes with the table (not opened again:
            # there is nothing left to open it at)
            if conn.unwatch is not None:
                conn.unwatch()
            hosted.occupants.pop(conn.seat, None)
            hosted.tokens.pop(conn.seat, None)
            conn.hosted, conn.seat, conn.unwatch = None, None, None
            conn.idle_since = self.clock()
        await self._drop_table(hosted, "its creator cancelled it")

    # ------------------------------------------------------------ empty tables
    def _expire_if_empty(self, hosted: Hosted) -> None:
        """A waiting table nobody sits at closes after ``empty_table_seconds``
        (unless someone sits down meanwhile): tables cannot pile up unused."""
        if not hosted.nobody_seated():
            hosted.empty_since = None
            return
        hosted.empty_since = self.clock()
        if hosted.expiry is None:
            hosted.expiry = self._spawn(self._expire(hosted))

    async def _expire(self, hosted: Hosted) -> None:
        try:
            while hosted.empty_since is not None and hosted.nobody_seated():
                wait = hosted.empty_since + self.limits.empty_table_seconds - self.clock()
                if wait <= 0:
                    await self._drop_table(hosted, "nobody sat at it")
                    return
                await self.sleep(wait)
        finally:
            hosted.expiry = None

    async def _drop_table(self, hosted: Hosted, why: str) -> None:
        """Close a table that never began: its spectators are back in the
        lobby, told so; its record (no move in it) is deleted."""
        if self.tables.get(hosted.id) is not hosted:
            return
        self._unhost(hosted, why)
        self._persist()
        watchers = list(hosted.spectators)
        for watcher in watchers:
            self._vacate(watcher)
        await hosted.table.close()
        try:
            await asyncio.to_thread(self.store.delete, hosted.table.record.id)
        except (SaveError, OSError) as err:
            log.info("cannot delete the record of table %s: %s", hosted.id, err)
        closed = p.Closed(table=hosted.id, message=f"the table closed: {why}")
        for watcher in watchers:  # told once it is all done
            watcher.send(closed)

    def _table(self, table_id: str) -> Hosted:
        hosted = self.tables.get(table_id.lower())  # ids are hex: either case names one
        if hosted is None:
            raise p.ProtocolError(p.NO_TABLE, f"there is no table {table_id}")
        return hosted

    def _check_free(self, conn: Connection) -> None:
        if conn.hosted is not None:
            raise p.ProtocolError(p.NOT_NOW, "you are at a table already: leave it first")

    async def _join(self, conn: Connection, message: p.Join) -> None:
        self._check_free(conn)
        hosted = self._table(message.table)
        free = hosted.free_seats()
        if message.seat is None:
            if not free:
                raise p.ProtocolError(p.SEAT_TAKEN, hosted.why_no_seat())
            seat = free[0]
        elif message.seat >= len(hosted.table.record.seats):
            seats = len(hosted.table.record.seats)
            raise p.ProtocolError(
                p.BAD_MESSAGE,
                f"table {hosted.id} has no seat {message.seat}: its seats are 0 to {seats - 1}",
            )
        elif message.seat not in free:
            why = hosted.why_no_seat() if not free else f"seat {message.seat} is not open"
            raise p.ProtocolError(p.SEAT_TAKEN, why)
        else:
            seat = message.seat
        hosted.table.seat_person(seat, conn.name)
        await self._seat(conn, hosted, seat, message.id, message.next_token, may_begin=True)
        await hosted.table.save()  # the name too, should the server restart before a move

    async def _rejoin(self, conn: Connection, message: p.Rejoin) -> None:
        self._check_free(conn)
        hosted = self._table(message.table)
        given = _digest(message.token)
        seat = None
        for held, digest in hosted.tokens.items():
            if secrets.compare_digest(given, digest):
                seat = held
        if seat is None:
            raise p.ProtocolError(p.BAD_TOKEN, "that token holds no seat at this table")
        old = hosted.occupants.get(seat)
        if old is not None:  # the same player on a new connection: the old one is dead
            self._vacate(old, hold=False)
            old.send(p.error(p.NOT_NOW, "your seat was taken back from another connection"))
            old.close()
        timer = hosted.holding.pop(seat, None)
        hosted.hold_until.pop(seat, None)
        if timer is not None:
            timer.cancel()
        if hosted.table.stands_in(seat):  # the computer gives the seat back
            hosted.table.hand_back(seat)
            hosted.table.pace = self.pace
        await self._seat(conn, hosted, seat, message.id, message.next_token)

    async def _seat(
        self,
        conn: Connection,
        hosted: Hosted,
        seat: int,
        rid: int | None,
        chosen: str | None = None,
        *,
        may_begin: bool = False,
    ) -> None:
        token = chosen or secrets.token_urlsafe(24)
        hosted.tokens[seat] = _digest(token)
        hosted.empty_since = None
        hosted.touch()
        self._persist()
        hosted.occupants[seat] = conn
        conn.hosted, conn.seat = hosted, seat
        table = hosted.table
        table.attach([seat])  # the others hear of it; this client gets the snapshot
        began = may_begin and not hosted.started and hosted.open_seats <= set(hosted.tokens)
        if began:
            # the last open seat taken: the game begins before the reply, so
            # that `joined` shows its first position (whose turn, the legal
            # moves, the clocks), not the table waiting a moment before
            await self._begin(hosted)
        snapshot = hosted.shown(table.snapshot(seat))
        conn.note_options(snapshot)
        conn.send(
            p.Joined(
                id=rid,
                table=hosted.lobby_entry(),
                names=[s.name for s in table.record.seats],
                history=p.wire_events(table.history(seat)),
                update=p.wire_update(snapshot, self._now_ms()),
                reconnecting=hosted.reconnecting(),
                seat=seat,
                token=token,
            )
        )
        conn.unwatch = table.watch([seat], self._listener(conn, hosted))
        if began:
            # and the same position as a `game`, as the others got it: a
            # client that waits for the game's first update has it too
            self._send_update(conn, hosted, table.snapshot(seat))

    def _watch(self, conn: Connection, message: p.Watch) -> None:
        self._check_free(conn)
        hosted = self._table(message.table)
        hosted.spectators.add(conn)
        hosted.touch()
        conn.hosted, conn.seat = hosted, None
        conn.unwatch = hosted.table.watch([None], self._listener(conn, hosted))
        table = hosted.table
        conn.send(
            p.Watching(
                id=message.id,
                table=hosted.lobby_entry(),
                names=[s.name for s in table.record.seats],
                history=p.wire_events(table.history(None)),
                # the full snapshot first; changes follow as `game` messages
                update=p.wire_update(hosted.shown(table.snapshot(None)), self._now_ms()),
                reconnecting=hosted.reconnecting(),
            )
        )

    def _now_ms(self) -> int:
        """The server's time as updates carry it: Unix milliseconds."""
        return round(self.wall() * 1000)

    def _listener(self, conn: Connection, hosted: Hosted) -> Callable[[Update], None]:
        def deliver(update: Update) -> None:
            self._send_update(conn, hosted, update)

        return deliver

    def _send_update(self, conn: Connection, hosted: Hosted, update: Update) -> None:
        shown = hosted.shown(update)
        if conn.seat is not None:
            conn.note_options(shown)
        conn.send(
            p.Game(
                table=hosted.id,
                update=p.wire_update(shown, self._now_ms()),
                reconnecting=hosted.reconnecting(),
                # who sits where now (a person may have joined since)
                names=[seat.name for seat in hosted.table.record.seats],
                # and how: away (with the seconds of grace left), or played
                # by the computer for its person (as in the table summary)
                seats=hosted.seats_summary(),
            )
        )

    async def _begin(self, hosted: Hosted) -> None:
        if hosted.redeal:
            hosted.table.redeal(secrets.randbits(32))
            hosted.redeal = False
        hosted.started = True
        hosted.empty_since = None
        hosted.touch()
        self._persist()
        await hosted.table.start()

    async def _act(
        self, conn: Connection, rid: int | None, move: str, state_id: int | None
    ) -> None:
        hosted, seat = conn.hosted, conn.seat
        if hosted is None or seat is None:
            raise p.ProtocolError(p.NOT_NOW, "you have no seat: join a table first")
        if not hosted.started:
            raise p.ProtocolError(p.NOT_NOW, "the game has not started: seats are still open")
        table = hosted.table
        if table.status != PLAYING:
            raise p.ProtocolError(
                p.NOT_NOW, "the game is over: no move is possible (`rematch` plays again)"
            )
        if (
            state_id is not None
            and conn.seen_state == table.state_id
            and conn.options
            and conn.options_since <= state_id <= table.state_id
        ):
            # the table has moved on (another seat's hidden choice, a clock)
            # but this seat's legal moves are the same as when it chose: the
            # move is as good now as then, so it is not stale
            state_id = table.state_id
        try:
            await table.play(seat, move, state_id)
        except StaleMove as err:
            raise p.ProtocolError(p.STALE, str(err)) from None
        except MoveError as err:
            raise p.ProtocolError(p.ILLEGAL, _one_line(err)) from None
        if state_id is not None:
            # after its own move a seat chooses anew, whatever its options:
            # a move chosen before this one is stale
            conn.options_since = max(conn.options_since, state_id + 1)
        conn.send(p.Ok(id=rid))

    def _chat(self, conn: Connection, message: p.Chat) -> None:
        hosted = conn.hosted
        if hosted is None:
            raise p.ProtocolError(p.NOT_NOW, "chat is at a table: join or watch one first")
        text = plain(message.text, p.MAX_CHAT).strip()
        if not text:
            raise p.ProtocolError(p.BAD_MESSAGE, "an empty chat line")
        line = p.ChatLine(table=hosted.id, name=conn.name, seat=conn.seat, text=text)
        for other in [*hosted.occupants.values(), *hosted.spectators]:
            other.send(line)
        conn.send(p.Ok(id=message.id))

    def _forget_finished(self) -> None:
        """Make room: finished tables nobody is at any more leave the lobby
        (their games stay saved)."""
        for hosted in list(self.tables.values()):
            if hosted.table.status != PLAYING and not hosted.occupants and not hosted.spectators:
                self._unhost(hosted, "the game is over")
        self._persist()

    # ------------------------------------------------------------ restarts
    def _persist(self) -> None:
        """Write who may take which seat back (atomically, as every JSON file
        cardtable writes: saves/atomic.py). A failure is logged: play goes on."""
        tables = {
            table_id: {
                "if_gone": hosted.if_gone,
                "open_seats": sorted(hosted.open_seats),
                "tokens": {str(seat): digest.hex() for seat, digest in hosted.tokens.items()},
                "started": hosted.started,
            }
            for table_id, hosted in self.tables.items()
            if hosted.table.status == PLAYING
        }
        path = self.seats_file
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_json_atomically(path, {"version": 1, "tables": tables})
        except OSError as err:
            log.error("cannot keep the seats of the tables: %s", err)

    async def _restore(self) -> None:
        """The unfinished tables of an earlier run, from their saves: every
        seated player is held for the grace period, as after a drop."""
        try:
            kept = msgspec_tables(self.seats_file.read_bytes())
        except FileNotFoundError:
            return
        except (OSError, ValueError) as err:
            log.error("cannot read %s: %s", self.seats_file, err)
            return
        for table_id, entry in kept.items():
            if not entry.started and not entry.tokens:
                # a table nobody sat at: not worth bringing back (it would only
                # fill the lobby again), nor its record (it has no move)
                with contextlib.suppress(SaveError):
                    await asyncio.to_thread(self.store.delete, table_id)
                continue
            try:
                record = await asyncio.to_thread(self.store.load, table_id)
                state, events = record.replay_with_events()
            except SaveError as err:
                log.error("cannot bring table %s back: %s", table_id, err)
                continue
            if record.status != PLAYING:
                continue
            table = Table(
                record.spec(),
                state,
                record,
                self.store,
                events=events,
                executor=self.executor,
                pace=self.pace,
                clock=self.clock,
                sleep=self.sleep,
                hints=False,
            )
            seats = len(record.seats)
            hosted = Hosted(
                table_id,
                table,
                entry.if_gone,
                frozenset(s for s in entry.open_seats if s < seats),
                tokens={
                    int(s): bytes.fromhex(d) for s, d in entry.tokens.items() if int(s) < seats
                },
                clock=self.clock,
            )
            for seat in hosted.open_seats:  # a person's seat a computer plays for them
                table.stood_in(seat)
            self._host(hosted)
            self._pace_if_computers_only(hosted)
            # every seated player is held as after a drop (before the game
            # began, the seat opens again if nobody comes back for it)
            for seat in hosted.tokens:
                if not table.stands_in(seat):  # (a computer plays on meanwhile)
                    self._start_hold(hosted, seat)
            if entry.started:
                await self._begin(hosted)
        self._persist()

    # ------------------------------------------------------------ leaving
    def _vacate(self, conn: Connection, *, hold: bool = True) -> None:
        """``conn`` leaves its place. A seat in a game under way is held for
        the grace period (unless ``hold`` is False: its player is back)."""
        hosted, seat = conn.hosted, conn.seat
        if conn.unwatch is not None:
            conn.unwatch()
        conn.hosted, conn.seat, conn.unwatch = None, None, None
        conn.options, conn.options_since, conn.seen_state = (), 0, -1
        conn.idle_since = self.clock()  # the lobby's idle timeout starts again
        if hosted is None:
            return
        hosted.touch()
        if seat is None:
            hosted.spectators.discard(conn)
            return
        if hosted.occupants.get(seat) is not conn:
            return
        del hosted.occupants[seat]
        if not hosted.started:  # nothing lost yet: the seat is open again
            if not self._closing:  # (but kept for the next run if the server stops)
                self._open_seat(hosted, seat)
            hosted.table.detach([seat])
            return
        playing = hosted.table.status == PLAYING and not self._closing
        if hold and playing and not hosted.table.stands_in(seat):
            self._start_hold(hosted, seat)
        hosted.table.detach([seat])

    def _pace_if_computers_only(self, hosted: Hosted) -> None:
        """Nobody but computers left at the table: their moves slow to
        ``computers_only_pace`` (a game nobody plays must not take the
        server's time from the games people play)."""
        table = hosted.table
        if all(seat.kind == "bot" for seat in table.record.seats):
            table.pace = max(table.pace, self.limits.computers_only_pace)

    def _open_seat(self, hosted: Hosted, seat: int) -> None:
        """Before the game has begun, a seat left is open again (and a table
        left empty so starts to expire)."""
        hosted.redeal = True  # but its player has seen cards of this deal
        hosted.tokens.pop(seat, None)
        hosted.touch()
        self._persist()
        hosted.table.seat_person(seat, f"Player {seat + 1}")
        self._spawn(hosted.table.save())
        self._expire_if_empty(hosted)

    def _start_hold(self, hosted: Hosted, seat: int) -> None:
        """Hold ``seat`` for its player for the grace period."""
        hosted.hold_until[seat] = self.clock() + self.limits.grace_seconds
        hosted.holding[seat] = self._spawn(self._hold(hosted, seat))
        hosted.touch()

    async def _hold(self, hosted: Hosted, seat: int) -> None:
        await self.sleep(self.limits.grace_seconds)
        if hosted.holding.get(seat) is not asyncio.current_task():
            return
        del hosted.holding[seat]
        hosted.hold_until.pop(seat, None)
        if not hosted.started:  # brought back before it began: the seat is open again
            self._open_seat(hosted, seat)
            return
        table = hosted.table
        if hosted.if_gone == "computer" and table.status == PLAYING:
            # the computer plays for the player, who may take the seat back
            # with its token whenever they return (docs/protocol.md, "Absent
            # players"): the token lives on
            hosted.touch()
            table.hand_to_computer(seat, GONE_LEVEL)
            self._pace_if_computers_only(hosted)
            return
        hosted.tokens.pop(seat, None)  # the token dies with the seat
        hosted.touch()
        self._persist()
        if table.status == PLAYING:
            with contextlib.suppress(IllegalMove):
                await table.resign(seat)


async def _listen(host: str, port: int) -> list[socket.socket]:
    """Listening sockets on every address ``host`` names (as
    :func:`asyncio.start_server` would bind them; the server accepts on them
    itself, so that it can pause when out of descriptors)."""
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
            sock.listen(_BACKLOG)
            sock.setblocking(False)
    except BaseException:
        for sock in listeners:
            sock.close()
        raise
    if not listeners:
        raise OSError(errno.EADDRNOTAVAIL, f"no address to listen on for {host!r}")
    return listeners


def _keep_alive(sock: socket.socket, limits: Limits) -> None:
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


def _one_line(err: BaseException) -> str:
    text = str(err.args[0]) if isinstance(err, KeyError) and err.args else str(err)
    return plain(text, 300)


class _KeptTable(msgspec.Struct):
    if_gone: Literal["computer", "resign"]
    open_seats: list[Annotated[int, msgspec.Meta(ge=0, le=63)]]
    tokens: dict[Annotated[str, msgspec.Meta(pattern="^[0-9]{1,2}$")], p.Hex64]
    started: bool


class _Kept(msgspec.Struct):
    version: int
    tables: dict[p.TableId, _KeptTable]


def msgspec_tables(data: bytes) -> dict[str, _KeptTable]:
    """The seats file, checked against its schema (ValueError if it is not one)."""
    try:
        return msgspec.json.decode(data, type=_Kept).tables
    except msgspec.MsgspecError as err:
        raise ValueError(str(err)) from None
