"""A saved game played back as a TableClient: each position as one seat saw it,
nothing playable, and until the game is over only the seats of this computer's
people."""

from __future__ import annotations

import pytest

from net.client import Update
from net.replay import ReplayClient, ReplayGame, replay_perspectives
from rules.errors import IllegalMove
from rules.events import visible_events
from saves.record import SeatInfo
from tests.saves.helpers import finished_record, played_record


def test_every_position_of_the_record_is_rebuilt() -> None:
    record = played_record(moves=9)
    game = ReplayGame.build(record)
    assert game.last == 9 and not game.problem and not game.finished
    assert game.events[0] == []
    assert all(game.events[i] for i in range(1, 10))  # every move says what happened


def test_a_move_that_does_not_replay_stops_the_replay_there_and_says_why() -> None:
    record = played_record(moves=6)
    record.moves[3] = (record.moves[3][0], "QS")  # not in that hand
    game = ReplayGame.build(record)
    assert game.last == 3 and "Move 4 (QS) does not replay" in game.problem


def test_whose_eyes_a_replay_may_show() -> None:
    unfinished = played_record(moves=4)  # Ada here against the computer
    assert replay_perspectives(unfinished) == [0]
    unfinished.seats = [SeatInfo("Ada", "human"), SeatInfo("Bea", "human")]
    assert replay_perspectives(unfinished) == [0, 1]  # hot-seat: each person's own
    unfinished.seats = [SeatInfo("A", "bot", "easy"), SeatInfo("B", "bot", "hard")]
    assert replay_perspectives(unfinished) == [None]  # nobody here played: the public view
    assert replay_perspectives(finished_record()) == [0, 1, None]


def test_updates_carry_only_the_seats_view_and_its_events_and_nothing_to_play() -> None:
    game = ReplayGame.build(finished_record())
    client = ReplayClient(game, 0, 0)
    seen: list[Update] = []
    client.subscribe(seen.append)
    for position in range(1, game.last + 1):
        client.go(position)
        update = seen[-1]
        state = game.states[position]
        assert update.state_id == position and update.seat == 0
        assert update.view == state.view(0)
        assert list(update.events) == visible_events(game.events[position], 0)
        assert update.legal == ()
        assert update.scores == state.scores()
    assert seen[-1].over and seen[-1].result == game.states[-1].outcome()
    assert client.history(0) == visible_events([e for events in game.events for e in events], 0)


def test_going_back_or_jumping_sends_the_position_without_events() -> None:
    game = ReplayGame.build(played_record(moves=8))
    client = ReplayClient(game, 0, 8)
    seen: list[Update] = []
    client.subscribe(seen.append)
    client.go(3)
    assert seen[-1].state_id == 3 and seen[-1].events == ()
    assert client.history(0) == visible_events([e for events in game.events[:4] for e in events], 0)
    client.go(100)  # clamped to the end
    assert client.position == 8 and seen[-1].events == ()
    client.go(8)  # no change: nothing sent
    assert len(seen) == 2


async def test_nothing_can_be_played_and_no_other_seat_can_be_asked_for() -> None:
    client = ReplayClient(ReplayGame.build(played_record(moves=4)), 0, 2)
    with pytest.raises(IllegalMove, match="replay"):
        await client.play(0, "AS", 2)
    with pytest.raises(IllegalMove, match="replay"):
        await client.resign(0)
    with pytest.raises(ValueError):
        client.snapshot(1)  # the computer's hand is not this replay's to show
    with pytest.raises(ValueError):
        client.history(1)
