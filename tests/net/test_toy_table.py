"""The table over the toy game (tests/toy_game.py): many seats, bots and people,
a simultaneous bid, turns of several steps, resignations, clocks, saves.

Time is a fake clock that only the test moves; nothing here sleeps.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from net.client import StaleMove, Update
from net.local import LocalClient, open_table, resume_table
from rules.cards import parse_card, rank
from rules.errors import IllegalMove
from rules.registry import get_game
from saves.record import SeatInfo
from saves.store import SaveStore
from tests.fake_time import FakeTime

SPEC = get_game("toy")  # registered by tests/conftest.py
CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[SHDC](?![A-Za-z0-9])")


def person(i: int) -> SeatInfo:
    return SeatInfo(f"Person {i + 1}", "human")


def bot(i: int, level: str = "easy") -> SeatInfo:
    return SeatInfo(f"Bot {i + 1}", "bot", level)


def _config(**options: Any) -> Any:
    return SPEC.config(**{"first_player": "0", **options})


@dataclass
class Watcher:
    """Keeps every update and checks on arrival that it shows no card hidden
    from its seat. Two decks hold two copies of a card, so a text is a leak
    only if no copy of it is visible to the seat (as in the contract suite)."""

    client: LocalClient
    updates: list[Update] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.client.subscribe(self)

    def __call__(self, update: Update) -> None:
        self.updates.append(update)
        state = self.client.table.state
        visible = set(+(state.all_cards() - state.hidden_cards(update.seat)))
        data = {"view": update.view.to_json(), "events": [e.to_json() for e in update.events]}
        leaked = set(CARD.findall(json.dumps(data))) - visible
        if leaked:
            self.leaks.append(f"state {update.state_id} seat {update.seat}: {sorted(leaked)}")

    def for_seat(self, seat: int | None) -> list[Update]:
        return [u for u in self.updates if u.seat == seat]


def choice(update: Update) -> str:
    """A person's move: random, but fixed by the position (so that a game
    resumed from its save goes on as it would have)."""
    return random.Random(f"{update.state_id}:{update.seat}").choice(update.legal)


async def play_people(client: LocalClient, until: int | None = None) -> None:
    """The people play until the game ends (or the table reaches state ``until``),
    each from the legal moves its update offers; bots answer in between."""
    while client.table.status == "playing" and (until is None or client.table.state_id < until):
        await client.idle()
        if client.table.status != "playing":
            break
        acting = [u for u in map(client.snapshot, client.my_seats) if u.legal]
        assert acting, "nobody may act but the game is not over"
        await client.play(acting[0].seat, choice(acting[0]), acting[0].state_id)  # type: ignore[arg-type]
    await client.idle()


# ------------------------------------------------------------ whole games
async def test_five_bots_of_every_level_play_a_whole_game(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    config = _config(players=5)
    seats = [bot(i, level) for i, level in enumerate(["easy", "medium", "hard", "easy", "hard"])]
    client = open_table(store, "toy", config, seats, (), seed=11)
    watch = Watcher(client)
    await client.start()
    await client.idle()
    table = client.table
    assert table.status == "finished" and table.bot_errors == []
    assert watch.leaks == []
    assert [u.state_id for u in watch.updates] == list(range(len(watch.updates)))
    assert all(u.seat is None for u in watch.updates)  # a client without seats watches
    # all five bid at once, then turns go round from seat 0
    bidders = [seat for seat, move in table.record.moves[:5]]
    assert sorted(bidders) == [0, 1, 2, 3, 4]
    assert all(move.startswith("bid ") for _, move in table.record.moves[:5])
    result = watch.updates[-1].result
    assert result is not None and sorted(s for g in result.ranking for s in g) == [0, 1, 2, 3, 4]
    assert len(table.record.moves) <= SPEC.max_moves(config)
    saved = store.load(client.record_id)
    assert saved.status == "finished" and saved.result == result.to_json()
    assert saved.replay().snapshot() == table.state.snapshot()
    await client.close()


async def test_bots_play_until_the_stock_runs_out() -> None:
    # three seats, one deck of 24: 15 cards to draw, too few for 6 rounds
    client = open_table(None, "toy", _config(rounds=6), [bot(0), bot(1), bot(2)], (), seed=1)
    watch = Watcher(client)
    await client.start()
    await client.idle()
    assert client.table.status == "finished" and watch.leaks == []
    last = watch.updates[-1]
    assert last.result is not None and last.result.reason.startswith("The stock ran out;")
    assert last.view.stock == 0 and sum(last.view.turns_taken) == 15
    # every face-down card is turned at the end, and counts
    assert last.view.face_down == [False] * 3 and None not in last.view.turned
    assert [e.kind for e in last.events][-4:] == ["turn_up"] * 3 + ["over"]
    await client.close()


async def test_two_people_and_three_bots_play_to_the_end() -> None:
    client = open_table(
        None,
        "toy",
        _config(players=5),
        [person(0), person(1), bot(2), bot(3), bot(4)],
        (0, 1),
        seed=4,
    )
    watch = Watcher(client)
    await client.start()
    await client.idle()
    # the bid is simultaneous: the bots have bid, both people still must
    first0, first1 = client.snapshot(0), client.snapshot(1)
    assert first0.to_act == (0, 1) and first0.legal and first1.legal
    assert all(m.startswith("bid ") for m in first0.legal)
    assert first0.view.hand != first1.view.hand
    assert first0.view.has_bid == [False, False, True, True, True]
    assert first0.view.bids == [None] * 5  # the bots' bids stay hidden until all are in
    await client.play(0, first0.legal[0], first0.state_id)
    # seat 1 is told that seat 0 chose, not what
    told = [e.text for e in watch.for_seat(1)[-1].events]
    assert told == ["{p0 has|have} chosen a bid."]
    await play_people(client)
    assert client.table.status == "finished" and watch.leaks == []
    last = watch.for_seat(0)[-1]
    assert last.result is not None and last.to_act == () and last.legal == ()
    # legal moves go to a seat only while it must act
    for update in watch.updates:
        if update.legal:
            assert update.seat in update.to_act
    # a person's draw: the drawer sees the card, the others that a card was drawn
    moves = client.table.record.moves
    draw_at = next(i for i, (seat, move) in enumerate(moves) if seat == 0 and move == "draw")
    mine = next(u for u in watch.for_seat(0) if u.state_id == draw_at + 1)
    theirs = next(u for u in watch.for_seat(1) if u.state_id == draw_at + 1)
    drawn = [e for e in mine.events if e.kind == "draw"]
    assert len(drawn) == 1 and CARD.fullmatch(drawn[0].data.card)
    assert [e.text for e in theirs.events if e.kind == "draw"] == ["{p0 draws|draw} a card."]
    await client.close()


async def test_a_person_resigns_mid_turn_and_the_others_play_on() -> None:
    # four seats, one deck: every card text is unique
    config = _config(players=4)
    client = open_table(None, "toy", config, [person(0), person(1), bot(2), bot(3)], (0, 1), seed=9)
    watch = Watcher(client)
    await client.start()
    table = client.table
    while not {"end", "flip"} & set(client.snapshot(0).legal):  # until seat 0 has drawn
        await play_people(client, until=table.state_id + 1)
    # seat 0's face-down card was never shown to it, nor to anyone
    face_down = table.state.snapshot()["down"][0]
    assert face_down is not None
    assert all(face_down not in json.dumps(u.view.to_json()) for u in watch.updates)
    held = client.snapshot(0).view.hand
    assert len(held) == 2
    await client.resign(0)
    assert (0, "resign") in table.record.moves
    with pytest.raises(IllegalMove):
        await client.resign(0)  # out already (or the game is over)
    at_resign = table.record.moves.index((0, "resign"))
    await play_people(client)
    assert table.status == "finished" and watch.leaks == []
    result = client.snapshot(1).result
    assert result is not None and result.ranking[-1] == (0,)
    later = table.record.moves[at_resign + 1 :]
    assert {seat for seat, _ in later} == {1, 2, 3}  # the others played on, seat 1 included
    assert all(0 not in u.to_act for u in watch.updates if u.state_id > at_resign)
    # its cards went face down to the discard: nobody ever sees them
    assert client.snapshot(1).view.discard == 3
    seen_after = [u for u in watch.updates if u.state_id > at_resign]
    for card in [*held, face_down]:
        assert all(card not in json.dumps(u.view.to_json()) for u in seen_after), card
        assert card not in json.dumps(result.to_json())
    await client.close()


async def test_a_stale_state_id_is_refused_and_changes_nothing() -> None:
    client = open_table(None, "toy", _config(), [person(0), bot(1), bot(2)], (0,), seed=2)
    await client.start()
    await client.idle()
    update = client.snapshot(0)
    assert update.legal
    before = client.table.state.snapshot()
    moves = list(client.table.record.moves)
    for wrong in (update.state_id - 1, update.state_id + 1):
        with pytest.raises(StaleMove):
            await client.play(0, update.legal[0], wrong)
    assert client.table.state.snapshot() == before and client.table.record.moves == moves
    await client.play(0, update.legal[0], update.state_id)  # the right one is taken
    assert client.table.record.moves[len(moves)] == (0, update.legal[0])
    await client.close()


# ------------------------------------------------------------ clocks
def _lowest(hand: list[str]) -> str:
    return min(hand, key=lambda text: (rank(parse_card(text)), parse_card(text)))


async def test_clocks_bid_of_its_own_length_and_one_clock_per_turn() -> None:
    clock = FakeTime()
    client = open_table(
        None,
        "toy",
        _config(timer=10),
        [person(0), bot(1), bot(2)],
        (0,),
        seed=5,
        clock=clock,
        sleep=clock.sleep,  # never wakes (nothing advances): the test calls expire_clocks()
    )
    await client.start()
    await client.idle()  # the bots bid at once; bots have no clock
    table = client.table
    assert table.state_id == 2
    assert table.time_left(0) == 20.0 and client.snapshot(0).clocks == (20.0, None, None)
    hand = client.snapshot(0).view.hand
    clock.now += 19.5
    await table.expire_clocks()
    assert table.state_id == 2  # not yet
    clock.now += 0.5
    await table.expire_clocks()  # the bid ran out: the lowest card is bid
    assert table.record.moves[2] == (0, f"bid {_lowest(hand)}")
    assert any(e.kind == "timeout" for e in client.history(0))

    # seat 0 takes the first turn, on a clock of the turn's own length
    assert table.state.to_act() == (0,) and table.time_left(0) == 10.0
    clock.now += 4
    await client.play(0, "draw", table.state_id)
    assert table.time_left(0) == 6.0  # the same clock: the turn goes on
    card = next(m for m in client.snapshot(0).legal if m.startswith("play "))
    clock.now += 3
    await client.play(0, card, table.state_id)
    assert table.time_left(0) == 3.0
    clock.now += 3
    await table.expire_clocks()  # out of time after drawing: the turn ends
    assert table.record.moves[-1] == (0, "end")
    await client.idle()  # the bots take their turns

    # seat 0's last turn: a fresh clock; running out first draws
    assert table.state.to_act() == (0,) and table.time_left(0) == 10.0
    clock.now += 10
    await table.expire_clocks()
    assert table.record.moves[-1] == (0, "draw")
    assert "flip" in client.snapshot(0).legal
    left = table.time_left(0)
    assert left is not None
    clock.now += left
    await table.expire_clocks()  # and then closes the last turn
    assert table.record.moves[-1] == (0, "flip")
    await client.idle()
    assert table.status == "finished"
    await client.close()


# ------------------------------------------------------------ saves
async def test_a_saved_game_resumes_and_ends_as_it_would_have(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    config = _config(players=4)
    seats = [person(0), bot(1), bot(2, "medium"), bot(3, "hard")]

    straight = open_table(store, "toy", config, seats, (0,), seed=21)
    await straight.start()
    await play_people(straight)
    assert straight.table.status == "finished"
    expected = straight.table.state
    await straight.close()

    first = open_table(store, "toy", config, seats, (0,), seed=21)
    await first.start()
    await play_people(first, until=12)
    paused_at = first.table.state.snapshot()
    assert first.table.status == "playing" and first.table.state_id >= 12
    record_id = first.record_id
    await first.close()

    again = resume_table(store, record_id)
    assert again.my_seats == (0,)
    assert again.table.state.snapshot() == paused_at
    await again.start()
    await play_people(again)
    table = again.table
    assert table.status == "finished"
    assert table.state.snapshot() == expected.snapshot()
    assert table.state.outcome() == expected.outcome()
    saved = store.load(record_id)
    assert saved.status == "finished" and saved.result == expected.outcome().to_json()  # type: ignore[union-attr]
    replayed = SPEC.replay(config, saved.seed, saved.moves)
    assert replayed.outcome() == expected.outcome()
    assert replayed.snapshot() == expected.snapshot()
    await again.close()
