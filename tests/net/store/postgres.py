"""A real PostgreSQL for the tests, from the machine's own binaries
(/usr/lib/postgresql/*/bin), in a temporary folder, reached over a unix
socket in that folder (no TCP port). ``initdb`` and ``postgres`` refuse to
run as root, so as root they run as the ``postgres`` user (runuser).

The xdist workers of one run share one server: the first to need it starts
it, each holds a reference in the folder (under a file lock), and the last
to let go stops it and removes the folder. Each test gets a schema of its
own (``search_path`` in the URL), so tests never see each other's rows.

A run killed outright (SIGKILL, a terminal closed) never lets go: its
server would run on, unseen, until the machine restarts. So each user also
writes its process id in the folder, and the next run that starts a server
first stops every such server whose users have all ended.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

from tests.processes import process_ended

PORT = 25400  # names the socket file (.s.PGSQL.25400); no TCP listener
HOW_TO_GET = "PostgreSQL is not installed here: apt-get install postgresql-15"


def binaries() -> Path | None:
    """The newest PostgreSQL's bin folder, if any."""
    if env := os.environ.get("CARDTABLE_PG_BIN"):
        return Path(env)
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: (
            int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0
        ),
    )
    return Path(found[-1]).parent if found else None


def _as_owner(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


def _owner() -> tuple[int, int] | None:
    if os.geteuid() != 0:
        return None
    user = pwd.getpwnam("postgres")
    return user.pw_uid, user.pw_gid


class Cluster:
    """A running PostgreSQL in ``folder``, shared by reference."""

    def __init__(self, folder: Path, bin_dir: Path) -> None:
        self.folder = folder
        self.bin = bin_dir
        self.data = folder / "data"

    def url(self, database: str = "postgres", schema: str | None = None) -> str:
        options = f"&options=-csearch_path%3D{schema}" if schema else ""
        return f"postgresql://postgres@/{database}?host={self.folder}&port={PORT}{options}"

    def _run(self, *command: str) -> None:
        subprocess.run(
            _as_owner([str(self.bin / command[0]), *command[1:]]),
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=120,
        )

    def start(self) -> None:
        if not self.data.exists():
            self._run(
                "initdb",
                "-D",
                str(self.data),
                "-A",
                "trust",
                "-U",
                "postgres",
                "-E",
                "UTF8",
                "--no-sync",
            )
        settings = f"-k {self.folder} -c listen_addresses='' -p {PORT}"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            settings,
            "-l",
            str(self.folder / "log"),
            "-w",
            "start",
        )

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")


@contextlib.contextmanager
def shared_cluster(run_id: str | None) -> Iterator[Cluster]:
    """The run's PostgreSQL, started by the first user and stopped by the last."""
    bin_dir = binaries()
    assert bin_dir is not None
    folder = Path(tempfile.gettempdir()) / f"cardtable-pg-{run_id or uuid.uuid4().hex[:12]}"
    folder.mkdir(mode=0o755, exist_ok=True)
    owner = _owner()
    if owner is not None:
        os.chown(folder, *owner)
    cluster = Cluster(folder, bin_dir)
    with _locked(folder):
        users = _users(folder)
        if not users:
            _stop_abandoned(bin_dir, leaving_out=folder)
            cluster.start()
        _write_users(folder, [*users, os.getpid()])
    try:
        yield cluster
    finally:
        with _locked(folder):
            users = _users(folder)
            users.remove(os.getpid())  # (once: a process may hold it twice)
            _write_users(folder, users)
            if not users:
                _remove(cluster)


def _lock_path(folder: Path) -> Path:
    return folder.parent / f"{folder.name}.lock"


@contextlib.contextmanager
def _locked(folder: Path, *, wait: bool = True) -> Iterator[bool]:
    """``folder``'s lock held (True), or, with ``wait`` False, not taken
    because another process holds it (False)."""
    with open(_lock_path(folder), "a+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _users(folder: Path) -> list[int]:
    """The process ids of the server's users (one per line)."""
    path = folder / "users"
    text = path.read_text() if path.exists() else ""
    return [int(line) for line in text.split() if line.isdigit()]


def _write_users(folder: Path, pids: list[int]) -> None:
    (folder / "users").write_text("".join(f"{pid}\n" for pid in pids))


def _remove(cluster: Cluster) -> None:
    cluster.stop()
    shutil.rmtree(cluster.folder, ignore_errors=True)
    _lock_path(cluster.folder).unlink(missing_ok=True)


def _stop_abandoned(bin_dir: Path, *, leaving_out: Path) -> None:
    """Stop the servers of runs that were killed before they let go: a
    folder whose users have all ended (a folder in use holds its lock, or
    lists a live process)."""
    for found in Path(tempfile.gettempdir()).glob("cardtable-pg-*"):
        if not found.is_dir() or found == leaving_out:
            continue
        with _locked(found, wait=False) as held:
            users = _users(found) if held else []
            if held and users and all(map(process_ended, users)):
                _remove(Cluster(found, bin_dir))
