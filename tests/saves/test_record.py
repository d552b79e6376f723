"""GameRecord: JSON round trips, validation with readable reasons, replay."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.registry import get_game
from saves.errors import SaveError
from saves.record import FORMAT_VERSION, GameRecord, SeatInfo

from .helpers import played_record


def test_json_round_trip_keeps_every_field() -> None:
    record = played_record(moves=20)
    record.status = "finished"
    record.result = {"winner": 1, "ranking": [[1], [0]], "scores": [3, 101], "reason": "x"}
    record.preset = "short"
    record.deck_order = None
    text = json.dumps(record.to_json())
    again = GameRecord.from_json(json.loads(text))
    assert again == record
    assert again.to_json() == record.to_json()
    assert again.moves and all(isinstance(m, tuple) for m in again.moves)


def test_the_format_is_versioned_and_plain() -> None:
    data = played_record(moves=2).to_json()
    assert data["format"] == "cardtable-game"
    assert data["version"] == FORMAT_VERSION == GameRecord.FORMAT_VERSION == 2
    assert data["moves"][0][0] in (0, 1) and isinstance(data["moves"][0][1], str)
    assert data["seats"][1] == {"name": "Computer (hard)", "kind": "bot", "level": "hard"}


def test_seat_info_round_trip() -> None:
    seat = SeatInfo("Bo", "bot", "easy")
    assert SeatInfo.from_json(seat.to_json()) == seat
    with pytest.raises(SaveError, match="kind must be one of"):
        SeatInfo.from_json({"name": "x", "kind": "alien"})


def test_net_client_reexports_the_same_seat_info() -> None:
    from net.client import SeatInfo as ClientSeatInfo

    assert ClientSeatInfo is SeatInfo


def _broken(change: dict[str, Any]) -> dict[str, Any]:
    data = played_record(moves=3).to_json()
    for key, value in change.items():
        if value is KeyError:
            del data[key]
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"version": 3}, "newer cardtable"),
        ({"version": "1"}, "unknown format version"),
        ({"format": "chess"}, "not a cardtable saved game"),
        ({"seed": KeyError}, "missing field 'seed'"),
        ({"seed": "12"}, "field 'seed' must be a whole number"),
        ({"seed": True}, "field 'seed' must be a whole number"),
        ({"game": "chess"}, "no game called 'chess'"),
        ({"config": {"target_score": -5}}, "bad domination options"),
        ({"config": {"colour": "red"}}, "unknown option"),
        ({"moves": [[0, "AS"], ["x", "2S"]]}, "move 2 is not a"),
        ({"moves": [[5, "AS"]]}, "move 1 is not a"),
        ({"seats": [{"name": "a", "kind": "human"}]}, "1 seats for a 2-player game"),
        ({"status": "paused"}, "field 'status' must be one of"),
        ({"created": "yesterday"}, "not an ISO 8601 time"),
        ({"id": "../../etc"}, "bad record id"),
        ({"deck_order": [1, 2]}, "deck_order"),
        ({"result": [1]}, "field 'result' must be an object"),
        ({"game": "x\n" * 1000}, "no game called"),
        ({"seed": list(range(10_000))}, r"not \[0, 1, 2, .*\.\.\.$"),
    ],
)
def test_malformed_records_give_a_reason(change: dict[str, Any], reason: str) -> None:
    with pytest.raises(SaveError, match=reason) as info:
        GameRecord.from_json(_broken(change))
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("data", [[1, 2], "text", 3, None, True])
def test_non_objects_are_refused(data: Any) -> None:
    with pytest.raises(SaveError, match="not a saved game"):
        GameRecord.from_json(data)


def test_replay_rebuilds_the_exact_state() -> None:
    record = played_record(moves=25, seed=11)
    spec = get_game("domination")
    expected = spec.replay(record.game_config(), 11, record.moves)
    assert record.replay().snapshot() == expected.snapshot()
    state, events = record.replay_with_events()
    assert state.ply == len(record.moves)
    assert [e.kind for e in events].count("play") == sum(
        1 for _, text in record.moves if text != "concede"
    )


def test_a_record_that_does_not_replay_says_which_move() -> None:
    record = played_record(moves=4)
    seat, _ = record.moves[2]
    record.moves[2] = (seat, "ZZ")
    with pytest.raises(SaveError, match=r"does not replay: move 3 \(ZZ by seat"):
        record.replay()


def test_copy_is_independent() -> None:
    record = played_record(moves=3)
    copy = record.copy()
    record.moves.append((0, "KS"))
    record.config["rounds"] = 4
    assert copy.moves != record.moves and copy.config != record.config


def test_file_text_is_json_with_a_move_per_line() -> None:
    record = played_record(moves=6)
    text = record.to_text()
    assert GameRecord.from_json(json.loads(text)) == record
    lines = text.splitlines()
    for seat, move in record.moves:
        assert f'  [{seat}, "{move}"],' in lines or f'  [{seat}, "{move}"]' in lines
    empty = played_record(moves=0)
    assert GameRecord.from_json(json.loads(empty.to_text())) == empty


def test_names_several_seats_share_are_numbered_among_them_from_1() -> None:
    from saves.record import numbered_alike

    bot = SeatInfo("Computer", "bot", "easy")
    assert numbered_alike([SeatInfo("Ada", "remote"), bot]) == [SeatInfo("Ada", "remote"), bot]
    named = numbered_alike([bot, SeatInfo("You", "human"), bot, bot])
    assert [s.name for s in named] == ["Computer 1", "You", "Computer 2", "Computer 3"]
    assert all(s.level == "easy" for s in named if s.kind == "bot")
