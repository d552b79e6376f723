"""The lobby's life over real sockets: a creator seated in the same request,
a table cancelled by its creator (and by nobody else), finished tables that
leave the list after a while, and subscribers told of every change. Time is
the fake clock of netkit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from net.server import Limits

from .netkit import Raw, Served, serving

VS_COMPUTER = {"game": "domination", "seats": ["open", "computer:easy"]}
TWO_OPEN = {"game": "domination", "seats": ["open", "open"]}


async def hello(served: Served, name: str) -> Raw:
    raw = await served.raw()
    assert (await raw.hello(name))["type"] == "welcome"
    return raw


async def pushed(raw: Raw) -> dict[str, Any]:
    """The next lobby push (other messages skipped)."""
    while True:
        message = await raw.recv()
        if message["type"] in ("table_update", "table_removed"):
            return message


async def test_create_with_sit_seats_the_creator_and_the_game_starts_in_joined(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        ada = await hello(served, "Ada")
        joined = await ada.reply({"type": "create", "id": 1, **VS_COMPUTER, "sit": True})
        assert (joined["type"], joined["id"], joined["seat"]) == ("joined", 1, 0)
        assert joined["table"]["status"] == "playing"
        assert joined["table"]["preset"] == "standard"  # named, though the create named none
        update = joined["update"]
        assert update["to_act"] and update["status"] == "playing"
        assert len(update["clocks"]) == len(update["clocks_ms"]) == 2
        assert isinstance(update["clocks_at_ms"], int)
        # a seat that is a computer's cannot be taken so
        got = await ada.reply({"type": "leave", "id": 2})
        got = await ada.reply({"type": "create", "id": 3, **VS_COMPUTER, "sit": True, "seat": 1})
        assert (got["code"], got["id"]) == ("bad_message", 3) and "open seat" in got["message"]
        got = await ada.reply({"type": "create", "id": 4, **VS_COMPUTER, "seat": 0})
        assert got["code"] == "bad_message" and "`sit`" in got["message"]
        ada.close()


async def test_the_creator_cancels_a_waiting_table_nobody_else_can(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        ada = await hello(served, "Ada")
        bo = await hello(served, "Bo")
        eve = await hello(served, "Eve")
        table = (await ada.reply({"type": "create", "id": 1, **TWO_OPEN}))["table"]["table"]
        got = await bo.reply({"type": "cancel", "id": 2, "table": table})
        assert got["code"] == "not_now" and "only who created" in got["message"]
        assert (await eve.reply({"type": "watch", "id": 3, "table": table}))["type"] == "watching"
        assert (await ada.reply({"type": "cancel", "id": 4, "table": table})) == {
            "type": "ok",
            "id": 4,
        }
        assert table not in served.server.tables
        closed = await eve.recv()
        assert closed == {
            "type": "closed",
            "table": table,
            "message": "the table closed: its creator cancelled it",
        }
        # seated creator: the seat goes with the table; someone else seated: refused
        joined = await ada.reply({"type": "create", "id": 5, **TWO_OPEN, "sit": True})
        mine = joined["table"]["table"]
        assert (await ada.reply({"type": "cancel", "id": 6, "table": mine}))["type"] == "ok"
        assert mine not in served.server.tables
        theirs = (await ada.reply({"type": "create", "id": 7, **TWO_OPEN}))["table"]["table"]
        assert (await bo.reply({"type": "join", "id": 8, "table": theirs}))["type"] == "joined"
        got = await ada.reply({"type": "cancel", "id": 9, "table": theirs})
        assert got["code"] == "not_now" and "someone else sits" in got["message"]
        for raw in (ada, bo, eve):
            raw.close()


async def test_subscribers_are_told_of_new_changed_and_removed_tables(tmp_path: Path) -> None:
    limits = Limits(finished_table_seconds=60.0)
    async with serving(tmp_path, limits) as served:
        ada = await hello(served, "Ada")
        eve = await hello(served, "Eve")
        assert (await eve.reply({"type": "subscribe", "id": 1})) == {"type": "ok", "id": 1}
        table = (await ada.reply({"type": "create", "id": 2, **VS_COMPUTER}))["table"]["table"]
        new = await pushed(eve)
        assert new["table"]["table"] == table and new["table"]["status"] == "waiting"
        assert (await ada.reply({"type": "join", "id": 3, "table": table}))["type"] == "joined"
        started = await pushed(eve)
        assert started["table"]["status"] == "playing"  # one push for the join and the start
        assert started["table"]["seats"][0]["name"] == "Ada"
        assert (await ada.reply({"type": "resign", "id": 4}))["type"] == "ok"
        ended = await pushed(eve)
        assert ended["table"]["status"] == "finished"
        # a finished table stays while someone is at it, then leaves after the while
        await served.time.advance(60.0)
        assert table in served.server.tables
        assert (await ada.reply({"type": "leave", "id": 5}))["type"] == "ok"
        assert (await pushed(eve))["table"]["table"] == table  # Ada left the seat
        await served.time.advance(60.0)
        assert table not in served.server.tables
        assert await pushed(eve) == {
            "type": "table_removed",
            "table": table,
            "reason": "the game is over",
        }
        listed = await ada.reply({"type": "list", "id": 6})
        assert listed["total"] == 0
        assert (await eve.reply({"type": "unsubscribe", "id": 7}))["type"] == "ok"
        await ada.reply({"type": "create", "id": 8, **VS_COMPUTER})
        got = await eve.reply({"type": "list", "id": 9})  # nothing pushed before it
        assert got["type"] == "tables" and got["total"] == 1
        for raw in (ada, eve):
            raw.close()


async def test_a_seated_client_that_sends_nothing_is_not_cut_off(tmp_path: Path) -> None:
    """At a table the idle timeout does not apply: the server's pings keep
    the connection checked; only the lobby's idlers are closed."""
    limits = Limits(idle_seconds=300.0, ping_seconds=10.0)
    async with serving(tmp_path, limits) as served:
        ada = await hello(served, "Ada")
        lurker = await hello(served, "Lurker")
        await ada.reply({"type": "create", "id": 1, **TWO_OPEN, "sit": True})
        for _ in range(40):  # 400 s, in steps the pings need
            await served.time.advance(10.0)
        assert await lurker.closed()
        assert any(c.name == "Ada" for c in served.server.connections)
        ada.close()


async def test_a_creator_who_sat_may_cancel_from_the_connection_that_took_the_seat_over(
    tmp_path: Path,
) -> None:
    """The creator's seat is the creator's wherever it goes: a `rejoin` from
    another connection (the player's new program) may cancel; a stranger not."""
    async with serving(tmp_path) as served:
        ada = await hello(served, "Ada")
        joined = await ada.reply({"type": "create", "id": 1, **TWO_OPEN, "sit": True})
        table, token = joined["table"]["table"], joined["token"]
        back = await hello(served, "Ada")
        rejoined = await back.reply({"type": "rejoin", "id": 2, "table": table, "token": token})
        assert rejoined["type"] == "joined"
        taken = await ada.recv()  # the old connection is told, and closed
        assert (taken["code"], taken["id"]) == ("not_now", None)
        assert await ada.closed()
        stranger = await hello(served, "Mallory")
        got = await stranger.reply({"type": "cancel", "id": 1, "table": table})
        assert got["code"] == "not_now" and "only who created" in got["message"]
        assert (await back.reply({"type": "cancel", "id": 3, "table": table}))["type"] == "ok"
        assert table not in served.server.tables
        for raw in (back, stranger):
            raw.close()


async def test_a_player_who_left_a_finished_table_is_listed_as_gone(tmp_path: Path) -> None:
    # an outside client saw "connected" on finished tables whose players had
    # left and disconnected long before (protocol review, the second round)
    async with serving(tmp_path) as served:
        ada = await hello(served, "Ada")
        joined = await ada.reply({"type": "create", "id": 1, **VS_COMPUTER, "sit": True})
        table = joined["table"]["table"]
        assert (await ada.reply({"type": "resign", "id": 2}))["type"] == "ok"
        assert (await ada.reply({"type": "leave", "id": 3}))["type"] == "ok"
        ada.close()
        eve = await hello(served, "Eve")
        listed = await eve.reply({"type": "list", "id": 1, "tables": [table]})
        [summary] = listed["tables"]
        assert summary["status"] == "finished"
        assert summary["seats"][0]["state"] == "gone"
        eve.close()
