"""One server of a card room: several ``cardtable serve`` on one PostgreSQL
(issue 36, docs/scaling.md).

- **The lobby is the room's** (net/server/room_lobby.py): every server's
  rows, heard through LISTEN/NOTIFY, answer ``list`` and are pushed to
  subscribers. No polling.
- **A table lives on one server.** ``create`` is placed on the least loaded
  live server; ``join``, ``rejoin``, ``watch``, ``cancel`` of a table held
  elsewhere get ``elsewhere`` with that server's address (a client that did
  not announce ``redirect`` gets the address in words).
- **Heartbeats and take-over.** Each server beats every ``beat_every``
  seconds (the database's clock). Tables of a server silent for
  ``dead_after`` seconds, or whose address refuses connections, or whose
  beat is late and whose address says nothing to the room's own probe (a
  machine gone: net/server/room_probe.py), are taken over by the live
  servers, each its part of them in one statement whose every row is
  guarded by the old owner (net/server/takeover.py, net/store/room.py), and
  brought back from their records with every committed move; a request
  for such a table takes it over at once. A server that finds a table of
  its own taken (it was too slow to beat) lets it go: its players reconnect
  and are sent to the new owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from .. import protocol as p
from ..store import StoreError
from ..store.room import RoomServer
from .database_store import DatabaseStore
from .hall import Hall
from .peer import Peer
from .restarts import Restarts
from .room_lobby import RoomLobby
from .room_probe import SUSPECT_AFTER, Stopped, Verdict
from .takeover import TakeOver

log = logging.getLogger(__name__)

BEAT_EVERY = 1.0  # seconds between heartbeats
# seconds without a beat before a server's tables are taken over whatever a
# probe says (at once for a server whose address refuses, and after
# SUSPECT_AFTER for one whose address is silent: net/server/room_probe.py);
# long enough that a server only slowed down (a loaded machine, a long
# take-over of its own, its database away a moment) is not taken for stopped
DEAD_AFTER = 10.0

# a table another server has just taken over: its owner read this many times,
# this far apart, before the client is told to ask again
OWNER_READS = 10
OWNER_READ_EVERY = 0.2  # seconds

# the requests that concern one table, and so the server that holds it
Placed = p.Create | p.Join | p.Rejoin | p.Watch | p.Cancel


class Room:
    def __init__(
        self,
        hall: Hall,
        keeper: DatabaseStore,
        address: str,
        *,
        restarts: Restarts,
        beat_every: float = BEAT_EVERY,
        dead_after: float = DEAD_AFTER,
    ) -> None:
        self.hall = hall
        self.keeper = keeper
        self.db = keeper.db
        self.address = address
        # a new id each run: a restarted server's old tables are taken over
        # like any stopped server's (by whoever is first, itself included)
        self.id = f"{address}/{secrets.token_hex(4)}"
        self.restarts = restarts
        self.beat_every = beat_every
        self.dead_after = dead_after
        self.lobby = RoomLobby(hall, keeper, self.id)  # the room's tables, as listed
        self.servers: dict[str, RoomServer] = {}
        self._servers_read = 0.0  # (time.monotonic) when self.servers was read
        self._told: list[str] = []  # the live servers the clients were last told of
        self._beating: asyncio.Task[None] | None = None
        self._sweeping: asyncio.Task[None] | None = None
        self._listener: Any = None  # net/store/pg_listen.py's LobbyListener
        self.takeover = TakeOver(keeper, hall, restarts, self.id, on_back=self._back_here)
        self.stopped = Stopped(self._age)  # servers found stopped (refusing, or silent)
        self.sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep  # tests replace it

    # ------------------------------------------------------------ life
    async def start(self) -> None:
        """Beat, then listen to the lobby (its rows read first), then serve."""
        from ..store.pg_listen import LobbyListener  # psycopg only for a room

        self.keeper.set_owner(self.id)
        self.hall.elsewhere = self.lobby.listed_elsewhere
        self.hall.created_elsewhere = self.lobby.created_by
        await self.db.room.beat(self.id, self.address, 0)
        await self._read_servers()
        self._told = self.addresses()
        engine_url = getattr(self.db.engine, "url", None)
        if not isinstance(engine_url, str):
            raise StoreError("a room needs a PostgreSQL --database (its servers share it)")
        self._listener = LobbyListener(
            engine_url, self.db.lobby.channel, self.lobby.heard, self.lobby.read
        )
        self._listener.start()
        await asyncio.wait_for(self._listener.listening.wait(), timeout=30)
        self._beating = asyncio.ensure_future(self._beat_forever())
        self._sweeping = asyncio.ensure_future(self._sweep_forever())

    async def close(self) -> None:
        """Stop beating and say so (the others take the tables over at once)."""
        for task in (self._beating, self._sweeping):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self._listener is not None:
            await self._listener.close()
        with contextlib.suppress(StoreError):
            await self.db.room.stopped(self.id)

    # ------------------------------------------------------------ where a table is
    def _beating_lately(self, owner: str | None) -> bool:
        server = self.servers.get(owner or "")
        return server is not None and self._live(server)

    def _live(self, server: RoomServer) -> bool:
        return self._age(server) < self.dead_after

    def _age(self, server: RoomServer) -> float:
        """Seconds since ``server``'s last beat, as far as this one knows."""
        return server.age + (time.monotonic() - self._servers_read)

    def _serving(self, server: RoomServer) -> bool:
        """Live, and not found stopped."""
        return self._live(server) and server.id not in self.stopped

    async def _read_servers(self) -> None:
        self.servers = {s.id: s for s in await self.db.room.servers()}
        self._servers_read = time.monotonic()

    def addresses(self) -> list[str]:
        """The live servers of the room, this one first."""
        others = {s.address for s in self.servers.values() if self._serving(s)} - {self.address}
        return [self.address, *sorted(others)]

    def place(self) -> str | None:
        """Where a new table goes: the address of the least loaded live server
        if it holds at least two tables fewer than this one (None: here)."""
        mine = len(self.hall.tables)
        live = [s for s in self.servers.values() if s.id != self.id and self._serving(s)]
        if not live:
            return None
        best = min(live, key=lambda s: (s.tables, s.id))
        if best.tables + 1 >= mine:  # a table more or less is no reason to move
            return None
        # counted at once, so that a burst of creates is spread, not all sent there
        self.servers[best.id] = RoomServer(best.id, best.address, best.tables + 1, best.age)
        return best.address

    async def where(self, table_id: str, *, probe: bool = False) -> str | None:
        """The address of the server that holds ``table_id`` if it is not this
        one (None: here, or nowhere); a table whose server stopped is taken
        over here on the spot. ``probe`` (a player coming back after a drop):
        a server whose address refuses a connection has stopped, whatever its
        last heartbeat says (a process killed on a machine that is up)."""
        table_id = table_id.lower()
        if table_id in self.hall.tables:
            return None
        if self.takeover.busy(table_id):
            await self.takeover.settled(table_id)
            return None
        listed = self.lobby.others.get(table_id)
        owner = listed.owner if listed is not None else await self.db.room.owner_of(table_id)
        if owner is None or owner == self.id:
            return None
        server = self.servers.get(owner)
        if server is None or not self._live(server):
            await self._read_servers()  # it may have beaten since
            server = self.servers.get(owner)
        self.stopped.back(server)  # (found silent, it beats again: only slow)
        if server is not None and owner not in self.stopped:
            if server.address == self.address:  # a previous run of this very server
                self.stopped.refused(owner)
            elif probe or self._age(server) >= SUSPECT_AFTER:
                server = await self._probed(server)  # (its other tables: the sweep's)
        if server is not None and self._serving(server):
            return server.address
        silent = self.stopped.silence(owner, self.dead_after)
        if await self.takeover.take(table_id, owner, silent=silent):
            return None
        return await self._taken_elsewhere(table_id)

    async def _probed(self, server: RoomServer) -> RoomServer | None:
        """``server`` once probed (net/server/room_probe.py). Silent, but not
        late to beat yet (its players noticed its silence first): asked again
        once it would be, rather than sending them back to hang on it."""
        if await self.stopped.check(server) is not Verdict.SILENT or server.id in self.stopped:
            return server
        await self.sleep(max(0.0, SUSPECT_AFTER - self._age(server)))
        again = self.servers.get(server.id)  # (read again by the beat meanwhile)
        if again is not None and self._age(again) >= SUSPECT_AFTER:
            await self.stopped.check(again)
        return again

    async def _taken_elsewhere(self, table_id: str) -> str | None:
        """The address of the server that took ``table_id`` over before this
        one could. Its claim may be a moment from committed (its row was
        skipped, locked): the owner is read again a few times, for a client
        told to ask again waits its back-off, seconds."""
        for _ in range(OWNER_READS):
            owner = await self.db.room.owner_of(table_id)
            if owner == self.id and table_id in self.hall.tables:
                return None
            server = self.servers.get(owner or "")
            if server is not None and server.id != self.id and self._serving(server):
                return server.address
            await asyncio.sleep(OWNER_READ_EVERY)
        raise p.ProtocolError(
            p.NOT_NOW,
            f"the server of table {table_id} has stopped and the table is being moved: "
            "ask again in a few seconds",
        )

    async def redirect(self, peer: Peer, message: Placed) -> bool:
        """Send ``peer`` to the server that holds the table (or, for a
        ``create``, the least loaded): True if it was sent there."""
        if isinstance(message, p.Create):
            if not peer.follows_redirects or peer.was_redirected:
                # an older client's table is made here; and one sent here is
                # not sent on (the servers' counts may be a second old)
                return False
            address, table = self.place(), None
        else:
            table = message.table.lower()
            address = await self.where(table, probe=isinstance(message, p.Rejoin))
        if address is None:
            return False
        what = f"table {table} is held" if table else "new tables are made"
        if not peer.follows_redirects:
            raise p.ProtocolError(
                p.NOT_NOW,
                f"{what} at another server of this room: connect to {address} and ask again",
            )
        peer.send(
            p.Elsewhere(id=message.id, address=address, table=table, message=f"{what} at {address}")
        )
        return True

    # ------------------------------------------------------------ heartbeats, take-over
    async def _beat_forever(self) -> None:
        """The heartbeat, on its own: never behind a take-over's work."""
        while True:
            try:
                await self.db.room.beat(self.id, self.address, len(self.hall.tables))
                await self._read_servers()
            except StoreError as err:
                log.warning("the room's heartbeat failed: %s", err)
            self.tell_the_room()
            await asyncio.sleep(self.beat_every)

    def tell_the_room(self) -> None:
        """Tell every client that follows redirects the room's live servers,
        if they changed since last told: a client welcomed before this server
        heard of the others (a room just starting, or one that grew) must
        know where to go if this server stops (docs/protocol.md, "A room of
        several servers"). One line a client, only when the room changes."""
        addresses = self.addresses()
        if addresses == self._told:
            return
        self._told = addresses
        line = p.encode(p.RoomServers(servers=addresses))
        for peer in self.hall.peers:
            if peer.hello and peer.follows_redirects:
                peer.send_line(line)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.beat_every)
            try:
                await self.sweep()
            except StoreError as err:
                log.warning("the room's sweep failed: %s", err)
            except Exception:  # a bug must not stop the take-overs
                log.exception("the room's sweep failed")

    async def sweep(self) -> None:
        """Let go of what was taken from this server; probe the servers late
        to beat; take over the tables of the servers that stopped; clear the
        rows they still list."""
        for table_id in await self.db.room.lost(self.id, list(self.hall.tables)):
            log.warning("table %s was taken over by another server: letting it go", table_id)
            self.let_go(table_id)
        # the unfinished tables of servers late to beat (or refusing): the
        # late ones that hold some are probed, one probe each, at once
        found = await self.db.room.orphans(min([SUSPECT_AFTER, *self.stopped.gone.values()]))
        late = {
            s.id: s
            for _, owner in found
            if (s := self.servers.get(owner or "")) is not None
            and s.id != self.id
            and s.id not in self.stopped
            and self._live(s)
            and self._age(s) >= SUSPECT_AFTER
        }
        await asyncio.gather(*(self.stopped.check(s) for s in late.values()))
        gone = {owner: silent for owner, silent in self.stopped.gone.items() if owner != self.id}
        stopped: dict[str | None, list[str]] = {}
        for table_id, owner in found:
            if owner != self.id and (owner in gone or not self._beating_lately(owner)):
                stopped.setdefault(owner, []).append(table_id)
        for owner, tables in stopped.items():
            if self.stopped.sweep_may_claim(owner):
                silent = gone.get(owner or "", self.dead_after)
                await self._claim_part(owner, tables, silent=silent)
        self.stopped.keep_only({owner for _, owner in found if owner is not None}, self.servers)
        for server in list(self.servers.values()):
            if server.id != self.id and not self._live(server):
                for table_id in await self.db.room.listed_by(server.id):
                    await self.db.lobby.put(table_id, None)  # its finished tables leave
                    self.lobby.others.pop(table_id, None)

    def _share(self, owner: str | None, tables: int | None = None) -> int:
        """How many of ``owner``'s tables this server claims at once: its part
        of them (``tables``, else as many as ``owner`` last said it held)
        among the live servers of the room."""
        if tables is None:
            server = self.servers.get(owner or "")
            tables = server.tables if server is not None else 1
        takers = 1 + sum(
            1 for s in self.servers.values() if s.id not in {self.id, owner} and self._serving(s)
        )
        return max(1, -(-tables // takers))

    async def _claim_part(self, owner: str | None, tables: list[str], *, silent: float) -> None:
        """Claim this server's part of ``tables``, the unfinished tables of
        ``owner``, a server that stopped; the others' parts are theirs to
        claim (and this server's at its next sweep if they do not)."""
        share = len(tables) if owner is None else self._share(owner, len(tables))
        claimed = 0
        for table_id in tables:
            if claimed >= share:
                break
            claimed += len(
                await self.takeover.claim(table_id, owner, silent=silent, share=share - claimed)
            )

    def _back_here(self, table_id: str) -> None:
        self.lobby.others.pop(table_id, None)  # listed by this server now

    def let_go(self, table_id: str) -> None:
        """Another server took this table (this one was too slow to beat):
        its people are cut off, and find it there when they reconnect."""
        hosted = self.hall.tables.get(table_id)
        if hosted is None:
            return
        self.restarts.registry.unhost(hosted, "the table moved to another server")
        for peer in [*hosted.occupants.values(), *hosted.spectators]:
            peer.close()
        for timer in hosted.holding.values():
            timer.cancel()
        self.hall.spawn(hosted.table.close())
