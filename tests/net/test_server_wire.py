"""The server defects an outside client found (findings/protocol-2026-11-24),
each sent as the exact bytes: bad UTF-8 inside a string, a seat out of range,
an upper-case table id, a deep tower of brackets, a move after the end, and
moves in a simultaneous round that a hidden submission must not make stale."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .netkit import Raw, Served, serving


async def seated(served: Served, game: str, seats: list[str], **create: Any) -> tuple[Raw, str]:
    """A raw client seated at a new table of ``game`` (``create`` with ``sit``)."""
    raw = await served.raw()
    await raw.hello("Ada")
    joined = await raw.reply(
        {"type": "create", "id": 2, "game": game, "seats": seats, "sit": True, **create}
    )
    assert joined["type"] == "joined", joined
    return raw, joined["table"]["table"]


async def test_bad_utf8_inside_a_string_is_bad_json_and_the_connection_stays(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        raw = await served.raw()
        got = await raw.reply(b'{"type":"hello","version":1,"client":"t","name":"Jos\xe9"}\n')
        assert (got["type"], got["code"]) == ("error", "bad_json")
        assert "UTF-8" in got["message"]
        assert (await raw.hello())["type"] == "welcome"  # still connected
        got = await raw.reply(b'{"type":"chat","id":4,"text":"caf\xe9"}\n')
        assert (got["code"], got["id"]) == ("bad_json", None)
        assert (await raw.reply({"type": "list", "id": 5}))["type"] == "tables"


async def test_a_seat_out_of_range_is_bad_message_not_seat_taken(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        raw = await served.raw()
        await raw.hello()
        created = await raw.reply(
            {"type": "create", "id": 1, "game": "domination", "seats": ["open", "computer:easy"]}
        )
        table = created["table"]["table"]
        got = await raw.reply({"type": "join", "id": 2, "table": table, "seat": 5})
        assert (got["code"], got["id"]) == ("bad_message", 2)
        assert "no seat 5" in got["message"] and "0 to 1" in got["message"]
        got = await raw.reply({"type": "join", "id": 3, "table": table, "seat": 1})
        assert got["code"] == "seat_taken"  # a computer's seat: in range, not open


async def test_an_upper_case_table_id_names_the_same_table(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        raw = await served.raw()
        await raw.hello()
        created = await raw.reply(
            {"type": "create", "id": 1, "game": "domination", "seats": ["open", "computer:easy"]}
        )
        table = created["table"]["table"]
        listed = await raw.reply({"type": "list", "id": 2, "tables": [table.upper()]})
        assert [t["table"] for t in listed["tables"]] == [table]
        joined = await raw.reply({"type": "join", "id": 3, "table": table.upper()})
        assert joined["type"] == "joined" and joined["table"]["table"] == table


async def test_deep_nesting_is_nested_too_deeply(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        raw = await served.raw()
        await raw.hello()
        tower = b'{"type":"chat","id":5,"z":' + b"[" * 8000 + b"]" * 8000 + b"}\n"
        got = await raw.reply(tower)
        assert (got["code"], got["message"]) == (
            "bad_json",
            "the JSON is nested too deeply (at most 16 levels)",
        )
        # brackets inside a string are text, not nesting
        got = await raw.reply({"type": "list", "id": 6, "game": "[" * 40})
        assert got["type"] == "tables"


async def test_a_move_or_a_resignation_after_the_end_is_not_now(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        raw, _ = await seated(served, "domination", ["open", "computer:easy"])
        assert (await raw.reply({"type": "resign", "id": 3}))["type"] == "ok"
        for message in (
            {"type": "move", "id": 4, "move": "3D", "state_id": 1},
            {"type": "resign", "id": 5},
        ):
            got = await raw.reply(message)
            assert got["code"] == "not_now" and "the game is over" in got["message"]


async def latest(raw: Raw, until: Any) -> dict[str, Any]:
    """Read game updates until one satisfies ``until``; return it."""
    while True:
        message = await raw.recv()
        if message["type"] == "game" and until(message["update"]):
            update: dict[str, Any] = message["update"]
            return update


async def test_a_hidden_submission_does_not_make_another_seats_move_stale(
    tmp_path: Path,
) -> None:
    """Trick's rounds are simultaneous: Bea's submission raises the state id,
    but Ada's legal moves stay the same, so Ada's move chosen before it is
    taken. A move chosen before Ada's own options changed is still stale."""
    async with serving(tmp_path) as served:
        ada, table = await seated(served, "trick", ["open", "open"])
        bea = await served.raw()
        await bea.hello("Bea")
        joined = await bea.reply({"type": "join", "id": 2, "table": table})
        first = joined["update"]
        assert first["to_act"] == [0, 1] and first["legal"]  # `joined` starts the game
        ada_first = await latest(ada, lambda u: bool(u["legal"]))
        assert ada_first["state_id"] == first["state_id"]
        got = await bea.reply(
            {"type": "move", "id": 3, "move": first["legal"][0], "state_id": first["state_id"]}
        )
        assert got["type"] == "ok", got
        after = await latest(ada, lambda u: u["state_id"] > first["state_id"])
        assert after["legal"] == ada_first["legal"]  # Ada's options did not change
        got = await ada.reply(
            {"type": "move", "id": 4, "move": ada_first["legal"][0], "state_id": first["state_id"]}
        )
        assert got["type"] == "ok", got
        # Ada's own move ended the round: the next one is a new choice (even
        # with the same options), so a move chosen before it is stale
        now = served.server.tables[table].table.snapshot(0)
        assert now.state_id == first["state_id"] + 2 and now.legal
        got = await ada.reply(
            {"type": "move", "id": 5, "move": now.legal[0], "state_id": first["state_id"]}
        )
        assert got["code"] == "stale", got
