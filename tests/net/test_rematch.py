"""A rematch over the network: the same seats at a new table, once the game
is over; the first to ask creates it, the others sit at their own seats."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from net.server import Limits
from rules.errors import IllegalMove

from .netkit import serving
from .test_server_games import play_out


async def test_both_players_ask_and_play_again_at_their_seats(tmp_path: Path) -> None:
    async with serving(tmp_path, Limits(burst=100_000)) as served:
        ada, bo = await served.client("Ada"), await served.client("Bo")
        summary = await ada.create("domination", ["open", "open"], options={"target_score": 20})
        first = summary.table
        await ada.join(first)
        assert [s.name for s in ada.seats] == ["Ada", "Player 2"]
        await bo.join(first)
        # the game messages name whoever sat down since
        await ada.wait_for(lambda u: bool(u.to_act))
        assert [s.name for s in ada.seats] == ["Ada", "Bo"]
        with pytest.raises(IllegalMove, match="not over"):
            await ada.rematch()
        heard: list[tuple[str, str]] = []
        bo.watch_chat(lambda name, text: heard.append((name, text)))
        await play_out([ada, bo], random.Random(5))
        outcome = ada.snapshot(0).result
        assert outcome is not None
        assert await ada.rematch() is ada
        second = ada.table_id
        assert second != first and ada.my_seats == (0,)
        assert served.server.tables[second].status() == "waiting"
        await bo.wait_for(lambda _: bool(heard))
        assert heard == [("Ada", "asks for a rematch (Rematch to join)")]
        await bo.rematch()
        assert bo.table_id == second and bo.my_seats == (1,)
        hosted = served.server.tables[second]
        assert hosted.status() == "playing"
        assert [s.name for s in hosted.table.record.seats] == ["Ada", "Bo"]
        # the rules' rematch options: the loser of the first game leads
        loser = 1 - outcome.winner if outcome.winner is not None else 0
        assert hosted.table.record.config["first_leader"] == str(loser)
        update = await ada.wait_for(lambda u: u.state_id == 0)
        assert update.to_act == (loser,)
        await play_out([ada, bo], random.Random(6))
        assert ada.snapshot(0).over
        await ada.close()
        await bo.close()


async def test_a_rematch_against_a_server_computer_starts_at_once(tmp_path: Path) -> None:
    async with serving(tmp_path, Limits(burst=100_000)) as served:
        ada = await served.client("Ada")
        summary = await ada.create(
            "domination", ["open", "computer:easy"], options={"target_score": 20}
        )
        await ada.join(summary.table)
        await play_out([ada], random.Random(1))
        await ada.rematch()
        hosted = served.server.tables[ada.table_id or ""]
        assert hosted.started and hosted.table.record.seats[1].level == "easy"
        await play_out([ada], random.Random(2))
        assert ada.snapshot(0).over
        await ada.close()


async def test_a_lost_reply_to_a_rejoin_does_not_lose_the_seat(tmp_path: Path) -> None:
    """The client chooses the token for its next rejoin and sends it along: if
    the reply is lost after the server took it, the client tries that one."""
    async with serving(tmp_path, Limits(burst=100_000)) as served:
        ada, bo = await served.client("Ada"), await served.client("Bo")
        summary = await ada.create("domination", ["open", "open"])
        await ada.join(summary.table)
        await bo.join(summary.table)
        first = ada.token

        async def at_once(_: float) -> None:
            await asyncio.sleep(0)

        ada.sleep = at_once
        seat = served.server.seats.seat
        lost: list[str] = []

        async def lossy(conn: Any, *args: Any) -> None:
            if conn.name != "Ada" or lost:
                await seat(conn, *args)
                return
            lost.append("the joined reply")
            send = conn.send
            conn.send = lambda message: None if message["type"] == "joined" else send(message)
            await seat(conn, *args)  # the server seats her and makes her token...
            conn.writer.transport.abort()  # ...but the reply never arrives

        served.server.seats.seat = lossy  # type: ignore[method-assign]
        for conn in list(served.server.connections):
            if conn.name == "Ada":
                conn.writer.transport.abort()  # the network drops
        await ada.wait_for(lambda _: ada.connection == "connected" and ada.token != first)
        assert lost == ["the joined reply"] and ada.my_seats == (0,)
        # the seat is really hers again: she plays on
        update = await ada.wait_for(lambda u: bool(u.to_act))
        player = ada if update.to_act == (0,) else bo
        latest = player.snapshot(player.my_seats[0])
        await player.play(player.my_seats[0], latest.legal[0], latest.state_id)
        await ada.wait_for(lambda u: u.state_id == latest.state_id + 1)
        await ada.close()
        await bo.close()


async def test_a_rematch_keeps_the_number_of_players_when_it_is_an_option(
    tmp_path: Path,
) -> None:
    """Stress seats 2 to 8 (4 unless told): a game of 2 gets a rematch of 2."""
    async with serving(tmp_path, Limits(burst=100_000)) as served:
        ada = await served.client("Ada")
        summary = await ada.create(
            "stress", ["open", "computer:easy"], options={"players": 2, "stop_at_first": True}
        )
        await ada.join(summary.table)
        await ada.resign(0)
        await ada.wait_for(lambda u: u.over)
        await ada.rematch()
        hosted = served.server.tables[ada.table_id or ""]
        assert hosted.table.record.config["players"] == 2
        assert hosted.started and len(hosted.table.record.seats) == 2
        await ada.close()


async def test_a_four_player_stress_rematch_is_the_same_table_again(tmp_path: Path) -> None:
    """Every option, every seat kind and level; who starts as the rules say
    for a rematch (the same rematch_config a local rematch uses)."""
    # three computers at pace 0 play a whole game of updates at once: the
    # byte budgets (tested on their own) must not refuse the rematch's join
    unbounded = Limits(burst=100_000, bytes_burst=10**9, address_bytes_burst=10**9)
    async with serving(tmp_path, unbounded) as served:
        ada = await served.client("Ada")
        seats = ["computer:easy", "open", "computer:hard", "computer:medium"]
        options = {"players": 4, "stop_at_first": True}
        summary = await ada.create("stress", seats, options=options)
        first = served.server.tables[summary.table]
        await ada.join(summary.table)
        await ada.resign(1)
        await ada.wait_for(lambda u: u.over)
        outcome = first.table.state.outcome()
        assert outcome is not None
        await ada.rematch()
        again = served.server.tables[ada.table_id or ""]
        assert ada.my_seats == (1,)
        record, before = again.table.record, first.table.record
        expected = first.table.spec.rematch_config(first.table.state.config, outcome)
        assert record.config == expected.to_dict()
        assert record.preset == before.preset and again.if_gone == first.if_gone
        assert [(s.kind, s.level) for s in record.seats] == [
            (s.kind, s.level) for s in before.seats
        ]
        assert again.started
        await ada.close()
