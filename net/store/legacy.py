"""The upgrade from the file-based server: a data dir written before the
store (``server/tables.json``, ``server/names.json`` or ``server/names.log``, the
server's games in ``games/``) is read into the store once, and its files are moved aside into
``server/legacy-YYYYMMDD/``, so the next start finds nothing to read.

Which games are the server's: a record with no seat of kind ``human`` (the
server seats only ``remote`` people and computers). A person's own games,
saved by the app in the same data dir, stay where they are: they are the
player's documents. A record that does not read stays too, and is counted.
Reading again after a crash half-way is harmless: every write is an upsert.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import stat
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from saves.stats import compute
from saves.store import SaveStore

from .seats import KeptTable
from .store import Store

NAMES_FORMAT = "cardtable-names"
MAX_LEGACY_FILE = 64 * 1024 * 1024  # a seats or names file larger is not ours


def _read_json(path: Path) -> Any:
    """A legacy JSON file's data; None if there is none. Never follows a link
    or waits on a FIFO: only a regular file is read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_LEGACY_FILE:
            raise ValueError(f"{path} is not a file this server wrote")
        return json.loads(file.read())


def _seats(data: Any) -> dict[str, KeptTable]:
    tables = data.get("tables") if isinstance(data, dict) else None
    kept = {}
    for table_id, entry in (tables or {}).items():
        try:
            kept[str(table_id)] = KeptTable(
                if_gone=str(entry["if_gone"]),
                open_seats=frozenset(int(s) for s in entry["open_seats"]),
                tokens={int(s): bytes.fromhex(d) for s, d in entry["tokens"].items()},
                started=bool(entry["started"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            continue  # a damaged entry: that table's seats are not held
    return kept


def _names_log(path: Path) -> dict[str, str]:
    """The claims of ``names.log`` (JSON lines: a claim, or a name that
    played), as the server built from parts wrote them; a torn line is skipped."""
    names: dict[str, str] = {}
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return names
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_LEGACY_FILE:
            raise ValueError(f"{path} is not a file this server wrote")
        for line in file.read().splitlines():
            try:
                entry = json.loads(line)
                digest = entry.get("digest")
                if isinstance(digest, str) and len(digest) == 64:
                    names[str(entry["name"])] = digest
            except (ValueError, TypeError, KeyError, AttributeError):
                continue
    return names


def _names(data: Any) -> dict[str, str]:
    if not isinstance(data, dict) or data.get("format") != NAMES_FORMAT:
        return {}
    names = data.get("names")
    return {str(k): v for k, v in (names or {}).items() if isinstance(v, str) and len(v) == 64}


async def upgrade(store: Store, data_dir: Path, *, today: datetime | None = None) -> str | None:
    """Read the legacy files of ``data_dir`` into ``store`` and move them
    aside; returns one line to log (None: nothing to upgrade)."""
    root = Path(data_dir)
    server = root / "server"
    seats_file, names_file = server / "tables.json", server / "names.json"
    saves = SaveStore(root)
    entries = await asyncio.to_thread(saves.list)
    ours = [
        e
        for e in entries
        if e.record is not None and all(s.kind != "human" for s in e.record.seats)
    ]
    unreadable = [e for e in entries if e.record is None]
    problems: list[str] = []
    try:
        seats = _seats(await asyncio.to_thread(_read_json, seats_file))
    except (OSError, ValueError) as err:
        seats, problems = {}, [f"{seats_file.name} unread ({err})"]
    try:
        names = _names(await asyncio.to_thread(_read_json, names_file))
    except (OSError, ValueError) as err:
        names, problems = {}, [*problems, f"{names_file.name} unread ({err})"]
    names_log = server / "names.log"
    try:
        names.update(await asyncio.to_thread(_names_log, names_log))
    except (OSError, ValueError) as err:
        problems.append(f"{names_log.name} unread ({err})")
    files = [seats_file, names_file, names_log]
    if not ours and not seats and not names and not any(f.exists() for f in files):
        return None
    for entry in ours:
        assert entry.record is not None
        await store.tables.save_record(entry.record)
    held = 0
    known = {e.id for e in ours}
    for table_id, kept in seats.items():
        if table_id in known:
            await store.seats.keep(table_id, kept)
            held += 1
    claimed = await store.names.keep_digests(names)
    stats = compute([e.record for e in ours if e.record is not None])
    rows = await store.standings.put(stats)
    aside = _aside(server, today or datetime.now(UTC))
    moved = 0
    for path in [*files, *(e.path for e in ours)]:
        target = aside / path.relative_to(root)
        with contextlib.suppress(FileNotFoundError):
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(path, target)
            moved += 1
    left = f"; {len(unreadable)} unreadable games left in {saves.games_dir}" if unreadable else ""
    trouble = f"; {', '.join(problems)}" if problems else ""
    return (
        f"upgraded {root} into {store.where}: {len(ours)} games ({held} tables held with "
        f"their seats), {claimed} names, {rows} standings rows; {moved} old files moved to "
        f"{aside}{left}{trouble}"
    )


def _aside(server: Path, today: datetime) -> Path:
    """A folder for the old files that no earlier upgrade used."""
    base = server / f"legacy-{today:%Y%m%d}"
    folder, n = base, 1
    while folder.exists():
        n += 1
        folder = base.with_name(f"{base.name}-{n}")
    return folder
