"""A server that goes silent (its machine gone: no reset, no end, nothing):
the client at its table notices by its own `ping` and reconnects without
hanging on the silent address (net/remote_link.py, net/remote_redirect.py);
the room probes a server late to beat and takes its tables over only if its
address says nothing too (net/server/room_probe.py). The silence is a proxy
that stops passing bytes, as a stopped machine does; the figures are the
client's and the probe's, made small here. tests/net/store/test_rooms.py
stops a real server of a room with SIGSTOP."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path

import msgspec
import pytest

from net import protocol as p
from net.remote import RemoteClient
from net.remote_link import Patience
from net.remote_redirect import hello
from net.server import TableServer
from net.server import room as room_module
from net.server.room_probe import Verdict, probe
from net.store.room import RoomServer

from .netkit import Served, serving, until
from .test_rooms_placement import peer, server  # noqa: F401 (the fixture)
from .test_server import OPTIONS

QUICK = Patience(quiet=0.05, answer=0.1, answer_alone=0.1, quiet_alone=0.05, connect=0.5, hello=0.1)


class Proxy:
    """A TCP relay to a server that can go silent: while ``frozen`` it
    still takes connections (as a stopped process's system does) and reads
    what clients send (kept in ``heard``), but passes nothing either way."""

    def __init__(self, host: str, port: int) -> None:
        self.upstream = (host, port)
        self.thawed = asyncio.Event()
        self.thawed.set()
        self.heard: list[bytes] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self.port = 0
        self._server: asyncio.Server | None = None

    @property
    def address(self) -> tuple[str, int]:
        return ("127.0.0.1", self.port)

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await self.thawed.wait()  # (a frozen proxy's new connections hang here, read nothing)
        up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        for source, sink, keep in ((reader, up_writer, True), (up_reader, writer, False)):
            task = asyncio.ensure_future(self._pump(source, sink, keep))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pump(
        self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, keep: bool
    ) -> None:
        with contextlib.suppress(OSError):
            while data := await source.read(65536):
                if keep:
                    self.heard.append(data)
                await self.thawed.wait()
                sink.write(data)
        sink.close()

    async def close(self) -> None:
        self.thawed.set()
        for task in list(self._tasks):
            task.cancel()
        if self._server is not None:
            self._server.close()


@contextlib.asynccontextmanager
async def relayed(host: str, port: int) -> AsyncIterator[Proxy]:
    proxy = Proxy(host, port)
    await proxy.start()
    try:
        yield proxy
    finally:
        await proxy.close()


def heard_types(proxy: Proxy) -> list[str]:
    lines = b"".join(proxy.heard).splitlines()
    return [json.loads(line)["type"] for line in lines if line.strip()]


async def seated_behind(proxy: Proxy, served: Served) -> tuple[RemoteClient, RemoteClient]:
    """Ada, through ``proxy`` (her name claimed, a quick patience, many
    tries), and Bo, straight to the server, seated at one table: Ada to act."""
    ada = await asyncio.wait_for(RemoteClient.connect(*proxy.address, "Ada", name_secret=""), 10)
    ada.patience = QUICK
    ada.retry_delays = (0.0,) * 200
    created = await ada.create("domination", ["open", "open"], options=OPTIONS)
    bo = await served.client("Bo")
    await ada.join(created.table, 0)
    await bo.join(created.table, 1)
    await ada.wait_for(lambda u: bool(u.legal))
    return ada, bo


async def test_a_client_takes_a_silent_server_for_gone_and_comes_back(tmp_path: Path) -> None:
    async with serving(tmp_path) as served, relayed(served.host, served.port) as proxy:
        ada, bo = await seated_behind(proxy, served)
        secret = ada.welcome.name_secret  # her name is claimed: this keeps it
        assert secret
        assert p.CLIENT_PING in ada.welcome.capabilities
        changes: list[str] = []
        ada.watch_connection(changes.append)

        proxy.thawed.clear()  # the server's machine is gone: silence, no reset
        await until(lambda: "reconnecting" in changes, "Ada noticing the silence")
        assert "ping" in heard_types(proxy)  # she asked before she gave up
        # her tries to come back do not hang on the silent address
        await until(lambda: proxy.address in ada.silent_places, "a hello unanswered")
        assert changes == ["reconnecting"]  # not back yet

        proxy.thawed.set()  # the machine is back: she takes her seat again
        await until(lambda: changes == ["reconnecting", "connected"], "Ada seated again")
        update = ada.snapshot(0)
        await ada.play(0, update.legal[0], update.state_id)
        await bo.wait_for(lambda u: u.state_id >= 1)
        assert proxy.address not in ada.silent_places
        assert hello(ada).name_secret == secret  # (her next hello still proves her name)

        ada.retry_delays = (0.0, 0.0)
        proxy.thawed.clear()  # gone again, for good: she says so in words
        await until(lambda: ada.connection == "closed", "Ada giving up")
        assert ada.farewell is not None and "stopped answering" in ada.farewell
        assert f"127.0.0.1:{proxy.port}" in ada.farewell
        for client in (ada, bo):
            await client.close()


async def test_a_client_told_of_the_rooms_servers_after_its_hello_goes_there(
    tmp_path: Path,
) -> None:
    """Welcomed alone (its server had heard of no other yet), a client is
    told of the room's servers as they change (``room``), and goes to one of
    them when its own goes silent: here, the same server at its own address,
    where it takes its seat back."""
    async with serving(tmp_path) as served, relayed(served.host, served.port) as proxy:
        ada, bo = await seated_behind(proxy, served)
        assert ada.welcome.room == []  # nowhere else to go, as welcomed

        direct = f"{served.host}:{served.port}"
        told = p.RoomServers(servers=[f"127.0.0.1:{proxy.port}", direct])
        for peer_of_ada in [c for c in served.server.connections if c.name == "Ada"]:
            peer_of_ada.send(told)
        await until(lambda: len(ada.welcome.room) == 2, "Ada told of the room")
        assert ada.welcome.name_secret  # (the rest of her welcome kept)

        proxy.thawed.clear()  # her server's address goes silent
        await until(lambda: ada.address == direct, "Ada at the room's other address")
        await until(lambda: ada.connection == "connected", "Ada seated again")
        update = ada.snapshot(0)
        await ada.play(0, update.legal[0], update.state_id)
        await bo.wait_for(lambda u: u.state_id >= 1)
        proxy.thawed.set()
        for client in (ada, bo):
            await client.close()


async def test_only_a_client_with_another_server_to_go_to_gives_up_soon(tmp_path: Path) -> None:
    """A server silent for a moment is slow or gone: a client of a room leaves
    it for another of the room's servers after ``answer``; a client with
    nowhere else to go waits ``answer_alone`` (a reconnection would only add
    to a slow server's work)."""
    async with serving(tmp_path) as served, relayed(served.host, served.port) as proxy:
        alone = await RemoteClient.connect(*proxy.address, "Ada")
        roomed = await RemoteClient.connect(*proxy.address, "Bo")
        # (set before the requests below, which wake their watches to read it)
        # Ada pings first (quiet sooner): with Bo's patience she would be the
        # first to give up; Bo gives up 0.1 s after his own, later, ping
        alone.patience = Patience(quiet=0.05, answer=0.1, answer_alone=1000.0, quiet_alone=0.05)
        roomed.patience = Patience(quiet=0.4, answer=0.1, answer_alone=1000.0, hello=0.1)
        # Bo's welcome named another live server of the room (one that refuses)
        roomed.welcome = msgspec.structs.replace(
            roomed.welcome, room=[f"127.0.0.1:{proxy.port}", "127.0.0.1:9"]
        )
        created = await alone.create("domination", ["open", "open"], options=OPTIONS)
        await alone.join(created.table, 0)
        await roomed.join(created.table, 1)
        await alone.wait_for(lambda u: bool(u.legal))
        changes: dict[str, list[str]] = {"Ada": [], "Bo": []}
        for name, client in (("Ada", alone), ("Bo", roomed)):
            client.retry_delays = (0.0,) * 200
            client.watch_connection(changes[name].append)

        proxy.thawed.clear()  # silence, no reset
        await until(lambda: "reconnecting" in changes["Bo"], "Bo leaving for the room")
        assert heard_types(proxy).count("ping") >= 2  # both asked
        assert changes["Ada"] == [] and alone.connection == "connected"
        proxy.thawed.set()
        for client in (alone, roomed):
            await client.close()


async def test_a_quiet_server_that_answers_keeps_its_client(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        lines: list[bytes] = []
        ada = await served.client("Ada", tap=lines.append)
        ada.patience = Patience(quiet=0.02, answer=2.0, quiet_alone=0.02)
        created = await ada.create("domination", ["open", "open"], options=OPTIONS)
        bo = await served.client("Bo")
        await ada.join(created.table, 0)
        await bo.join(created.table, 1)
        await ada.wait_for(lambda u: bool(u.legal))
        changes: list[str] = []
        ada.watch_connection(changes.append)
        answered = len([line for line in lines if b'"type":"ok"' in line])
        # nobody moves, the server's own pings wait on a fake clock: only
        # her pings and their answers pass, and she stays
        await until(
            lambda: len([line for line in lines if b'"type":"ok"' in line]) >= answered + 3,
            "three pings answered",
        )
        assert changes == [] and ada.connection == "connected"
        for client in (ada, bo):
            await client.close()


# ---------------------------------------------------------------- the room's probe
@contextlib.asynccontextmanager
async def listening(answers: bool) -> AsyncIterator[str]:
    """An address that takes connections and answers a line (or never does)."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            while await reader.readline():
                if answers:
                    writer.write(b'{"type":"error","code":"not_now"}\n')

    found = await asyncio.start_server(serve, "127.0.0.1", 0)
    try:
        yield f"127.0.0.1:{found.sockets[0].getsockname()[1]}"
    finally:
        found.close()


def nobody_listens() -> str:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{sock.getsockname()[1]}"


async def test_the_probe_tells_refused_silent_and_answering_apart() -> None:
    assert await probe(nobody_listens(), 1.0) is Verdict.REFUSES
    async with listening(answers=False) as silent:
        assert await probe(silent, 0.02) is Verdict.SILENT
    async with listening(answers=True) as alive:
        assert await probe(alive, 5.0) is Verdict.ANSWERS


async def test_a_silent_server_is_taken_for_stopped_only_if_late_to_beat(
    server: TableServer,  # noqa: F811 (the fixture)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    room = server.room
    assert room is not None
    # a probe of a silent address waits this long for nothing; one that
    # answers (the last part) answers at once, however long it may take
    room.stopped.probes.within = 0.02
    monkeypatch.setattr(room_module, "OWNER_READ_EVERY", 0.0)
    claims: list[tuple[str, str | None, float]] = []

    async def take(table_id: str, owner: str | None, *, silent: float) -> bool:
        claims.append((table_id, owner, silent))  # (the claim itself: test_room_rows.py)
        return False  # another server was quicker

    monkeypatch.setattr(room.takeover, "take", take)
    client, sent = peer(server, follows=True)
    rejoin = p.Rejoin(table="00b0b0b0", token="t" * 20, id=7)
    waits: list[float] = []

    def beats_meanwhile(age: float) -> None:
        """While the room waits, B's beat is read again: ``age`` old."""

        async def sleep(seconds: float) -> None:
            waits.append(seconds)
            room.servers["B"] = RoomServer("B", room.servers["B"].address, 5, age)
            room._servers_read = time.monotonic()

        room.sleep = sleep

    async with listening(answers=False) as silent:
        # B beats, and a client says it is silent: the room waits until B
        # would be late to beat, and B has beaten meanwhile (only slow): the
        # client is sent there again, the room takes nothing for its word
        room.servers["B"] = RoomServer("B", silent, 5, 0.0)
        room._servers_read = time.monotonic()
        beats_meanwhile(0.0)
        assert await room.redirect(client, rejoin)
        assert sent.messages()[-1]["address"] == silent
        assert "B" not in room.stopped and claims == [] and len(waits) == 1
        # its players noticed first (B 1 s late): once B is 3 s late and
        # still silent it is stopped, its table claimed here, guarded by B's
        # silence of at least 3 s in the database
        room.servers["B"] = RoomServer("B", silent, 5, 1.0)
        room._servers_read = time.monotonic()
        room.stopped.probes._kept.clear()
        beats_meanwhile(3.5)
        with pytest.raises(p.ProtocolError, match="being moved"):
            await room.redirect(client, rejoin)
        assert claims == [("00b0b0b0", "B", 3.0)] and "B" in room.stopped
        assert silent not in room.addresses()
        # late to beat (5 s) and silent: stopped at once, no wait
        room.stopped.gone.clear()
        room.stopped.probes._kept.clear()
        room.servers["B"] = RoomServer("B", silent, 5, 5.0)
        with pytest.raises(p.ProtocolError, match="being moved"):
            await room.redirect(client, rejoin)
        assert len(claims) == 2 and len(waits) == 2
        # it beats again: it was only slow, and keeps its tables
        room.servers["B"] = RoomServer("B", silent, 5, 0.0)
        room._servers_read = time.monotonic()
        beats_meanwhile(0.0)
        assert await room.redirect(client, rejoin)
        assert sent.messages()[-1]["address"] == silent and "B" not in room.stopped
    room.stopped.probes.within = 10.0
    async with listening(answers=True) as alive:
        # late to beat but answering: slow, not stopped
        room.servers["B"] = RoomServer("B", alive, 5, 5.0)
        assert await room.redirect(client, rejoin)
        assert sent.messages()[-1]["address"] == alive and "B" not in room.stopped


async def test_a_client_with_nowhere_else_to_go_pings_less_often(tmp_path: Path) -> None:
    """A client of a room pings after ``quiet``; one with no other server to
    go to after ``quiet_alone``: finding its server gone sooner would gain it
    nothing, and a ping a move is a read and a write more on the server."""
    async with serving(tmp_path) as served:
        heard: dict[str, list[bytes]] = {"Ada": [], "Bo": []}
        alone = await served.client("Ada", tap=heard["Ada"].append)
        roomed = await served.client("Bo", tap=heard["Bo"].append)
        for client in (alone, roomed):  # (set before the requests, which wake the watches)
            client.patience = Patience(quiet=0.02, answer=2.0, quiet_alone=1000.0)
        roomed.welcome = msgspec.structs.replace(
            roomed.welcome, room=[f"127.0.0.1:{served.port}", "127.0.0.1:9"]
        )
        created = await alone.create("domination", ["open", "open"], options=OPTIONS)
        await alone.join(created.table, 0)
        await roomed.join(created.table, 1)
        await alone.wait_for(lambda u: bool(u.legal))

        def oks(name: str) -> int:
            return len([line for line in heard[name] if b'"type":"ok"' in line])

        before = {name: oks(name) for name in heard}
        # nobody moves and the server's own pings wait on a fake clock: Bo's
        # pings are answered three times while Ada, as quiet, sends none
        await until(lambda: oks("Bo") >= before["Bo"] + 3, "three of Bo's pings answered")
        assert oks("Ada") == before["Ada"]
        for client in (alone, roomed):
            await client.close()
