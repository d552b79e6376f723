"""Correspondence tables (issue 39, docs/protocol.md "Correspondence
tables"): a time for each move in hours or days, counted by the server on
its wall clock across restarts; seats kept for the whole game; a clock that
runs out makes the computer play that one move, or the seat lose.

Time is a FakeTime that is the server's clock and wall clock alike: a day
passes, between two runs of the server on one data folder, in one line."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Literal

import pytest

from net import protocol as p
from net.remote import RemoteClient, RemoteError
from net.remote_rejoin import KEPT_SEAT_RETRY

from .netkit import FakeTime, Served, serving, until

DAY = 86_400
HOUR = 3_600
OPTIONS = {"first_leader": "0", "target_score": 30}  # seat 0 leads

pytestmark = pytest.mark.parametrize("database", [True, False], ids=["sqlite", "files"])


async def correspondence(
    served: Served, if_late: Literal["computer", "lose"] = "computer"
) -> tuple[str, RemoteClient, RemoteClient]:
    """A Domination table a move a day, Ada (to lead) and Bo seated: begun."""
    ada = await served.client("Ada")
    created = await ada.create(
        "domination", ["open", "open"], options=OPTIONS, per_move=DAY, if_late=if_late
    )
    assert (created.table and created.per_move, created.if_late) == (DAY, if_late)
    bo = await served.client("Bo")
    await ada.join(created.table, 0)
    await bo.join(created.table, 1)
    await ada.wait_for(lambda u: bool(u.legal))
    return created.table, ada, bo


def seat_clock(served: Served, table: str, seat: int) -> int | None:
    return served.server.tables[table].lobby_entry().seats[seat].clock


async def test_a_move_a_day_survives_restarts_and_players_come_back_a_day_later(
    tmp_path: Path, database: bool
) -> None:
    time = FakeTime()
    async with serving(tmp_path, database=database, time=time) as served:
        table, ada, bo = await correspondence(served)
        assert seat_clock(served, table, 0) == DAY  # Ada leads: her day runs
        playing = served.server.tables[table].table
        # Ada moves until Bo must answer (a lead Bo cannot follow hands the
        # lead straight back: the deal is fresh every run)
        while playing.state.to_act() != (1,):
            update = await ada.wait_for(lambda u: bool(u.legal))
            await ada.play(0, next(m for m in update.legal if m != "concede"), update.state_id)
        moved = playing.state_id
        tokens = {"Ada": ada.token, "Bo": bo.token}
        await time.advance(5 * HOUR)
        await ada.close()
        await bo.close()
        hosted = served.server.tables[table]
        await until(lambda: not hosted.occupants, "both gone")
        # nobody is held for a grace period, nobody stands in: the seats wait
        assert hosted.reconnecting() == [] and not hosted.table.stands_in(1)
        assert [s.state for s in hosted.lobby_entry().seats] == ["away", "away"]
        await hosted.table.idle()
        await served.server.hall.seats_written()
    time.now += 7 * HOUR  # the server is down for seven hours
    async with serving(tmp_path, database=database, time=time) as again:
        hosted = again.server.tables[table]
        assert hosted.table.state_id == moved
        # Bo's clock ran on while the server was down: 12 of his 24 hours left
        assert seat_clock(again, table, 1) == DAY - 12 * HOUR
        assert hosted.reconnecting() == []
    time.now += 11 * HOUR  # another restart: one hour left for Bo
    async with serving(tmp_path, database=database, time=time) as again:
        hosted = again.server.tables[table]
        assert seat_clock(again, table, 1) == HOUR
        bo = await again.client("Bo")
        assert tokens["Bo"] is not None
        await bo.rejoin(table, tokens["Bo"])  # from another terminal: the token is all
        update = bo.snapshot(1)
        assert update.legal
        await bo.play(1, update.legal[0], update.state_id)
        assert hosted.table.state_id > moved
        # whose turn it is now has a fresh day; Bo's clock is stopped
        waiting = hosted.table.state.to_act()
        for seat in waiting:
            assert seat_clock(again, table, seat) == DAY
        await bo.close()


async def test_a_late_seat_gets_one_move_from_the_computer(tmp_path: Path, database: bool) -> None:
    time = FakeTime()
    async with serving(tmp_path, database=database, time=time) as served:
        table, ada, bo = await correspondence(served, "computer")
        await ada.close()  # Ada goes away for two days
        await bo.wait_for(lambda u: 0 not in u.connected)
        await time.sleeping_until(time.now + DAY)
        await time.advance(DAY)
        hosted = served.server.tables[table]
        await hosted.table.idle()
        assert hosted.table.record.moves[0][0] == 0  # a move for Ada, by the computer
        late = [e for e in bo.history(1) if e.kind == "timeout"]
        assert [e.render(["Ada", "Bo"], {1}) for e in late] == [
            "Ada ran out of time: the computer made this move for them."
        ]
        assert hosted.table.status == "playing" and not hosted.table.stands_in(0)
        # one move only: the seat is Ada's again at her next turn
        assert 0 not in hosted.table.computers
        await bo.close()


async def test_a_late_seat_loses_when_the_table_says_so(tmp_path: Path, database: bool) -> None:
    time = FakeTime()
    async with serving(tmp_path, database=database, time=time) as served:
        table, ada, bo = await correspondence(served, "lose")
        await ada.close()
        await time.sleeping_until(time.now + DAY)
        await time.advance(DAY - 1)
        assert served.server.tables[table].table.status == "playing"  # not a second early
        await time.advance(1)
        hosted = served.server.tables[table]
        await hosted.table.idle()
        assert hosted.table.status == "finished"
        outcome = hosted.table.state.outcome()
        assert outcome is not None and outcome.winner == 1
        await bo.close()


async def test_a_seat_taken_before_the_start_waits_for_its_player(
    tmp_path: Path, database: bool
) -> None:
    time = FakeTime()
    async with serving(tmp_path, database=database, time=time) as served:
        ada = await served.client("Ada")
        created = await ada.create("domination", ["open", "open"], options=OPTIONS, per_move=DAY)
        await ada.join(created.table, 0)
        token = ada.token
        await ada.close()  # Ada waits for a friend, away from the table
        hosted = served.server.tables[created.table]
        await until(lambda: not hosted.occupants, "Ada gone")
        await time.advance(served.server.limits.empty_table_seconds * 3)
        assert served.server.tables[created.table] is hosted  # not closed: the seat is Ada's
        assert hosted.lobby_entry().seats[0].state == "away"
        bo = await served.client("Bo")
        await bo.join(created.table, 1)  # the game begins without her
        assert hosted.started and seat_clock(served, created.table, 0) == DAY
        back = await served.client("Ada")
        assert token is not None
        await back.rejoin(created.table, token)
        assert back.snapshot(0).legal
        for client in (back, bo):
            await client.close()


async def test_a_time_per_move_is_an_hour_to_thirty_days(tmp_path: Path, database: bool) -> None:
    async with serving(tmp_path, database=database) as served:
        ada = await served.client("Ada")
        for seconds in (60, 31 * DAY):
            with pytest.raises(RemoteError) as refused:
                await ada.create("domination", ["open", "open"], per_move=seconds)
            assert refused.value.code == p.BAD_MESSAGE
            assert "per_move" in str(refused.value)
        await ada.close()


async def test_a_claimed_name_takes_its_seat_back_without_the_token(
    tmp_path: Path, database: bool
) -> None:
    """From another terminal with no token, across a restart: the name's
    secret is enough for the seat that name sat at; another name, an
    unproved claim, or a seat sat at before the name was claimed are not."""
    time = FakeTime()
    async with serving(tmp_path, database=database, time=time) as served:
        ada = await served.client("Ada", name_secret="")  # claims the name
        secret = ada.welcome.name_secret
        assert secret
        table = (await ada.create("domination", ["open", "open"], per_move=DAY)).table
        await ada.join(table, 0)
        bo = await served.client("Bo")  # plays under a name nobody claimed
        await bo.join(table, 1)
        seats = served.server.tables[table].lobby_entry().seats
        assert [s.named for s in seats] == [True, False]
        await ada.close()
        await bo.close()
        await until(lambda: not served.server.tables[table].occupants, "both gone")
        await served.server.hall.seats_written()
    time.now += DAY // 2
    async with serving(tmp_path, database=database, time=time) as again:
        stranger = await again.client("Eve")
        with pytest.raises(RemoteError, match="no seat at table"):
            await stranger.rejoin(table, None)
        bo = await again.client("Bo", name_secret="")  # claims "Bo" only now
        with pytest.raises(RemoteError, match="no seat at table"):
            await bo.rejoin(table, None)  # the seat was sat at by an unclaimed "Bo"
        back = await again.client("Ada", name_secret=secret)
        await back.rejoin(table, None)
        assert back.my_seats == (0,) and back.token  # a fresh token, as after any rejoin
        for client in (stranger, bo, back):
            await client.close()


async def test_a_seat_kept_to_the_end_is_tried_again_until_its_server_is_back(
    tmp_path: Path, database: bool
) -> None:
    """Down longer than the minute of retries that a live table's seat is
    held for: a correspondence client keeps trying (its seat is held for the
    whole game) and takes it back when the server returns."""
    time = FakeTime()
    slept: list[float] = []
    wake: asyncio.Queue[None] = asyncio.Queue()

    async def sleep(seconds: float) -> None:  # each wait of Ada's, passed by the test
        slept.append(seconds)
        await wake.get()

    async def let_wait_pass(n: int) -> None:  # Ada's n-th wait ends
        await until(lambda: len(slept) >= n, f"Ada's wait number {n}")
        wake.put_nowait(None)

    async with serving(tmp_path, database=database, time=time) as served:
        table, ada, bo = await correspondence(served)
        port = served.port
        ada.retry_delays = (0.0, 0.0)
        ada.sleep = sleep
        changes: list[str] = []
        ada.on_connection.append(changes.append)
        await bo.close()
    # the server is gone: both quick tries fail, then the slow ones begin
    for n in (1, 2, 3):
        await let_wait_pass(n)
    await until(lambda: len(slept) == 4, "Ada waits to try again")
    assert slept[:2] == [0.0, 0.0] and set(slept[2:]) == {KEPT_SEAT_RETRY}
    assert ada.connection == "reconnecting" and changes == ["reconnecting"]
    async with serving(tmp_path, database=database, time=time, port=port) as again:
        await let_wait_pass(4)
        await until(lambda: changes[-1] == "connected", "Ada back at her seat")
        assert changes == ["reconnecting", "connected"] and ada.connection == "connected"
        assert again.server.tables[table].occupants
        await ada.close()
