"""The store trusts nothing on disk: only regular files are read, replaced or
exported, within a size limit and without blocking; odd JSON is a reason, not a
crash; autosaving does not read the whole game back after every move."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from saves import store as store_module
from saves.errors import SaveError
from saves.record import GameRecord
from saves.store import STALE_TEMP_SECONDS, SaveStore

from .helpers import played_record

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def store(tmp_path: Path) -> SaveStore:
    return SaveStore(tmp_path / "data")


def _put(store: SaveStore, record_id: str, raw: bytes) -> Path:
    store.games_dir.mkdir(parents=True, exist_ok=True)
    path = store.games_dir / f"{record_id}.json"
    path.write_bytes(raw)
    return path


# ------------------------------------------------------------ odd JSON
def test_a_5000_digit_integer_is_unreadable_not_a_crash(store: SaveStore) -> None:
    good = played_record(record_id="9999aaaa")
    store.save(good)
    text = played_record().to_text().replace('"seed": 7', '"seed": 1' + "0" * 5000)
    _put(store, "0123abcd", text.encode())
    entries = {e.id: e for e in store.list()}  # json.loads raised ValueError here
    bad = entries["0123abcd"]
    assert bad.record is None and bad.error is not None
    assert "number in the file is too long" in bad.error and len(bad.error) < 200
    assert entries["9999aaaa"].record == good
    with pytest.raises(SaveError, match="cannot be read: a number"):
        store.load("0123abcd")


def test_json_errors_do_not_say_at_at(store: SaveStore) -> None:
    _put(store, "0123abcd", b'{"format": "cardtable-game", "id": "unterminated')
    [entry] = store.list()
    assert entry.error is not None
    assert "Unterminated string starting at line 1 column" in entry.error
    assert "at at" not in entry.error


def test_a_file_name_with_a_line_break_is_quoted_in_the_reason(store: SaveStore) -> None:
    store.games_dir.mkdir(parents=True)
    (store.games_dir / "a\nb.json").write_text(played_record().to_text())
    [entry] = store.list()
    assert entry.error is not None and "\n" not in entry.error
    assert "'a\\nb'" in entry.error


# ------------------------------------------------------------ autosave cost
def test_autosave_does_not_read_back_its_own_file(
    store: SaveStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[Any] = []
    real = GameRecord.from_json.__func__  # type: ignore[attr-defined]

    def counting(cls: type[GameRecord], data: Any) -> GameRecord:
        reads.append(data)
        return real(cls, data)  # type: ignore[no-any-return]

    monkeypatch.setattr(GameRecord, "from_json", classmethod(counting))
    record = played_record(moves=0)
    full = played_record(moves=60)
    for seat, move in full.moves:
        record.moves.append((seat, move))
        store.save(record)
    assert reads == []  # the old store read and checked the whole file before every save
    assert store.load(record.id).moves == full.moves
    # a store that read the file (resume) does not read it again to save it
    other = SaveStore(store.root)
    resumed = other.load(record.id)
    reads.clear()
    resumed.moves.append((0, "KS"))
    other.save(resumed)
    assert reads == []


def test_a_file_changed_behind_our_back_is_read_again(store: SaveStore) -> None:
    record = played_record(moves=4)
    store.save(record)
    path = store.path(record.id)
    # something else puts a different game under the same id
    intruder = played_record(moves=2, seed=3)
    intruder.created = "2020-01-01T00:00:00.000Z"
    (store.games_dir / "elsewhere").write_text(intruder.to_text())
    os.replace(store.games_dir / "elsewhere", path)
    with pytest.raises(SaveError, match="another game is saved under that id"):
        store.save(record)
    assert GameRecord.from_json(json.loads(path.read_text())) == intruder
    # a person replaces it with something unreadable
    path.write_text("{junk")
    with pytest.raises(SaveError, match="exists but cannot be read"):
        store.save(record)
    assert path.read_text() == "{junk"


def test_a_file_only_touched_is_checked_and_saved(store: SaveStore) -> None:
    record = played_record(moves=4)
    store.save(record)
    path = store.path(record.id)
    os.utime(path, ns=(1, 1))
    record.moves.append((0, "KS"))
    store.save(record)
    assert store.load(record.id).moves == record.moves


# ------------------------------------------------------------ only regular files
_HOSTILE_FILES = r"""
import json, os, resource, signal, sys
from pathlib import Path
from saves.store import SaveStore
from saves.errors import SaveError
from tests.saves.helpers import played_record
from tui import cli

# a regression must fail, not fill the disk: files this process writes stay small
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 20, 64 << 20))
root = Path(sys.argv[1])
games = root / "games"
games.mkdir(parents=True)
os.mkfifo(games / "0123abcd.json")
os.symlink("/dev/zero", games / "feed0000.json")
out = {}
store = SaveStore(root)
out["list"] = {e.id: e.error for e in store.list()}
for rid in ("0123abcd", "feed0000"):
    for name, argv in {
        "show": ["saves", "show", rid],
        "resume": ["resume", rid],
        "export": ["saves", "export", rid, str(root / f"out-{rid}.json")],
    }.items():
        out[f"{name} {rid}"] = cli.main(["--data-dir", str(root), *argv])
    try:
        store.save(played_record(record_id=rid))
        out[f"save {rid}"] = "saved"
    except SaveError as err:
        out[f"save {rid}"] = str(err)
out["fifo"] = __import__("stat").S_ISFIFO(os.lstat(games / "0123abcd.json").st_mode)
out["link"] = os.path.islink(games / "feed0000.json")
out["exported"] = sorted(p.name for p in root.glob("out-*"))
print("RESULT " + json.dumps(out))
"""


def test_fifos_and_links_to_devices_are_refused_without_hanging(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _HOSTILE_FILES, str(tmp_path / "data")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=20,  # a FIFO used to block `saves show`, `resume`, `export` and autosave
        env={**os.environ, "CARDTABLE_DATA_DIR": str(tmp_path / "data")},
    )
    line = next(x for x in done.stdout.splitlines() if x.startswith("RESULT "))
    out = json.loads(line.removeprefix("RESULT "))
    assert "not a regular file (a FIFO)" in out["list"]["0123abcd"]
    assert "not a regular file (a symbolic link)" in out["list"]["feed0000"]
    for rid in ("0123abcd", "feed0000"):
        assert out[f"show {rid}"] == out[f"resume {rid}"] == out[f"export {rid}"] == 2
        assert "exists but cannot be read" in out[f"save {rid}"]
        assert "not a regular file" in out[f"save {rid}"]
    assert out["fifo"] and out["link"] and out["exported"] == []
    errors = done.stderr.splitlines()
    assert len(errors) == 6 and all("not a regular file" in e for e in errors), done.stderr


def test_export_refuses_a_file_over_the_size_limit(
    store: SaveStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "MAX_FILE_BYTES", 100)
    _put(store, "0123abcd", b"x" * 101)
    with pytest.raises(SaveError, match="over"):
        store.export("0123abcd", tmp_path / "out.json")
    assert not (tmp_path / "out.json").exists()


# ------------------------------------------------------------ export destinations
def test_export_into_folders(store: SaveStore, tmp_path: Path) -> None:
    record = played_record()
    store.save(record)
    folder = tmp_path / "folder"
    folder.mkdir()
    assert store.export(record.id, folder) == folder / f"{record.id}.json"
    other = tmp_path / "other"
    other.mkdir()
    assert store.export(record.id, f"{other}/") == other / f"{record.id}.json"
    assert (other / f"{record.id}.json").read_bytes() == store.path(record.id).read_bytes()


@pytest.mark.parametrize(
    ("dest", "reason"),
    [
        ("missing/", "there is no such folder"),
        ("missing/out.json", "there is no folder"),
        ("", "no place to export to"),
        ("  ", "no place to export to"),
    ],
)
def test_export_to_nowhere_is_one_line(
    store: SaveStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dest: str, reason: str
) -> None:
    store.save(played_record())
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SaveError, match=reason) as info:
        store.export("0123abcd", dest)
    assert "\n" not in str(info.value)
    assert sorted(os.listdir(tmp_path)) == ["data"]  # nothing written, not even here


def test_export_on_a_full_disk_removes_its_partial_file(
    store: SaveStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.save(played_record(moves=30))
    real_write = os.write

    def full(fd: int, data: Any) -> int:
        real_write(fd, bytes(data[:10]))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store_module.os, "write", full)
    dest = tmp_path / "out.json"
    with pytest.raises(SaveError, match="No space left on device; removed the partial file"):
        store.export("0123abcd", dest)
    assert not dest.exists()


# ------------------------------------------------------------ temp files
TOKEN = "0123456789abcdef"  # a temp file's random token: 16 hex digits


def test_stale_temp_files_are_removed_when_the_store_opens(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    store.save(played_record())
    games = store.games_dir
    old = time.time() - STALE_TEMP_SECONDS - 5
    stale = [
        games / f".cardtable-save-0123abcd-{TOKEN}.tmp",
        games / f".cardtable-save-feedbeef0011-{TOKEN[::-1]}.tmp",
    ]
    fresh = games / f".cardtable-save-0123abcd-{'f' * 16}.tmp"  # a save in flight elsewhere
    theirs = [
        # a person's own files, named like temp files, never touched however old
        games / ".abcdef01.mybackup.tmp",  # like the temp files of earlier versions
        games / ".0123abcd.k2j3l4m5.tmp",
        games / ".notes.tmp",
        games / "x.tmp",
        games / f".cardtable-save-0123abcd-{TOKEN}.tmp.bak",
        games / f"cardtable-save-0123abcd-{TOKEN}.tmp",  # no dot
        games / f".cardtable-save-0123abcd-{TOKEN}0.tmp",  # 17 digits
        games / f".cardtable-save-0123abcd-{TOKEN[:-1]}.tmp",  # 15
        games / f".cardtable-save-0123abcd-{TOKEN.upper()}.tmp",
        games / f".cardtable-save-mygame-{TOKEN}.tmp",  # no game id
        games / f".cardtable-save-0123abcd.{TOKEN}.tmp",
        games / f".Cardtable-save-0123abcd-{TOKEN}.tmp",
    ]
    for path in [*stale, fresh, *theirs]:
        path.write_text("half a fi")
    for path in [*stale, *theirs]:
        os.utime(path, (old, old))
    SaveStore(tmp_path)
    left = sorted(os.listdir(games))
    assert left == sorted(["0123abcd.json", fresh.name, *(p.name for p in theirs)])
    assert [p.read_text() for p in theirs] == ["half a fi"] * len(theirs)


def test_a_read_only_listing_keeps_a_user_file_that_looks_like_a_temp_file(
    tmp_path: Path,
) -> None:
    """`cardtable saves list` (which opens a store) in a folder with a file of
    the user's named like the temp files of earlier versions, hours old."""
    from tui.cli import main

    store = SaveStore(tmp_path)
    store.save(played_record())
    mine = store.games_dir / ".abcdef01.mybackup.tmp"
    mine.write_text("my own notes")
    hours = time.time() - 3 * 3600
    os.utime(mine, (hours, hours))
    assert main(["--data-dir", str(tmp_path), "saves", "list"]) == 0
    assert mine.read_text() == "my own notes"


def test_the_temp_file_a_killed_save_leaves_is_cleaned_once_stale(tmp_path: Path) -> None:
    """A save killed between writing its temp file and the rename (here: the
    process ends at the fsync) leaves the name the writer really makes; a
    store opened later removes it once it is stale, and not before."""
    kill = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from saves import store as s\n"
        "from tests.saves.helpers import played_record\n"
        "st = s.SaveStore(Path(sys.argv[1]))\n"
        "s.os.fsync = lambda fd: os._exit(9)\n"
        "st.save(played_record())\n"
    )
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", kill, str(tmp_path)], cwd=repo, check=False)
    assert done.returncode == 9
    games = tmp_path / "games"
    [left] = os.listdir(games)
    assert store_module._TEMP_NAME.fullmatch(left), left
    assert left.startswith(".cardtable-save-0123abcd-") and len(left) == len(
        f".cardtable-save-0123abcd-{TOKEN}.tmp"
    )
    SaveStore(tmp_path)
    assert os.listdir(games) == [left]  # fresh: it could be a save in flight
    old = time.time() - STALE_TEMP_SECONDS - 5
    os.utime(games / left, (old, old))
    SaveStore(tmp_path)
    assert os.listdir(games) == []


def test_a_temp_file_a_save_holds_is_kept(tmp_path: Path) -> None:
    fcntl = pytest.importorskip("fcntl")
    store = SaveStore(tmp_path)
    store.save(played_record())
    busy = store.games_dir / f".cardtable-save-0123abcd-{TOKEN}.tmp"
    busy.write_text("being written")
    old = time.time() - STALE_TEMP_SECONDS - 5
    os.utime(busy, (old, old))
    with busy.open("rb") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        SaveStore(tmp_path)
        assert busy.exists()
    SaveStore(tmp_path)
    assert not busy.exists()


# ------------------------------------------------------------ failing saves
def test_a_read_only_folder_gives_the_same_message_every_time(
    store: SaveStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = played_record()
    store.save(record)
    calls = iter(range(100))

    real_open = os.open

    def refuse(path: Any, flags: int, mode: int = 0o777) -> int:
        if Path(path).name.startswith(store_module.TEMP_PREFIX):
            name = f"{path}.r{next(calls)}nd0m"
            raise PermissionError(errno.EACCES, "Permission denied", name)
        return real_open(path, flags, mode)

    monkeypatch.setattr(store_module.os, "open", refuse)
    messages = set()
    for _ in range(3):
        record.moves.append((0, "KS"))
        with pytest.raises(SaveError) as info:
            store.save(record)
        messages.add(str(info.value))
    [message] = messages
    assert message == f"cannot save game {record.id} in {store.games_dir}: Permission denied"
