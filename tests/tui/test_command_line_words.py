"""The command line reads a game's name as the screens write it, and points a
game setting typed as a flag at `--option`."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from tui import cli
from tui.game_names import game_named


@pytest.mark.parametrize(
    ("name", "game_id"),
    [
        ("Domination", "domination"),
        ("STRESS", "stress"),
        ("Five-Card Trick", "trick"),
        ("five card trick", "trick"),
        ("Trick", "trick"),
    ],
)
def test_a_game_is_named_by_its_id_or_title_in_any_case(name: str, game_id: str) -> None:
    assert game_named(name).id == game_id


def test_rules_accepts_the_title_as_the_screens_write_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(tmp_path))
    assert cli.main(["rules", "Domination"]) == 0
    assert "Domination" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "pointer"),
    [
        (["play", "stress", "--players", "9"], "did you mean --option players=9?"),
        (["play", "Domination", "--target-score=50"], "did you mean --option target_score=50?"),
    ],
)
def test_a_game_setting_typed_as_a_flag_points_at_option(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    pointer: str,
) -> None:
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(tmp_path))
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert pointer in err


def test_an_unknown_flag_that_is_no_game_setting_gets_no_pointer(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(tmp_path))
    assert cli.main(["play", "stress", "--colour", "red"]) == 2
    assert "did you mean" not in capsys.readouterr().err


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[dict[str, Any] | None]:
    """What the command would open the app with (no app, no terminal needed)."""
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(tmp_path))
    calls: list[dict[str, Any] | None] = []

    def launch_app(args: argparse.Namespace, launch: dict[str, Any] | None) -> int:
        calls.append(launch)
        return 0

    monkeypatch.setattr(cli, "launch_app", launch_app)
    return calls


@pytest.mark.parametrize(
    ("name", "game_id"),
    [("Domination", "domination"), ("STRESS", "stress"), ("five-card trick", "trick")],
)
def test_learn_names_a_game_as_play_and_rules_do(
    launched: list[dict[str, Any] | None], name: str, game_id: str
) -> None:
    assert cli.main(["learn", name]) == 0
    assert launched == [{"action": "learn", "game": game_id}]


def test_an_option_is_named_in_any_case(
    launched: list[dict[str, Any] | None], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["play", "stress", "--option", "Players=3"]) == 0
    assert cli.main(["play", "Domination", "--option", "Target-Score=50"]) == 0
    assert [c["options"] for c in launched if c] == [{"players": 3}, {"target_score": 50}]
    assert cli.main(["play", "stress", "--Players", "9"]) == 2
    assert "did you mean --option players=9?" in capsys.readouterr().err
