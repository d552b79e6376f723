"""The record's schema: every field of a file checked on reading, so that odd
values are a one-line reason (and the file is listed as unreadable), never a
crash later in a command or a screen."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from rules.registry import get_game
from saves import record as record_module
from saves.errors import SaveError
from saves.record import FORMAT_VERSION, GameRecord

from .helpers import played_record

HOSTILE = "Ada\x1b]2;PWNED\x07\x1b[2J\x1b[H"


def _data(**changes: Any) -> dict[str, Any]:
    data = played_record(moves=3).to_json()
    data.update(changes)
    return data


def _seats(**first: Any) -> list[dict[str, Any]]:
    return [{"name": "Ada", "kind": "human", "level": None, **first},
            {"name": "Bot", "kind": "bot", "level": "hard"}]  # fmt: skip


def _result(**changes: Any) -> dict[str, Any]:
    return {"winner": 0, "ranking": [[0], [1]], "scores": [10, 3], "reason": "x", **changes}


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        # the examples
        # (the first fault found is named: fields are read in the file's order)
        ({"result": {"scores": 5}}, "field 'result.scores' must be a list, not 5"),
        ({"result": {"reason": ""}}, "field 'result.winner' is missing"),
        ({"result": _result(scores=5)}, "field 'result.scores' must be a list, not 5"),
        ({"updated": "9999-12-31T23:59:59.999Z"}, "field 'updated' is out of range"),
        ({"seats": _seats(level="godlike")}, "seat 1's level must be one of easy, medium, hard"),
        # the result, whole
        ({"result": _result(winner="0")}, "field 'result.winner' must be a whole number"),
        ({"result": _result(winner=2)}, "winner is seat 3 of a 2-player game"),
        ({"result": _result(ranking=[[0], ["1"]])}, r"field 'result.ranking\[1\]\[0\]'"),
        ({"result": _result(ranking=[[0], [0]])}, "names a seat twice"),
        ({"result": _result(ranking=[[0], [7]])}, "one not in the game"),
        ({"result": _result(scores=[1, 2, 3])}, "3 scores for a 2-player game"),
        ({"result": _result(scores=[1, 10**20])}, r"field 'result.scores\[1\]' must be at most"),
        ({"result": _result(reason=None)}, "field 'result.reason' must be text"),
        ({"result": _result(reason="x" * 201)}, "at most 200 characters"),
        ({"result": _result(reason="won\x1b[2J")}, "printable text on one line"),
        # seats
        ({"seats": _seats(name="")}, "seat 1's name must not be empty"),
        ({"seats": _seats(name="x" * 41)}, "seat 1's name must be at most 40 characters"),
        ({"seats": _seats(name=HOSTILE)}, r"seat 1's name must be printable .*\\x1b"),
        ({"seats": _seats(name="a\nb")}, "seat 1's name must be printable"),
        ({"seats": _seats(name=7)}, "seat 1's name must be text"),
        ({"seats": [{"kind": "human"}, {"name": "B", "kind": "bot"}]}, "seat 1's name is missing"),
        ({"seats": _seats(level="[/bold]")}, "level must be one of"),
        ({"seats": [_seats()[0]] * 17}, "more than 16"),
        # preset, timestamps, numbers, texts
        ({"preset": "[/bold]"}, "domination has no preset '\\[/bold\\]'"),
        ({"preset": "\x1b[2J"}, "printable"),
        ({"created": "0001-01-01T00:00:00+00:00"}, "field 'created' is out of range"),
        ({"created": "2025-01-01"}, "not an ISO 8601 time"),
        ({"created": "2" * 1000}, "not an ISO 8601 time"),
        ({"seed": 2**63}, "field 'seed' must be at most 9223372036854775807"),
        ({"seed": -(2**64)}, "field 'seed' must be at least -9223372036854775808"),
        ({"config": {"players": 2, "target_score": 10**30}}, "option 'target_score' must be from"),
        ({"config": {"players": 2, "first_leader": "1\x1b[2J"}}, "printable"),
        ({"config": {"players": 2, "\x1b[2Jx": 1}}, r"unknown option '\\x1b\[2Jx'"),
        ({"config": {"players": 2, "x" * 5000: 1}}, r"unknown option 'xxxx.*\.\.\.$"),
        ({"config": {"players": 2, "target_score": float("nan")}}, "finite"),
        ({"config": {"players": 2, "target_score": [1]}}, "must be yes/no, a number or text"),
        ({"moves": [[0, "8D\x1b[2J"]]}, "move 1 is not a"),
        ({"moves": [[0, "8" * 101]]}, "move 1 is not a"),
        ({"moves": [[0, ""]]}, "move 1 is not a"),
        ({"deck_order": ["AS", 3]}, r"field 'deck_order\[1\]' must be text"),
        ({"deck_order": ["AS\x07"]}, "printable"),
        ({"version": 0}, "unknown format version 0"),
        ({"version": True}, "unknown format version True"),
        ({"version": 10**50}, "newer cardtable"),
    ],
)
def test_every_field_is_checked_on_reading(changes: dict[str, Any], reason: str) -> None:
    with pytest.raises(SaveError, match=reason) as info:
        GameRecord.from_json(_data(**changes))
    message = str(info.value)
    assert message.isprintable() and len(message) < 300


def test_every_message_is_one_printable_line_for_hostile_unknown_options() -> None:
    # an option name the rules would quote raw in their ValueError
    with pytest.raises(SaveError) as info:
        GameRecord.from_json(_data(config={"players": 2, "colour\x1b]2;x\x07": "red"}))
    assert "\x1b" not in str(info.value) and "\x07" not in str(info.value)


def test_what_cardtable_writes_passes_the_schema() -> None:
    record = played_record(moves=30)
    record.preset = "short"
    record.status = "finished"
    record.result = _result(reason="{p1} resigned")
    assert GameRecord.from_json(json.loads(record.to_text())) == record


def test_a_missing_level_reads_as_none() -> None:
    data = _data(seats=[{"name": "Ada", "kind": "human"}, {"name": "B", "kind": "bot"}])
    assert [s.level for s in GameRecord.from_json(data).seats] == [None, None]


def _version_1(record: GameRecord, **changes: Any) -> dict[str, Any]:
    """``record`` as cardtable wrote it in format version 1."""
    return {**record.to_json(), "version": 1, **changes}


def test_a_version_1_resignation_becomes_a_resign_move_that_replays_to_its_result() -> None:
    spec = get_game("domination")
    config = spec.config(first_leader="1")
    record = GameRecord.new("domination", config, 5, played_record().seats)
    state = spec.new(config, 5)
    for _ in range(5):
        seat = state.to_act()[0]
        move = str(state.legal_moves(seat)[0])
        state.play_text(seat, move)
        record.moves.append((seat, move))
    # format 1 numbered seat options from 1, and a resignation was a status
    config = {**record.config, "first_leader": "2"}
    old_result = {"winner": 0, "ranking": [[0], [1]], "scores": [0, 0], "reason": "Bot resigned"}
    data = _version_1(record, config=config, status="resigned", result=old_result)
    upgraded = GameRecord.from_json(data)
    assert upgraded.config["first_leader"] == "1"  # Player 2, counted from 0
    assert upgraded.moves == [*record.moves, (1, "resign")]
    assert upgraded.status == "finished"
    assert upgraded.result == {**old_result, "reason": "{p1} resigned"}
    # it replays to the same result, and is written back as version 2
    outcome = upgraded.replay().outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.ranking == ((0,), (1,))
    assert json.loads(upgraded.to_text())["version"] == FORMAT_VERSION == 2
    assert GameRecord.from_json(json.loads(upgraded.to_text())) == upgraded


def test_version_1_seat_options_of_every_game_count_from_0() -> None:
    record = played_record(moves=2)
    for first, now in (("1", "0"), ("2", "1"), ("random", "random")):
        data = _version_1(record, config={**record.config, "first_leader": first})
        assert GameRecord.from_json(data).config["first_leader"] == now
    trick = get_game("trick")
    config = trick.config(defender="1").to_dict()
    data = _version_1(record, game="trick", preset=None, config={**config, "defender": "2"})
    assert GameRecord.from_json(data).config["defender"] == "1"


@pytest.mark.parametrize(
    "result",
    [None, {"winner": 0, "ranking": [[0, 1]], "scores": [0, 0], "reason": ""}, {"ranking": 5}],
)
def test_a_version_1_resignation_that_names_nobody_is_unreadable(result: Any) -> None:
    data = _version_1(played_record(moves=2), status="resigned", result=result)
    with pytest.raises(SaveError, match="rank the seat that resigned last"):
        GameRecord.from_json(data)


@pytest.mark.parametrize(
    ("status", "result"), [("finished", None), ("playing", _result()), ("resigned", _result())]
)
def test_the_status_and_the_result_agree(status: str, result: Any) -> None:
    with pytest.raises(SaveError, match=r"finished game needs its result|status. must be one of"):
        GameRecord.from_json(_data(status=status, result=result))


def test_older_versions_go_through_the_one_upgrade_function(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the shape a format change takes: version N-1 -> N in _UPGRADES, then the schema
    monkeypatch.setattr(record_module, "FORMAT_VERSION", 3)

    def two_to_three(data: dict[str, Any]) -> dict[str, Any]:
        return {**data, "seats": [{**s, "name": s["name"].upper()} for s in data["seats"]]}

    monkeypatch.setattr(record_module, "_UPGRADES", {**record_module._UPGRADES, 2: two_to_three})
    record = GameRecord.from_json(_data(version=2))
    assert [s.name for s in record.seats] == ["ADA", "COMPUTER (HARD)"]
    with pytest.raises(SaveError, match="newer cardtable"):
        GameRecord.from_json(_data(version=4))
    monkeypatch.setattr(record_module, "_UPGRADES", {})
    with pytest.raises(SaveError, match="unknown format version 2"):
        GameRecord.from_json(_data(version=2))


def test_the_file_is_a_typed_struct_with_a_json_schema() -> None:
    # the types are the description of the file: its JSON Schema comes from them
    schema = msgspec.json.schema(record_module.RecordFile)
    fields = schema["$defs"]["RecordFile"]
    assert set(fields["required"]) == set(_data()) - {"format", "version", "hints"}
    level = schema["$defs"]["SeatFile"]["properties"]["level"]
    assert {"enum": sorted(record_module.BOT_LEVELS)} in level["anyOf"]


@pytest.mark.parametrize("where", ["--seed", "the seed"])
def test_a_field_checked_alone_is_named_as_the_caller_says(where: str) -> None:
    with pytest.raises(SaveError, match=f"^{where} must be a whole number, not 'x'$"):
        record_module.check_field("seed", "x", where)
    assert record_module.check_field("seed", 5, where) == 5
