"""Absent players and the computers in their seats (docs/protocol.md,
"Absent players"): the server says in every update and in the lobby that a
seat is away (with the seconds of grace left) or that a computer plays it
for its person; that person, and nobody else, takes it back with the seat's
token at any time until the game ends. A host that closes its server tells
everyone at its tables first (real sockets on 127.0.0.1, the fake clock)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest

from net import protocol as p
from net.client import Notice
from net.remote import RemoteError

from .netkit import HANG, serving
from .test_server import duel


async def test_an_away_seat_shows_its_grace_then_the_computer_then_its_person(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        table_id, ada, bo = await duel(served, if_gone="computer")
        token = ada.token
        assert token is not None
        # every notice Bo is told, whichever update carries it (updates may
        # follow each other faster than a wait looks at the latest)
        told: list[Notice] = []
        bo.subscribe(lambda u: told.extend(u.notices))

        def notice(kind: str) -> Callable[[object], bool]:
            return lambda _: any(n.kind == kind for n in told)

        await ada.close()
        await bo.wait_for(lambda u: 0 not in u.connected)
        assert bo.seat_states[0].state == "reconnecting"
        assert bo.seat_states[0].grace == served.server.limits.grace_seconds
        # the grace timer sleeps first: time moves once it does
        await served.time.sleeping_until(served.time.now + served.server.limits.grace_seconds)
        await served.time.advance(20)
        [listed] = await bo.tables([table_id])
        assert listed.seats[0].grace == served.server.limits.grace_seconds - 20

        await served.time.advance(served.server.limits.grace_seconds - 20)
        await bo.wait_for(notice("computer"))
        assert [n.text for n in told if n.kind == "computer"] == [
            "The computer plays for {p0} now."
        ]
        stand_in = {
            "seat": 0,
            "kind": "computer",
            "name": "Ada",
            "level": "medium",
            "stands_in": True,
        }
        assert _who(bo.seat_states[0]) == stand_in
        [listed] = await bo.tables([table_id])
        assert _who(listed.seats[0]) == stand_in

        # a stranger cannot have the seat; its person takes it back with the token
        stranger = await served.client("Mallory")
        with pytest.raises(RemoteError) as refused:
            await stranger.join(table_id, 0)
        assert refused.value.code == p.SEAT_TAKEN
        await bo.wait_for(lambda u: 0 in u.to_act or 1 in u.to_act)
        back = await served.client("Ada")
        await back.rejoin(table_id, token)
        assert back.my_seats == (0,)
        table = served.server.tables[table_id].table
        assert table.seats[0].kind == "remote" and not table.stands_in(0)
        await bo.wait_for(notice("back"))
        [back_notice] = [n.text for n in told if n.kind == "back"]
        # (and how many moves the computer made for her, if it made any)
        assert back_notice.startswith(
            "{p0 is|are} back and {p0:plays|play} again: the computer stops."
        )
        assert bo.seat_states[0].state == "connected"
        assert bo.seat_states[0].kind == "person"
        # the seat is the person's again: the computer no longer moves for it
        if 0 in table.state.to_act():
            mine = back.snapshot(0)
            await back.play(0, mine.legal[0], mine.state_id)
        for client in (back, bo, stranger):
            await client.close()


async def test_a_resigned_seat_s_token_is_dead(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        table_id, ada, bo = await duel(served, if_gone="resign")
        token = ada.token
        assert token is not None
        await ada.close()
        await bo.wait_for(lambda u: 0 not in u.connected)
        # the grace timer sleeps first: time moves once it does
        await served.time.sleeping_until(served.time.now + served.server.limits.grace_seconds)
        await served.time.advance(served.server.limits.grace_seconds)
        await bo.wait_for(lambda u: u.over)
        late = await served.client("Ada")
        with pytest.raises(RemoteError) as refused:
            await late.rejoin(table_id, token)
        assert refused.value.code == p.BAD_TOKEN
        for client in (bo, late):
            await client.close()


async def test_a_host_that_closes_tells_every_player_and_spectator_at_once(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        table_id, ada, bo = await duel(served)
        eve = await served.client("Eve")
        await eve.watch(table_id)
        heard: list[str] = []
        told = {client: asyncio.Event() for client in (bo, eve)}
        bo.watch_connection(heard.append)
        for client, event in told.items():
            client.watch_connection(lambda state, e=event: e.set() if state == "closed" else None)
        assert served.server.people_at_tables() == 3
        assert served.server.people_at_tables(leaving_out=1) == 2
        await served.server.close("the host closed the table")
        for event in told.values():
            await asyncio.wait_for(event.wait(), HANG)
        assert bo.connection == "closed" and eve.connection == "closed"
        assert bo.farewell == eve.farewell == "the host closed the table"
        # told at once, no attempt to take the seat back
        assert heard == ["closed"]
        for client in (ada, bo, eve):
            await client.close()


async def test_a_restarted_server_still_knows_whom_the_computer_plays_for(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        table_id, ada, bo = await duel(served, if_gone="computer")
        token = ada.token
        assert token is not None
        await ada.close()
        await bo.wait_for(lambda u: 0 not in u.connected)
        # the grace timer sleeps first: time moves once it does
        await served.time.sleeping_until(served.time.now + served.server.limits.grace_seconds)
        await served.time.advance(served.server.limits.grace_seconds)
        assert served.server.tables[table_id].table.stands_in(0)
        await served.server.tables[table_id].table.idle()
        await bo.close()
    async with serving(tmp_path) as again:  # the same data folder
        hosted = again.server.tables[table_id]
        assert hosted.seat_summary(0).stands_in is True
        assert hosted.reconnecting() == [1]  # Bo is held; the computer plays on for Ada
        back = await again.client("Ada")
        await back.rejoin(table_id, token)
        assert back.my_seats == (0,) and not hosted.table.stands_in(0)
        await back.close()


def _who(seat: p.SeatSummary) -> dict[str, object]:
    """Who sits at ``seat`` and how, without whose turn it is (``acts`` and
    ``clock`` follow the computer's pace)."""
    said: dict[str, object] = msgspec.to_builtins(seat)
    return {k: v for k, v in said.items() if k not in ("acts", "clock")}
