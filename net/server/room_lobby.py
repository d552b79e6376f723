"""The lobby of a card room as one of its servers sees it (issue 36,
docs/scaling.md): every server writes its own tables' rows (net/server/lobby.py,
through the store) and hears every change of the others' through
LISTEN/NOTIFY (net/store/pg_listen.py). The others' rows are kept in memory,
read whole when the server starts listening (again), so that ``list`` and
the per-address quotas are the room's and subscribers are pushed every
change. No polling."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec

from .. import protocol as p
from .database_store import DatabaseStore
from .hall import Hall
from .lobby import CREATOR


@dataclass(frozen=True)
class Listed:
    """A table another server holds, as its row says."""

    owner: str | None
    entry: p.TableSummary
    by: tuple[str, str]  # creator's address and name


def _listed(owner: str | None, row: dict[str, Any]) -> Listed:
    by = row.get(CREATOR) or ["", ""]
    return Listed(owner, msgspec.convert(row, p.TableSummary), (str(by[0]), str(by[1])))


class RoomLobby:
    def __init__(self, hall: Hall, keeper: DatabaseStore, me: str) -> None:
        self.hall = hall
        self.keeper = keeper
        self.db = keeper.db
        self.me = me  # this server's id in the room
        self.others: dict[str, Listed] = {}  # the tables the room's other servers list

    def listed_elsewhere(self) -> Iterator[p.TableSummary]:
        for table_id, listed in self.others.items():
            if table_id not in self.hall.tables:
                yield listed.entry

    def created_by(self, address: str) -> list[str]:
        """The names of the unfinished tables ``address`` created at the
        room's other servers (the per-address quotas are the room's)."""
        return [
            listed.by[1]
            for listed in self.others.values()
            if listed.by[0] == address and listed.entry.status != "finished"
        ]

    async def read(self) -> None:
        """Every listed table, once listening (again): what was missed."""
        others = {}
        for table_id, owner, row in await self.db.lobby.listed():
            if owner != self.me:
                others[table_id] = _listed(owner, row)
        self.others = others

    def heard(self, payload: str) -> None:
        notice = json.loads(payload)
        table_id, owner = str(notice["id"]), notice.get("owner")
        if owner == self.me or table_id in self.hall.tables:
            return  # our own change, pushed already
        if notice.get("read"):  # too long for a notice: read it
            self.hall.spawn(self._read_one(table_id))
            return
        self._changed(table_id, owner, notice.get("row"))

    async def _read_one(self, table_id: str) -> None:
        found = await self.db.lobby.listed([table_id])
        if found:
            self._changed(table_id, found[0][1], found[0][2])
        else:
            self._changed(table_id, None, None)

    def _changed(self, table_id: str, owner: str | None, row: dict[str, Any] | None) -> None:
        """Another server's table changed: kept, and pushed to subscribers."""
        if row is None:
            if self.others.pop(table_id, None) is None:
                return
            line = p.encode(p.TableRemoved(table=table_id, reason="the table left the lobby"))
        else:
            listed = _listed(owner, row)
            before = self.others.get(table_id)
            self.others[table_id] = listed
            if listed.entry.status == "finished" and (
                before is None or before.entry.status != "finished"
            ):
                self.keeper.finished_elsewhere()  # the standings change
            line = p.encode(p.TableUpdate(table=listed.entry))
        for peer in self.hall.peers:
            if peer.subscribed:
                peer.send_line(line)
