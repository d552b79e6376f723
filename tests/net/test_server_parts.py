"""The table server's parts on their own, without a socket: the lobby, the
seats and the rematches talk to peers whose lines go to a list
(net/server/peer.py ``ListSender``), on the fake clock of netkit.py."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from net import protocol as p
from net.listen import AddressCounts
from net.server import Limits, TableServer
from net.server.connection import keep_watch
from net.server.names import NameBook, NameTaken
from net.server.peer import ListSender, Peer
from saves.store import SaveStore

from .netkit import FakeTime


class Rig:
    """A table server that is never started: its parts, and peers on lists."""

    def __init__(self, tmp_path: Path, **limits: Any) -> None:
        self.time = FakeTime()
        self.server = TableServer(
            SaveStore(tmp_path),
            limits=Limits(**limits),
            clock=self.time.clock,
            sleep=self.time.sleep,
        )

    def peer(self, name: str, address: str = "10.0.0.1") -> tuple[Peer, ListSender]:
        sender = ListSender()
        shared = self.server._bytes_by_address.bucket(address)
        peer = Peer(sender, address, self.server.limits, self.time.clock, shared)
        peer.name, peer.hello = name, True
        self.server.hall.peers.add(peer)
        return peer, sender

    async def table(self, creator: Peer, seats: list[str] | None = None) -> str:
        create = p.Create(game="domination", seats=seats or ["open", "open"])
        hosted = await self.server.registry.create(create, creator)
        return hosted.id

    async def close(self) -> None:
        for hosted in self.server.tables.values():
            await hosted.table.close()
        self.server.hall.cancel_tasks()
        await self.server.hall.seats_written()


def last(sender: ListSender) -> dict[str, Any]:
    return sender.messages()[-1]


async def test_a_watch_s_history_counts_against_the_byte_budget(tmp_path: Path) -> None:
    rig = Rig(tmp_path, bytes_burst=2000, bytes_per_second=1000.0)
    ada, _ = rig.peer("Ada")
    table = await rig.table(ada)
    eve, sent = rig.peer("Eve")
    lobby, seats = rig.server.lobby, rig.server.seats
    lobby.watch(eve, p.Watch(table=table))
    watching = sent.lines[-1]
    assert json.loads(watching)["type"] == "watching"
    # every byte sent is charged, the watching reply's too
    assert eve.bytes.allowance == 2000 - sum(len(line) for line in sent.lines)
    assert eve.sent == sum(len(line) for line in sent.lines)
    while eve.bytes.allowance > 0:  # watch and leave until the budget is spent
        seats.vacate(eve)
        lobby.watch(eve, p.Watch(table=table))
    seats.vacate(eve)
    with pytest.raises(p.ProtocolError) as refused:
        lobby.watch(eve, p.Watch(table=table))
    assert refused.value.code == p.TOO_FAST and "KiB a second" in refused.value.message
    with pytest.raises(p.ProtocolError):  # a list as well: the budget is one
        lobby.list_tables(eve, p.ListTables())
    # the budget comes back with time
    await rig.time.advance(5.0)
    lobby.watch(eve, p.Watch(table=table))
    assert json.loads(sent.lines[-1])["type"] == "watching"
    await rig.close()


async def test_the_connections_of_one_address_share_a_byte_budget(tmp_path: Path) -> None:
    rig = Rig(tmp_path, bytes_burst=10_000, address_bytes_burst=3000, address_bytes_per_second=1.0)
    ada, _ = rig.peer("Ada", "10.0.0.1")
    table = await rig.table(ada)
    lobby, seats = rig.server.lobby, rig.server.seats
    many = [rig.peer(f"M{i}", "10.0.0.9")[0] for i in range(8)]
    watched = 0
    for peer in many:  # each has budget of its own left, the address has not
        try:
            lobby.watch(peer, p.Watch(table=table))
            seats.vacate(peer)
            watched += 1
        except p.ProtocolError as err:
            assert err.code == p.TOO_FAST and "one address" in err.message
    assert 0 < watched < len(many)
    other, sent = rig.peer("Other", "10.0.0.2")  # another address is not affected
    lobby.watch(other, p.Watch(table=table))
    assert json.loads(sent.lines[-1])["type"] == "watching"
    await rig.close()


async def test_a_watch_sends_the_history_a_spectator_may_see(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    ada, _ = rig.peer("Ada")
    bo, _ = rig.peer("Bo")
    table = await rig.table(ada)
    seats, lobby = rig.server.seats, rig.server.lobby
    await seats.join(ada, p.Join(table=table, seat=0))
    await seats.join(bo, p.Join(table=table, seat=1))
    hosted = rig.server.tables[table]
    for watched in range(3):
        eve, sent = rig.peer(f"Eve{watched}")
        lobby.watch(eve, p.Watch(table=table))
        got = json.loads(sent.lines[-1])
        expected = msgspec.to_builtins(p.wire_events(hosted.table.history(None)))
        assert got["history"] == expected and len(expected) >= watched  # a move: 1+ events
        assert got["names"] == ["Ada", "Bo"] and got["table"]["table"] == table
        seats.vacate(eve)
        update = hosted.table.snapshot(None)
        (seat,) = update.to_act
        player = ada if seat == 0 else bo
        legal = hosted.table.snapshot(seat).legal
        await seats.act(player, None, legal[0], None)
    await rig.close()


async def test_chat_is_bounded_per_address_and_into_one_table(tmp_path: Path) -> None:
    rig = Rig(
        tmp_path,
        chat_per_address_burst=3,
        chat_per_address_per_second=1.0,
        chat_per_table_burst=5,
        chat_per_table_per_second=1.0,
    )
    ada, _ = rig.peer("Ada", "10.0.0.1")
    table = await rig.table(ada)
    lobby = rig.server.lobby
    # four spectators from one address share its chat allowance
    flood = [rig.peer(f"F{i}", "10.0.0.9")[0] for i in range(4)]
    for peer in flood:
        lobby.watch(peer, p.Watch(table=table))
    said = refused = 0
    for peer in flood * 3:
        try:
            lobby.chat(peer, p.Chat(text="hi"))
            said += 1
        except p.ProtocolError as err:
            assert err.code == p.TOO_FAST and "address" in err.message
            refused += 1
    assert (said, refused) == (3, 9)
    # the table as a whole takes 5 at once, whoever says them
    others = [rig.peer(f"O{i}", f"10.0.1.{i}")[0] for i in range(4)]
    for peer in others:
        lobby.watch(peer, p.Watch(table=table))
    results = []
    for peer in others:
        try:
            lobby.chat(peer, p.Chat(text="hello"))
            results.append("ok")
        except p.ProtocolError as err:
            results.append(err.message)
    assert results[:2] == ["ok", "ok"] and "from everyone" in results[2]
    await rig.close()


async def test_a_token_another_seat_holds_is_refused(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    ada, _ = rig.peer("Ada")
    bo, bo_sent = rig.peer("Bo")
    table = await rig.table(ada)
    chosen = "x" * 32
    await rig.server.seats.join(ada, p.Join(table=table, seat=0, next_token=chosen))
    with pytest.raises(p.ProtocolError) as refused:
        await rig.server.seats.join(bo, p.Join(table=table, seat=1, next_token=chosen))
    assert refused.value.code == p.BAD_TOKEN and bo.hosted is None
    await rig.server.seats.join(bo, p.Join(table=table, seat=1, next_token="y" * 32))
    assert last(bo_sent)["type"] in ("joined", "game") and bo.seat == 1
    await rig.close()


async def test_racing_rematches_from_every_seat_make_one_table(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    ada, _ = rig.peer("Ada")
    bo, _ = rig.peer("Bo")
    table = await rig.table(ada)
    seats = rig.server.seats
    await seats.join(ada, p.Join(table=table, seat=0))
    await seats.join(bo, p.Join(table=table, seat=1))
    await seats.act(bo, None, "resign", None)
    await rig.server.tables[table].table.idle()
    restarts = rig.server.restarts
    results = await asyncio.gather(
        restarts.rematch(ada, p.Rematch()),
        restarts.rematch(bo, p.Rematch()),
        restarts.rematch(ada, p.Rematch()),
        restarts.rematch(bo, p.Rematch()),
        return_exceptions=True,
    )
    assert ada.hosted is not None and ada.hosted is bo.hosted  # one table, both seated
    assert set(rig.server.tables) == {table, ada.hosted.id}
    assert {ada.seat, bo.seat} == {0, 1}
    for result in results:  # the extra requests changed nothing
        assert result is None or isinstance(result, p.ProtocolError)
    await rig.close()


async def test_a_seated_client_that_never_answers_a_ping_is_away_within_30_s(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path)  # pings every 10 s, dead after 20 s: the defaults
    ada, ada_sent = rig.peer("Ada")
    bo, _ = rig.peer("Bo")
    idle, idle_sent = rig.peer("Idle")  # in the lobby: only its idle timeout applies
    table = await rig.table(ada)
    await rig.server.seats.join(ada, p.Join(table=table, seat=0))
    await rig.server.seats.join(bo, p.Join(table=table, seat=1))
    start = rig.time.now
    for peer in (ada, idle):
        peer.next_ping = start + rig.server.limits.ping_seconds
        rig.server.hall.spawn(keep_watch(peer, rig.time.sleep))
    bo.heard()  # Bo answers: he stays
    while not ada_sent.closed:
        await rig.time.advance(1.0)
        assert rig.time.now - start <= 30, "a silent seat was never taken for gone"
    assert any(m["type"] == "ping" for m in ada_sent.messages())
    assert not idle_sent.closed  # the lobby's silent client waits for its idle timeout
    await rig.close()


def test_a_name_claim_appends_one_line_and_unplayed_claims_expire(tmp_path: Path) -> None:
    clock = FakeTime(1_000_000.0)
    book = NameBook(tmp_path, wall=clock)
    book.load()
    secrets = {name: book.check(name, "") for name in ("Ada", "Bo", "Cy")}
    assert all(secrets.values())
    log = (tmp_path / "names.log").read_text().splitlines()
    assert len(log) == 3 and all(s not in "".join(log) for s in secrets.values() if s)
    with pytest.raises(NameTaken):
        book.check("ADA", "")
    assert book.check("Dee", "", may_claim=False) is None  # played, not claimed
    assert not book.is_claimed("Dee")
    book.played("Ada")
    assert len((tmp_path / "names.log").read_text().splitlines()) == 4
    clock.now += 2 * 24 * 3600  # two days on: the names that never played are free
    again = NameBook(tmp_path, wall=clock)
    again.load()
    assert again.is_claimed("ada") and not again.is_claimed("bo")
    assert again.check("Bo", "")  # claimed afresh by whoever comes
    assert again.check("Ada", secrets["Ada"]) is None  # Ada's secret still holds


def test_new_connections_from_one_address_are_bounded_in_rate() -> None:
    clock = FakeTime(0.0)
    counts = AddressCounts(100, 100, rate=2.0, burst=3, clock=clock)
    for _ in range(3):
        assert counts.admit("10.0.0.1") is None
        counts.release("10.0.0.1")
    refused = counts.admit("10.0.0.1")
    assert refused is not None and "new connections" in refused
    assert counts.admit("10.0.0.2") is None  # another address is not affected
    clock.now += 0.5  # one more a half second later
    assert counts.admit("10.0.0.1") is None
    assert counts.admit("10.0.0.1") is not None
