"""Once a game has started, no seat is ever open again: not the seat of a
player who resigned, nor of one who did not come back in time, nor one a
computer took over, and a finished table has no open seat at all. A
stranger who asks for one is refused in one line and is sent nothing of that
seat's hand; watching, they get the spectator's view only (real sockets on
127.0.0.1, the fake clock of netkit)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from net import protocol as p
from net.remote import RemoteClient, RemoteError
from net.server import Limits
from saves.store import SaveStore

from .helpers import CARD
from .netkit import LeakScan, Served, record_visibility, serving
from .test_server_games import SHORT, play_out

OPTIONS = {"first_leader": "0", "target_score": 30}


def open_seats(summary: p.TableSummary) -> list[int]:
    return [s.seat for s in summary.seats if s.kind == "open"]


async def refused_everywhere(served: Served, table_id: str, seats: int) -> list[bytes]:
    """A stranger lists the tables and asks for the table's first open seat
    and then for each seat by number; every request is refused. Returns every
    line the stranger was sent (then it watches)."""
    lines: list[bytes] = []
    stranger = await served.client("Mallory", tap=lines.append)
    [summary] = [t for t in await stranger.tables() if t.table == table_id]
    assert open_seats(summary) == []
    with pytest.raises(RemoteError) as refused:
        await stranger.join(table_id)
    assert refused.value.code == p.SEAT_TAKEN
    message = str(refused.value)
    assert "no seat is open" in message and "watch" in message and "\n" not in message
    for seat in range(seats):
        with pytest.raises(RemoteError) as refused:
            await stranger.join(table_id, seat)
        assert refused.value.code == p.SEAT_TAKEN
    assert stranger.my_seats == ()
    await stranger.watch(table_id)
    assert stranger.my_seats == () and stranger.snapshot(None).seat is None
    assert stranger.snapshot(None).legal == ()
    await stranger.close()
    return lines


async def test_a_seat_that_resigned_at_a_finished_table_is_no_stranger_s(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        ada = await served.client("Ada")
        created = await ada.create(
            "domination", ["open", "open"], options=OPTIONS, if_gone="resign"
        )
        table_id = created.table
        bo = await served.client("Bo")
        await ada.join(table_id, 0)
        await bo.join(table_id, 1)
        await ada.wait_for(lambda u: bool(u.legal))
        await ada.close()  # Ada drops and never comes back: her seat resigns
        await bo.wait_for(lambda u: 0 not in u.connected)
        # the grace timer sleeps first: time moves once it does
        await served.time.sleeping_until(served.time.now + served.server.limits.grace_seconds)
        await served.time.advance(served.server.limits.grace_seconds)
        final = await bo.wait_for(lambda u: u.over)
        assert final.result is not None and final.result.winner == 1
        table = served.server.tables[table_id].table
        hand = set(table.state.view(0).hand)
        hidden = set(table.state.hidden_cards(None))
        assert hand and hand <= hidden  # what a stranger must never see
        await bo.leave()

        summary = served.server.tables[table_id].summary()
        assert summary["status"] == "finished"
        assert summary["seats"][0] == {
            "seat": 0,
            "kind": "person",
            "name": "Ada",
            "level": None,
            "state": "gone",
        }
        lines = await refused_everywhere(served, table_id, 2)
        sent = b"".join(lines).decode()
        assert set(CARD.findall(sent)) & hand == set()
        watching = [json.loads(line) for line in lines if b'"watching"' in line]
        assert len(watching) == 1 and "hand" not in watching[0]["update"]["view"]
        assert all(b'"joined"' not in line for line in lines)
        await bo.close()


async def test_a_resigned_seat_stays_closed_while_the_others_play_on_and_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three seats of stress: Ada resigns and leaves, her token dies with the
    grace period, Bo plays on against the computer to the end. No stranger
    gets her seat, during the game or after it."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # hundreds of saves; not the point here
    async with serving(tmp_path, Limits(burst=100_000)) as served:
        ada = await served.client("Ada")
        options = {"players": 3, **SHORT["stress"]}
        created = await ada.create(
            "stress", ["open", "open", "computer:easy"], options=options, if_gone="resign"
        )
        table_id = created.table
        bo = await served.client("Bo")
        await ada.join(table_id, 0)
        await bo.join(table_id, 1)
        await ada.resign(0)
        await ada.leave()
        # the grace timer sleeps first: time moves once it does
        await served.time.sleeping_until(served.time.now + served.server.limits.grace_seconds)
        await served.time.advance(served.server.limits.grace_seconds)
        hosted = served.server.tables[table_id]
        assert 0 not in hosted.tokens and hosted.table.status == "playing"
        assert hosted.summary()["seats"][0]["state"] == "gone"

        scan = LeakScan(None)
        record_visibility(served.server, table_id, [scan])
        during = await refused_everywhere(served, table_id, 3)
        for line in during:
            scan.tap(line)
        assert scan.leaks() == []

        await play_out([bo], random.Random(5))
        assert hosted.table.status == "finished"
        scan = LeakScan(None)
        record_visibility(served.server, table_id, [scan])
        after = await refused_everywhere(served, table_id, 3)
        for line in after:
            scan.tap(line)
        assert scan.leaks() == []
        for client in (ada, bo):
            await client.close()


async def test_a_seat_a_computer_took_over_is_not_open(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        ada = await served.client("Ada")
        created = await ada.create("domination", ["open", "open"], options=OPTIONS)
        table_id = created.table
        bo = await served.client("Bo")
        await ada.join(table_id, 0)
        await bo.join(table_id, 1)
        await ada.wait_for(lambda u: bool(u.legal))
        await ada.close()
        await bo.wait_for(lambda u: 0 not in u.connected)
        # the grace timer sleeps first: time moves once it does
        await served.time.sleeping_until(served.time.now + served.server.limits.grace_seconds)
        await served.time.advance(served.server.limits.grace_seconds)
        await bo.wait_for(lambda u: u.state_id >= 1)  # the computer played seat 0
        hosted = served.server.tables[table_id]
        assert hosted.table.seats[0].kind == "bot" and hosted.table.status == "playing"
        scan = LeakScan(None)
        record_visibility(served.server, table_id, [scan])
        for line in await refused_everywhere(served, table_id, 2):
            scan.tap(line)
        assert scan.leaks() == []
        assert hosted.table.seats[0].kind == "bot"  # and still the computer's
        await bo.close()


async def test_before_the_start_a_seat_left_is_open_again(tmp_path: Path) -> None:
    """The other side of the rule: until every open seat is taken nothing has
    been dealt to anyone, so a seat left is simply open again."""
    async with serving(tmp_path) as served:
        ada = await served.client("Ada")
        created = await ada.create("domination", ["open", "open"], options=OPTIONS)
        table_id = created.table
        await ada.join(table_id, 0)
        await ada.leave()
        bo: RemoteClient = await served.client("Bo")
        [summary] = await bo.tables()
        assert open_seats(summary) == [0, 1]
        await bo.join(table_id, 0)
        assert bo.my_seats == (0,)
        for client in (ada, bo):
            await client.close()


async def test_cards_seen_at_a_seat_left_before_the_start_are_not_the_cards_played(
    tmp_path: Path,
) -> None:
    """Before the start a seat is open again once left; but its player has
    seen that seat's hand (and could sit at every seat in turn to see them
    all, or leave and come back until the cards suit them). So the game is
    dealt again as it starts, and what they saw tells nothing."""
    async with serving(tmp_path) as served:
        mallory = await served.client("Mallory")
        created = await mallory.create("domination", ["open", "open"], options=OPTIONS)
        table_id = created.table
        seen: dict[int, set[str]] = {}
        for seat in (0, 1):
            await mallory.join(table_id, seat)
            seen[seat] = set(mallory.snapshot(seat).view.hand)
            await mallory.leave()
        ada, bo = await served.client("Ada"), await served.client("Bo")
        await ada.join(table_id, 0)
        await bo.join(table_id, 1)
        begun = await ada.wait_for(lambda u: bool(u.to_act))
        table = served.server.tables[table_id].table
        played = {seat: set(table.state.view(seat).hand) for seat in (0, 1)}
        assert played[0] != seen[0] and played[1] != seen[1]
        assert set(begun.view.hand) == played[0]  # Ada is shown the cards she plays
        assert set(bo.snapshot(1).view.hand) == played[1]
        # the server saves after `joined` goes out: a save of ours queues behind it
        await table.save()
        saved = SaveStore(tmp_path).load(table_id)
        assert saved.replay().view(0) == table.state.view(0)  # the new deal is the saved one
        for client in (mallory, ada, bo):
            await client.close()


async def test_a_table_nobody_left_is_not_dealt_again(tmp_path: Path) -> None:
    """The hand a player waits with is the hand they play."""
    async with serving(tmp_path) as served:
        ada = await served.client("Ada")
        created = await ada.create("domination", ["open", "open"], options=OPTIONS)
        await ada.join(created.table, 0)
        waiting = set(ada.snapshot(0).view.hand)
        bo = await served.client("Bo")
        await bo.join(created.table, 1)
        begun = await ada.wait_for(lambda u: bool(u.to_act))
        assert set(begun.view.hand) == waiting
        for client in (ada, bo):
            await client.close()
