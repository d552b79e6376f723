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
import re
import stat
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from rules.errors import shown_input

from .atomic import TEMP_PREFIX, write_atomically
from .data_root import data_root
from .errors import SaveError
from .record import GameRecord, _clean, is_record_id, new_record_id, parse_time
from .regular_file import READ_FLAGS, read_regular

try:  # POSIX: a save holds a lock on its temp file, so nobody removes it meanwhile
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = ["SaveEntry", "SaveError", "SaveStore"]

# A record of the longest game is a few hundred kilobytes; anything far larger
# is not ours, and reading it whole costs memory and seconds per command (a
# million moves took a minute to show): refused in one line, unread.
MAX_FILE_BYTES = 4 * 1024 * 1024
# A save's temp file: a fixed prefix, the game's id, a random token of fixed
# length: `.cardtable-save-<id>-<16 hex digits>.tmp`. One left behind by a save
# killed mid-write is removed when a store opens, once it is this old and no
# save holds it. The name is matched exactly: the folder may hold files of the
# user's own (`.3f9a0c1b.mybackup.tmp`), and a cleaner that guessed would
# delete them. (Earlier versions named theirs `.<id>.<8 characters>.tmp`,
# which a person's file can look like: those are left alone.)
# the temp files of saves.atomic that hold a game (the stem is a record id)
_TEMP_NAME = re.compile(re.escape(TEMP_PREFIX) + r"[0-9a-f]{6,32}-[0-9a-f]{16}\.tmp")
STALE_TEMP_SECONDS = 60.0

_CREATE_FLAGS = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)

# What identifies one version of a file on disk: if these are unchanged since we
# wrote or read it, nobody has replaced it (device, inode, size, mtime, ctime).
_FileKey = tuple[int, int, int, int, int]


def _file_key(st: os.stat_result) -> _FileKey:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


@dataclass(frozen=True)
class _Known:
    """A file we wrote or read and found whole: its key and whose game it holds."""

    key: _FileKey
    game: str
    created: str


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
            with contextlib.suppress(ValueError, OverflowError, OSError):
                return parse_time(self.record.updated).timestamp()
        return self.modified


class SaveStore:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.games_dir = self.root / "games"
        # per id, the file as we last wrote or read it: a save replaces a file
        # that is still that one without reading it again
        self._known: dict[str, _Known] = {}
        self._known_lock = threading.Lock()
        self.remove_stale_temp_files()

    @classmethod
    def default(cls, data_dir: Path | None = None) -> SaveStore:
        """The store at ``data_dir``, else $CARDTABLE_DATA_DIR, else the user data dir."""
        return cls(data_root(data_dir))

    # ------------------------------------------------------------ paths
    def path(self, record_id: str) -> Path:
        """Where a record lives. SaveError for text that is no record id (so a
        name like ``../x`` can never reach outside the store)."""
        if not is_record_id(record_id):
            raise SaveError(f"{shown_input(record_id)} is not a saved-game id (6-32 hex digits)")
        return self.games_dir / f"{record_id}.json"

    def exists(self, record_id: str) -> bool:
        return is_record_id(record_id) and os.path.lexists(self.path(record_id))

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
            shown = ", ".join(shown_input(m) for m in matches[:10])
            more = f" and {len(matches) - 10} more" if len(matches) > 10 else ""
            raise SaveError(f"{shown_input(text)} matches several saved games: {shown}{more}")
        raise SaveError(f"no saved game {shown_input(text)} in {self.games_dir}")

    def _files(self) -> list[Path]:
        """Every `*.json` in the folder but folders and temp files (which start
        with a dot): symbolic links, FIFOs and such are listed as unreadable."""
        try:
            with os.scandir(self.games_dir) as found:
                return [
                    Path(entry.path)
                    for entry in found
                    if entry.name.endswith(".json")
                    and not entry.name.startswith(".")
                    and not entry.is_dir(follow_symlinks=False)
                ]
        except OSError:  # no folder yet, or not one we may read
            return []

    def remove_stale_temp_files(self) -> None:
        """Remove temp files of saves killed mid-write (our naming only, older
        than STALE_TEMP_SECONDS, held by no save). Never raises."""
        try:
            with os.scandir(self.games_dir) as found:
                names = [e.name for e in found if _TEMP_NAME.fullmatch(e.name)]
        except OSError:
            return
        now = time.time()
        for name in names:
            with contextlib.suppress(OSError):
                _remove_if_stale(self.games_dir / name, now)

    # ------------------------------------------------------------ reading
    def list(self) -> list[SaveEntry]:
        """Every file in the store, last played first. Never raises for a bad
        file: an unreadable one is listed with ``error`` set."""
        entries = []
        for path in self._files():
            try:
                modified = path.lstat().st_mtime
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
        if not os.path.lexists(path):
            raise SaveError(f"no saved game '{record_id}' in {self.games_dir}")
        try:
            return self._read(path)
        except SaveError as err:
            raise SaveError(f"saved game {record_id} cannot be read: {err}") from None

    def _read(self, path: Path) -> GameRecord:
        """Read and check a record file, and remember it as one we know."""
        raw, st = _read_regular(path)
        if len(raw) > MAX_FILE_BYTES:
            raise SaveError(f"the file is over {MAX_FILE_BYTES // (1024 * 1024)} MB")
        if not raw.strip():
            raise SaveError("the file is empty")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise SaveError("the file is not UTF-8 text") from None
        data = _parse_json(text)
        record = GameRecord.from_json(data)
        if record.id != path.stem:
            raise SaveError(
                f"the file {shown_input(path.name)} holds game {record.id}, "
                f"not {shown_input(path.stem)}"
            )
        self._remember(record, _file_key(st))
        return record

    def _remember(self, record: GameRecord, key: _FileKey) -> None:
        with self._known_lock:
            self._known[record.id] = _Known(key, record.game, record.created)

    def _still_ours(self, record: GameRecord, path: Path) -> bool | None:
        """None if there is no file; True if it is, unchanged, the file we last
        wrote or read for this game; False if it must be read to be sure."""
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return None
        except OSError as err:
            raise SaveError(
                f"cannot save game {record.id} in {self.games_dir}: {_reason(err)}"
            ) from None
        with self._known_lock:
            known = self._known.get(record.id)
        return (
            known is not None
            and known.key == _file_key(st)
            and (known.game, known.created) == (record.game, record.created)
        )

    # ------------------------------------------------------------ writing
    def save(self, record: GameRecord) -> None:
        """Write a record atomically. SaveError if the disk refuses, or if a
        file for this id exists but cannot be read (it is never overwritten).

        A file this store wrote (or read) and that nobody has replaced since is
        replaced without reading it again (one ``lstat``): autosaving after
        every move costs a write, not a read and a check of the whole game."""
        path = self.path(record.id)
        if self._still_ours(record, path) is False:
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
            key = _write_atomically(path, data.encode("utf-8"))
        except OSError as err:
            # the folder and the game, never the temp file's random name: the
            # same failure reads the same after every move
            raise SaveError(
                f"cannot save game {record.id} in {self.games_dir}: {_reason(err)}"
            ) from None
        self._remember(record, key)

    def delete(self, record_id: str) -> None:
        """Remove a saved game (readable or not); SaveError if there is none."""
        path = self.path(record_id)
        try:
            path.unlink()
        except FileNotFoundError:
            raise SaveError(f"no saved game '{record_id}' in {self.games_dir}") from None
        except OSError as err:
            raise SaveError(f"cannot delete {path}: {_reason(err)}") from None
        with self._known_lock:
            self._known.pop(record_id, None)

    def export(self, record_id: str, dest: str | os.PathLike[str]) -> Path:
        """Copy a saved game's file, byte for byte, to ``dest``: a file, or a
        folder (an existing one, or any path ending in a slash) to put
        ``<id>.json`` in. An unreadable file can be exported too (to attach to a
        bug report), if it is a regular file within the size limit. Never
        overwrites: SaveError if the file exists. Returns the path written."""
        src = self.path(record_id)
        if not os.path.lexists(src):
            raise SaveError(f"no saved game '{record_id}' in {self.games_dir}")
        target = _export_path(os.fspath(dest), f"{record_id}.json")
        try:
            raw, _ = _read_regular(src)
        except SaveError as err:
            raise SaveError(f"not exporting saved game {record_id}: {err}") from None
        if len(raw) > MAX_FILE_BYTES:
            raise SaveError(
                f"not exporting saved game {record_id}: the file is over "
                f"{MAX_FILE_BYTES // (1024 * 1024)} MB"
            )
        try:
            fd = os.open(target, _CREATE_FLAGS, 0o644)
        except FileExistsError:
            raise SaveError(f"{target} already exists: not overwriting it") from None
        except OSError as err:
            raise SaveError(f"cannot export to {target}: {_reason(err)}") from None
        try:
            try:
                view = memoryview(raw)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as err:
            # a full disk: no half-written copy left behind
            removed = False
            with contextlib.suppress(OSError):
                target.unlink()
                removed = True
            note = "; removed the partial file" if removed else f"; {target} is incomplete"
            raise SaveError(f"cannot export to {target}: {_reason(err)}{note}") from None
        return target


def _export_path(dest: str, name: str) -> Path:
    """Where ``saves export`` writes: ``dest``, or ``dest/name`` for a folder."""
    if not dest.strip():
        raise SaveError("no place to export to: name a file or a folder")
    path = Path(dest).expanduser()
    seps = (os.sep, os.altsep) if os.altsep else (os.sep,)
    if dest.endswith(seps) or path.is_dir():
        if not path.is_dir():
            raise SaveError(f"cannot export to {path}{os.sep}: there is no such folder")
        return path / name
    if not path.parent.is_dir():
        raise SaveError(f"cannot export to {path}: there is no folder {path.parent}")
    return path


def _read_regular(path: Path) -> tuple[bytes, os.stat_result]:
    """At most MAX_FILE_BYTES + 1 bytes of a regular file, and its stat; SaveError
    (a reason) for anything else, without blocking or following a link."""
    try:
        return read_regular(path, MAX_FILE_BYTES)
    except FileNotFoundError as err:
        raise SaveError(f"cannot open the file: {_reason(err)}") from None


def _parse_json(text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        # "Unterminated string starting at": the message may end in "at" already
        where = "line" if err.msg.endswith(" at") else "at line"
        raise SaveError(
            f"not valid JSON (corrupt or cut short?): {err.msg} {where} {err.lineno} "
            f"column {err.colno}"
        ) from None
    except RecursionError:
        raise SaveError("not valid JSON: nested too deeply") from None
    except ValueError as err:
        # Python refuses to read integers of more than 4300 digits
        if "integer string conversion" in str(err):
            raise SaveError("a number in the file is too long (thousands of digits)") from None
        raise SaveError(f"not valid JSON: {_clean(str(err), 100)}") from None


def _reason(err: OSError) -> str:
    """An OSError in words, without the file name it carries (often a temp file's)."""
    return err.strerror or _clean(str(err), 100) or type(err).__name__


def _remove_if_stale(path: Path, now: float) -> None:
    st = os.lstat(path)
    if not stat.S_ISREG(st.st_mode) or now - st.st_mtime < STALE_TEMP_SECONDS:
        return
    fd = os.open(path, READ_FLAGS)
    try:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return  # a save is writing it right now
        if _file_key(os.fstat(fd)) == _file_key(st):
            path.unlink()
    finally:
        os.close(fd)


def _write_atomically(path: Path, data: bytes) -> _FileKey:
    """Write ``data`` to ``path`` so that no reader ever sees a partial file
    (saves.atomic). Returns the key of the file written (see :func:`_file_key`)."""
    return _file_key(write_atomically(path, data))
