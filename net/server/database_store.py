"""The :class:`~net.server.store.ServerStore` over a database (net/store/:
SQLite in the data dir by default, or PostgreSQL): what ``cardtable serve``
keeps since issue 35. A table's saves go to the store as what they add (its
new moves, seats, end) through the grouped writer, and the server answers a
move's ``ok`` only once the move is committed (``acknowledges_after_commit``:
net/server/seats.py waits for the table's save, ``Table.kept``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, cast

from saves.errors import SaveError
from saves.record import GameRecord
from saves.stats import Statistics, compute
from saves.store import SaveStore

from ..store import KeptTable as Held
from ..store import NameKept, Store, StoreError
from .names import UNPLAYED_SECONDS, NameTaken
from .store import KeptTable

log = logging.getLogger(__name__)


class DatabaseRecords(SaveStore):
    """The games' records as a table saves them (``save_async``: awaited by
    net/table.py in place of a file written in a thread)."""

    def __init__(self, root: Path, store: Store) -> None:
        super().__init__(root)
        self.db = store
        self.finished = 0  # games saved finished: the statistics are counted again

    async def save_async(self, record: GameRecord) -> None:
        try:
            await self.db.tables.catch_up(record)
        except StoreError as err:
            raise SaveError(str(err)) from None
        if record.status == "finished":
            self.finished += 1

    def save(self, record: GameRecord) -> None:
        raise SaveError("the server's records are kept in its database (save_async)")


class DatabaseStore:
    acknowledges_after_commit = True

    def __init__(
        self, store: Store, data_dir: Path, *, unplayed_seconds: float = UNPLAYED_SECONDS
    ) -> None:
        self.db = store
        self.games = DatabaseRecords(Path(data_dir), store)
        self.records: SaveStore = self.games  # what the tables save to
        self.unplayed_seconds = unplayed_seconds
        self._claimed: set[str] = set()  # for is_claimed, which the leaderboard asks at once
        self._stats: Statistics | None = None
        self._counted = -1  # DatabaseRecords.finished when the statistics were counted
        self._lock = asyncio.Lock()
        self.owner: str | None = None  # this server's id in a room (net/server/room.py)
        self._standings_writer: asyncio.Task[None] | None = None

    def set_owner(self, owner: str) -> None:
        """This server is one of a room's: it writes and brings back only its own tables."""
        self.owner = self.db.seats.owner = self.db.tables.owner = owner

    def finished_elsewhere(self) -> None:
        """A game ended at another server of the room: the standings change."""
        self.games.finished += 1

    async def put_lobby(self, table_id: str, row: dict[str, Any] | None) -> None:
        try:
            await self.db.lobby.put(table_id, row, owner=self.owner)
        except StoreError as err:  # the lobby of the others is stale until the next change
            log.error("cannot keep the lobby row of table %s: %s", table_id, err)

    async def _put_standings(self, stats: Statistics) -> None:
        try:
            await self.db.standings.put(stats)
        except StoreError as err:
            log.error("cannot keep the standings: %s", err)

    async def open(self) -> None:
        self._claimed = await self.db.names.claimed()

    async def close(self) -> None:
        if self._standings_writer is not None:
            await asyncio.wait([self._standings_writer])
        await self.db.close()

    def unused_id(self) -> str:
        return secrets.token_hex(6)  # 48 bits: a clash is as likely as never

    async def record_move(self, record: GameRecord) -> None:
        await self.games.save_async(record)

    async def load_record(self, table_id: str) -> GameRecord:
        try:
            return await self.db.tables.load_record(table_id)
        except StoreError as err:
            raise SaveError(str(err)) from None

    async def delete_record(self, table_id: str) -> None:
        try:
            await self.db.tables.delete(table_id)
        except StoreError as err:
            raise SaveError(str(err)) from None

    async def save_seats(self, tables: dict[str, KeptTable]) -> None:
        held = {
            table_id: Held(
                kept.if_gone,
                frozenset(kept.open_seats),
                {int(seat): bytes.fromhex(digest) for seat, digest in kept.tokens.items()},
                kept.started,
                per_move=kept.per_move,
                if_late=kept.if_late,
                deadlines={int(seat): held for seat, held in kept.deadlines.items()},
                named=frozenset(kept.named),
            )
            for table_id, kept in tables.items()
        }
        try:
            await self.db.seats.keep_all(held)
        except StoreError as err:
            raise SaveError(str(err)) from None

    async def load_seats(
        self, only: str | None = None, *, among: Sequence[str] | None = None
    ) -> dict[str, KeptTable]:
        """The tables held (this server's, in a room), or only the table
        ``only``, or those ``among`` these (read together)."""
        return {
            table_id: KeptTable(
                if_gone=cast(Literal["computer", "resign"], held.if_gone),
                open_seats=sorted(held.open_seats),
                tokens={str(seat): digest.hex() for seat, digest in held.tokens.items()},
                started=held.started,
                per_move=held.per_move,
                if_late="lose" if held.if_late == "lose" else "computer",
                deadlines={str(seat): clock for seat, clock in held.deadlines.items()},
                named=sorted(held.named),
            )
            for table_id, held in (await self.db.seats.kept(only, among=among)).items()
        }

    async def check_name(self, name: str, secret: str | None, *, may_claim: bool) -> str | None:
        try:
            given = await self.db.names.check(
                name, secret, keep_for=self.unplayed_seconds, may_claim=may_claim
            )
        except NameKept as err:
            raise NameTaken(str(err)) from None
        except StoreError as err:  # the database is down: the name plays, unclaimed
            log.error("cannot check the name %r: %s", name, err)
            return None
        if given is not None or (secret is not None and may_claim):
            self._claimed.add(name.casefold())
        return given

    async def name_played(self, name: str) -> None:
        try:
            await self.db.names.played(name)  # kept for good from now on
        except StoreError as err:
            log.error("cannot note that %r played: %s", name, err)

    def is_claimed(self, name: str) -> bool:
        return name.casefold() in self._claimed

    async def statistics(self) -> Statistics:
        async with self._lock:
            if self._stats is None or self._counted != self.games.finished:
                counted = self.games.finished
                records = await self.db.tables.records("finished")
                self._stats = await asyncio.to_thread(compute, records)
                self._counted = counted
                # kept for whoever reads the standings without counting (a
                # room's other servers, tools): written in the background
                self._standings_writer = asyncio.ensure_future(self._put_standings(self._stats))
            return self._stats
