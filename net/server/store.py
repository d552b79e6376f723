"""What the table server keeps, behind one interface: the games' records,
who may take which seat back, the names kept by a secret, and the
statistics and ratings counted from the records.

:class:`ServerStore` is the interface, async throughout so that an engine
over a database (net/store/) fits behind it as well as the files do;
:class:`FileStore` is today's engine: the records in ``<data>/games/`` (one
JSON file a game, saves/store.py), the seats in ``<data>/server/tables.json``
(only hashes of the tokens), the names in ``<data>/server/names.log``
(net/server/names.py). Nothing here runs blocking work on the event loop:
files are read and written in threads.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Annotated, Any, Literal, Protocol

import msgspec

from saves.atomic import write_json_atomically
from saves.record import GameRecord
from saves.stats import Statistics
from saves.store import SaveStore

from .. import protocol as p
from ..standings import Standings
from .names import NameBook, read_regular

log = logging.getLogger(__name__)


SeatKey = Annotated[str, msgspec.Meta(pattern="^[0-9]{1,2}$")]


class KeptTable(msgspec.Struct):
    """Who may take which seat of an unfinished table back after a restart."""

    if_gone: Literal["computer", "resign"]
    open_seats: list[Annotated[int, msgspec.Meta(ge=0, le=63)]]
    tokens: dict[SeatKey, p.Hex64]
    started: bool
    # a correspondence table: its time for each move and what a late seat
    # gets, and each running clock as the seat's turn (how many moves it has
    # made) and the Unix time it runs out (none: the game's own clocks)
    per_move: int | None = None
    if_late: Literal["computer", "lose"] = "computer"
    deadlines: dict[SeatKey, tuple[Annotated[int, msgspec.Meta(ge=0)], float]] = msgspec.field(
        default_factory=dict
    )
    # the seats whose person sat with a claimed name (a rejoin by the name)
    named: list[Annotated[int, msgspec.Meta(ge=0, le=63)]] = msgspec.field(default_factory=list)


class _Kept(msgspec.Struct):
    version: int
    tables: dict[p.TableId, KeptTable]


def kept_tables(data: bytes) -> dict[str, KeptTable]:
    """The seats file, checked against its schema (ValueError if it is not one)."""
    try:
        return msgspec.json.decode(data, type=_Kept).tables
    except msgspec.MsgspecError as err:
        raise ValueError(str(err)) from None


class ServerStore(Protocol):
    """Everything the table server keeps. ``records`` is what a table saves
    its game to after every move (net/table.py)."""

    records: SaveStore

    async def open(self) -> None:
        """Read what is kept (names...) before the server serves."""
        ...

    async def close(self) -> None:
        """Write what waits to be written."""
        ...

    def unused_id(self) -> str: ...

    async def record_move(self, record: GameRecord) -> None:
        """Keep ``record`` as it now is (a table's game; SaveError if not)."""
        ...

    async def load_record(self, table_id: str) -> GameRecord: ...

    async def delete_record(self, table_id: str) -> None: ...

    async def save_seats(self, tables: dict[str, KeptTable]) -> None:
        """Keep who may take which seat back (replaces what was kept)."""
        ...

    async def load_seats(self) -> dict[str, KeptTable]:
        """The seats kept ({} if none; unreadable: logged, {})."""
        ...

    async def check_name(self, name: str, secret: str | None, *, may_claim: bool) -> str | None:
        """Let ``name`` in (net/server/names.py ``NameBook.check``)."""
        ...

    async def name_played(self, name: str) -> None: ...

    def is_claimed(self, name: str) -> bool: ...

    async def statistics(self) -> Statistics:
        """The records' statistics and ratings (recounted when records change)."""
        ...

    async def put_lobby(self, table_id: str, row: dict[str, Any] | None) -> None:
        """The table's row as ``list`` shows it (None: it left the lobby), for
        the other servers of a room (the files keep none)."""
        ...


class FileStore:
    """The :class:`ServerStore` over files in the data folder."""

    def __init__(self, records: SaveStore) -> None:
        self.records = records
        self.folder = Path(records.root) / "server"
        self.seats_file = self.folder / "tables.json"
        self.names = NameBook(self.folder)
        self.standings = Standings(records, self.is_claimed)

    async def open(self) -> None:
        await asyncio.to_thread(self.names.load)

    async def close(self) -> None:
        await self.names.flush()

    def unused_id(self) -> str:
        return self.records.unused_id()

    async def record_move(self, record: GameRecord) -> None:
        await asyncio.to_thread(self.records.save, record)

    async def load_record(self, table_id: str) -> GameRecord:
        return await asyncio.to_thread(self.records.load, table_id)

    async def delete_record(self, table_id: str) -> None:
        await asyncio.to_thread(self.records.delete, table_id)

    async def save_seats(self, tables: dict[str, KeptTable]) -> None:
        data = {"version": 1, "tables": msgspec.to_builtins(tables)}
        await asyncio.to_thread(self._write_seats, data)

    def _write_seats(self, data: dict[str, object]) -> None:
        """Atomically, as every JSON file cardtable writes (saves/atomic.py).
        A failure is logged: play goes on."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_json_atomically(self.seats_file, data)
        except OSError as err:
            log.error("cannot keep the seats of the tables: %s", err)

    async def load_seats(self) -> dict[str, KeptTable]:
        try:
            return kept_tables(await asyncio.to_thread(read_regular, self.seats_file))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as err:
            log.error("cannot read %s: %s", self.seats_file, err)
            return {}

    async def check_name(self, name: str, secret: str | None, *, may_claim: bool) -> str | None:
        return self.names.check(name, secret, may_claim=may_claim)

    async def name_played(self, name: str) -> None:
        self.names.played(name)

    def is_claimed(self, name: str) -> bool:
        return self.names.is_claimed(name)

    async def statistics(self) -> Statistics:
        return await self.standings.statistics()

    async def put_lobby(self, table_id: str, row: dict[str, Any] | None) -> None:
        return None  # one server alone: its lobby is in its memory
