"""The parts a table is built from (net/table_parts/), each on its own: the
spectators' encoded history, and the correspondence clocks (a day a move,
across a restart) on a fake wall clock."""

from __future__ import annotations

import asyncio

import msgspec

from net import protocol as p
from net.local import LocalClient, open_table
from net.table import Table
from net.table_parts.clocks import Deadline, MoveClocks, per_move
from net.table_parts.in_flight import cancel_and_wait
from rules.game import RESIGN, MoveClock
from rules.registry import get_game
from saves.record import GameRecord

from .helpers import HUMAN, HUMAN2, domination_config
from .netkit import FakeTime


def _two_people() -> LocalClient:
    return open_table(None, "domination", domination_config(), [HUMAN, HUMAN2], (0, 1), seed=5)


def _wire(client: LocalClient, seat: int | None) -> bytes:
    """The history as the lobby built it before: every event, each time."""
    return msgspec.json.encode(p.wire_events(client.table.history(seat)))


async def _play(client: LocalClient, moves: int) -> None:
    for _ in range(moves):
        seat = client.table.state.to_act()[0]
        await client.play(seat, client.snapshot(seat).legal[0], client.table.state_id)
    await client.idle()


async def test_the_encoded_history_is_the_wire_history_after_every_move() -> None:
    client = _two_people()
    audience = client.table.audience
    await client.start()
    assert audience.history_json(None) == _wire(client, None)
    for _ in range(6):
        await _play(client, 1)
        for seat in (None, 0, 1):
            # a seat's own draws stay its own: each perspective has its own history
            assert audience.history_json(seat) == _wire(client, seat)
    assert audience.history_json(0) != audience.history_json(1)
    await client.close()


async def test_a_follower_is_told_of_each_change_without_a_view_built_for_it() -> None:
    """``Table.follow`` (the server's registry waits for the end that way):
    called once per change, and no spectator's view is built for it."""
    client = _two_people()
    table = client.table
    changes: list[int] = []
    views: list[object] = []
    stop = table.follow(lambda: changes.append(table.state_id))
    real_view = table.state.view
    table.state.view = lambda seat: views.append(seat) or real_view(seat)  # type: ignore[method-assign]
    await client.start()
    await _play(client, 3)
    assert changes == [0, 1, 2, 3]  # the start, then each move
    assert views and None not in views  # the seats' own views only: their clients watch
    stop()
    await _play(client, 1)
    assert changes == [0, 1, 2, 3]
    await client.close()


async def test_the_encoded_history_starts_over_when_the_game_is_dealt_again() -> None:
    played = _two_people()
    await played.start()
    await _play(played, 3)
    # a table brought back with events (as a resumed one is), dealt again before its start
    spec, config = get_game("domination"), domination_config()
    record = GameRecord.new("domination", config, 5, [HUMAN, HUMAN2])
    events = played.table.history(None)
    table = Table(spec, spec.new(config, 5, None), record, None, events=events)
    before = table.audience.history_json(None)
    assert before == _wire(played, None) != b"[]"
    table.redeal(99)
    assert table.audience.history_json(None) == b"[]"
    await played.close()


# ------------------------------------------------------------ correspondence clocks
DAY = 86_400.0
HOUR = 3_600.0


def no_clock(seat: int) -> MoveClock | None:
    return None  # the game's own clocks: none (the table's per_move decides)


class Correspondence:
    """A table's clocks of a day a move on a fake wall clock, and the timeouts
    the watchdog asked for."""

    def __init__(self, time: FakeTime) -> None:
        self.time = time
        self.made = {0: 0, 1: 0}  # moves each seat has made
        self.timed_out: list[int] = []
        self.clocks = MoveClocks(time.clock, time.sleep, lambda: True, self.expire)
        self.clocks.override = per_move(DAY, self.made.__getitem__, "resign")

    async def expire(self) -> None:
        for seat, turn, end in self.clocks.run_out():
            if self.clocks.take(seat, turn, end):
                self.timed_out.append(seat)


async def _settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


async def test_a_correspondence_clock_is_per_move_restarted_by_the_seats_own_move() -> None:
    time = FakeTime()
    table = Correspondence(time)
    clocks = table.clocks
    clocks.arm(no_clock, [0])
    assert clocks.time_left(0) == DAY and clocks.time_left(1) is None
    await time.advance(5 * HOUR)
    clocks.arm(no_clock, [0, 1])  # seat 1 must act too: seat 0's clock runs on
    assert clocks.time_left(0) == DAY - 5 * HOUR and clocks.time_left(1) == DAY
    table.made[0] += 1  # seat 0 moves, and must move again: a fresh day
    clocks.arm(no_clock, [0, 1])
    assert clocks.time_left(0) == DAY and clocks.time_left(1) == DAY
    clocks.arm(no_clock, [1])
    assert clocks.time_left(0) is None
    await time.advance(DAY)
    await _settle()
    assert table.timed_out == [1] and clocks.time_left(1) is None
    await cancel_and_wait([clocks.stop()])


async def test_a_correspondence_clock_survives_a_restart_of_the_server() -> None:
    time = FakeTime()
    before = Correspondence(time)
    before.clocks.arm(no_clock, [0])
    started = time.now
    await time.advance(5 * HOUR)
    kept = before.clocks.deadlines()  # what the server writes down with the table
    assert kept == {0: Deadline(0, started + DAY)}
    await cancel_and_wait([before.clocks.stop()])  # the server stops

    await time.advance(2 * HOUR)  # and starts again two hours later
    after = Correspondence(time)
    after.clocks.restore(kept)
    after.clocks.arm(no_clock, [0])  # the table starts: seat 0 still to move
    assert after.clocks.time_left(0) == DAY - 7 * HOUR  # neither restarted nor stopped
    await time.advance(DAY - 7 * HOUR - 1)
    await _settle()
    assert after.timed_out == []
    await time.advance(1)
    await _settle()
    assert after.timed_out == [0]
    await cancel_and_wait([after.clocks.stop()])


async def test_a_restored_clock_of_a_past_turn_is_dropped_and_one_overdue_runs_out() -> None:
    time = FakeTime()
    kept = {0: Deadline(0, time.now + HOUR), 1: Deadline(3, time.now - HOUR)}
    table = Correspondence(time)
    table.made[0] = 1  # seat 0 moved after the clock was kept: its turn is over
    table.made[1] = 3
    table.clocks.restore(kept)
    table.clocks.arm(no_clock, [0, 1])
    assert table.clocks.time_left(0) == DAY  # a fresh one for its new turn
    await _settle()
    assert table.timed_out == [1]  # ran out while the server was down: at once
    await cancel_and_wait([table.clocks.stop()])


async def test_a_table_with_a_day_a_move_plays_the_timeout_when_the_day_is_over() -> None:
    time = FakeTime()
    client = open_table(
        None,
        "domination",
        domination_config(),
        [HUMAN, HUMAN2],
        (0, 1),
        seed=5,
        clock=time.clock,
        sleep=time.sleep,
    )
    table = client.table

    def moves_made(seat: int) -> int:
        return sum(1 for mover, _ in table.record.moves if mover == seat)

    table.clocks.override = per_move(DAY, moves_made, RESIGN)
    await client.start()
    first = table.state.to_act()[0]
    assert table.time_left(first) == DAY
    await _play(client, 1)  # the other seat's day begins
    second = table.state.to_act()[0]
    assert second != first and table.time_left(second) == DAY
    await time.advance(DAY)
    await client.idle()
    assert table.status == "finished" and table.record.moves[-1] == (second, str(RESIGN))
    await client.close()
