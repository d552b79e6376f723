"""The server against one client that would take it down (issue 22): tables
created to fill it, lists asked for to saturate it, connections opened to
use up its descriptors, a client that vanishes without closing. Each test
sends the hostile input over real sockets on 127.0.0.1 and checks that the
server refuses or bounds it and stays usable for another client. Time is
the fake clock of netkit, except where the system's own limits are tested
(a subprocess with few file descriptors)."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from net import protocol as p
from net.server import Limits

from .netkit import HANG, Raw, Served, serving, until

ROOT = Path(__file__).resolve().parents[2]
OPEN2 = {"type": "create", "game": "domination", "seats": ["open", "open"]}


def fast(**limits: Any) -> Limits:
    """Limits with the message rate out of the way (it is not what is tested)."""
    return Limits(burst=100_000, messages_per_second=100_000.0, **limits)


async def hello(served: Served, name: str) -> Raw:
    raw = await served.raw()
    assert (await raw.hello(name))["type"] == "welcome"
    return raw


def assert_summaries_cached_truly(served: Served) -> None:
    """Every table's cached summary is what it would be built anew."""
    for hosted in served.server.tables.values():
        assert hosted.lobby_entry() == hosted._build_summary(), hosted.id


# ---------------------------------------------------------------- tables fill up
async def test_tables_per_address_and_per_name_are_capped_and_others_still_play(
    tmp_path: Path,
) -> None:
    limits = fast(tables_per_address=3, tables_per_name=2)
    async with serving(tmp_path, limits) as served:
        mallory = await hello(served, "Mallory")
        for _ in range(2):
            assert (await mallory.reply(OPEN2))["type"] == "created"
        by_name = await mallory.reply({**OPEN2, "id": 7})
        assert by_name["code"] == p.QUOTA and by_name["id"] == 7
        assert "Mallory has created 2 tables" in by_name["message"]
        # another name from the same address: the address's share is 3
        eve = await hello(served, "Eve")
        assert (await eve.reply(OPEN2))["type"] == "created"
        by_address = await eve.reply(OPEN2)
        assert by_address["code"] == p.QUOTA and "your address" in by_address["message"]
        # nothing else was refused: the connections stay, the lobby works
        assert len(served.server.tables) == 3
        ada = await served.client("Ada")
        assert len(await ada.tables()) == 3
        # a table finished counts no more
        table = served.server.tables[(await ada.tables())[0].table]
        await ada.join(table.id)
        bo = await served.client("Bo")
        await bo.join(table.id)
        await ada.resign(0)
        assert (await eve.reply(OPEN2))["type"] == "created"
        for raw in (mallory, eve):
            raw.close()
        for client in (ada, bo):
            await client.close()


async def test_the_server_wide_table_limit_is_a_quota_refusal(tmp_path: Path) -> None:
    async with serving(tmp_path, fast(tables=2)) as served:
        one, two = await hello(served, "One"), await hello(served, "Two")
        assert (await one.reply(OPEN2))["type"] == "created"
        assert (await two.reply(OPEN2))["type"] == "created"
        full = await one.reply(OPEN2)
        assert full["code"] == p.QUOTA and "as many tables as it can (2)" in full["message"]
        assert (await one.reply({"type": "list"}))["total"] == 2  # still served
        one.close()
        two.close()


async def test_a_waiting_table_nobody_sits_at_closes_after_the_expiry(tmp_path: Path) -> None:
    expiry = 30.0
    async with serving(tmp_path, fast(empty_table_seconds=expiry)) as served:
        mallory = await hello(served, "Mallory")
        empty = (await mallory.reply(OPEN2))["table"]["table"]
        sat = (await mallory.reply(OPEN2))["table"]["table"]
        left = (await mallory.reply(OPEN2))["table"]["table"]
        watcher = await hello(served, "Eve")
        assert (await watcher.reply({"type": "watch", "table": empty}))["type"] == "watching"
        ada, cy = await served.client("Ada"), await served.client("Cy")
        await ada.join(sat)
        await served.time.advance(expiry / 2)
        await cy.join(left)
        await cy.leave()  # empty again from now on
        await served.time.advance(expiry / 2)
        assert empty not in served.server.tables  # closed, though watched
        closed = await watcher.recv()
        assert closed["type"] == "closed" and closed["table"] == empty
        assert "nobody sat" in closed["message"]
        assert not served.server.store.exists(empty)  # no move in it: no record kept
        assert sat in served.server.tables and left in served.server.tables
        await served.time.advance(expiry / 2)
        assert left not in served.server.tables
        assert sat in served.server.tables  # Ada sits there
        # the watcher is back in the lobby and may go elsewhere
        assert (await watcher.reply({"type": "watch", "table": sat}))["type"] == "watching"
        for raw in (mallory, watcher):
            raw.close()
        for client in (ada, cy):
            await client.close()


async def test_a_restart_brings_back_no_waiting_table_nobody_sits_at(tmp_path: Path) -> None:
    limits = fast(empty_table_seconds=30.0, grace_seconds=10.0)
    async with serving(tmp_path, limits) as served:
        mallory = await hello(served, "Mallory")
        empties = [(await mallory.reply(OPEN2))["table"]["table"] for _ in range(3)]
        ada = await served.client("Ada")
        waiting = (await ada.create("domination", ["open", "open"])).table
        await ada.join(waiting)
        ada.retry_delays = ()
        # the server stops with Ada seated and Mallory's tables empty
    mallory.close()
    await ada.close()
    async with serving(tmp_path, limits) as again:
        assert set(again.server.tables) == {waiting}  # no empty table came back
        for table_id in empties:
            assert not again.server.store.exists(table_id)
        # Ada's seat is held as after a drop; nobody comes: it opens, then the
        # table, now empty, expires
        assert again.server.tables[waiting].reconnecting() == [0]
        await again.time.advance(10.0)
        assert again.server.tables[waiting].nobody_seated()
        await again.time.advance(30.0)
        assert waiting not in again.server.tables
        bo = await again.client("Bo")  # and the server is fine
        assert await bo.tables() == []
        await bo.close()


# ---------------------------------------------------------------- list
async def test_list_is_paged_and_filtered_and_a_bare_list_is_the_first_page(
    tmp_path: Path,
) -> None:
    limits = fast(list_page=3, tables_per_address=100, tables_per_name=100)
    async with serving(tmp_path, limits) as served:
        ada = await served.client("Ada")
        made = []
        for game in ["domination"] * 4 + ["trick"] * 2:
            made.append((await ada.create(game, ["open", "open"])).table)
        await ada.join(made[0])
        bo = await served.client("Bo")
        await bo.join(made[0])  # playing now
        raw = await hello(served, "Eve")
        bare = await raw.reply({"type": "list", "id": 1})
        assert bare["total"] == 6 and bare["offset"] == 0
        assert [t["table"] for t in bare["tables"]] == made[:3]
        # the app's client: the first page
        assert [msgspec.to_builtins(t) for t in await ada.tables()] == bare["tables"]
        second = await raw.reply({"type": "list", "offset": 3, "limit": 2})
        assert [t["table"] for t in second["tables"]] == made[3:5]
        tricks = await raw.reply({"type": "list", "game": "trick", "limit": 10})
        assert [t["table"] for t in tricks["tables"]] == made[4:] and tricks["total"] == 2
        playing = await raw.reply({"type": "list", "status": "playing"})
        assert [t["table"] for t in playing["tables"]] == made[:1]
        assert playing["tables"][0]["status"] == "playing"
        none = await raw.reply({"type": "list", "game": "chess", "offset": 99})
        assert none["tables"] == [] and none["total"] == 0
        # a client's own tables, by id, wherever they are in the list
        mine = await raw.reply({"type": "list", "tables": [made[5], made[1], "ffffffff"]})
        assert [t["table"] for t in mine["tables"]] == [made[1], made[5]] and mine["total"] == 2
        assert [t.table for t in await ada.tables([made[5]])] == [made[5]]
        for bad in (
            {"type": "list", "limit": 0},
            {"type": "list", "limit": p.MAX_PAGE + 1},
            {"type": "list", "offset": -1},
            {"type": "list", "status": "lost"},
            {"type": "list", "pages": 2},
            {"type": "list", "tables": ["NOT-AN-ID"]},
            {"type": "list", "tables": ["abcdef01"] * (p.MAX_PAGE + 1)},
        ):
            assert (await raw.reply(bad))["code"] == p.BAD_MESSAGE, bad
        raw.close()
        for client in (ada, bo):
            await client.close()


async def test_cached_summaries_follow_every_change(tmp_path: Path) -> None:
    async with serving(tmp_path, fast(grace_seconds=5.0)) as served:
        ada, bo = await served.client("Ada"), await served.client("Bo")
        table = (await ada.create("domination", ["open", "open"])).table
        await ada.tables()
        steps = [
            lambda: ada.join(table),
            lambda: bo.watch(table),
            lambda: bo.leave(),
            lambda: bo.join(table),  # the game begins
            lambda: served.time.advance(0),
        ]
        for step in steps:
            await step()
            await ada.tables()  # a list caches the summaries
            assert_summaries_cached_truly(served)
        await bo.close()  # Bo drops: his seat is held, reconnecting
        await ada.wait_for(lambda u: 1 not in u.connected)
        await ada.tables()
        assert_summaries_cached_truly(served)
        await served.time.advance(5.0)  # the grace passes: a computer plays Bo's seat
        seats = (await ada.tables())[0].seats
        assert seats[1].kind == "computer"
        assert_summaries_cached_truly(served)
        await ada.resign(0)  # finished
        assert (await ada.tables())[0].status == "finished"
        assert_summaries_cached_truly(served)
        await ada.close()


async def test_list_replies_are_bounded_in_bytes_per_second(tmp_path: Path) -> None:
    rate, burst = 4000.0, 8000
    limits = fast(
        bytes_per_second=rate,
        bytes_burst=burst,
        tables_per_address=50,
        tables_per_name=50,
    )
    async with serving(tmp_path, limits) as served:
        ada = await served.client("Ada")
        for _ in range(20):
            await ada.create("domination", ["open", "open"])
        flood = await hello(served, "Mallory")
        sent = 0
        refused = None
        # fewer than the errors in a row that close a connection: a close
        # with requests unread resets it, and the reset may overtake the replies
        for i in range(8):
            flood.writer.write(json.dumps({"type": "list", "id": i}).encode() + b"\n")
        for _ in range(8):
            line = await asyncio.wait_for(flood.reader.readline(), HANG)
            reply = json.loads(line)
            if reply["type"] == "tables":
                sent += len(line)
            else:
                refused = reply
                break
        # the burst's worth and one list more, at most; then a refusal
        assert refused is not None and refused["code"] == p.TOO_FAST
        assert "KiB a second" in refused["message"] and "limit" in refused["message"]
        assert burst <= sent <= burst + 12_000
        flood.close()
        # another client lists as usual meanwhile (Ada's own budget went on
        # the replies to her 20 creates: every byte counts)
        bo = await served.client("Bo")
        assert len(await bo.tables()) == 20
        await bo.close()
        # and the flooder, once time has passed, gets a page again
        again = await hello(served, "Mallory")
        await served.time.advance(burst / rate)
        assert (await again.reply({"type": "list"}))["type"] == "tables"
        again.close()
        await ada.close()


# ---------------------------------------------------------------- connections
async def test_connections_in_all_are_capped_with_one_line_and_the_server_recovers(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path, Limits(connections=3, per_address=100)) as served:
        held = [await hello(served, f"P{i}") for i in range(3)]
        extra = await served.raw()
        extra.send({"type": "hello", "version": p.VERSION, "client": "t", "name": "X"})
        refusal = await extra.recv()
        assert refusal["type"] == "error" and refusal["code"] == p.LIMIT
        assert "full" in refusal["message"]
        assert await extra.closed()
        held.pop().close()
        for _ in range(1000):  # the server notices the close
            if len(served.server.connections) < 3:
                break
            await asyncio.sleep(0.005)
        late = await hello(served, "Late")  # room again
        assert (await late.reply({"type": "list"}))["type"] == "tables"
        for raw in [*held, late]:
            raw.close()


EMFILE_SERVER = """
import asyncio, logging, resource, sys
from pathlib import Path
from net.server import Limits, TableServer
from saves.store import SaveStore

logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[2]), hard))

async def main():
    limits = Limits(connections=10_000, per_address=10_000, accept_retry_seconds=0.05,
                    connects_burst=10_000)
    server = TableServer(SaveStore(Path(sys.argv[1])), limits=limits)
    host, port = await server.start("127.0.0.1", 0)
    print(port, flush=True)
    await server.serve_forever()

asyncio.run(main())
"""


async def test_out_of_descriptors_pauses_accepting_logs_once_and_resumes(
    tmp_path: Path,
) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        EMFILE_SERVER,
        str(tmp_path),
        "48",  # file descriptors for the whole server process
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert process.stdout is not None and process.stderr is not None
    log: list[str] = []

    async def log_line(containing: str) -> None:
        assert process.stderr is not None
        while not any(containing in line for line in log):
            line = await asyncio.wait_for(process.stderr.readline(), HANG)
            assert line, "the server ended:\n" + "".join(log)
            log.append(line.decode())

    flood: list[socket.socket] = []
    try:
        port = int(await asyncio.wait_for(process.stdout.readline(), HANG))
        for _ in range(80):  # more than it has descriptors for (the rest wait in the queue)
            flood.append(socket.create_connection(("127.0.0.1", port), timeout=HANG))
        await log_line("out of file descriptors")
        for sock in flood:
            sock.close()
        flood.clear()
        await log_line("accepting connections again")
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        raw = Raw(reader, writer)
        assert (await raw.hello("After"))["type"] == "welcome"
        raw.close()
    finally:
        for sock in flood:
            sock.close()
        process.terminate()
        _, rest = await asyncio.wait_for(process.communicate(), HANG)
        log.append(rest.decode())
    text = "".join(log)
    assert text.count("out of file descriptors") == 1, text
    assert "Traceback" not in text, text


# ---------------------------------------------------------------- vanished clients
async def test_the_server_pings_and_a_client_that_stops_answering_loses_its_seat_to_grace(
    tmp_path: Path,
) -> None:
    ping, dead, grace = 5.0, 10.0, 60.0
    limits = fast(ping_seconds=ping, dead_seconds=dead, grace_seconds=grace)
    async with serving(tmp_path, limits) as served:
        vanishing = await hello(served, "Ada")
        table = (await vanishing.reply(OPEN2))["table"]["table"]
        assert (await vanishing.reply({"type": "join", "table": table}))["type"] == "joined"
        old = await hello(served, "Old")  # a client of before pings: never answers
        other = (await old.reply(OPEN2))["table"]["table"]
        assert (await old.reply({"type": "join", "table": other}))["type"] == "joined"
        bo = await served.client("Bo")  # the app's client answers by itself
        await bo.join(table)
        hosted = served.server.tables[table]
        # the server's own pings; Ada answers the first, then vanishes
        # (the socket stays open: nothing tells the server she is gone)
        await served.time.advance(ping)
        while (await vanishing.recv(pings=True))["type"] != "ping":
            pass  # the game's updates came first
        vanishing.send({"type": "pong"})
        for _ in range(1000):
            if any(c.answers_pings for c in served.server.connections if c.name == "Ada"):
                break
            await asyncio.sleep(0.001)
        answered_at = served.time.now
        while hosted.reconnecting() != [0]:
            assert served.time.now - answered_at <= ping + dead, "never taken for gone"
            await served.time.advance(ping)
        # within ping + dead seconds of her last word, and the grace starts
        update = await bo.wait_for(lambda u: 0 not in u.connected)
        assert bo.reconnecting == (0,)
        assert update.status == "playing"
        assert await vanishing.closed()
        # a client that never answered a ping is not dropped for it
        assert any(c.name == "Old" and c.seat == 0 for c in served.server.connections)
        # nor is the app's client, which answers
        assert served.server.tables[table].occupants[1].name == "Bo"
        await served.time.advance(grace)
        update = await bo.wait_for(lambda u: 0 in u.connected)
        assert hosted.table.record.seats[0].kind == "bot"  # the seat is played on
        old.close()
        await bo.close()


async def test_accepted_sockets_carry_tcp_keepalive_and_a_user_timeout(tmp_path: Path) -> None:
    limits = Limits(ping_seconds=4.0, dead_seconds=12.0)
    async with serving(tmp_path, limits) as served:
        raw = await hello(served, "Ada")
        (conn,) = served.server.connections
        sock = conn.writer.get_extra_info("socket")
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        if hasattr(socket, "TCP_KEEPIDLE"):
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 4
        if hasattr(socket, "TCP_USER_TIMEOUT"):
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == 12_000
        raw.close()


# ---------------------------------------------------------------- per address
async def test_serve_per_address_flag_seats_a_club_of_seventeen(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "from tui.cli import main; raise SystemExit(main())",
        "serve",
        "--port",
        "0",
        "--per-address",
        "17",
        "--data-dir",
        str(tmp_path),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    club: list[Raw] = []
    try:
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), HANG)).decode()
        port = int(line.split("127.0.0.1:")[1].split(";")[0])
        for i in range(17):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            club.append(Raw(reader, writer))
            assert (await club[-1].hello(f"Bot {i}"))["type"] == "welcome"
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        eighteenth = Raw(reader, writer)
        refusal = await eighteenth.recv()
        assert refusal["code"] == p.LIMIT and "--per-address" in refusal["message"]
        assert await eighteenth.closed()
    finally:
        for raw in club:
            raw.close()
        process.terminate()
        await asyncio.wait_for(process.wait(), HANG)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--per-address", "0"], "--per-address must be from 1"),
        (["--max-connections", "-5"], "--max-connections must be from 1"),
        (["--empty-table-expiry", "0"], "--empty-table-expiry must be more than 0"),
        (["--ping-interval", "30", "--dead-after", "10"], "--dead-after (10) must be at least"),
    ],
)
def test_bad_limit_flags_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], said: str
) -> None:
    from tui.cli import main

    assert main(["serve", *argv, "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert said in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------- computers only
async def test_tables_of_computers_only_play_at_a_bounded_pace(tmp_path: Path) -> None:
    pace, grace = 2.0, 5.0
    async with serving(tmp_path, fast(computers_only_pace=pace, grace_seconds=grace)) as served:
        mallory = await hello(served, "Mallory")
        bots = {"type": "create", "game": "domination", "seats": ["computer:easy"] * 2}
        made = await mallory.reply(bots)
        table = served.server.tables[made["table"]["table"]].table
        await served.time.sleeping_until(served.time.now + pace)
        await asyncio.sleep(0.05)  # the computer has chosen by now, and waits
        assert table.state_id == 0
        await served.time.advance(pace)
        await until(lambda: table.state_id == 1)
        # a person who leaves a computer for good: nobody but computers left
        mine = (await mallory.reply({**OPEN2, "seats": ["open", "computer:easy"]}))["table"]
        assert (await mallory.reply({"type": "join", "table": mine["table"]}))["type"] == "joined"
        left = served.server.tables[mine["table"]].table
        assert left.pace == 0.0  # a person plays: the server's own pace
        mallory.close()
        await until(lambda: served.server.tables[mine["table"]].reconnecting() == [0])
        # the grace's timer is a task of its own: time moves once it sleeps
        # (advanced before, under load, its sleep started after and never ended)
        await served.time.sleeping_until(served.time.now + grace)
        await served.time.advance(grace)
        await until(lambda: left.pace == pace and left.seats[0].kind == "bot")
