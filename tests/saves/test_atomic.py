"""saves.atomic: the one writer of JSON files, whole or not at all."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from saves import atomic
from tui.network import HeldSeats
from tui.settings import Settings, save_settings

# these tests are about the flushes themselves: the real os.fsync (tests/conftest.py)
pytestmark = pytest.mark.fsync


def test_a_file_is_written_whole_with_an_exact_temp_name_and_fsyncs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real_fsync = os.fsync
    opened: list[str] = []
    real_open = os.open

    def note_fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    def note_open(path: str | os.PathLike[str], flags: int, mode: int = 0o777) -> int:
        opened.append(Path(path).name)
        return real_open(path, flags, mode)

    monkeypatch.setattr(atomic.os, "fsync", note_fsync)
    monkeypatch.setattr(atomic.os, "open", note_open)
    target = tmp_path / "settings.json"
    atomic.write_json_atomically(target, {"a": 1})
    assert json.loads(target.read_text("utf-8")) == {"a": 1}
    temp = opened[0]
    assert temp.startswith(".cardtable-save-settings-") and temp.endswith(".tmp")
    assert len(temp) == len(".cardtable-save-settings-") + 16 + len(".tmp")
    assert len(synced) == 2  # the file, then its folder
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "seats.json"
    target.write_text('{"old": true}', "utf-8")

    def refuse(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", refuse)
    with pytest.raises(OSError):
        atomic.write_json_atomically(target, {"new": True})
    assert json.loads(target.read_text("utf-8")) == {"old": True}
    assert [p.name for p in tmp_path.iterdir()] == ["seats.json"]


def test_the_settings_and_the_held_seats_are_written_through_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written: list[str] = []
    real = atomic.write_atomically

    def note(path: Path, data: bytes) -> os.stat_result:
        written.append(path.name)
        return real(path, data)

    monkeypatch.setattr(atomic, "write_atomically", note)
    save_settings(tmp_path, Settings(theme="textual-light"))
    HeldSeats(tmp_path / "seats.json").keep("h:1", "abc", "token")
    assert written == ["settings.json", "seats.json"]
    assert HeldSeats(tmp_path / "seats.json").get("h:1", "abc") == "token"
