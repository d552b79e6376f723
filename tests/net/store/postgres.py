"""A real PostgreSQL for the tests, from the machine's own binaries
(/usr/lib/postgresql/*/bin), in a temporary folder, reached over a unix
socket in that folder (no TCP port). ``initdb`` and ``postgres`` refuse to
run as root, so as root they run as the ``postgres`` user (runuser).

The xdist workers of one run share one server: the first to need it starts
it, each holds a reference in the folder (under a file lock), and the last
to let go stops it and removes the folder. Each test gets a schema of its
own (``search_path`` in the URL), so tests never see each other's rows.
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
    lock_path = Path(tempfile.gettempdir()) / f"{folder.name}.lock"
    users = folder / "users"
    with open(lock_path, "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        count = int(users.read_text() or 0) if users.exists() else 0
        if count == 0:
            cluster.start()
        users.write_text(str(count + 1))
        fcntl.flock(lock, fcntl.LOCK_UN)
    try:
        yield cluster
    finally:
        with open(lock_path, "a+") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            count = int(users.read_text() or 1) - 1
            users.write_text(str(count))
            if count <= 0:
                cluster.stop()
                shutil.rmtree(folder, ignore_errors=True)
                lock_path.unlink(missing_ok=True)
            fcntl.flock(lock, fcntl.LOCK_UN)
