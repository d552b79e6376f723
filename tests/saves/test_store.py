"""SaveStore: where it lives, atomic writes, unreadable files, list/load/delete/export."""

from __future__ import annotations

import json
import os
from pathlib import Path

import platformdirs
import pytest

from saves import store as store_module
from saves.errors import SaveError
from saves.record import FORMAT_VERSION, GameRecord
from saves.store import SaveStore

from .helpers import played_record


@pytest.fixture
def store(tmp_path: Path) -> SaveStore:
    return SaveStore(tmp_path / "data")


def _files(store: SaveStore) -> list[str]:
    return sorted(os.listdir(store.games_dir))


# ------------------------------------------------------------ where it lives
def test_explicit_data_dir_wins_over_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(tmp_path / "env"))
    assert SaveStore.default(tmp_path / "flag").root == tmp_path / "flag"


def test_environment_wins_over_the_platform_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(tmp_path / "env"))
    monkeypatch.setattr(platformdirs, "user_data_path", lambda name: tmp_path / "pd" / name)
    store = SaveStore.default()
    assert store.root == tmp_path / "env"
    assert store.games_dir == tmp_path / "env" / "games"


def test_platform_dir_is_the_last_resort(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CARDTABLE_DATA_DIR", raising=False)
    monkeypatch.setattr(platformdirs, "user_data_path", lambda name: tmp_path / "pd" / name)
    assert SaveStore.default().root == tmp_path / "pd" / "cardtable"
    monkeypatch.setenv("CARDTABLE_DATA_DIR", "  ")  # blank counts as unset
    assert SaveStore.default().root == tmp_path / "pd" / "cardtable"


def test_records_live_in_games_slash_id_json(store: SaveStore) -> None:
    record = played_record()
    store.save(record)
    path = store.games_dir / f"{record.id}.json"
    assert json.loads(path.read_text("utf-8"))["id"] == record.id
    assert store.path(record.id) == path


# ------------------------------------------------------------ round trips
def test_save_load_round_trip(store: SaveStore) -> None:
    record = played_record(moves=30)
    store.save(record)
    assert store.load(record.id) == record
    record.moves.append((0, "KS"))
    record.touch()
    store.save(record)  # overwriting its own earlier save is the normal case
    assert store.load(record.id).moves == record.moves


def test_list_is_last_played_first(store: SaveStore) -> None:
    for i, stamp in enumerate(["2024-01-02T00:00:00.000Z", "2025-06-01T00:00:00.000Z",
                               "2023-05-05T00:00:00.000Z"]):  # fmt: skip
        record = played_record(moves=i, record_id=f"aaaa000{i}")
        record.updated = stamp
        store.save(record)
    entries = store.list()
    assert [e.id for e in entries] == ["aaaa0001", "aaaa0000", "aaaa0002"]
    assert all(e.error is None and e.record is not None for e in entries)
    assert entries[0].record is not None and len(entries[0].record.moves) == 1


def test_an_empty_or_missing_store_lists_nothing(store: SaveStore) -> None:
    assert store.list() == []
    store.games_dir.mkdir(parents=True)
    assert store.list() == []


def test_unused_id_and_resolve_by_prefix(store: SaveStore) -> None:
    store.save(played_record(record_id="abc12345"))
    store.save(played_record(record_id="abd99999"))
    assert store.resolve("abc1") == "abc12345"
    assert store.resolve("ABD99999") == "abd99999"
    with pytest.raises(SaveError, match="several saved games"):
        store.resolve("ab")
    with pytest.raises(SaveError, match="no saved game"):
        store.resolve("ffff")
    fresh = store.unused_id()
    assert fresh not in ("abc12345", "abd99999") and len(fresh) == 8


def test_ids_cannot_escape_the_store(store: SaveStore) -> None:
    for bad in ("../secret", "a/b", "", "x" * 8, "ABCDEF12" + "/"):
        with pytest.raises(SaveError, match="not a saved-game id"):
            store.load(bad)


# ------------------------------------------------------------ atomic writes
def test_saving_leaves_no_temp_files(store: SaveStore) -> None:
    record = played_record()
    for n in range(5):
        record.moves = record.moves[: n + 1]
        store.save(record)
    assert _files(store) == [f"{record.id}.json"]


def test_a_failed_write_keeps_the_old_file_and_removes_the_temp(
    store: SaveStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = played_record(moves=4)
    store.save(record)
    before = store.path(record.id).read_bytes()

    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store_module.os, "replace", refuse)
    record.moves.append((0, "KS"))
    with pytest.raises(SaveError, match="No space left"):
        store.save(record)
    assert store.path(record.id).read_bytes() == before
    assert _files(store) == [f"{record.id}.json"]


def test_an_unreadable_file_is_never_overwritten(store: SaveStore) -> None:
    record = played_record()
    store.games_dir.mkdir(parents=True)
    path = store.path(record.id)
    path.write_text('{"format": "cardtable-game", "version": 9}', "utf-8")
    with pytest.raises(SaveError, match="exists but cannot be read") as info:
        store.save(record)
    assert "newer cardtable" in str(info.value) and "\n" not in str(info.value)
    assert path.read_text("utf-8") == '{"format": "cardtable-game", "version": 9}'


def test_another_game_under_the_same_id_is_not_overwritten(store: SaveStore) -> None:
    first = played_record(seed=1)
    store.save(first)
    second = played_record(seed=2)
    second.created = "2020-01-01T00:00:00.000Z"
    with pytest.raises(SaveError, match="another game is saved under that id"):
        store.save(second)
    assert store.load(first.id) == first


# ------------------------------------------------------------ unreadable files
UNREADABLE = {
    "corrupt": (b"{not json", "not valid JSON"),
    "truncated": (None, "not valid JSON"),  # filled in from a real record below
    "empty": (b"", "empty"),
    "binary": (b"\xff\xfe\x00garbage", "not UTF-8"),
    "unknown-version": (None, "newer cardtable"),
    "non-object": (b"[1, 2, 3]", "JSON list"),
    "wrong-game": (None, "no game called 'chess'"),
    "renamed": (None, "holds game 0123abcd, not"),
}


def _unreadable_bytes(kind: str) -> bytes:
    raw, _ = UNREADABLE[kind]
    if raw is not None:
        return raw
    data = played_record().to_json()
    text = json.dumps(data)
    if kind == "truncated":
        return text[: len(text) // 2].encode()
    if kind == "unknown-version":
        data["version"] = FORMAT_VERSION + 1
    if kind == "wrong-game":
        data["game"] = "chess"
    return json.dumps(data).encode()


@pytest.mark.parametrize("kind", sorted(UNREADABLE))
def test_unreadable_files_are_listed_with_the_reason(store: SaveStore, kind: str) -> None:
    good = played_record(record_id="9999aaaa")
    store.save(good)
    bad_id = "0123abcd" if kind != "renamed" else "feedbeef"
    path = store.games_dir / f"{bad_id}.json"
    raw = _unreadable_bytes(kind)
    path.write_bytes(raw)
    entries = {e.id: e for e in store.list()}
    assert set(entries) == {good.id, bad_id}
    bad = entries[bad_id]
    reason = UNREADABLE[kind][1]
    assert bad.record is None and bad.error is not None and reason in bad.error
    assert "\n" not in bad.error
    assert entries[good.id].record == good
    with pytest.raises(SaveError, match="cannot be read"):
        store.load(bad_id)
    assert path.read_bytes() == raw  # listing and loading change nothing


def test_temp_files_are_not_listed(store: SaveStore) -> None:
    store.save(played_record())
    (store.games_dir / ".0123abcd.x1y2.tmp").write_text("half a fi")
    assert [e.id for e in store.list()] == ["0123abcd"]


# ------------------------------------------------------------ delete, export
def test_delete(store: SaveStore) -> None:
    record = played_record()
    store.save(record)
    store.delete(record.id)
    assert store.list() == []
    with pytest.raises(SaveError, match="no saved game"):
        store.delete(record.id)
    with pytest.raises(SaveError, match="no saved game"):
        store.load(record.id)


def test_delete_removes_an_unreadable_file_too(store: SaveStore) -> None:
    store.games_dir.mkdir(parents=True)
    (store.games_dir / "abcdef01.json").write_text("junk")
    store.delete("abcdef01")
    assert _files(store) == []


def test_export_copies_the_file_and_never_overwrites(store: SaveStore, tmp_path: Path) -> None:
    record = played_record()
    store.save(record)
    dest = store.export(record.id, tmp_path / "out.json")
    assert dest.read_bytes() == store.path(record.id).read_bytes()
    assert GameRecord.from_json(json.loads(dest.read_text("utf-8"))) == record
    folder = tmp_path / "folder"
    folder.mkdir()
    assert store.export(record.id, folder) == folder / f"{record.id}.json"
    with pytest.raises(SaveError, match="already exists"):
        store.export(record.id, tmp_path / "out.json")
    with pytest.raises(SaveError, match="no saved game"):
        store.export("feedbeef", tmp_path / "other.json")
