"""Writing a file so that no reader ever sees half of it: the one way
cardtable writes a JSON file (a save, the settings, the seats held at tables
elsewhere).

The data goes to a new temp file beside the target, named
``.cardtable-save-<stem>-<16 hex digits>.tmp`` (:data:`TEMP_PREFIX`; a name no
other program picks, so a clean-up can tell ours from anything else), readable
by its owner only; the file is flushed and fsynced, renamed over the target
with ``os.replace`` (atomic on POSIX and Windows), and the folder is fsynced so
the rename itself survives a power cut. On any failure the temp file is removed
and the error raised: the old file stays whole.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

try:  # POSIX: a save holds a lock on its temp file while it writes
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

TEMP_PREFIX = ".cardtable-save-"
TEMP_TOKEN_BYTES = 8  # 16 hex digits: never the same name twice

_CREATE_FLAGS = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


def write_atomically(path: Path, data: bytes) -> os.stat_result:
    """Replace ``path`` by a file holding ``data``, whole or not at all; the
    new file's status (taken after the rename, which sets its ctime)."""
    fd, tmp = create_temp(path)
    try:
        with os.fdopen(fd, "wb") as f:
            if fcntl is not None:  # tells a clean-up of stale temp files to keep off
                with contextlib.suppress(OSError):
                    fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
            os.replace(tmp, path)
            written = os.fstat(f.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    fsync_folder(path.parent)
    return written


def write_json_atomically(path: Path, data: Any, *, indent: int | None = None) -> None:
    """``data`` as UTF-8 JSON (a final newline) in ``path``, as :func:`write_atomically`."""
    text = json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
    write_atomically(path, text.encode("utf-8"))


def create_temp(path: Path) -> tuple[int, Path]:
    """A new, empty temp file beside ``path``, named as only cardtable names
    one, open for writing, readable by its owner only."""
    while True:
        # (os.urandom, as secrets.token_hex reads it; the secrets module would
        # load OpenSSL at the home screen's start: tests/test_start_imports.py)
        token = os.urandom(TEMP_TOKEN_BYTES).hex()
        tmp = path.parent / f"{TEMP_PREFIX}{path.stem}-{token}.tmp"
        try:
            return os.open(tmp, _CREATE_FLAGS, 0o600), tmp
        except FileExistsError:  # 2^64 names: never twice, but never overwrite either
            continue


def fsync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (POSIX; neither possible nor needed on Windows)."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
