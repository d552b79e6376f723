"""Names kept by a secret (docs/protocol.md, "Standings"): which names are
claimed, the hash of each one's secret, and which have played.

A claim costs the same whatever the number of names kept: the book is a dict
in memory, and each claim is one line appended to ``names.log`` (JSON lines),
written off the event loop with the other claims of the moment, one fsync a
batch. A name claimed that never sits at a table expires after
``unplayed_seconds`` (a day): claims nobody uses do not pile up. The log is
compacted (rewritten without the expired and superseded lines) when the
server starts, if it has grown to twice what it keeps. An older server's
``names.json`` is read too (its names count as played).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import os
import secrets
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

NAMES_FORMAT = "cardtable-names"
MAX_NAMES = 100_000  # names a server keeps secrets for
UNPLAYED_SECONDS = 24 * 3600.0  # a claimed name that never played is forgotten after this
_MAX_LOG_LINE = 4096


class NameTaken(Exception):
    """The name is claimed by another client (a sentence for the error reply)."""


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass
class _Kept:
    digest: str
    claimed: float  # Unix time
    played: bool


class NameBook:
    """Which names are claimed, and the hash of each one's secret."""

    def __init__(
        self,
        folder: Path,
        *,
        unplayed_seconds: float = UNPLAYED_SECONDS,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.folder = folder
        self.log_path = folder / "names.log"
        self.old_path = folder / "names.json"
        self.unplayed_seconds = unplayed_seconds
        self.wall = wall
        self._kept: dict[str, _Kept] = {}
        self._lines = 0  # lines in the log file
        self._pending: list[bytes] = []
        self._writer: asyncio.Task[None] | None = None
        self._loaded = False

    # ------------------------------------------------------------ start
    def load(self) -> None:
        """Read the names kept (blocking: call it in a thread, at start)."""
        self._kept = self._read_old()
        self._lines = 0
        try:
            for line in read_regular(self.log_path).splitlines():
                self._lines += 1
                self._apply(line)
        except OSError:
            pass  # none yet, or unreadable: names are claimed afresh
        self._loaded = True
        self._forget_expired()
        if self._lines > 2 * len(self._kept) + 100:
            self._compact()

    def _read_old(self) -> dict[str, _Kept]:
        try:
            data = json.loads(read_regular(self.old_path))
            names = data["names"] if data.get("format") == NAMES_FORMAT else {}
            return {
                str(k): _Kept(str(v), 0.0, True) for k, v in names.items() if isinstance(v, str)
            }
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return {}

    def _apply(self, line: bytes) -> None:
        try:
            entry = json.loads(line)
            name = entry["name"]
            if not isinstance(name, str):
                return
            if "digest" in entry:
                self._kept[name] = _Kept(str(entry["digest"]), float(entry["at"]), False)
            elif "played" in entry and name in self._kept:
                self._kept[name].played = True
            elif "forgotten" in entry:
                self._kept.pop(name, None)
        except (ValueError, TypeError, KeyError):
            pass  # a torn last line (a crash mid-write): the claim is lost, not the book

    def _forget_expired(self) -> None:
        now = self.wall()
        for name in [n for n, kept in self._kept.items() if self._expired(kept, now)]:
            del self._kept[name]

    def _expired(self, kept: _Kept, now: float) -> bool:
        return not kept.played and now - kept.claimed > self.unplayed_seconds

    def _compact(self) -> None:
        """Rewrite the log with what it keeps (at start, in a thread)."""
        lines = []
        for name, kept in self._kept.items():
            lines.append(_line({"name": name, "digest": kept.digest, "at": kept.claimed}))
            if kept.played:
                lines.append(_line({"name": name, "played": True}))
        temporary = self.log_path.with_suffix(".tmp")
        try:
            with open(temporary, "wb") as file:
                file.writelines(lines)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, self.log_path)
            self._lines = len(lines)
        except OSError as err:
            log.warning("cannot compact %s: %s", self.log_path, err)

    # ------------------------------------------------------------ asking
    def is_claimed(self, name: str) -> bool:
        kept = self._kept.get(name.casefold())
        return kept is not None and not self._expired(kept, self.wall())

    def check(self, name: str, secret: str | None, *, may_claim: bool = True) -> str | None:
        """Let ``name`` in with ``secret`` (None: a client that does not claim
        names; "": one that has no secret for it yet). Returns a new secret
        to give the client when it claims a free name; NameTaken if the name
        is another's. With ``may_claim`` False (the address has claimed
        enough for now) a free name is played, not claimed."""
        key = name.casefold()
        kept = self._kept.get(key)
        if kept is not None and self._expired(kept, self.wall()):
            del self._kept[key]
            kept = None
        if kept is not None:
            if secret and hmac.compare_digest(kept.digest, _digest(secret)):
                return None
            raise NameTaken(
                f"the name {name!r} is kept by another player here: choose another "
                "name, or play from the computer that holds its secret"
            )
        if secret is None or not may_claim or len(self._kept) >= MAX_NAMES:
            return None  # played under, not claimed
        # a secret the client brings (this server lost its names) is kept as it is
        given = secret or secrets.token_hex(16)
        now = self.wall()
        self._kept[key] = _Kept(_digest(given), now, False)
        self._write(_line({"name": key, "digest": self._kept[key].digest, "at": now}))
        return None if secret else given

    def played(self, name: str) -> None:
        """The name sat at a table: it is kept from now on."""
        kept = self._kept.get(name.casefold())
        if kept is not None and not kept.played:
            kept.played = True
            self._write(_line({"name": name.casefold(), "played": True}))

    # ------------------------------------------------------------ writing
    def _write(self, line: bytes) -> None:
        self._pending.append(line)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a script): written at once
            self._append(self._take())
            return
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_pending())

    def _take(self) -> list[bytes]:
        lines, self._pending = self._pending, []
        return lines

    async def _write_pending(self) -> None:
        while self._pending:
            await asyncio.to_thread(self._append, self._take())

    def _append(self, lines: list[bytes]) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with open(self.log_path, "ab") as file:
                file.writelines(lines)
                file.flush()
                os.fsync(file.fileno())
            self._lines += len(lines)
        except OSError as err:
            # kept in memory for this run; the next one asks the names afresh
            log.warning("cannot keep the names claimed: %s", err)

    async def flush(self) -> None:
        """Wait for the claims made so far to reach the disk."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)


def _line(entry: dict[str, object]) -> bytes:
    return json.dumps(entry, ensure_ascii=True, separators=(",", ":")).encode() + b"\n"


def read_regular(path: Path, most: int = 256 * 1024 * 1024) -> bytes:
    """A regular file's bytes (OSError for anything else: a FIFO or a device
    must not hang or flood the server at its start)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as file:
            return file.read(most)
    finally:
        os.close(fd)
