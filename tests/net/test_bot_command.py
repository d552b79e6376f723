"""`cardtable bot` as a person runs it: a table of any game (its number of
seats from the options or the rules), moves the server refused as too fast
sent again, and a result line in words (real sockets on 127.0.0.1; the bot
command runs in a thread of its own, the server on the test's loop)."""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path
from typing import Any

import pytest

from net.bot_player import TOO_FAST_DELAYS, play_game, result_line, sit_down
from net.remote import TooFast
from net.server import Limits
from rules.game import Outcome
from rules.registry import get_game, shipped
from tui.cli import main

from .netkit import HANG, Served, serving
from .test_server_games import SHORT, play_out


async def _created_table(served: Served) -> str:
    """The id of the table the bot command creates, once the bot sits there."""

    async def seated() -> str:
        while True:
            for table_id, hosted in served.server.tables.items():
                if hosted.tokens:
                    return table_id
            await asyncio.sleep(0.01)

    return await asyncio.wait_for(seated(), HANG)


async def _join_and_resign(served: Served, table_id: str, seats: list[int]) -> None:
    """People sit at ``seats`` (the game starts once all are taken), then resign."""
    people = []
    for seat in seats:
        person = await served.client(f"Person {seat + 1}")
        await person.join(table_id, seat)
        people.append(person)
    for person in people:
        await person.resign(person.my_seats[0])
    for person in people:
        await person.close()


@pytest.mark.parametrize(
    ("extra", "players"),
    [
        ([], get_game("stress").config().players),  # the game's own number: 4
        (["--players", "3"], 3),
        (["--option", "players=2", "--option", "stop_at_first=yes"], 2),
    ],
)
async def test_the_bot_creates_a_table_of_a_game_whose_players_are_an_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], players: int
) -> None:
    async with serving(tmp_path, Limits(burst=100_000)) as served:
        address = f"{served.host}:{served.port}"
        argv = ["bot", "--connect", address, "--game", "stress", "--level", "easy", *extra]
        bot = asyncio.ensure_future(asyncio.to_thread(main, argv))
        table_id = await _created_table(served)
        summary = served.server.tables[table_id].summary()
        assert summary["game"] == "stress" and summary["options"]["players"] == players
        assert len(summary["seats"]) == players
        assert summary["seats"][0]["name"] == "Bot (easy)"
        await _join_and_resign(served, table_id, list(range(1, players)))
        assert await asyncio.wait_for(bot, HANG) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert f"created table {table_id} (stress, {players - 1} more seat" in out
    last = out.strip().splitlines()[-1]
    # every other seat resigned, the last of them last
    assert last.startswith("cardtable bot: the bot won (") and last.endswith(
        f", Person {players} resigned)"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "stress", "--players", "9"], "option 'players' must be at most 8; got 9"),
        (["--game", "stress", "--option", "players=x"], "option 'players' takes a whole number"),
        (["--game", "stress", "--players", "3", "--option", "players=4"], "different numbers"),
        (["--game", "stress", "--preset", "nope"], "stress has no preset 'nope'"),
        (["--table", "abcdef12", "--players", "3"], "for a table it creates"),
    ],
)
def test_bad_table_options_are_one_line_before_connecting(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    # nobody listens on port 9 of 127.0.0.1: had it connected, the error would say so
    code = main(["bot", "--connect", "127.0.0.1:9", *argv])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


async def test_a_move_refused_as_too_fast_is_sent_again_after_a_pause(tmp_path: Path) -> None:
    """The server's fake clock stands still, so its message allowance refills
    only when the bot's pause moves it: with a burst of 3, the bot's hello,
    join and one `list` spend it all, and its first move is refused."""

    async def at_once(choose: Any, *args: Any) -> Any:
        return choose(*args)  # no thread: the test's loop runs everything

    async with serving(tmp_path, Limits(burst=3, messages_per_second=10)) as served:
        paused: list[float] = []

        async def pause(seconds: float) -> None:
            paused.append(seconds)
            await served.time.advance(seconds)  # 0.1 s at 10 a second: one message

        ada = await served.client("Ada")
        options = {"target_score": 20, "first_leader": "0"}  # the bot (seat 0) leads
        summary = await ada.create("domination", ["open", "open"], options=options)
        bot = await served.client("Bot")
        said: list[str] = []
        await sit_down(bot, summary.table, None, said.append)
        await bot.tables()  # the last of the bot's allowance
        await ada.join(summary.table)  # Ada's third message: the game starts
        playing = asyncio.ensure_future(
            play_game(bot, "easy", said.append, think=at_once, sleep=pause)
        )
        moved = await asyncio.wait_for(ada.wait_for(lambda u: u.state_id >= 1), HANG)
        assert paused == [TOO_FAST_DELAYS[0]], (paused, said)
        assert served.server.tables[summary.table].table.record.moves[0][0] == 0
        assert said == []  # not a refusal to report: the move went through
        await ada.resign(1)  # her allowance refilled with the pause
        outcome = await asyncio.wait_for(playing, HANG)
        assert outcome is not None and outcome.winner == 0 and moved.state_id >= 1
        for client in (ada, bot):
            await client.close()


async def test_the_remote_client_names_a_too_fast_refusal(tmp_path: Path) -> None:
    async with serving(tmp_path, Limits(burst=3)) as served:
        ada = await served.client("Ada")  # the hello: one of three
        created = await ada.create("domination", ["open", "computer:easy"])
        await ada.join(created.table)  # three of three
        first = ada.snapshot(0)
        with pytest.raises(TooFast, match="slow down"):
            await ada.play(0, "resign", first.state_id)
        assert served.server.tables[created.table].table.status == "playing"
        await ada.close()


def test_the_result_line_renders_the_app_s_templates() -> None:
    names = ["Ada", "Bo"]
    outcome = Outcome(1, ((1,), (0,)), (3, 0), "{p1 has|have} played every card: {p1 wins|win}")
    assert result_line(outcome, 0, names) == ("Bo won (3 to 0, Bo has played every card: Bo wins)")
    own = Outcome(None, ((0, 1),), (1, 1), "{p0's} last card and {p1:takes|take} the pot")
    assert (
        result_line(own, 0, names) == "the game is over (1 to 1, Ada's last card and takes the pot)"
    )


@pytest.mark.parametrize("game_id", shipped())
async def test_no_template_survives_in_the_bot_s_output(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    game_id: str,
) -> None:
    """A whole game of each against a person playing at random: every line
    the bot prints is words, whatever the game's result says."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # hundreds of saves; not the point here
    async with serving(tmp_path, Limits(burst=100_000)) as served:
        ada = await served.client("Ada")
        options = {"players": 2, **SHORT.get(game_id, {})}
        summary = await ada.create(game_id, ["open", "open"], options=options)
        table_id = summary.table
        await ada.join(table_id, 0)
        argv = ["bot", "--connect", f"{served.host}:{served.port}", "--table", table_id]
        bot = asyncio.ensure_future(asyncio.to_thread(main, [*argv, "--level", "easy"]))
        await asyncio.wait_for(ada.wait_for(lambda u: 1 in u.connected), HANG)
        await play_out([ada], random.Random(game_id))
        assert await asyncio.wait_for(bot, HANG) == 0
        reason = ada.snapshot(0).result
        await ada.close()
    out, err = capsys.readouterr()
    assert reason is not None and err == ""
    assert "{" not in out and "}" not in out, out
    assert out.strip().splitlines()[-1].startswith("cardtable bot: ")
