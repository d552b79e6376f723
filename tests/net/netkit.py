"""Shared pieces of the network tests: a server on 127.0.0.1 port 0 with a
fake clock, a raw line client for hostile input, and a byte scanner that
finds card texts a seat must not see.

Time is a fake clock that only the tests move: nothing here sleeps on the
wall clock (a few awaits carry a generous real timeout so that a bug fails
the test instead of hanging it)."""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from net import protocol as p
from net.client import Update
from net.remote import RemoteClient
from net.remote_link import PATIENCE
from net.server import Limits, TableServer
from net.server.database_store import DatabaseStore
from net.store import open_store
from saves.store import SaveStore
from tests.fake_time import FakeTime as FakeTime  # (the network tests import it from here)

from .helpers import CARD

HANG = 10.0  # seconds of real time after which a wait is a bug

# A client's watch of its server's silence (net/remote_link.py) runs on the
# real clock, and this server's on a fake one that only the test moves: its
# message buckets never refill, and its pings come only when the test says.
# On a slow machine a client's own pings would spend a bucket that never
# refills until a move is refused, so the clients of these servers do not
# watch (tests/net/test_room_silence.py watches on purpose).
UNWATCHED = replace(
    PATIENCE,
    quiet=math.inf,
    answer=math.inf,
    answer_alone=math.inf,
    quiet_alone=math.inf,
    unpinged=math.inf,
    busy=math.inf,
)


async def until(condition: Callable[[], object], what: str = "it") -> None:
    """Wait (real time, bounded by HANG) for what another task or a worker
    thread does to show: a bug fails the test instead of hanging it."""
    for _ in range(int(HANG / 0.005)):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"{what} never came")


@dataclass
class Served:
    server: TableServer
    host: str
    port: int
    time: FakeTime

    async def client(self, name: str, **kwargs: Any) -> RemoteClient:
        client = await asyncio.wait_for(
            RemoteClient.connect(self.host, self.port, name, **kwargs), HANG
        )
        client.patience = UNWATCHED
        return client

    async def raw(self, limit: int = p.MAX_SERVER_LINE) -> Raw:
        reader, writer = await asyncio.open_connection(self.host, self.port, limit=limit)
        return Raw(reader, writer)


@asynccontextmanager
async def serving(
    data: Path,
    limits: Limits | None = None,
    *,
    database: bool = False,
    time: FakeTime | None = None,
    port: int = 0,
) -> AsyncIterator[Served]:
    """A server on ``data``: over its files, or (``database``) over the
    SQLite store `cardtable serve` keeps there; ``time`` (a FakeTime) is its
    clock and its wall clock alike, so that a test can go on across a
    restart a day later; ``port`` (else any free one) to come back where
    clients look for it."""
    fake = time or FakeTime()
    keeper: SaveStore | DatabaseStore = SaveStore(data)
    if database:
        keeper = DatabaseStore(await open_store(None, data), data)
    server = TableServer(keeper, limits=limits, clock=fake.clock, sleep=fake.sleep)
    if time is not None:
        server.hall.wall = fake.clock  # (the timestamps and correspondence clocks)
    time = fake
    host, port = await server.start("127.0.0.1", port)
    try:
        yield Served(server, host, port, time)
    finally:
        await server.close()


@dataclass
class Raw:
    """A client that writes whatever bytes a test likes and reads lines back."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter

    def send(self, message: dict[str, Any] | bytes) -> None:
        data = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
        self.writer.write(data)

    async def recv(self, *, pings: bool = False) -> dict[str, Any]:
        """The next message (the server's pings skipped unless ``pings``)."""
        while True:
            line = await asyncio.wait_for(self.reader.readline(), HANG)
            if not line:
                raise ConnectionError("closed")
            if line.strip():
                message: dict[str, Any] = json.loads(line)
                if message["type"] != "ping" or pings:
                    return message

    async def reply(self, message: dict[str, Any] | bytes) -> dict[str, Any]:
        """Send, and return the next message that is no game update or chat."""
        self.send(message)
        while True:
            got = await self.recv()
            if got["type"] not in ("game", "chat"):
                return got

    async def closed(self) -> bool:
        """True once the server has closed this connection (reads what is left)."""
        try:
            while await asyncio.wait_for(self.reader.readline(), HANG):
                pass
        except ConnectionError:
            pass
        return True

    async def hello(self, name: str = "raw") -> dict[str, Any]:
        return await self.reply(
            {"type": "hello", "version": p.VERSION, "client": "t", "name": name}
        )

    def close(self) -> None:
        self.writer.close()


@dataclass
class LeakScan:
    """Every line one connection received, checked against what its seat could
    see at the state each game message names (recorded at the table as the
    table sent it). A card text hidden from the seat, with no copy of it
    visible, is a leak."""

    seat: int | None
    visible: dict[int, set[str]] = field(default_factory=dict)
    lines: list[bytes] = field(default_factory=list)

    def tap(self, line: bytes) -> None:
        self.lines.append(line)

    def leaks(self) -> list[str]:
        found = []
        for line in self.lines:
            if not line.strip():
                continue
            message = json.loads(line)
            if message["type"] == "game":
                shown = set(CARD.findall(line.decode()))
                allowed = self.visible[message["update"]["state_id"]]
                if shown - allowed:
                    found.append(
                        f"state {message['update']['state_id']}: {sorted(shown - allowed)}"
                    )
            elif message["type"] in ("joined", "watching"):
                update = message["update"]
                shown = set(CARD.findall(json.dumps(update)))
                allowed = self.visible[update["state_id"]]
                if shown - allowed:
                    found.append(f"snapshot {update['state_id']}: {sorted(shown - allowed)}")
                shown = set(CARD.findall(json.dumps(message["history"])))
                allowed = set().union(*self.visible.values()) if self.visible else set()
                if shown - allowed:
                    found.append(f"history: {sorted(shown - allowed)}")
        return found


def record_visibility(server: TableServer, table_id: str, scans: list[LeakScan]) -> None:
    """Note, at every update of the table, which cards each scanned seat sees."""
    table = server.tables[table_id].table

    def note(update: Update) -> None:
        state = table.state
        for scan in scans:
            if scan.seat == update.seat:
                seen = +(state.all_cards() - state.hidden_cards(scan.seat))
                scan.visible.setdefault(update.state_id, set()).update(seen)

    perspectives = sorted({s.seat for s in scans}, key=lambda s: -1 if s is None else s)
    table.watch(perspectives, note)
    note_now = [table.snapshot(s.seat) for s in scans]
    for update in note_now:
        note(update)
