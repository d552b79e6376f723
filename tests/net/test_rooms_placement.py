"""A server of a room, without a socket or a PostgreSQL (net/server/room.py):
where a table is, where a new one goes, what a client is told (``elsewhere``
or, without the capability, words), the room's list and quotas. The room's
view of the others is set by hand here; tests/net/store/test_rooms.py runs
three real servers."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from net import protocol as p
from net.server import Limits, TableServer
from net.server.database_store import DatabaseStore
from net.server.peer import ListSender, Peer
from net.server.room_lobby import Listed
from net.store import open_store
from net.store.room import RoomServer

from .netkit import FakeTime

B, C, D = "10.0.0.3:7420", "10.0.0.4:7420", "10.0.0.5:7420"


def summary(table: str, status: str = "waiting") -> p.TableSummary:
    seats = [p.SeatSummary(seat=0, kind="open", name=None, level=None)]
    return p.TableSummary(
        table=table,
        game="domination",
        preset="standard",
        options={},
        status=status,  # type: ignore[arg-type]
        seats=seats,
        if_gone="computer",
        spectators=0,
    )


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[TableServer]:
    store = await open_store(None, tmp_path)
    fake = FakeTime()
    served = TableServer(
        DatabaseStore(store, tmp_path),
        limits=Limits(tables_per_address=3),
        clock=fake.clock,
        sleep=fake.sleep,
        advertise="10.0.0.2:7420",
    )
    room = served.room
    assert room is not None
    served.hall.elsewhere = room.lobby.listed_elsewhere
    served.hall.created_elsewhere = room.lobby.created_by
    room.servers = {
        "B": RoomServer("B", B, 5, 0.0),
        "C": RoomServer("C", C, 1, 0.0),
        "D": RoomServer("D", D, 0, 99.0),  # stopped: never chosen
    }
    room._servers_read = time.monotonic()
    room.lobby.others = {
        "00b0b0b0": Listed("B", summary("00b0b0b0"), ("10.0.0.1", "Ada")),
        "00c0c0c0": Listed("C", summary("00c0c0c0", "playing"), ("10.0.0.1", "Bo")),
    }
    yield served
    for hosted in served.tables.values():
        await hosted.table.close()
    served.hall.cancel_tasks()
    await served.hall.seats_written()
    await store.close()


def peer(server: TableServer, follows: bool, address: str = "10.0.0.1") -> tuple[Peer, ListSender]:
    sender = ListSender()
    client = Peer(sender, address, server.limits, server.hall.clock)
    client.name, client.hello, client.follows_redirects = "Ada", True, follows
    server.hall.peers.add(client)
    return client, sender


def last(sender: ListSender) -> dict[str, Any]:
    return sender.messages()[-1]


async def test_a_table_held_elsewhere_is_answered_elsewhere(server: TableServer) -> None:
    new, sent = peer(server, follows=True)
    assert server.room is not None
    assert await server.room.redirect(new, p.Join(table="00B0B0B0", id=5))
    assert last(sent) == {
        "type": "elsewhere",
        "id": 5,
        "address": B,
        "table": "00b0b0b0",
        "message": f"table 00b0b0b0 is held at {B}",
    }
    old, _ = peer(server, follows=False)
    with pytest.raises(p.ProtocolError, match=f"connect to {C} and ask again") as refused:
        await server.room.redirect(old, p.Watch(table="00c0c0c0", id=6))
    assert refused.value.code == p.NOT_NOW


async def test_a_new_table_goes_to_the_least_loaded_live_server(server: TableServer) -> None:
    room = server.room
    assert room is not None
    ada, sent = peer(server, follows=True, address="10.0.0.9")
    create = p.Create(game="domination", seats=["open", "open"], id=7)
    for _ in range(3):  # this server holds three tables; C one, B five, D stopped
        await server.registry.create(create, ada)
    assert await room.redirect(ada, create)
    assert last(sent)["type"] == "elsewhere" and last(sent)["address"] == C
    # C is counted at once: the next goes here (C has two now, one fewer)
    assert not await room.redirect(ada, create)
    # a client another server sent here is not sent on
    room.servers["C"] = RoomServer("C", C, 0, 0.0)
    ada.was_redirected = True
    assert not await room.redirect(ada, create)
    # an older client's table is made where it asks
    old, _ = peer(server, follows=False, address="10.0.0.9")
    assert not await room.redirect(old, create)


async def test_the_list_and_the_quotas_are_the_rooms(server: TableServer) -> None:
    ada, sent = peer(server, follows=True)
    await server.registry.create(p.Create(game="domination", seats=["open", "open"]), ada)
    server.lobby.list_tables(ada, p.ListTables(id=1))
    listed = last(sent)
    assert listed["total"] == 3
    assert {"00b0b0b0", "00c0c0c0"} <= {t["table"] for t in listed["tables"]}
    server.lobby.list_tables(ada, p.ListTables(status="playing", id=2))
    assert [t["table"] for t in last(sent)["tables"]] == ["00c0c0c0"]
    # two tables of this address elsewhere count against its quota here (3)
    with pytest.raises(p.ProtocolError, match="your address has created 3 tables") as refused:
        await server.registry.create(p.Create(game="domination", seats=["open", "open"]), ada)
    assert refused.value.code == p.QUOTA


async def test_a_stopped_servers_tables_are_shared_among_the_live_servers(
    server: TableServer,
) -> None:
    room = server.room
    assert room is not None
    # D stopped holding 9 tables; B, C and this server are live: a third each
    room.servers["D"] = RoomServer("D", D, 9, 99.0)
    assert room._share("D") == 3
    assert room._share("D", tables=10) == 4  # counted from the orphans found
    # C refuses connections (stopped too): two take them over
    room.stopped.refused("C")
    assert room._share("D") == 5
    # alone, this server takes them all
    room.stopped.refused("B")
    assert room._share("D") == 9


def test_advertise_wants_host_port_and_a_postgresql_database(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tui.cli import main

    folder = ["--data-dir", str(tmp_path)]
    assert main(["serve", "--advertise", "nowhere", *folder]) == 2
    err = capsys.readouterr().err
    assert "is not HOST:PORT" in err and len(err.splitlines()) == 1
    assert main(["serve", "--advertise", "10.0.0.2:7420", *folder]) == 2
    err = capsys.readouterr().err
    assert "give --database postgresql://" in err and len(err.splitlines()) == 1


async def test_the_clients_are_told_when_the_rooms_servers_change(server: TableServer) -> None:
    """A client welcomed before its server heard of the others (the room just
    starting) must learn of them, or it has nowhere to go if its server
    stops: the live servers are pushed to each client that follows redirects,
    once a change, and only then."""
    room = server.room
    assert room is not None
    room._told = room.addresses()
    _, to_ada = peer(server, follows=True)
    _, to_old = peer(server, follows=False)
    quiet, to_quiet = peer(server, follows=True)
    quiet.hello = False  # (no hello yet: nothing is sent before a welcome)
    room.tell_the_room()
    assert to_ada.messages() == []  # nothing changed

    room.servers["E"] = RoomServer("E", "10.0.0.6:7420", 0, 0.0)  # a server joins the room
    room.tell_the_room()
    room.tell_the_room()
    told = {"type": "room", "servers": ["10.0.0.2:7420", B, C, "10.0.0.6:7420"]}
    assert to_ada.messages() == [told]  # once
    assert to_old.messages() == [] and to_quiet.messages() == []

    room.stopped.refused("C")  # C is found stopped: it leaves the list
    room.tell_the_room()
    told = {"type": "room", "servers": ["10.0.0.2:7420", B, "10.0.0.6:7420"]}
    assert to_ada.messages()[1:] == [told]
