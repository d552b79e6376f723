"""The `cardtable` command, run in-process with captured streams (never a real TTY)."""

from __future__ import annotations

import json
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from saves.record import GameRecord, SeatInfo
from saves.store import SaveStore
from tui import cli, ruledocs

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own data dir through the environment: never the real one."""
    path = tmp_path / "data"
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(path))
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got: {err!r}"
    assert "Traceback" not in err
    return lines[0]


def saved(data_dir: Path, record_id: str = "abc12345", moves: int = 3) -> GameRecord:
    from rules.registry import get_game

    spec = get_game("domination")
    config = spec.config(first_leader="0", target_score=500)
    state = spec.new(config, 5)
    record = GameRecord.new(
        "domination", config, 5, [SeatInfo("Ada", "human"), SeatInfo("Bot", "bot", "hard")],
        record_id=record_id,
    )  # fmt: skip
    for _ in range(moves):
        seat = state.to_act()[0]
        move = state.legal_moves(seat)[0]
        state.play(seat, move)
        record.moves.append((seat, str(move)))
    SaveStore(data_dir).save(record)
    return record


@pytest.fixture
def fake_app(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Stand in for tui.app and a terminal: records what the CLI would launch."""
    calls: list[tuple[Any, ...]] = []
    module = types.ModuleType("tui.run")

    def run_app(
        data_dir: Path | None,
        ascii: bool,
        launch: dict[str, Any] | None,
        config_dir: Path | None = None,
    ) -> int:
        calls.append((data_dir, ascii, launch))
        return 0

    module.run_app = run_app  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tui.run", module)
    monkeypatch.setattr(cli, "is_tty", lambda stream: True)
    return calls


# ------------------------------------------------------------ help, errors
def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for word in ("play", "resume", "rules", "saves", "--data-dir", "--ascii"):
        assert word in out
    code, out, _ = run(capsys, "play", "--help")
    assert code == 0 and "--vs" in out and "--option" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "chess"], "no game called 'chess'"),
        (["play", "domination", "--vs", "robot"], "--vs takes computer:easy|medium|hard"),
        (["play", "domination", "--vs", "computer:genius"], "--vs takes"),
        (["play", "domination", "--option", "colour=red"], "has no option 'colour'"),
        (["play", "domination", "--option", "target_score=lots"], "takes a whole number"),
        (["play", "domination", "--option", "allow_concede=maybe"], "takes yes or no"),
        (["play", "domination", "--option", "noequals"], "--option takes NAME=VALUE"),
        (["play", "domination", "--option", "target_score=-3"], "at least 0"),
        (
            ["play", "domination", "--option", "target_score=9223372036854775808"],
            "option 'target_score' must be at most 9223372036854775807; got 9223372036854775808",
        ),
        (["play", "domination", "--preset", "nope"], "has no preset 'nope'"),
        (["play", "domination", "--option", "target_score=0"], "never ends"),
        (["play", "domination", "--seed", "x"], "invalid int value"),
        (["play"], "required"),
        (["dance"], "invalid choice"),
        (["--bogus"], "unrecognized arguments"),
        (["saves"], "required"),
        (["saves", "show", "feedbeef"], "no saved game 'feedbeef'"),
        (["resume", "feedbeef"], "no saved game 'feedbeef'"),
        (["rules", "chess"], "no game called 'chess'"),
        (["play", "domination", "--vs", "a\nb"], "--vs takes"),
        (["play", "domination", "--option", "x\ny=1"], "has no option"),
        (["saves", "show", "ab\ncd"], "no saved game"),
    ],
)
def test_user_errors_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in one_line_error(err)


# ------------------------------------------------------------ launching the app
@pytest.mark.parametrize("argv", [[], ["play", "domination"], ["resume"]])
def test_without_a_terminal_the_app_does_not_start(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    # under pytest neither stdin nor stdout is a TTY, as with `ssh host cardtable`
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert "needs an interactive terminal" in one_line_error(err)
    assert "ssh -t" in err


def test_no_command_opens_the_home_screen(
    capsys: pytest.CaptureFixture[str], fake_app: list[tuple[Any, ...]]
) -> None:
    assert run(capsys, "--ascii")[0] == 0
    assert fake_app == [(None, True, None)]


def test_play_launches_with_typed_options(
    capsys: pytest.CaptureFixture[str], fake_app: list[tuple[Any, ...]], tmp_path: Path
) -> None:
    code, _, err = run(
        capsys, "--data-dir", str(tmp_path / "d"), "play", "domination", "--vs", "computer:hard",
        "--seed", "42", "--preset", "short", "--option", "allow-concede=yes",
        "--option", "first_leader=1",
    )  # fmt: skip
    assert code == 0, err
    assert fake_app == [
        (
            tmp_path / "d",
            False,
            {
                "action": "play",
                "game": "domination",
                "vs": "computer:hard",
                "seed": 42,
                "preset": "short",
                "options": {"allow_concede": True, "first_leader": "1"},
            },
        )
    ]


def test_play_defaults_and_flags_after_the_command(
    capsys: pytest.CaptureFixture[str], fake_app: list[tuple[Any, ...]], tmp_path: Path
) -> None:
    code, _, _ = run(capsys, "play", "domination", "--ascii", "--data-dir", str(tmp_path))
    assert code == 0
    data_dir, ascii, launch = fake_app[0]
    assert data_dir == tmp_path and ascii is True
    assert launch["vs"] == "computer:medium" and launch["seed"] is None
    assert launch["options"] == {} and launch["preset"] is None
    run(capsys, "play", "domination", "--vs", "human")
    run(capsys, "play", "domination", "--vs", "computer")
    assert [c[2]["vs"] for c in fake_app[1:]] == ["human", "computer:medium"]


def test_resume_checks_the_game_before_launching(
    capsys: pytest.CaptureFixture[str], fake_app: list[tuple[Any, ...]], data_dir: Path
) -> None:
    saved(data_dir, "abc12345")
    assert run(capsys, "resume", "abc1")[0] == 0  # a unique prefix is enough
    assert run(capsys, "resume")[0] == 0
    assert [c[2] for c in fake_app] == [
        {"action": "resume", "id": "abc12345"},
        {"action": "resume", "id": None},
    ]
    (data_dir / "games" / "bad00000.json").write_text("{oops")
    code, _, err = run(capsys, "resume", "bad00000")
    assert code == 2 and "cannot be read" in one_line_error(err)
    assert len(fake_app) == 2


# ------------------------------------------------------------ rules
def test_rules_prints_the_page(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "domination.md").write_text("# Domination\n\nPlay higher.\n", "utf-8")
    monkeypatch.setattr(ruledocs, "_CANDIDATES", (tmp_path,))
    code, out, _ = run(capsys, "rules", "domination")
    assert code == 0 and out == "# Domination\n\nPlay higher.\n"


def test_rules_without_a_page_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(ruledocs, "_CANDIDATES", (tmp_path,))
    code, _, err = run(capsys, "rules", "domination")
    assert code == 2 and "no rules page" in one_line_error(err)


# ------------------------------------------------------------ saves
def test_saves_list(capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    code, out, _ = run(capsys, "saves", "list")
    assert code == 0 and "No saved games" in out
    saved(data_dir, "abc12345", moves=4)
    (data_dir / "games" / "bad00000.json").write_text('{"format": "cardtable-game", "version": 7}')
    code, out, _ = run(capsys, "saves", "list")
    assert code == 0
    assert str(data_dir / "games") in out
    row = next(line for line in out.splitlines() if line.startswith("abc12345"))
    assert "domination" in row and "playing" in row and " 4 " in row and "Ada vs Bot (hard)" in row
    bad = next(line for line in out.splitlines() if line.startswith("bad00000"))
    assert "unreadable" in bad and "newer cardtable" in bad


def test_data_dir_flag_beats_the_environment(
    capsys: pytest.CaptureFixture[str], data_dir: Path, tmp_path: Path
) -> None:
    saved(data_dir, "abc12345")
    other = tmp_path / "other"
    code, out, _ = run(capsys, "--data-dir", str(other), "saves", "list")
    assert code == 0 and "No saved games" in out and str(other) in out
    code, out, _ = run(capsys, "saves", "list", "--data-dir", str(other))
    assert code == 0 and "No saved games" in out


def test_saves_show(capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    record = saved(data_dir, "abc12345", moves=3)
    code, out, _ = run(capsys, "saves", "show", "abc12345")
    assert code == 0
    assert "Game abc12345: Domination" in out and "Status: playing" in out
    assert "Bot (computer, hard)" in out and "Seed: 5" in out
    seat, text = record.moves[2]
    # in words and the card style the table draws (D49), the notation beside
    shown = text.replace("S", "♠").replace("H", "♥").replace("D", "♦").replace("C", "♣")
    assert f"3. {['Ada', 'Bot'][seat]}: play {shown}  [{text}]" in out
    code, out, _ = run(capsys, "saves", "show", "abc12345", "--ascii")
    assert f"3. {['Ada', 'Bot'][seat]}: play {text}  [{text}]" in out


def test_saves_show_and_list_fill_the_reason_with_names(
    capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    """A result's reason is a template ("{p1} finished first"): printed with
    the seats' names, never with braces (it was, for finished Stress games)."""
    record = saved(data_dir, "abc12345", moves=2)
    record.seats[0] = SeatInfo("You", "human")
    record.status, record.result = "finished", {
        "winner": 1, "ranking": [[1], [0]], "scores": [0, 4],
        "reason": "{p1} finished first; {p0 is|are} left holding cards",
    }  # fmt: skip
    SaveStore(data_dir).save(record)
    code, out, _ = run(capsys, "saves", "show", "abc12345")
    assert code == 0 and "{" not in out
    assert "Status: finished: Bot won (Bot finished first; you are left holding cards)" in out
    code, out, _ = run(capsys, "saves", "list")
    row = next(line for line in out.splitlines() if line.startswith("abc12345"))
    assert code == 0 and "  lost 0-4  " in row, row  # the status from your side


def test_a_saved_option_no_save_holds_is_a_reason_not_a_crash(
    capsys: pytest.CaptureFixture[str], fake_app: list[tuple[Any, ...]], data_dir: Path
) -> None:
    """A record whose option is 2^63 (an older server let one be made) is
    listed as unreadable, and opening it says why in one line."""
    saved(data_dir, "abc12345")
    path = data_dir / "games" / "abc12345.json"
    text = path.read_text("utf-8")
    assert '"target_score": 500' in text
    path.write_text(text.replace('"target_score": 500', '"target_score": 9223372036854775808'))
    reason = "option 'target_score' must be from -9223372036854775807 to 9223372036854775807"
    code, out, _ = run(capsys, "saves", "list")
    row = next(line for line in out.splitlines() if line.startswith("abc12345"))
    assert code == 0 and "unreadable" in row and reason in row
    for argv in (["resume", "abc12345"], ["saves", "show", "abc12345"]):
        code, _, err = run(capsys, *argv)
        assert code == 2 and reason in one_line_error(err)
    assert fake_app == []  # the app was never asked to open it


def test_saves_delete(capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    saved(data_dir, "abc12345")
    code, _, err = run(capsys, "saves", "delete", "abc12345")
    assert code == 2 and "--yes" in one_line_error(err)  # no terminal to ask on
    assert SaveStore(data_dir).exists("abc12345")
    code, out, _ = run(capsys, "saves", "delete", "abc12345", "--yes")
    assert code == 0 and "Deleted" in out
    assert not SaveStore(data_dir).exists("abc12345")
    code, _, err = run(capsys, "saves", "delete", "abc12345", "--yes")
    assert code == 2 and "no saved game" in one_line_error(err)


def test_saves_export(capsys: pytest.CaptureFixture[str], data_dir: Path, tmp_path: Path) -> None:
    record = saved(data_dir, "abc12345")
    dest = tmp_path / "bug.json"
    code, out, _ = run(capsys, "saves", "export", "abc12345", str(dest))
    assert code == 0 and str(dest) in out
    assert GameRecord.from_json(json.loads(dest.read_text("utf-8"))) == record
    code, _, err = run(capsys, "saves", "export", "abc12345", str(dest))
    assert code == 2 and "already exists" in one_line_error(err)


# ------------------------------------------------------------ headless imports
def test_headless_modules_never_import_textual_or_rich() -> None:
    code = (
        "import sys, saves, saves.store, net, net.local, net.table, tui.cli\n"
        "tui.cli.main(['--help'])\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "print('IMPORTED:' + ','.join(bad))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "IMPORTED:"


# ------------------------------------------------------------ hostile text
ESCAPES = "Ada\x1b]2;PWNED\x07\x1b[2J\x1b[H"
MARKUP = ["[/]", "[/bold]", "[link=https://example.invalid]click[/link]", "[@click=app.quit]"]


def assert_plain(text: str) -> None:
    """No terminal escape, control character (but the line break) or C1 code."""
    bad = [c for c in text if (c < " " and c != "\n") or "\x7f" <= c <= "\x9f"]
    assert not bad, f"raw control characters {bad!r} in {text!r}"


def _hostile_files(data_dir: Path, value: str) -> list[str]:
    """A save per string field of a record, each holding ``value``; their ids."""
    record = saved(data_dir, "abc12345", moves=2)
    games = data_dir / "games"

    def put(record_id: str, **changes: Any) -> str:
        data = {**record.to_json(), "id": record_id, **changes}
        (games / f"{record_id}.json").write_text(json.dumps(data), "utf-8")
        return record_id

    seats = record.to_json()["seats"]
    result = {"winner": 0, "ranking": [[0], [1]], "scores": [3, 1], "reason": value}
    ids = [
        put("a0000001", seats=[{**seats[0], "name": value}, seats[1]]),
        put("a0000002", seats=[seats[0], {**seats[1], "level": value}]),
        put("a0000003", preset=value),
        put("a0000004", status="finished", result=result),
        put("a0000005", moves=[*record.to_json()["moves"], [0, value]]),
        put("a0000006", config={**record.config, value: 1}),
        put("a0000007", game=value),
    ]
    (games / f"x{value.replace('/', '|')}\ny.json").write_text(record.to_text(), "utf-8")
    return ids


@pytest.mark.parametrize("value", [ESCAPES, *MARKUP])
def test_record_strings_reach_the_terminal_as_plain_text(
    capsys: pytest.CaptureFixture[str],
    data_dir: Path,
    tmp_path: Path,
    fake_app: list[tuple[Any, ...]],
    value: str,
) -> None:
    ids = _hostile_files(data_dir, value)
    code, out, err = run(capsys, "saves", "list")
    assert code == 0 and err == ""
    assert_plain(out)
    lines = out.splitlines()
    assert len(lines) == 2 + 1 + len(ids) + 1  # the folder, the header, a line per file
    assert any(line.startswith("x") and "unreadable" in line for line in lines)
    for record_id in ids:
        for argv in (["saves", "show", record_id], ["resume", record_id]):
            code, out, err = run(capsys, *argv)
            assert_plain(out + err)
            assert code == 0 or len(err.splitlines()) == 1


def test_a_readable_record_with_markup_is_shown_as_written(
    capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    record = saved(data_dir, "abc12345", moves=2)
    record.seats[0] = SeatInfo("[@click=app.quit]", "human")
    record.status, record.result = "finished", {
        "winner": 1, "ranking": [[1], [0]], "scores": [0, 0], "reason": MARKUP[2],
    }  # fmt: skip
    SaveStore(data_dir).save(record)
    code, out, _ = run(capsys, "saves", "show", "abc12345")
    assert code == 0
    assert "1. [@click=app.quit] (human)" in out
    assert f"finished: Bot won ({MARKUP[2]})" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "\x1b[2J"], "no game called '\\x1b[2J'"),
        (["rules", "\x1b]2;x\x07"], "no game called"),
        (["play", "domination", "--preset", "\x1b[2J"], "has no preset '\\x1b[2J'"),
        (["play", "domination", "--option", "\x1b[2J=1"], "has no option '\\x1b[2J'"),
        (["play", "domination", "--option", "target_score=\x1b[2J"], "takes a whole number"),
        (["play", "domination", "--vs", "\x1b[2J"], "--vs takes"),
        (["play", "x" * 100_000], "no game called 'xxx"),
        (["play", "domination", "--preset", "p" * 100_000], "has no preset 'ppp"),
        (["play", "domination", "--option", "target_score=" + "9" * 100_000], "whole number"),
        (["saves", "show", "\x1b[2J" * 1000], "no saved game"),
        (["--data-dir", "", "saves", "list"], "--data-dir: needs a folder"),
        (["saves", "list", "--data-dir", ""], "--data-dir: needs a folder"),
        (["play", "domination", "--seed", str(2**64)], "--seed must be at most"),
        (["play", "domination", "--option", f"target_score={2**70}"], "must be at most"),
    ],
)
def test_echoed_arguments_are_plain_and_short(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    line = one_line_error(err)
    assert message in line
    assert_plain(err)
    assert len(line) < 500


@pytest.fixture
def tokyo(monkeypatch: pytest.MonkeyPatch) -> Any:
    import time

    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_odd_values_are_listed_as_unreadable(
    capsys: pytest.CaptureFixture[str], data_dir: Path, tokyo: Any
) -> None:
    record = saved(data_dir, "abc12345", moves=2)
    games = data_dir / "games"
    odd = {
        "b0000001": record.to_text().replace('"seed": 5', '"seed": 1' + "0" * 5000),
        "b0000002": json.dumps({**record.to_json(), "id": "b0000002",
                                "status": "finished", "result": {"scores": 5}}),
        "b0000003": json.dumps({**record.to_json(), "id": "b0000003",
                                "updated": "9999-12-31T23:59:59.999Z"}),
        "b0000004": json.dumps({**record.to_json(), "id": "b0000004", "seats": [
            {"name": "Ada", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "godlike"},
        ]}),
    }  # fmt: skip
    for record_id, text in odd.items():
        (games / f"{record_id}.json").write_text(text, "utf-8")
    code, out, err = run(capsys, "saves", "list")
    assert code == 0 and err == ""
    reasons = {
        "b0000001": "a number in the file is too long",
        "b0000002": "field 'result.scores' must be a list, not 5",
        "b0000003": "field 'updated' is out of range",
        "b0000004": "seat 2's level must be one of easy, medium, hard, not 'godlike'",
    }
    for record_id, reason in reasons.items():
        line = next(x for x in out.splitlines() if x.startswith(record_id))
        assert f"unreadable: {reason}" in line
        code, _, err = run(capsys, "resume", record_id)
        assert code == 2 and reason in one_line_error(err)
    assert "abc12345  domination" in out


def test_export_destinations(
    capsys: pytest.CaptureFixture[str], data_dir: Path, tmp_path: Path
) -> None:
    saved(data_dir, "abc12345")
    folder = tmp_path / "folder"
    folder.mkdir()
    code, out, _ = run(capsys, "saves", "export", "abc12345", str(folder))
    assert code == 0 and str(folder / "abc12345.json") in out
    code, _, err = run(capsys, "saves", "export", "abc12345", f"{tmp_path}/other/")
    assert code == 2 and "there is no such folder" in one_line_error(err)
    (tmp_path / "other").mkdir()
    code, _, _ = run(capsys, "saves", "export", "abc12345", f"{tmp_path}/other/")
    assert code == 0 and (tmp_path / "other" / "abc12345.json").exists()
    for dest, reason in [
        ("", "no place to export to"),
        (f"{tmp_path}/missing/", "there is no such folder"),
        (f"{tmp_path}/missing/bug.json", "there is no folder"),
    ]:
        code, _, err = run(capsys, "saves", "export", "abc12345", dest)
        assert code == 2 and reason in one_line_error(err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "folder", "other"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["rules", "domination"], ["saves", "list"], ["--help"]])
def test_a_full_disk_on_stdout_is_one_line_not_a_traceback(argv: list[str], data_dir: Path) -> None:
    saved(data_dir, "abc12345")
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "tui.cli", *argv],
            cwd=REPO, stdout=full, stderr=subprocess.PIPE, text=True, timeout=20,
        )  # fmt: skip
    assert done.returncode in (1, 2)
    assert "cannot write the output: No space left on device" in one_line_error(done.stderr)


# ---------------------------------------------------------------- arena
def test_arena_json_has_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "arena", "domination", "--a", "random", "--b", "medium", "--games", "2",
        "--preset", "short", "--json",
    )  # fmt: skip
    assert code == 0 and err == ""  # no progress bar where stderr is no terminal
    data = json.loads(out)
    assert data["games"] == 2 and data["a"] == "random" and data["b"] == "medium"
    assert data["wins"] + data["draws"] + data["losses"] == 2
    assert 0.0 <= data["ci_low"] <= data["rate"] <= data["ci_high"] <= 1.0
    assert data["mean_moves"] > 0
    assert set(data["a_times"]) == {"decisions", "median", "p99"}


def test_arena_text_is_one_line_per_figure(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "arena", "trick", "--a", "medium", "--b", "thief", "--games", "2")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("trick (standard, 2 players), 2 games, seed 0: medium (A)")
    # which seats A and B hold, at two players as at more
    assert lines[1] == "A and B swap seats each game, playing each deal from both sides"
    assert lines[2].startswith("A wins ") and "95% interval" in lines[2]
    assert lines[3].startswith("average game: ")
    assert "decision time: median" in lines[4]
    # no trick game reaches a limit of the rules: no line about one
    assert not any("limit" in line for line in lines)
    assert lines[-1] == (
        "a decision is a move with more than one legal choice; forced moves are not timed"
    )


def test_arena_text_counts_the_games_stopped_at_the_rules_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # easy against easy at Stress: seed 1's first two games, the second
    # stopped at 2,000 plays (tests/rules/test_arena.py counts the first six:
    # games 1, 3 and 5). Two, not six: each game stopped costs 2,000 plays
    code, out, _ = run(
        capsys, "arena", "stress", "--a", "easy", "--b", "easy", "--players", "2",
        "--games", "2", "--seed", "1",
    )  # fmt: skip
    assert code == 0
    assert "1 of 2 games reached the 2,000-play limit (ranked by cards left)" in out.splitlines()
    code, out, _ = run(
        capsys, "arena", "stress", "--a", "easy", "--b", "easy", "--players", "2",
        "--games", "2", "--seed", "1", "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert data["limited"] == 1
    assert data["limit"] == "the 2,000-play limit (ranked by cards left)"


def test_arena_text_says_which_seats_a_holds_at_more_than_two(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys, "arena", "stress", "--a", "random", "--b", "easy", "--games", "1",
    )  # fmt: skip
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("stress (standard, 4 players), 1 games")  # the default table
    assert lines[1] == (
        "A holds one seat (another each game), B the other 3; A wins when it comes first"
    )
    assert lines[-2].endswith(", over its 3 seats")


def test_arena_help_says_what_players_is_and_its_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["arena", "--help"]) == 0
    # argparse wraps the help: the words, not the lines
    words = " ".join(capsys.readouterr().out.split())
    assert "--players K how many play: A takes one seat, B the other K-1" in words
    assert "stress 4" in words and "domination 2" in words


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["arena", "domination", "--a", "hard", "--b", "thief"], "no player 'thief'"),
        (["arena", "nogame", "--a", "hard", "--b", "easy"], "no game called"),
        (["arena", "trick", "--a", "hard", "--b", "easy", "--players", "3"], "2 players"),
        (["arena", "trick", "--a", "hard"], "required"),
    ],
)
def test_arena_mistakes_get_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert says in one_line_error(err)


@pytest.mark.parametrize("game_id", ["domination", "trick", "territory"])
def test_the_players_rules_pages_are_written_for_players(game_id: str) -> None:
    """The in-app and `cardtable rules` page: no seed numbers, rulings files,
    option identifiers or the seed's abbreviations (docs/rules/ keeps those)."""
    page = ruledocs.rules_markdown(game_id)
    assert page.startswith("# ")
    for developer_word in ("seed", "RULINGS", "DMO", "3+1", "`first_leader`", "Notation"):
        assert developer_word not in page, developer_word
    # the steps of a round are numbered as many as they are
    steps = [line for line in page.splitlines() if line[:2] in {f"{n}." for n in range(1, 10)}]
    assert [int(line.split(".")[0]) for line in steps] == list(range(1, len(steps) + 1))


def test_saves_show_names_a_move_of_another_game_without_a_traceback(
    capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    """H5: a record whose moves belong to another game (a Stress record
    holding Territory moves) is shown, each such move named as not this
    game's; never a traceback."""
    record = saved(data_dir, "abcdef01", moves=1)
    record.moves.append((0, "explore 6S 0,-1"))
    SaveStore(data_dir).save(record)
    code, out, err = run(capsys, "saves", "show", "abcdef01")
    assert code == 0, err
    assert "2. Ada: (not a Domination move)  [explore 6S 0,-1]" in out


def test_saves_show_lists_a_long_game_s_opening_and_end_only(
    capsys: pytest.CaptureFixture[str], data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """L2: the moves shown are bounded; the rest is said to be in the file."""
    from tui import saves_cli

    monkeypatch.setattr(saves_cli, "SHOWN_MOVES", 4)
    saved(data_dir, "abc12345", moves=7)
    code, out, _ = run(capsys, "saves", "show", "abc12345")
    numbered = [line.split(".")[0].strip() for line in out.splitlines() if line.startswith("  ")]
    assert code == 0 and numbered == ["1", "2", "", "6", "7"]
    assert "... 3 moves not shown: `cardtable saves export abc12345 FILE` keeps them all" in out


def test_a_record_of_more_moves_than_any_game_has_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    """L2: a million moves took a minute to read; past MAX_MOVES the record is refused."""
    from saves.record import MAX_MOVES

    record = saved(data_dir, "abc12345", moves=1)
    path = SaveStore(data_dir).path(record.id)
    data = json.loads(path.read_text())
    data["moves"] = [[0, "QS"]] * (MAX_MOVES + 1)
    path.write_text(json.dumps(data))
    code, _, err = run(capsys, "saves", "show", "abc12345")
    assert code != 0 and "moves" in one_line_error(err)


def test_data_dir_keeps_this_run_s_settings_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """N26: --data-dir keeps the settings under it (or --config-dir), never
    the player's own config folder ($CARDTABLE_CONFIG_DIR here)."""
    from tui.settings import SETTINGS_FILE, config_dir_of

    own = tmp_path / "own-config"
    monkeypatch.setenv("CARDTABLE_CONFIG_DIR", str(own))
    data, config = tmp_path / "try", tmp_path / "try-config"
    parse = cli.build_parser().parse_args
    assert config_dir_of(parse(["--data-dir", str(data), "play", "domination"])) == data
    assert config_dir_of(parse(["play", "domination", "--data-dir", str(data)])) == data
    both = ["--data-dir", str(data), "--config-dir", str(config), "resume"]
    assert config_dir_of(parse(both)) == config
    assert config_dir_of(parse(["resume"])) == own
    # the settings of the --data-dir are the ones read: ASCII cards in `saves show`
    record = saved(data, "abc12345", moves=1)
    (data / SETTINGS_FILE).write_text(json.dumps({"card_style": "ascii"}))
    _, text = record.moves[0]
    code, out, _ = run(capsys, "--data-dir", str(data), "saves", "show", "abc12345")
    assert code == 0 and f"1. Ada: play {text}  [{text}]" in out
