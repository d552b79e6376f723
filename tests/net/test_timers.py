"""Move clocks and simultaneous rounds, on the tiny `duel` game (tests/net/duel.py).

Time is a fake clock that only the test moves: nothing here sleeps.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Hashable
from typing import Any

import pytest

from net import table as table_module
from net.client import StaleMove
from net.local import LocalClient, open_table
from net.table import Table
from rules.bots import Bot, Situation
from rules.errors import IllegalMove
from rules.events import SeatEvent
from rules.registry import get_game
from saves.record import GameRecord, SeatInfo
from tests.fake_time import FakeTime

from .duel import SPEC
from .helpers import BOT, HUMAN, HUMAN2, Recorder


def _duel(
    seats: list[SeatInfo],
    clock: FakeTime,
    *,
    virtual: bool = False,
    **options: Any,
) -> LocalClient:
    config = SPEC.config(**options)
    record = GameRecord.new("duel", config, 0, seats)
    # virtual: a timer runs out on its own, time jumping ahead; else its sleep
    # never wakes (nothing advances the clock) and the test calls
    # expire_clocks() itself
    sleep = clock.leap if virtual else clock.sleep
    table = Table(SPEC, SPEC.new(config), record, None, clock=clock, sleep=sleep)
    # one client for both people, as if each were at a screen of their own
    # (hot-seat clocks are tested on their own below)
    humans = tuple(i for i, s in enumerate(seats) if s.kind == "human")
    return LocalClient(table, humans, one_screen=False)


async def test_the_clock_length_comes_from_the_rules() -> None:
    clock = FakeTime()
    client = _duel([HUMAN, HUMAN2], clock, timer=45)
    await client.start()
    assert client.table.time_left(0) == 45.0
    assert client.snapshot(0).clocks == (45.0, 45.0)


async def test_both_seats_act_at_once_and_picks_stay_hidden() -> None:
    clock = FakeTime()
    client = _duel([HUMAN, HUMAN2], clock)
    rec = Recorder(client)
    await client.start()
    assert client.table.state.to_act() == (0, 1)
    await client.play(1, "3", 0)
    with pytest.raises(IllegalMove, match="already picked"):
        await client.play(1, "2", 1)
    seen_by_0 = rec.for_seat(0)[-1]
    assert seen_by_0.view.my_pick is None and seen_by_0.view.picked == [False, True]
    assert [e.render(["A", "B"]) for e in seen_by_0.events] == ["B has picked."]
    assert [e.render(["A", "B"], (1,)) for e in rec.for_seat(1)[-1].events] == ["You pick 3."]
    assert seen_by_0.legal == ("1", "2", "3") and rec.for_seat(1)[-1].legal == ()
    # a move chosen before seat 1 picked is stale: refused, nothing changes
    with pytest.raises(StaleMove):
        await client.play(0, "2", 0)
    assert client.table.state_id == 1
    await client.play(0, "2", 1)
    assert client.table.state.points == [0, 1]
    assert client.table.state_id == 2
    assert rec.for_seat(0)[-1].scores == (0, 1)


async def test_no_clock_where_the_rules_give_none() -> None:
    clock = FakeTime()
    no_length = _duel([HUMAN, HUMAN2], clock, timer=0)
    await no_length.start()
    assert no_length.table.time_left(0) is None
    assert no_length.snapshot(0).clocks == (None, None)


async def test_a_seat_that_runs_out_of_time_plays_the_timeout_move() -> None:
    clock = FakeTime()
    client = _duel([HUMAN, HUMAN2], clock, timer=10)
    rec = Recorder(client)
    await client.start()
    table = client.table
    assert table.time_left(0) == table.time_left(1) == 10.0
    assert rec.updates[0].time_left == 10.0
    clock.now += 3
    await client.play(0, "3", 0)  # seat 0 picks in time...
    assert table.time_left(0) is None  # ...and waits for seat 1, untimed
    assert table.time_left(1) == 7.0  # seat 1's clock kept running
    clock.now += 6.5
    await table.expire_clocks()
    assert table.state_id == 1  # not yet
    clock.now += 0.5
    await table.expire_clocks()
    assert table.state_id == 2
    assert client.table.record.moves == [(0, "3"), (1, "1")]
    kinds = [e.kind for e in rec.for_seat(0)[-1].events]
    assert kinds[0] == "timeout" and "reveal" in kinds
    assert rec.for_seat(0)[-1].events[0].render(["Ada", "Bo"]) == "Bo ran out of time."
    # a new round: both clocks start again from the full length
    assert table.time_left(0) == table.time_left(1) == 10.0


async def test_running_out_of_time_is_no_news_to_a_seat_still_choosing() -> None:
    # both clocks end at once: seat 0's runs out first while seat 1 still
    # chooses, and must not learn that seat 0 chose nothing before the reveal
    clock = FakeTime()
    client = _duel([HUMAN, HUMAN2], clock, timer=10)
    rec = Recorder(client)
    await client.start()
    clock.now += 10
    await client.table.expire_clocks()
    assert client.table.record.moves == [(0, "1"), (1, "1")]
    told_1 = [(e.kind, e.data) for u in rec.for_seat(1) for e in u.events]
    told_0 = [(e.kind, e.data) for u in rec.for_seat(0) for e in u.events]
    reveal = [kind for kind, _ in told_1].index("reveal")
    assert ("timeout", SeatEvent(seat=0)) not in told_1[:reveal]
    assert ("timeout", SeatEvent(seat=0)) in told_0
    # seat 1's own clock ran out with nobody else choosing: everyone is told
    assert ("timeout", SeatEvent(seat=1)) in told_0


async def test_a_paused_table_stops_every_clock() -> None:
    clock = FakeTime()
    client = _duel([HUMAN, HUMAN2], clock, timer=10)
    rec = Recorder(client)
    await client.start()
    table = client.table
    clock.now += 4
    await client.pause(True)
    assert rec.updates[-1].paused and rec.updates[-1].clocks == (6.0, 6.0)
    clock.now += 100  # a long look at the menu
    await table.expire_clocks()
    assert table.state_id == 0 and table.time_left(0) == 6.0
    await client.pause(False)
    assert not rec.updates[-1].paused
    clock.now += 5.5
    await table.expire_clocks()
    assert table.state_id == 0
    clock.now += 0.5
    await table.expire_clocks()
    assert table.record.moves == [(0, "1"), (1, "1")]


async def test_timers_run_out_on_their_own_and_finish_the_game() -> None:
    clock = FakeTime()
    client = _duel([HUMAN, HUMAN2], clock, timer=20, virtual=True, rounds=3)
    finished = asyncio.Event()
    client.subscribe(lambda u: finished.set() if u.over else None)
    start = clock.now
    await client.start()
    await asyncio.wait_for(finished.wait(), timeout=10)  # a guard against a hang only
    assert client.table.record.moves == [(0, "1"), (1, "1")] * 3
    assert clock.now - start == pytest.approx(60.0)  # three rounds of 20 virtual seconds
    await client.close()


async def test_bots_have_no_clock_and_a_resignation_stops_the_clock() -> None:
    clock = FakeTime()
    client = _duel([HUMAN, BOT], clock, timer=10)
    await client.start()
    await client.idle()  # the bot picks at once
    table = client.table
    assert table.time_left(1) is None
    assert table.time_left(0) == 10.0
    await client.resign(0)
    assert table.time_left(0) is None and table.status == "finished"
    result = client.snapshot(0).result
    assert result is not None and result.winner == 1 and result.reason == "{p0} resigned"
    clock.now += 100
    await table.expire_clocks()
    assert table.record.moves == [(1, table.record.moves[0][1]), (0, "resign")]


async def test_trick_round_clock_through_open_table() -> None:
    # the real simultaneous game: its rules give the clock, and a person who
    # lets it run out submits the clock's timeout move
    spec = get_game("trick")
    config = spec.config()
    clock = FakeTime()
    client = open_table(
        None, "trick", config, [HUMAN, BOT], (0,), seed=9, clock=clock, sleep=clock.sleep
    )
    await client.start()
    await client.idle()  # the bot submits at once; the person has not
    table = client.table
    rule = table.state.clock(0)
    assert rule is not None and rule.seconds == config.timer
    assert table.time_left(0) == rule.seconds and table.time_left(1) is None
    clock.now += rule.seconds
    await table.expire_clocks()
    assert (0, str(rule.timeout_move)) in table.record.moves
    assert any(e.kind == "timeout" for e in client.history(0))
    await client.close()


async def test_claim_priority_restarts_both_clocks() -> None:
    # trick `final`: after both Claims collide, taking the pot with Claim
    # Priority resets the round's timer (the seed: "the timer for the next
    # round will reset"): the rules change the clock's turn key
    spec = get_game("trick")
    config = spec.config("final", timer=60)
    clock = FakeTime()
    record = GameRecord.new("trick", config, 1, [HUMAN, HUMAN2])
    table = Table(spec, spec.new(config, 1), record, None, clock=clock, sleep=clock.sleep)
    client = LocalClient(table, (0, 1), one_screen=False)  # two screens: both clocks run
    await client.start()
    for a, b in (
        ("grow+score", "grow+steal"),
        ("grow+steal", "score+block:score"),
        ("claim+score", "claim+grow"),  # the Claims collide: the window opens
    ):
        await client.play(0, a, table.state_id)
        await client.play(1, b, table.state_id)
    clock.now += 40
    assert table.time_left(0) == 20.0 and table.time_left(1) == 20.0
    await client.play(1, "priority", table.state_id)
    assert table.time_left(0) == 60.0 and table.time_left(1) == 60.0
    await client.close()


async def test_hot_seat_people_get_their_clocks_one_after_the_other() -> None:
    # two people at one screen pick in turn: the second one's clock starts when
    # the first has picked, so it has the whole length too
    clock = FakeTime()
    config = SPEC.config(timer=10)
    table = Table(
        SPEC,
        SPEC.new(config),
        GameRecord.new("duel", config, 0, [HUMAN, HUMAN2]),
        None,
        clock=clock,
        sleep=clock.sleep,
    )
    client = LocalClient(table, (0, 1))  # hot-seat
    await client.start()
    assert table.time_left(0) == 10.0 and table.time_left(1) is None
    clock.now += 8
    await table.expire_clocks()
    assert table.state_id == 0
    await client.play(0, "2", 0)
    assert table.time_left(1) == 10.0
    clock.now += 10
    await table.expire_clocks()  # seat 1 took too long
    assert table.record.moves == [(0, "2"), (1, "1")]
    assert table.time_left(0) == 10.0 and table.time_left(1) is None  # the next round
    await client.close()


class _SlowBot(Bot):
    """Thinks until the test lets it answer; counts how often it is asked."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.asked = 0

    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        self.asked += 1
        self.go.wait(timeout=10)  # a guard against a hang only
        return 2


async def test_a_person_may_submit_while_the_bot_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = _SlowBot()
    monkeypatch.setattr(table_module, "make_bot", lambda game, level: bot)
    client = _duel([HUMAN, BOT], FakeTime(), rounds=1)
    await client.start()
    await client.play(0, "3", 0)  # the bot is still thinking in its worker thread
    assert client.table.state_id == 1 and client.table.thinking() == (1,)
    bot.go.set()
    await client.idle()
    assert client.table.record.moves == [(0, "3"), (1, "2")]
    assert client.table.status == "finished"
    assert bot.asked == 1  # its choice still stood: not asked again
    assert client.table.bot_errors == []


class _GatedBot(Bot):
    """Answers only once every bot of the phase has been asked: two of them
    finish only if they think at the same time."""

    def __init__(self, barrier: threading.Barrier) -> None:
        self.barrier = barrier

    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        self.barrier.wait(timeout=10)  # a guard against a hang only
        return 2


async def test_the_bots_of_a_simultaneous_phase_think_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    barrier = threading.Barrier(2)
    monkeypatch.setattr(table_module, "make_bot", lambda game, level: _GatedBot(barrier))
    client = _duel([BOT, BOT], FakeTime(), rounds=1)
    await client.start()
    assert client.table.thinking() == (0, 1)
    await asyncio.wait_for(client.idle(), timeout=20)
    assert sorted(client.table.record.moves) == [(0, "2"), (1, "2")]
    assert not barrier.broken


async def test_closing_the_table_abandons_a_bot_still_thinking(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot = _SlowBot()
    monkeypatch.setattr(table_module, "make_bot", lambda game, level: bot)
    client = _duel([HUMAN, BOT], FakeTime(), rounds=1)
    await client.start()
    await asyncio.sleep(0)  # the bot is in its thread now
    table = client.table
    await asyncio.wait_for(client.close(), timeout=5)  # does not wait for the bot
    bot.go.set()
    await asyncio.sleep(0.05)  # let the abandoned thread finish
    assert table.record.moves == [] and table.thinking() == ()
