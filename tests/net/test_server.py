"""The table server over real sockets on 127.0.0.1: seats and tokens, the
grace period and what follows it, refused moves, spectators, chat, and the
limits. Time is the fake clock of netkit: nothing sleeps."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any, Literal

import pytest

from net import protocol as p
from net.client import StaleMove
from net.remote import RemoteClient, RemoteError
from net.server import Limits
from rules.errors import IllegalMove

from .netkit import Served, serving

OPTIONS = {"first_leader": "0", "target_score": 30}  # seat 0 leads


async def duel(
    served: Served, if_gone: Literal["computer", "resign"] = "computer"
) -> tuple[str, RemoteClient, RemoteClient]:
    """A domination table with two people seated: the game has started."""
    ada = await served.client("Ada")
    created = await ada.create("domination", ["open", "open"], options=OPTIONS, if_gone=if_gone)
    table = created.table
    bo = await served.client("Bo")
    await ada.join(table, 0)
    await bo.join(table, 1)
    await ada.wait_for(lambda u: bool(u.legal))
    return table, ada, bo


# ---------------------------------------------------------------- refused moves
async def test_stale_out_of_turn_and_illegal_moves_are_refused_and_change_nothing(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        table_id, ada, bo = await duel(served)
        table = served.server.tables[table_id].table
        before = table.state.snapshot()
        first = ada.snapshot(0)
        with pytest.raises(IllegalMove, match="not your turn"):
            await bo.play(1, first.legal[0], first.state_id)
        with pytest.raises(IllegalMove, match="ZZ"):
            await ada.play(0, "ZZ", first.state_id)
        with pytest.raises(StaleMove):
            await ada.play(0, first.legal[0], first.state_id + 1)
        assert table.state.snapshot() == before and table.state_id == 0
        # and the game goes on: the right move is taken
        await ada.play(0, first.legal[0], first.state_id)
        assert table.state_id == 1
        with pytest.raises(StaleMove):  # chosen at state 0, now 1
            await bo.play(1, "pass", 0)
        for client in (ada, bo):
            await client.close()


async def test_until_every_open_seat_is_taken_nobody_is_offered_a_move(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        ada = await served.client("Ada")
        created = await ada.create("domination", ["open", "open"], options=OPTIONS)
        table = created.table
        await ada.join(table, 0)  # seat 0 leads, but the game has not begun
        waiting = ada.snapshot(0)
        assert waiting.legal == () and waiting.to_act == ()
        with pytest.raises((RemoteError, IllegalMove), match="not started"):
            await ada.play(0, "AS", waiting.state_id)
        bo = await served.client("Bo")
        await bo.join(table, 1)
        begun = await ada.wait_for(lambda u: bool(u.legal))
        assert begun.to_act == (0,)
        for client in (ada, bo):
            await client.close()


async def test_computers_are_named_as_at_a_table_in_the_app(tmp_path: Path) -> None:
    # one computer is plain "Computer" (not "Computer 2" beside no Computer 1);
    # several are numbered among themselves, from 1, whatever their seats
    async with serving(tmp_path) as served:
        ada = await served.client("Ada")
        one = await ada.create("domination", ["open", "computer:medium"], options=OPTIONS)
        assert [s.name for s in one.seats] == [None, "Computer"]
        three = await ada.create(
            "stress", ["computer:easy", "open", "computer:hard", "computer:easy"]
        )
        assert [s.name for s in three.seats] == [
            "Computer 1",
            None,
            "Computer 2",
            "Computer 3",
        ]
        await ada.close()


# ---------------------------------------------------------------- tokens
async def test_a_dropped_player_takes_the_seat_back_with_the_token_and_only_with_it(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        table_id, ada, bo = await duel(served)
        other = await served.client("Cy")
        other_table = (await other.create("domination", ["open", "computer:easy"])).table
        await other.join(other_table)
        foreign = other.token
        token = ada.token
        assert token is not None and foreign is not None
        await ada.close()  # the connection drops
        await bo.wait_for(lambda u: 0 not in u.connected)
        assert bo.reconnecting == (0,)
        seats = (await bo.tables())[0].seats
        assert seats[0].state == "reconnecting"

        thief = await served.client("Mallory")
        for wrong in ("x" * 32, token[:-1] + ("A" if token[-1] != "A" else "B"), foreign):
            with pytest.raises(RemoteError) as refused:
                await thief.rejoin(table_id, wrong)
            assert refused.value.code == p.BAD_TOKEN
        with pytest.raises(RemoteError) as taken:
            await thief.join(table_id, 0)
        assert taken.value.code == p.SEAT_TAKEN
        assert thief.my_seats == ()

        back = await served.client("Ada")
        await back.rejoin(table_id, token)
        assert back.my_seats == (0,) and back.token not in (None, token)
        assert back.snapshot(0).legal  # the full position, its legal moves included
        await bo.wait_for(lambda u: 0 in u.connected)
        assert bo.reconnecting == ()
        # the old token is spent: it never works twice
        with pytest.raises(RemoteError) as reused:
            await thief.rejoin(table_id, token)
        assert reused.value.code == p.BAD_TOKEN
        update = back.snapshot(0)
        await back.play(0, update.legal[0], update.state_id)
        for client in (back, bo, other, thief):
            await client.close()


async def test_a_seat_not_reclaimed_in_time_goes_to_a_computer(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        table_id, ada, bo = await duel(served, if_gone="computer")
        token = ada.token
        assert token is not None
        await ada.close()
        await bo.wait_for(lambda u: 0 not in u.connected)
        # the grace timer sleeps first: time moves once it does
        await served.time.sleeping_until(served.time.now + served.server.limits.grace_seconds)
        await served.time.advance(served.server.limits.grace_seconds - 1)
        assert served.server.tables[table_id].table.seats[0].kind == "remote"
        await served.time.advance(1)
        # the computer took over seat 0 and plays its turn
        update = await bo.wait_for(lambda u: u.state_id >= 1)
        assert 0 in update.connected
        assert served.server.tables[table_id].table.seats[0].kind == "bot"
        # the player may take it back whenever they return (docs/protocol.md,
        # "Absent players"): tests/net/test_absent_players.py
        for client in (bo,):
            await client.close()


async def test_a_seat_not_reclaimed_in_time_resigns_if_the_table_says_so(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        _, ada, bo = await duel(served, if_gone="resign")
        await ada.close()
        await bo.wait_for(lambda u: 0 not in u.connected)
        # the grace timer sleeps first: time moves once it does
        await served.time.sleeping_until(served.time.now + served.server.limits.grace_seconds)
        await served.time.advance(served.server.limits.grace_seconds)
        final = await bo.wait_for(lambda u: u.over)
        assert final.result is not None and final.result.winner == 1
        await bo.close()


# ---------------------------------------------------------------- spectators, chat
async def test_spectators_only_watch_and_players_cannot_watch(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        table_id, ada, bo = await duel(served)
        eve = await served.client("Eve")
        await eve.watch(table_id)
        update = eve.snapshot(None)
        assert update.seat is None and update.legal == ()
        with pytest.raises(IllegalMove):
            await eve.play(0, ada.snapshot(0).legal[0], update.state_id)
        with pytest.raises(RemoteError) as refused:  # past the client's own check
            await eve.request(p.Move(move="pass", state_id=0))
        assert refused.value.code == p.NOT_NOW
        with pytest.raises(RemoteError):
            await ada.watch(table_id)
        for client in (ada, bo, eve):
            await client.close()


async def test_chat_and_names_reach_others_without_escapes_and_capped(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        _, ada, bo = await duel(served)
        await ada.say("\x1b]2;PWNED\x07hi\x00 there " + "x" * 900)
        await bo.request(p.ListTables())  # the chat went out before this reply
        (line,) = bo.chat
        assert line.name == "Ada" and line.seat == 0
        assert "\x1b" not in line.text and "\x00" not in line.text
        assert "PWNED" not in line.text and "hi" in line.text
        assert len(line.text) <= p.MAX_CHAT
        raw = await served.raw()
        welcome = await raw.hello("\x1b[2J\x9b31m" + "Evil" * 50)
        assert welcome["type"] == "welcome"
        assert welcome["name"].isprintable() and len(welcome["name"]) <= p.MAX_NAME
        raw.close()
        for client in (ada, bo):
            await client.close()


# ---------------------------------------------------------------- hostile input
HOSTILE: list[bytes | dict[str, Any]] = [
    b"this is not json\n",
    b"[1, 2, 3]\n",
    b"42\n",
    b'{"type": "move", "move": "AS", "state_id": 1' + b"0" * 3000 + b"}\n",
    b'{"a":' + b"[" * 8000 + b"\n",
    {"type": "move", "move": ["AS"], "state_id": 0},
    {"type": "move", "move": "AS", "state_id": "zero"},
    {"type": "create", "game": "domination", "seats": ["open", "open"], "options": {"x": {}}},
    {"type": "create", "game": "chess", "seats": ["open", "open"]},
    {"type": "create", "game": "domination", "seats": ["open"] * 5},
    {"type": "self-destruct"},
    {"type": "join", "table": "ffffffff"},
    b"\xff\xfe\xfd\n",
]


async def test_hostile_input_gets_error_replies_and_breaks_nothing(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        table_id, ada, bo = await duel(served)
        raw = await served.raw()
        assert (await raw.hello())["type"] == "welcome"
        for i, bad in enumerate(HOSTILE):
            if i % 5 == 4:  # a good message now and then: errors in a row stay few
                assert (await raw.reply({"type": "list", "id": 1}))["type"] == "tables"
            reply = await raw.reply(bad)
            assert reply["type"] == "error" and reply["message"], bad
            assert reply["code"] in (p.BAD_JSON, p.BAD_MESSAGE, p.BAD_OPTIONS, p.NO_TABLE)
        # this connection still works, and so do the table and its players
        assert len((await raw.reply({"type": "list", "id": 2}))["tables"]) == 1
        update = ada.snapshot(0)
        await ada.play(0, update.legal[0], update.state_id)
        assert served.server.tables[table_id].table.state_id == 1
        raw.close()
        for client in (ada, bo):
            await client.close()


async def test_an_over_long_line_gets_an_error_and_the_connection_closes(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        _, ada, bo = await duel(served)
        raw = await served.raw()
        await raw.hello()
        raw.send(b'{"type":"chat","text":"' + b"x" * (2 * p.MAX_LINE) + b'"}\n')
        reply = await raw.recv()
        assert reply["code"] == p.BAD_JSON and str(p.MAX_LINE) in reply["message"]
        assert await raw.closed()
        assert (await ada.tables())[0].status == "playing"
        for client in (ada, bo):
            await client.close()


async def test_repeated_bad_messages_close_that_connection_only(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        _, ada, bo = await duel(served)
        raw = await served.raw()
        await raw.hello()
        raw.send(b"nonsense\n" * served.server.limits.errors_in_a_row)
        assert await raw.closed()
        assert len(await ada.tables()) == 1
        for client in (ada, bo):
            await client.close()


async def test_a_flood_is_slowed_then_closed(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        raw = await served.raw()
        await raw.hello()
        raw.send(b'{"type":"list"}\n' * 200)
        replies = []
        try:
            while True:
                replies.append(await raw.recv())
        except ConnectionError:
            pass
        kinds = [r.get("code", r["type"]) for r in replies]
        limits = served.server.limits
        assert kinds.count("tables") < limits.burst  # the hello spent one
        assert p.TOO_FAST in kinds and kinds[-1] == p.LIMIT
        again = await served.client("Ada")  # the server is fine
        assert await again.tables() == []
        await again.close()


async def test_a_client_that_stops_reading_is_dropped(tmp_path: Path) -> None:
    limits = Limits(
        max_unsent=4096,
        burst=1000,
        messages_per_second=1000,
        chat_per_address_burst=1000,
        chat_per_table_burst=1000,
    )
    async with serving(tmp_path, limits) as served:
        table_id, ada, bo = await duel(served)
        lazy = await served.raw(limit=2048)  # its reader stops taking data early
        lazy.writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        await lazy.hello()
        await lazy.reply({"type": "watch", "table": table_id})
        for conn in served.server.connections:
            if conn.hosted is not None and conn.seat is None:
                sock = conn.writer.get_extra_info("socket")
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1024)
        # Ada talks a lot; the spectator reads none of it
        for _ in range(400):
            await ada.say("y" * 150)
            if not served.server.tables[table_id].spectators:
                break
        assert not served.server.tables[table_id].spectators  # dropped
        update = ada.snapshot(0)
        await ada.play(0, update.legal[0], update.state_id)  # the table never waited
        lazy.close()
        for client in (ada, bo):
            await client.close()


async def test_hello_is_required_in_time_and_in_a_version_the_server_speaks(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        silent = await served.raw()
        reply = await silent.reply({"type": "list", "id": 3})
        assert reply["code"] == p.NOT_NOW and reply["id"] == 3
        await served.time.advance(served.server.limits.hello_seconds - 1)
        silent.send(b"\n")  # a keep-alive does not stand in for the hello
        assert (await silent.reply({"type": "list", "id": 4}))["code"] == p.NOT_NOW
        await served.time.advance(1)
        reply = await silent.recv()
        assert reply["code"] == p.LIMIT and "hello" in reply["message"]
        assert await silent.closed()

        future = await served.raw()
        reply = await future.reply({"type": "hello", "version": 99, "client": "x", "name": "A"})
        assert reply["code"] == p.BAD_VERSION and "1" in reply["message"]
        assert await future.closed()


async def test_an_idle_connection_is_closed_and_blank_lines_keep_it_alive(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        idle = served.server.limits.idle_seconds
        raw = await served.raw()
        await raw.hello()
        for _ in range(3):
            await served.time.advance(idle - 1)
            raw.send(b"\n")  # a keep-alive
            assert (await raw.reply({"type": "list"}))["type"] == "tables"
        await served.time.advance(idle)
        reply = await raw.recv()
        assert reply["code"] == p.LIMIT
        assert await raw.closed()


async def test_connections_per_address_are_capped(tmp_path: Path) -> None:
    async with serving(tmp_path, Limits(per_address=2)) as served:
        first, second = await served.raw(), await served.raw()
        await first.hello()
        await second.hello()
        third = await served.raw()
        reply = await third.recv()
        assert reply["code"] == p.LIMIT
        assert await third.closed()
        second.close()
        first.close()


# ---------------------------------------------------------------- clocks
async def test_move_clocks_run_on_the_server_and_play_the_timeout_move(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        ada = await served.client("Ada")
        table_id = (await ada.create("trick", ["open", "open"], options={"timer": 60})).table
        bo = await served.client("Bo")
        await ada.join(table_id)
        await bo.join(table_id)
        start = await ada.wait_for(lambda u: bool(u.legal))
        assert start.clocks == (60.0, 60.0)  # both act at once, each with a minute
        await served.time.advance(59)
        assert served.server.tables[table_id].table.state_id == start.state_id
        await served.time.advance(1)
        later = await bo.wait_for(lambda u: u.state_id > start.state_id)
        assert any(e.kind == "timeout" for e in later.events)
        for client in (ada, bo):
            await client.close()


# ---------------------------------------------------------------- restarts
async def test_a_restarted_server_brings_the_table_back_and_players_rejoin_with_tokens(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        table_id, ada, bo = await duel(served)
        table = served.server.tables[table_id].table
        # Ada moves until Bo must answer (a lead Bo cannot follow hands the lead
        # straight back: the deal is fresh every run)
        while table.state.to_act() != (1,):
            update = await ada.wait_for(lambda u: bool(u.legal))
            await ada.play(0, next(m for m in update.legal if m != "concede"), update.state_id)
        moved = table.state_id
        before = table.state.snapshot()
        await served.server.tables[table_id].table.idle()
        tokens = (ada.token, bo.token)
        assert None not in tokens
        for client in (ada, bo):
            await client.close()
    async with serving(tmp_path) as again:  # the same data folder
        hosted = again.server.tables[table_id]
        assert hosted.table.state.snapshot() == before
        assert hosted.reconnecting() == [0, 1]
        mallory = await again.client("Mallory")
        with pytest.raises(RemoteError):
            await mallory.rejoin(table_id, "not-a-token")
        ada = await again.client("Ada")
        bo = await again.client("Bo")
        await ada.rejoin(table_id, str(tokens[0]))
        await bo.rejoin(table_id, str(tokens[1]))
        assert bo.snapshot(1).state_id == moved and bo.snapshot(1).legal
        assert hosted.reconnecting() == []
        update = bo.snapshot(1)
        await bo.play(1, update.legal[0], update.state_id)
        assert hosted.table.state_id == moved + 1
        for client in (ada, bo, mallory):
            await client.close()


async def test_a_table_brought_back_before_any_move_keeps_the_names_of_its_players(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        table_id, ada, bo = await duel(served)  # started; nobody has moved
        waiting = (await ada.create("domination", ["open", "computer:easy"])).table
        cy = await served.client("Cy")
        await cy.join(waiting, 0)  # a game not begun: the computer waits for a second person
        assert served.server.tables[table_id].table.state_id == 0
        tokens = (ada.token, bo.token)
        for client in (ada, bo, cy):
            await client.close()
    async with serving(tmp_path) as again:
        names = [s.name for s in again.server.tables[table_id].table.seats]
        assert names == ["Ada", "Bo"]
        assert again.server.tables[waiting].table.seats[0].name == "Cy"
        ada = await again.client("Ada")
        await ada.rejoin(table_id, str(tokens[0]))
        assert [s.name for s in ada.seats] == ["Ada", "Bo"]  # what the screens show
        await ada.close()


async def test_a_finished_game_is_not_brought_back(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        table_id, ada, bo = await duel(served, if_gone="resign")
        await ada.resign(0)
        await served.server.tables[table_id].table.idle()
        for client in (ada, bo):
            await client.close()
    async with serving(tmp_path) as again:
        assert table_id not in again.server.tables


# ---------------------------------------------------------------- the client reconnects
async def test_a_dropped_client_takes_its_seat_back_by_itself(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        _, ada, bo = await duel(served)
        changes: list[str] = []
        ada.on_connection.append(changes.append)
        seen: list[Any] = []
        ada.subscribe(seen.append)
        old_token = ada.token
        for conn in list(served.server.connections):
            if conn.seat == 0:
                conn.writer.transport.abort()  # the line breaks
        await ada.wait_for(lambda _: ada.token != old_token and ada.connection == "connected")
        assert changes == ["reconnecting", "connected"]
        assert seen and seen[-1].legal  # the full position again, to redraw from
        update = ada.snapshot(0)
        await ada.play(0, update.legal[0], update.state_id)
        await bo.wait_for(lambda u: u.state_id == 1 and 0 in u.connected)
        for client in (ada, bo):
            await client.close()


async def test_a_client_that_cannot_get_back_says_so(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        _, ada, bo = await duel(served)
        ada.retry_delays = (0.0, 0.0)
        await served.server.close()  # the server is gone
        with pytest.raises(ConnectionError):
            await ada.wait_for(lambda u: False)
        assert ada.connection == "closed"
        for client in (ada, bo):
            await client.close()
