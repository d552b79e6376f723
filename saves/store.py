"""The record store: one versioned JSON file per game, written atomically.

Records live in ``<root>/games/<id>.json``. The root is ``--data-dir``, else
``$CARDTABLE_DATA_DIR``, else the platform's user data dir
(``platformdirs.user_data_path("cardtable")``, e.g. ``~/.local/share/cardtable``).

Guarantees (docs/saves.md):

- a save is atomic: a temp file in the same folder, fsync, ``os.replace``; a
  reader sees the old file or the new one, never a torn one, even with
  several writers at once;
- a file that cannot be read is listed with the reason and never overwritten
  (it may hold a game a newer cardtable wrote, or one a person can mend);
- nothing here raises anything but :class:`SaveError` for bad files.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from rules.errors import shown_input

from .errors import SaveError
from .record import GameRecord, is_record_id, new_record_id, parse_time

__all__ = ["SaveEntry", "SaveError", "SaveStore"]

ENV_VAR = "CARDTABLE_DATA_DIR"
# A record of the longest game is a few hundred kilobytes; anything far larger
# is not ours, and reading it whole could exhaust memory.
MAX_FILE_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class SaveEntry:
    """One file in the store: its record, or why it cannot be read."""

    id: str
    path: Path
    record: GameRecord | None
    error: str | None
    modified: float  # the file's mtime, seconds since the epoch

    @property
    def last_played(self) -> float:
        """When the game was last played: the record's own time, else the file's."""
        if self.record is not None:
            with contextlib.suppress(ValueError):
                return parse_time(self.record.updated).timestamp()
        return self.modified


class SaveStore:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.games_dir = self.root / "games"

    @classmethod
    def default(cls, data_dir: Path | None = None) -> SaveStore:
        """The store at ``data_dir``, else $CARDTABLE_DATA_DIR, else the user data dir."""
        if data_dir is not None:
            return cls(Path(data_dir).expanduser())
        env = os.environ.get(ENV_VAR, "").strip()
        if env:
            return cls(Path(env).expanduser())
        return cls(platformdirs.user_data_path("cardtable"))

    # ------------------------------------------------------------ paths
    def path(self, record_id: str) -> Path:
        """Where a record lives. SaveError for text that is no record id (so a
        name like ``../x`` can never reach outside the store)."""
        if not is_record_id(record_id):
            raise SaveError(f"{shown_input(record_id)} is not a saved-game id (6-32 hex digits)")
        return self.games_dir / f"{record_id}.json"

    def exists(self, record_id: str) -> bool:
        return is_record_id(record_id) and self.path(record_id).exists()

    def unused_id(self) -> str:
        """A fresh record id that no file in the store uses yet."""
        while True:
            record_id = new_record_id()
            if not self.exists(record_id):
                return record_id

    def resolve(self, text: str) -> str:
        """The id of a saved game named by its id or a unique prefix of it."""
        wanted = text.strip().lower()
        if self.exists(wanted):
            return wanted
        matches = sorted(p.stem for p in self._files() if p.stem.startswith(wanted))
        if wanted and len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise SaveError(
                f"{shown_input(text)} matches several saved games: {', '.join(matches)}"
            )
        raise SaveError(f"no saved game {shown_input(text)} in {self.games_dir}")

    def _files(self) -> list[Path]:
        if not self.games_dir.is_dir():
            return []
        # temp files start with a dot and end in .tmp: never listed
        return [
            p for p in self.games_dir.glob("*.json") if not p.name.startswith(".") and p.is_file()
        ]

    # ------------------------------------------------------------ reading
    def list(self) -> list[SaveEntry]:
        """Every file in the store, last played first. Never raises for a bad
        file: an unreadable one is listed with ``error`` set."""
        entries = []
        for path in self._files():
            try:
                modified = path.stat().st_mtime
            except OSError:
                continue  # deleted meanwhile
            try:
                record, error = self._read(path), None
            except SaveError as err:
                record, error = None, str(err)
            entries.append(SaveEntry(path.stem, path, record, error, modified))
        entries.sort(key=lambda e: (e.last_played, e.modified, e.id), reverse=True)
        return entries

    def load(self, record_id: str) -> GameRecord:
        """The record with this id; SaveError if it is missing or unreadable."""
        path = self.path(record_id)
        if not path.exists():
            raise SaveError(f"no saved game '{record_id}' in {self.games_dir}")
        try:
            return self._read(path)
        except SaveError as err:
            raise SaveError(f"saved game {record_id} cannot be read: {err}") from None

    def _read(self, path: Path) -> GameRecord:
        try:
            with path.open("rb") as f:
                raw = f.read(MAX_FILE_BYTES + 1)
        except OSError as err:
            raise SaveError(f"cannot open the file: {err.strerror or err}") from None
        if len(raw) > MAX_FILE_BYTES:
            raise SaveError(f"the file is over {MAX_FILE_BYTES // (1024 * 1024)} MB")
        if not raw.strip():
            raise SaveError("the file is empty")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise SaveError("the file is not UTF-8 text") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise SaveError(
                f"not valid JSON (corrupt or cut short?): {err.msg} at line {err.lineno} "
                f"column {err.colno}"
            ) from None
        except RecursionError:
            raise SaveError("not valid JSON: nested too deeply") from None
        record = GameRecord.from_json(data)
        if record.id != path.stem:
            raise SaveError(f"the file {path.name} holds game {record.id}, not {path.stem}")
        return record

    # ------------------------------------------------------------ writing
    def save(self, record: GameRecord) -> None:
        """Write a record atomically. SaveError if the disk refuses, or if a
        file for this id exists but cannot be read (it is never overwritten)."""
        path = self.path(record.id)
        if path.exists():
            try:
                existing = self._read(path)
            except SaveError as err:
                raise SaveError(
                    f"not saving game {record.id}: {path} exists but cannot be read "
                    f"({err}); move it away to save again"
                ) from None
            if existing.game != record.game or existing.created != record.created:
                raise SaveError(f"not saving game {record.id}: another game is saved under that id")
        data = record.to_text()
        try:
            self.games_dir.mkdir(parents=True, exist_ok=True)
            _write_atomically(path, data.encode("utf-8"))
        except OSError as err:
            raise SaveError(f"cannot save game {record.id} in {self.games_dir}: {err}") from None

    def delete(self, record_id: str) -> None:
        """Remove a saved game (readable or not); SaveError if there is none."""
        path = self.path(record_id)
        try:
            path.unlink()
        except FileNotFoundError:
            raise SaveError(f"no saved game '{record_id}' in {self.games_dir}") from None
        except OSError as err:
            raise SaveError(f"cannot delete {path}: {err.strerror or err}") from None

    def export(self, record_id: str, dest: Path) -> Path:
        """Copy a saved game's file, byte for byte, to ``dest`` (a file, or a
        folder to put ``<id>.json`` in). An unreadable file can be exported too
        (to attach to a bug report). Never overwrites: SaveError if ``dest``
        exists. Returns the path written."""
        src = self.path(record_id)
        if not src.exists():
            raise SaveError(f"no saved game '{record_id}' in {self.games_dir}")
        dest = Path(dest).expanduser()
        if dest.is_dir():
            dest = dest / src.name
        try:
            with src.open("rb") as fin, dest.open("xb") as fout:
                shutil.copyfileobj(fin, fout)
        except FileExistsError:
            raise SaveError(f"{dest} already exists: not overwriting it") from None
        except OSError as err:
            raise SaveError(f"cannot export to {dest}: {err.strerror or err}") from None
        return dest


def _write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that no reader ever sees a partial file."""
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    # Makes the rename itself durable on POSIX; not possible (nor needed) on Windows.
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
