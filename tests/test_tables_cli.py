"""Where you are awaited (issue 39 item 3): a table's summary says which seats
the game waits for and their clocks, and `cardtable tables` asks every server
where this app holds a seat, two of them here."""

from __future__ import annotations

import asyncio
import json
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from net.grants import Grants
from net.remote import RemoteClient
from tests.net.netkit import Served, serving
from tui import cli
from tui.awaited import ask_everywhere, report_lines, your_turns
from tui.clock_words import per_move_text, time_left_text
from tui.network import HeldSeats

TITLES = {"domination": "Domination", "territory": "Territory"}


async def test_a_summary_says_whose_turn_it_is_and_their_clock(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        ada, bo = await served.client("Ada"), await served.client("Bo")
        summary = await ada.create("territory", ["open", "open"], options={"timer": 90})
        await ada.join(summary.table)
        await bo.join(summary.table)
        first = await ada.wait_for(lambda u: bool(u.to_act))
        (listed,) = await bo.tables([summary.table])
        mover = first.to_act[0]
        assert [s.acts for s in listed.seats] == [s == mover for s in (0, 1)]
        assert listed.seats[mover].clock == 90 and listed.seats[1 - mover].clock is None
        mine = ada if mover == 0 else bo
        update = mine.snapshot(mover)
        await mine.play(mover, update.legal[0], update.state_id)
        await ada.wait_for(lambda u: u.state_id > first.state_id)
        (listed,) = await bo.tables([summary.table])
        # a move changes whose turn it is in the list, though no seat changed
        assert [s.acts for s in listed.seats] == [s != mover for s in (0, 1)]
        await ada.close()
        await bo.close()


async def _seat_held(
    served: Served, held: HeldSeats, first_leader: str
) -> tuple[str, RemoteClient, RemoteClient]:
    """A Domination table where "our" Ada holds seat 0 (her token kept, as the
    app keeps it) and Bo seat 1."""
    ada, bo = await served.client("Ada"), await served.client("Bo")
    summary = await ada.create(
        "domination", ["open", "open"], options={"first_leader": first_leader}
    )
    await ada.join(summary.table)
    await bo.join(summary.table)
    await ada.wait_for(lambda u: bool(u.to_act))
    assert ada.token is not None
    held.keep(ada.address, summary.table, ada.token, 0)
    return summary.table, ada, bo


async def test_tables_asks_every_server_and_says_where_it_is_your_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data, config = tmp_path / "data", tmp_path / "config"
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(data))
    monkeypatch.setenv("CARDTABLE_CONFIG_DIR", str(config))
    held = HeldSeats.of(data)
    async with AsyncExitStack() as stack:
        one = await stack.enter_async_context(serving(tmp_path / "one"))
        two = await stack.enter_async_context(serving(tmp_path / "two"))
        mine, *clients_one = await _seat_held(one, held, first_leader="0")
        theirs, *clients_two = await _seat_held(two, held, first_leader="1")
        held.keep(f"{two.host}:{two.port}", "abcdef12", "a-dead-token", 0)  # a table gone
        answers = await ask_everywhere(held, "Ada", grants=_grants(), config_dir=config)
        turns = your_turns(answers)
        assert [(t.address, t.table) for t in turns] == [(f"{one.host}:{one.port}", mine)]
        lines = report_lines(answers, TITLES)
        assert f"  {mine}  Domination, you vs Bo: your turn" in lines
        assert f"  {theirs}  Domination, you vs Bo: waiting for Bo" in lines
        assert lines[-1] == "Your turn at 1 table."
        # the table the server no longer has is forgotten
        assert "abcdef12" not in held.tables_here(f"{two.host}:{two.port}")

        # and the command, as a player runs it (its own event loop, in a thread)
        code = await asyncio.to_thread(cli.main, ["tables"])
        out = capsys.readouterr().out
        assert code == 0
        assert f"{one.host}:{one.port}:" in out and "Your turn at 1 table." in out
        code = await asyncio.to_thread(cli.main, ["tables", "--json"])
        report = json.loads(capsys.readouterr().out)
        assert report["your_turn"] == 1
        assert {t["table"]: t["your_turn"] for s in report["servers"] for t in s["tables"]} == {
            mine: True,
            theirs: False,
        }
        for client in (*clients_one, *clients_two):
            await client.close()


async def test_a_server_that_does_not_answer_is_named_and_the_others_still_told(
    tmp_path: Path,
) -> None:
    held = HeldSeats.of(tmp_path)
    async with serving(tmp_path / "one") as one:
        mine, *clients = await _seat_held(one, held, first_leader="0")
        listener = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)  # says nothing
        silent = listener.sockets[0].getsockname()[1]
        held.keep(f"127.0.0.1:{silent}", "abcdef12", "token", 0)
        from tui import awaited

        answers = await asyncio.gather(
            awaited.ask_server(
                f"127.0.0.1:{silent}",
                {"abcdef12": 0},
                "Ada",
                grants=_grants(),
                config_dir=None,
                timeout=0.2,
            ),
            awaited.ask_server(
                f"{one.host}:{one.port}", {mine: 0}, "Ada", grants=_grants(), config_dir=None
            ),
        )
        lines = report_lines(answers, TITLES)
        assert lines[0] == f"127.0.0.1:{silent}: cannot ask (no answer within 0.2 s)"
        assert lines[-1] == "Your turn at 1 table."
        listener.close()
        for client in clients:
            await client.close()


def test_time_left_reads_in_the_unit_that_fits() -> None:
    assert time_left_text(42) == "0:42"
    assert time_left_text(3 * 3600 + 5 * 60) == "3 h 05 min"
    assert time_left_text(86400 + 4 * 3600) == "1 day 4 h"
    assert time_left_text(2 * 86400) == "2 days"
    assert time_left_text(0.2) == "0:01"  # a clock not yet out reads as time left


def test_a_correspondence_pace_in_words() -> None:
    assert per_move_text(86400) == "a move a day"
    assert per_move_text(3 * 86400) == "a move every 3 days"
    assert per_move_text(3600) == "a move an hour"
    assert per_move_text(12 * 3600) == "a move every 12 h"


def test_the_held_seats_of_an_older_app_are_read(tmp_path: Path) -> None:
    held = HeldSeats.of(tmp_path)
    held.path.parent.mkdir(parents=True)
    held.path.write_text(json.dumps({"127.0.0.1:7777/abcdef12": "old-token"}))
    assert held.get("127.0.0.1:7777", "abcdef12") == "old-token"
    assert held.everywhere() == {"127.0.0.1:7777": {"abcdef12": None}}
    held.keep("127.0.0.1:7777", "0123abcd", "new-token", 1)
    assert held.everywhere() == {"127.0.0.1:7777": {"abcdef12": None, "0123abcd": 1}}


def _grants() -> Grants:
    return Grants()
