"""The table through the in-process client: whole games, refusals, resign,
autosave and resume, what updates carry, idle()."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import threading
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import pytest

from net import table as table_module
from net.client import Notice, StaleMove, Update
from net.local import LocalClient, open_table, resume_table
from rules.bots import Bot, Situation
from rules.errors import IllegalMove, MoveError
from rules.events import CardsDrawn, Event, EventError
from rules.game import Outcome
from rules.registry import games, get_game
from saves.errors import SaveError
from saves.record import SeatInfo
from saves.store import SaveStore

from .helpers import BOT, BOT2, HUMAN, HUMAN2, Recorder, domination_config
from .netkit import HANG


def _open(
    store: SaveStore | None,
    seats: list[SeatInfo],
    seed: int = 3,
    **options: object,
) -> LocalClient:
    mine = tuple(i for i, s in enumerate(seats) if s.kind == "human")
    return open_table(store, "domination", domination_config(**options), seats, mine, seed=seed)


async def _play_first_legal(client: LocalClient, stop_after: int | None = None) -> None:
    """Human seats always play their first legal move, until the game ends."""
    played = 0
    while client.table.status == "playing" and (stop_after is None or played < stop_after):
        await client.idle()
        if client.table.status != "playing":
            break
        acting = [s for s in client.table.state.to_act() if s in client.my_seats]
        assert acting, "nobody may act but the game is not over"
        seat = acting[0]
        await client.play(seat, client.snapshot(seat).legal[0], client.table.state_id)
        played += 1
    await client.idle()


# ------------------------------------------------------------ whole games
async def test_bots_on_both_seats_play_to_the_end(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    client = _open(store, [BOT, BOT2])
    assert client.my_seats == ()
    rec = Recorder(client)
    await client.start()
    await client.idle()
    assert client.table.status == "finished"
    state = client.table.state
    assert state.is_over and state.outcome() is not None
    # a client with no seats watches as a spectator
    assert rec.updates and all(u.seat is None for u in rec.updates)
    assert [u.state_id for u in rec.updates] == list(range(len(rec.updates)))
    assert rec.updates[-1].status == "finished" and rec.updates[-1].thinking == ()
    assert rec.leaks == []
    saved = store.load(client.record_id)
    assert saved.status == "finished"
    assert saved.result == state.outcome().to_json()  # type: ignore[union-attr]
    assert saved.moves == client.table.record.moves and len(saved.moves) == state.ply
    assert saved.replay().snapshot() == state.snapshot()
    await client.close()


@pytest.mark.parametrize("game_id", sorted(games()))
async def test_every_game_runs_bot_against_bot_and_replays(tmp_path: Path, game_id: str) -> None:
    store = SaveStore(tmp_path)
    spec = get_game(game_id)
    config = spec.config()
    # medium bots: random players of a shedding game (stress) pick the stack up
    # for a thousand moves or more, each one autosaved
    seats = [SeatInfo(f"Bot {i + 1}", "bot", "medium") for i in range(config.players)]
    client = open_table(store, game_id, config, seats, (), seed=8)
    rec = Recorder(client)
    await client.start()
    await client.idle()
    assert client.table.status == "finished"
    assert rec.leaks == []
    saved = store.load(client.record_id)
    assert saved.replay().snapshot() == client.table.state.snapshot()
    assert len(saved.moves) == client.table.state_id <= spec.max_moves(config)


async def test_human_against_a_bot_to_the_end(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    client = _open(store, [HUMAN, BOT])
    rec = Recorder(client)
    await client.start()
    await _play_first_legal(client)
    assert client.table.status == "finished"
    assert {u.seat for u in rec.updates} == {0}  # one update per change for my one seat
    assert rec.leaks == []
    movers = {seat for seat, _ in client.table.record.moves}
    assert movers == {0, 1}
    assert store.load(client.record_id).status == "finished"


async def test_hot_seat_gets_one_update_per_seat_per_change() -> None:
    client = _open(None, [HUMAN, HUMAN2], target_score=500)
    rec = Recorder(client)
    await client.start()
    await _play_first_legal(client, stop_after=6)
    by_change: dict[int, list[int | None]] = {}
    for u in rec.updates:
        by_change.setdefault(u.state_id, []).append(u.seat)
    assert list(by_change) == list(range(7))
    assert all(seats == [0, 1] for seats in by_change.values())
    assert rec.leaks == []
    # each seat's update carries that seat's own hand
    last0, last1 = rec.for_seat(0)[-1], rec.for_seat(1)[-1]
    assert last0.view.hand == client.snapshot(0).view.hand
    assert last1.view.hand == client.snapshot(1).view.hand
    assert last0.view.hand != last1.view.hand


async def test_updates_never_show_a_hidden_card_of_the_other_seat() -> None:
    for seed in range(4):
        client = _open(None, [HUMAN, BOT], seed=seed)
        rec = Recorder(client)
        await client.start()
        await _play_first_legal(client)
        assert client.table.status == "finished"
        assert rec.leaks == []
        # and the other seat's draws reach seat 0 only as counts
        draws = [e for u in rec.updates for e in u.events if e.kind == "draw"]
        assert any(e.data.to_json().get("seat") == 1 and "count" in e.data.to_json() for e in draws)
        assert not any(
            e.data.to_json().get("seat") == 1 and "cards" in e.data.to_json() for e in draws
        )


async def test_updates_say_when_the_bot_is_thinking() -> None:
    client = _open(None, [HUMAN, BOT])
    rec = Recorder(client)
    await client.start()
    assert rec.updates[0].thinking == ()  # seat 1 (the human) leads
    await _play_first_legal(client)
    assert {u.thinking for u in rec.updates} == {(), (1,)}
    for update, acting in zip(rec.updates, rec.acting, strict=True):
        assert update.thinking == ((1,) if 1 in acting else ())


class _Witness(Bot):
    """Notes where and with what it is asked, then plays the first legal move."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, str]] = []

    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        self.calls.append((threading.get_ident(), type(situation).__name__))
        return situation.legal[0]


async def test_bots_choose_in_a_worker_thread_from_a_situation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    witness = _Witness()
    monkeypatch.setattr(table_module, "make_bot", lambda game, level: witness)
    client = _open(None, [BOT, BOT2])
    await client.start()
    await client.idle()
    assert client.table.status == "finished"
    assert len(witness.calls) == client.table.state_id
    assert all(kind == "Situation" for _, kind in witness.calls)
    assert threading.get_ident() not in {ident for ident, _ in witness.calls}


# ------------------------------------------------------------ refusals
async def test_an_illegal_move_raises_and_changes_nothing(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    client = _open(store, [HUMAN, BOT])
    rec = Recorder(client)
    await client.start()
    before = client.table.state.snapshot()
    on_disk = store.load(client.record_id)
    hand = client.snapshot(0).view.hand
    not_mine = next(c for c in ("AS", "2H", "KD", "7C", "9S", "QH") if c not in hand)
    for bad in (not_mine, "zz", "", "11X"):
        with pytest.raises(MoveError) as info:
            await client.play(0, bad, client.table.state_id)
        assert str(info.value) and "\n" not in str(info.value)
    assert client.table.state.snapshot() == before
    assert client.table.state_id == 0 and client.table.record.moves == []
    assert store.load(client.record_id) == on_disk
    assert len(rec.updates) == 1  # only the start: refusals send nothing


async def test_out_of_turn_and_foreign_seats_are_refused() -> None:
    client = _open(None, [HUMAN, HUMAN2])
    await client.start()
    card = client.snapshot(1).view.hand[0]
    with pytest.raises(IllegalMove, match="not your turn"):
        await client.play(1, card, client.table.state_id)
    vs_bot = _open(None, [HUMAN, BOT])
    await vs_bot.start()
    with pytest.raises(IllegalMove, match="you do not play seat 2"):
        await vs_bot.play(1, vs_bot.table.state.view(1).hand[0], vs_bot.table.state_id)
    with pytest.raises(IllegalMove, match="played by the computer"):
        await vs_bot.table.play(1, "AS")
    with pytest.raises(ValueError, match="not one of this client's seats"):
        vs_bot.snapshot(1)  # the bot's hand is not this screen's to show
    assert client.table.state_id == 0 and vs_bot.table.state_id == 0


async def test_seats_must_match_the_game() -> None:
    with pytest.raises(ValueError, match="3 seats for a 2-player game"):
        _open(None, [HUMAN, BOT, BOT2])
    with pytest.raises(ValueError, match="played by the computer"):
        open_table(None, "domination", domination_config(), [HUMAN, BOT], (1,))
    with pytest.raises(ValueError, match="no bot level"):
        _open(None, [HUMAN, SeatInfo("X", "bot", "genius")])


# ------------------------------------------------------------ resign
async def test_resign_ends_the_game_and_is_saved(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    client = _open(store, [HUMAN, BOT], target_score=500)
    rec = Recorder(client)
    await client.start()
    await _play_first_legal(client, stop_after=3)
    moves = list(client.table.record.moves)
    await client.resign(0)
    assert client.table.status == "finished"
    last = rec.updates[-1]
    assert last.over and [e.kind for e in last.events] == ["resign"]
    await client.idle()  # the save follows the move
    assert last.events[0].render(["Ada", "Computer"]) == "Ada resigns: Computer wins."
    assert last.result is not None and last.result.render(["Ada", "Computer"]) == "Ada resigned"
    saved = store.load(client.record_id)
    # the resignation is a move of the record, replayed like any other
    assert saved.status == "finished" and saved.moves == [*moves, (0, "resign")]
    assert saved.result is not None
    assert saved.result["winner"] == 1 and saved.result["ranking"] == [[1], [0]]
    assert saved.replay().outcome() == last.result
    with pytest.raises(IllegalMove, match="over"):
        await client.play(0, "AS", client.table.state_id)
    with pytest.raises(IllegalMove, match="over"):
        await client.resign(0)
    await client.close()
    again = resume_table(store, client.record_id)
    assert again.table.status == "finished"
    assert again.history(0)[-1].kind == "resign"
    with pytest.raises(IllegalMove):
        await again.play(0, again.snapshot(0).view.hand[0], again.table.state_id)


# ------------------------------------------------------------ autosave, resume
async def test_every_move_is_saved_before_play_returns(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    client = _open(store, [HUMAN, BOT])
    await client.start()
    assert store.load(client.record_id).moves == []  # saved from the start
    for _ in range(8):
        await client.idle()
        if client.table.status != "playing":
            break
        await client.play(0, client.snapshot(0).legal[0], client.table.state_id)
        on_disk = store.load(client.record_id)
        assert (
            on_disk.moves[: client.table.state_id]
            == client.table.record.moves[: len(on_disk.moves)]
        )
        await client.idle()
        on_disk = store.load(client.record_id)
        assert on_disk.moves == client.table.record.moves
        assert len(on_disk.moves) == client.table.state_id
        assert on_disk.updated >= on_disk.created


async def test_resume_continues_identically(tmp_path: Path) -> None:
    # the same game twice: straight through, and closed and resumed midway
    straight = _open(SaveStore(tmp_path / "a"), [HUMAN, BOT], seed=21)
    await straight.start()
    await _play_first_legal(straight)
    assert straight.table.status == "finished"

    store = SaveStore(tmp_path / "b")
    first = _open(store, [HUMAN, BOT], seed=21)
    await first.start()
    await _play_first_legal(first, stop_after=5)
    views = {s: first.snapshot(s) for s in (0, None)}
    history = [e.to_json() for e in first.history(0)]
    state_id = first.table.state_id
    await first.close()

    resumed = resume_table(store, first.record_id)
    assert resumed.my_seats == (0,)
    assert resumed.table.state_id == state_id
    assert {s: resumed.snapshot(s) for s in (0, None)} == views
    assert [e.to_json() for e in resumed.history(0)] == history
    rec = Recorder(resumed)
    await resumed.start()
    assert rec.updates[0].state_id == state_id and rec.updates[0].view == views[0].view
    await _play_first_legal(resumed)
    assert resumed.table.status == "finished"
    assert resumed.table.record.moves == straight.table.record.moves
    assert resumed.table.state.snapshot() == straight.table.state.snapshot()
    assert store.load(first.record_id).moves == straight.table.record.moves


async def test_resume_refuses_a_record_that_does_not_replay(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    client = _open(store, [HUMAN, BOT])
    await client.start()
    await _play_first_legal(client, stop_after=2)
    record = store.load(client.record_id)
    seat, _ = record.moves[1]
    record.moves[1] = (seat, "ZZ")
    store.save(record)
    with pytest.raises(SaveError, match="move 2"):
        resume_table(store, record.id)
    with pytest.raises(SaveError, match="no saved game"):
        resume_table(store, "feedbeef")


class HeldStore(SaveStore):
    """A store whose disk answers only when the test lets it."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.disk = threading.Event()
        self.written: list[int] = []  # moves in each record written

    def save(self, record: Any) -> None:
        self.disk.wait()
        super().save(record)
        self.written.append(len(record.moves))


async def _table_with_a_stalled_disk(store: HeldStore) -> LocalClient:
    """A hot-seat table, started and saved, whose disk then stops answering."""
    store.disk.set()
    client = _open(store, [HUMAN, HUMAN2])
    await client.start()
    await client.idle()
    store.written.clear()
    store.disk.clear()
    return client


async def _play_one(client: LocalClient) -> None:
    seat = client.table.state.to_act()[0]
    move = client.snapshot(seat).legal[0]
    await asyncio.wait_for(client.play(seat, move, client.table.state_id), HANG)


async def test_a_move_does_not_wait_for_the_disk_and_saves_coalesce(tmp_path: Path) -> None:
    store = HeldStore(tmp_path)
    client = await _table_with_a_stalled_disk(store)
    for _ in range(3):  # each move is answered while its save waits for the disk
        await _play_one(client)
        await asyncio.sleep(0)  # the first save begins, and waits for the disk
    assert client.table.state_id == 3 and store.written == []
    idle = asyncio.ensure_future(client.idle())
    await asyncio.sleep(0)
    assert not idle.done()  # idle() waits for the disk too
    store.disk.set()
    await asyncio.wait_for(idle, HANG)
    # the first move's save, then one of the newest record for the two behind it
    assert store.written == [1, 3]
    assert store.load(client.record_id).moves == client.table.record.moves


async def test_closing_the_table_waits_for_the_last_save(tmp_path: Path) -> None:
    store = HeldStore(tmp_path)
    client = await _table_with_a_stalled_disk(store)
    await _play_one(client)
    closing = asyncio.ensure_future(client.close())
    await asyncio.sleep(0)
    assert not closing.done()
    store.disk.set()
    await asyncio.wait_for(closing, HANG)
    assert len(store.load(client.record_id).moves) == 1


async def test_a_failed_autosave_is_reported_and_play_goes_on(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    client = _open(store, [HUMAN, HUMAN2])
    rec = Recorder(client)
    await client.start()
    path = store.path(client.record_id)
    path.write_text("scribbled over")  # now unreadable: must never be overwritten
    await client.play(0, client.snapshot(0).legal[0], client.table.state_id)
    assert client.table.state_id == 1
    await client.idle()  # the save follows the move
    assert client.table.save_error is not None and "cannot be read" in client.table.save_error
    assert path.read_text() == "scribbled over"
    told = [n for u in rec.for_seat(0) for n in u.notices]
    assert [n.kind for n in told] == ["save_failed"] and "cannot be read" in told[0].text
    await client.play(1, client.snapshot(1).legal[0], client.table.state_id)
    await client.idle()
    # the same failure again is not told again
    assert [n for u in rec.for_seat(0) for n in u.notices] == told
    path.unlink()  # the player moved the file away: saving works again
    await client.play(0, client.snapshot(0).legal[0], client.table.state_id)
    await client.idle()
    assert [n.kind for u in rec.for_seat(0) for n in u.notices] == ["save_failed", "saved"]


# ------------------------------------------------------------ bots and pacing
async def test_pace_waits_between_a_move_and_the_bot_reply() -> None:
    waits: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        waits.append(seconds)

    client = open_table(
        None, "domination", domination_config(), [HUMAN, BOT], (0,), seed=4, pace=0.8,
        sleep=fake_sleep,
    )  # fmt: skip
    await client.start()
    await _play_first_legal(client, stop_after=6)
    bot_moves = sum(1 for seat, _ in client.table.record.moves if seat == 1)
    assert bot_moves > 0 and waits == [0.8] * bot_moves


class _Cheat(Bot):
    """A broken bot: always names a card, legal or not."""

    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        return get_game("domination").parse_move(
            "AS" if "AS" not in (situation.view.to_json().get("hand") or []) else "KH"
        )


async def test_a_bot_that_picks_an_illegal_move_does_not_stall_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(table_module, "make_bot", lambda game, level: _Cheat())
    client = _open(None, [BOT, BOT2])
    await client.start()
    await client.idle()
    assert client.table.status == "finished"
    assert client.table.bot_errors and "illegal move" in client.table.bot_errors[0]


class _Crash(Bot):
    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        raise RuntimeError("boom")


async def test_a_bot_that_crashes_is_replaced_by_a_random_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(table_module, "make_bot", lambda game, level: _Crash())
    client = _open(None, [HUMAN, BOT])
    await client.start()
    await client.play(0, client.snapshot(0).legal[0], client.table.state_id)
    await client.idle()
    assert client.table.state_id >= 2
    assert "boom" in client.table.bot_errors[0]


# ------------------------------------------------------------ idle
async def test_idle_waits_for_the_bots_and_returns_at_once_otherwise() -> None:
    waiting = _open(None, [HUMAN, HUMAN2])
    await waiting.start()
    await waiting.idle()  # nobody to wait for
    assert waiting.table.state_id == 0

    bots = _open(None, [BOT, BOT2])
    await bots.start()
    assert bots.table.thinking() != ()
    await bots.idle()
    assert bots.table.status == "finished"
    assert bots.table.thinking() == ()


async def test_close_stops_the_bots_mid_game() -> None:
    async def never(seconds: float) -> None:  # a pace that never ends
        await asyncio.Event().wait()

    client = open_table(
        None, "domination", domination_config(), [BOT, BOT2], (), seed=1, pace=1.0, sleep=never
    )
    await client.start()
    await client.close()
    assert client.table.state_id == 0 and client.table.status == "playing"
    await client.idle()
    with pytest.raises(IllegalMove, match="closed"):
        await client.table.start()


async def test_a_resignation_keeps_the_chips_of_a_trick_game() -> None:
    # the result of a resignation is read from the view's `scores`, which every
    # game has (trick's are its chips)
    spec = get_game("trick")
    client = open_table(None, "trick", spec.config(timer=0), [HUMAN, HUMAN2], (0, 1), seed=2)
    await client.start()
    await client.play(0, "score+grow", client.table.state_id)
    await client.play(
        1, "claim+block:score", client.table.state_id
    )  # seat 0 scores 1; seat 1 claims 2
    chips = client.snapshot(0).view.chips
    assert chips == [1, 2]
    await client.resign(0)
    result = client.table.record.result
    assert result is not None and result["scores"] == chips and result["winner"] == 1
    await client.close()


# ------------------------------------------------------------ every game
GAME_IDS = sorted(games())


def _seats_for(game_id: str, people: int) -> tuple[object, list[SeatInfo], tuple[int, ...]]:
    """The game's default options, ``people`` people then bots in the other seats."""
    spec = get_game(game_id)
    config = spec.config()
    seats = [
        SeatInfo(f"Person {i + 1}", "human") if i < people else SeatInfo(f"Bot {i + 1}", "bot")
        for i in range(config.players)
    ]
    return config, seats, tuple(range(min(people, config.players)))


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_every_game_people_and_bots_play_to_the_end(tmp_path: Path, game_id: str) -> None:
    store = SaveStore(tmp_path)
    config, seats, mine = _seats_for(game_id, 1)
    client = open_table(store, game_id, config, seats, mine, seed=5)
    rec = Recorder(client)
    await client.start()
    await _play_first_legal(client)
    assert client.table.status == "finished" and rec.leaks == []
    last = rec.updates[-1]
    assert last.over and last.result is not None and last.to_act == () and last.legal == ()
    # legal moves are sent only to the seat that must act, and only then
    for update, acting in zip(rec.updates, rec.acting, strict=True):
        assert bool(update.legal) == (update.seat in acting)
    saved = store.load(client.record_id)
    assert saved.replay().snapshot() == client.table.state.snapshot()


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_every_game_a_resignation_is_a_recorded_move(tmp_path: Path, game_id: str) -> None:
    store = SaveStore(tmp_path)
    config, seats, mine = _seats_for(game_id, 2)
    client = open_table(store, game_id, config, seats, mine, seed=6)
    await client.start()
    await _play_first_legal(client, stop_after=2)
    if client.table.status != "playing":
        pytest.fail("the game ended before anyone could resign")
    await client.resign(1)
    await client.idle()
    record = client.table.record
    # bots of a many-seat game play on at once: the resignation is seat 1's last move
    assert [move for seat, move in record.moves if seat == 1][-1] == "resign"
    state = client.table.state
    if config.players == 2:  # type: ignore[attr-defined]
        outcome = state.outcome()
        assert outcome is not None and outcome.ranking[-1] == (1,)
    else:  # the others play on
        assert client.table.status == "playing" or record.moves[-1][0] != 1
        assert 1 not in state.to_act()
    again = resume_table(store, client.record_id)
    assert again.table.state.snapshot() == state.snapshot()


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_every_game_a_stale_move_changes_nothing(game_id: str) -> None:
    config, seats, mine = _seats_for(game_id, 2)
    client = open_table(None, game_id, config, seats, mine, seed=7)
    await client.start()
    await client.idle()
    update = next(client.snapshot(s) for s in mine if client.snapshot(s).legal)
    before = client.table.state.snapshot()
    with pytest.raises(StaleMove):
        await client.play(update.seat, update.legal[0], update.state_id + 1)  # type: ignore[arg-type]
    assert client.table.state.snapshot() == before


def test_updates_round_trip_through_json() -> None:
    config, seats, mine = _seats_for("domination", 1)
    client = open_table(None, "domination", config, seats, mine, seed=3)
    update = client.snapshot(0)
    event = Event("draw", "{p0} draws AS.", CardsDrawn(seat=0, cards=["AS"]))
    notice = Notice("left", "{p1} has left.", 1)
    outcome = Outcome(0, ((0,), (1,)), (5, 3), "{p1} resigned")
    rich = dataclasses.replace(
        update,
        events=(event,),
        notices=(notice,),
        result=outcome,
        thinking=(1,),
        clocks=(9.5, None),
    )
    for original in (update, rich):
        text = json.dumps(original.to_json())
        assert Update.from_json(json.loads(text), get_game("domination")) == original
    assert get_game("domination").read_event(json.loads(json.dumps(event.to_json()))) == event
    # an event that is not what its game declares fails where the update is decoded
    wire = rich.to_json()
    for bad in ({"seat": "0", "cards": ["AS"]}, {"cards": ["AS"]}):
        wire["events"] = [{**event.to_json(), "data": bad}]
        with pytest.raises(EventError, match="not a draw event"):
            Update.from_json(wire, get_game("domination"))
    wire["events"] = [{**event.to_json(), "kind": "teleport"}]
    with pytest.raises(EventError, match="no event of kind 'teleport'"):
        Update.from_json(wire, get_game("domination"))
