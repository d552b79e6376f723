"""Taking over the tables of a room's server that stopped (issue 36,
docs/scaling.md): claimed a share at a time, one statement a share whose
every row is guarded by its old owner (net/store/room.py, ``take_share``:
two servers never take one table), the share's seats and records read
together, and each table brought back as a restarted server brings its
tables back (net/server/restarts.py), its seated players held for the grace
period.

Why shares: the first request for one of a stopped server's tables (or the
sweep) claims this server's part of them all at once, so the live servers
split them and bring them back side by side, each reading its part in two
reads. Taken one table at a time, each table's rows read in turn on the
server's one reading connection, 57 tables took 5 to 12 s to come back on a
loaded machine (docs/scaling.md)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from saves.errors import SaveError
from saves.record import GameRecord

from ..store import StoreCorrupt, StoreError, StoreUnavailable
from .database_store import DatabaseStore
from .hall import Hall
from .restarts import Restarts
from .store import KeptTable

log = logging.getLogger("net.server.room")

READ_TRIES = 3  # a share's rows are read again this many times if the database is away
READ_AGAIN_AFTER = 1.0  # seconds


class TakeOver:
    def __init__(
        self,
        keeper: DatabaseStore,
        hall: Hall,
        restarts: Restarts,
        me: str,
        *,
        on_back: Callable[[str], None] = lambda table_id: None,
    ) -> None:
        self.keeper = keeper
        self.db = keeper.db
        self.hall = hall
        self.restarts = restarts
        self.me = me
        self.on_back = on_back  # told each table brought back here
        self._loading: dict[str, asyncio.Future[bool]] = {}  # claimed, being brought back
        # one claim at a time for the tables of one stopped server: a request
        # that comes meanwhile finds its table in the claim before it, or not
        self._claiming: dict[str, asyncio.Lock] = {}
        # the tables players came back for, by stopped server (and silence),
        # not claimed yet: each claim takes every one asked for meanwhile
        self._asked: dict[tuple[str, float], set[str]] = {}
        self.taken_over = 0  # tables this server took over (for the log and the benchmark)

    def busy(self, table_id: str) -> bool:
        """Whether ``table_id`` is claimed here and being brought back."""
        return table_id in self._loading

    async def settled(self, table_id: str) -> bool:
        """Wait for ``table_id``, claimed here, to be back: True if it is."""
        loading = self._loading.get(table_id)
        if loading is None:
            return table_id in self.hall.tables
        return await asyncio.shield(loading)

    async def take(self, table_id: str, owner: str | None, *, silent: float) -> bool:
        """Take ``table_id`` over from ``owner`` (a player came back for it)
        and wait until it is back: True if this server holds it now.
        ``silent``: how long ``owner`` must have been silent (0: it refuses
        connections, it has stopped)."""
        await self.claim(table_id, owner, silent=silent)
        return await self.settled(table_id)

    async def claim(
        self, table_id: str, owner: str | None, *, silent: float, share: int | None = None
    ) -> list[str]:
        """Claim ``table_id`` (with every table of ``owner`` asked for
        meanwhile), or with ``share`` up to that many of ``owner``'s
        unfinished tables (the sweep), in one statement, and begin to bring
        them back (not awaited): the tables claimed now. A table nobody holds
        (``owner`` None) is claimed alone.

        Why the tables asked for and not a share: a table is taken where its
        players come back, so that most of them are not sent on (a share
        taken by the first server asked sent 70% of the players on, and
        left one server all the rejoins of the take-over)."""
        if self.busy(table_id) or table_id in self.hall.tables:
            return []
        began = time.monotonic()
        asked = self._asked.setdefault((owner or "", silent), set())
        if share is None:
            asked.add(table_id)
        async with self._claiming.setdefault(owner or "", asyncio.Lock()):
            if self.busy(table_id) or table_id in self.hall.tables:
                return []  # the claim before this one took it
            if share is None and table_id not in asked:
                return []  # the claim before this one asked for it: another server has it
            if owner is None:
                asked.discard(table_id)
                taken = await self.db.room.take(table_id, None, self.me, silent)
                claimed = [table_id] if taken else []
            elif share is None:
                these = sorted(t for t in asked if not self.busy(t) and t not in self.hall.tables)
                asked.clear()
                claimed = await self.db.room.take_share(
                    owner, self.me, silent, most=len(these), among=these
                )
            else:
                claimed = await self.db.room.take_share(owner, self.me, silent, most=share)
                asked.difference_update(claimed)
            loop = asyncio.get_running_loop()
            for one in claimed:
                self._loading[one] = loop.create_future()
        if claimed:
            self.hall.spawn(self._bring_back(claimed, owner, time.monotonic() - began))
        return claimed

    async def _bring_back(self, claimed: list[str], owner: str | None, claim_took: float) -> None:
        """The tables claimed, from their seats and records read together."""
        began = time.monotonic()
        back: dict[str, bool] = {}
        try:
            entries, records = await self._read(claimed)
            found = await asyncio.gather(
                *(self._one(t, entries.get(t), records.get(t)) for t in claimed),
                return_exceptions=True,
            )
            for table_id, result in zip(claimed, found, strict=True):
                if isinstance(result, BaseException):
                    log.error("cannot bring table %s back: %s", table_id, result)
                back[table_id] = result is True
            self.hall.persist()
        except StoreError as err:
            log.error("cannot read the %d tables taken over from %s: %s", len(claimed), owner, err)
        finally:
            for table_id in claimed:
                loading = self._loading.pop(table_id)
                if not loading.done():
                    loading.set_result(back.get(table_id, False))
        took = time.monotonic() - began
        for table_id in claimed:
            if back.get(table_id):
                self.taken_over += 1
                self.on_back(table_id)
                log.warning(
                    "took table %s over from %s (claimed in %.3f s, brought back in %.3f s)",
                    table_id,
                    owner,
                    claim_took,
                    took,
                )

    async def _read(
        self, claimed: list[str]
    ) -> tuple[dict[str, KeptTable], dict[str, GameRecord | StoreCorrupt]]:
        """The seats and records of ``claimed``: two reads for them all
        (again, a second later, if the database was away a moment)."""
        tries = READ_TRIES
        while True:
            try:
                entries = await self.keeper.load_seats(among=claimed)
                return entries, await self.db.tables.load_records(claimed)
            except StoreUnavailable:
                tries -= 1
                if not tries:
                    raise
                await asyncio.sleep(READ_AGAIN_AFTER)

    async def _one(
        self, table_id: str, entry: KeptTable | None, record: GameRecord | StoreCorrupt | None
    ) -> bool:
        if entry is None:
            return False  # no longer held (finished, or let go meanwhile)
        if not isinstance(record, GameRecord):
            raise SaveError(str(record))
        return await self.restarts.bring_back(table_id, entry, record=record)
