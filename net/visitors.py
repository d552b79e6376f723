"""A visitor's cardtable: the one room every door leads to.

``cardtable ssh-host`` and ``cardtable web`` both start a cardtable process of
its own for each visitor. What that process may do is decided here, once, so
that an SSH visitor and a browser visitor are confined alike: their own data
and settings folders, an environment built from scratch (no variable of the
host's or the visitor's leaks in; the grants of net/grants.py go in), a lower
priority, CPU and memory ceilings, and a pseudo-terminal as its controlling
terminal. Each door decides who a visitor is (its identity names the folder),
counts them against :class:`HostLimits`, and carries the bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import re
import signal
import struct
import termios
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

# guest-<name> and key-<fingerprint> come over SSH, web-<digest> from a browser
_IDENTITY = re.compile(r"guest-[a-z0-9]+(?:[-_.][a-z0-9]+)*|key-[0-9a-f]{24}|web-[0-9a-f]{24}")
# terminals that know 16 colours only: Textual is told to keep to them
SIXTEEN_COLOUR_TERMS = ("linux", "vt100", "vt220", "xterm", "screen")


@dataclass(frozen=True)
class HostLimits:
    sessions: int = 50  # visitors at once
    per_address: int = 4  # visitors at once from one address
    connections: int = 100  # SSH connections at once, with a session or not
    connections_per_address: int = 8  # SSH connections at once from one address
    session_wait_seconds: float = 20.0  # a connection opens a session within this, or closes
    idle_seconds: float = 30 * 60  # no keystroke for this long: the session ends
    memory_bytes: int = 512 * 2**20  # address space of a visitor's process
    cpu_seconds: int | None = 3600  # CPU time of a visitor's process (None: no ceiling)
    nice: int = 10  # visitors yield the CPU to the host, its SSH and its table server
    accept_pause_seconds: float = 1.0  # out of file descriptors: try accepting again after


def visitor_root(data_dir: Path, identity: str) -> Path:
    if len(identity) > 40 or not _IDENTITY.fullmatch(identity):
        raise ValueError(f"not a visitor identity: {identity!r}")
    return data_dir / "visitors" / identity


def visitor_dirs(data_dir: Path, identity: str) -> tuple[Path, Path]:
    """The data and settings folders of one identity (made on first use)."""
    root = visitor_root(data_dir, identity)
    root.parent.mkdir(parents=True, exist_ok=True)
    root.mkdir(mode=0o700, exist_ok=True)  # one visitor's saves are nobody else's to read
    data, config = root / "data", root / "config"
    data.mkdir(parents=True, exist_ok=True)
    config.mkdir(parents=True, exist_ok=True)
    return data, config


def visitor_environment(
    root: Path, config: Path, term: str, username: str, grants: Mapping[str, str]
) -> dict[str, str]:
    """The visitor process's whole environment, made here: nothing of the
    host's (or the visitor's own) leaks in. Every folder a program might
    write to is inside the visitor's own ``root``; ``grants`` is what
    :meth:`net.grants.Grants.environ` hands over."""
    home, tmp = root / "home", root / "tmp"
    home.mkdir(exist_ok=True)
    tmp.mkdir(exist_ok=True)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": os.environ.get("LANG", "C.UTF-8"),
        "HOME": str(home),
        "TMPDIR": str(tmp),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        # the program's folder is the host's: read its bytecode, write none
        "PYTHONDONTWRITEBYTECODE": "1",
        "TERM": term,
        "CARDTABLE_CONFIG_DIR": str(config),
        **grants,
    }
    if term in SIXTEEN_COLOUR_TERMS:
        env["TEXTUAL_COLOR_SYSTEM"] = "standard"
    if username:
        env["USER"] = env["LOGNAME"] = username
    return env


def set_pty_size(fd: int, width: int, height: int) -> None:
    """The terminal's size in cells; the kernel tells its process (SIGWINCH)."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


def child_setup(limits: HostLimits) -> Callable[[], None]:
    """What the visitor's process does between fork and exec: take its pty as
    its controlling terminal, and put on its ceilings and priority."""

    def setup() -> None:
        import resource

        fcntl.ioctl(0, termios.TIOCSCTTY, 0)  # the pty becomes its controlling terminal
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
        if limits.cpu_seconds is not None:
            # past the soft ceiling SIGXCPU ends the program (its game is saved);
            # the hard one a little later, should it be caught
            cpu = limits.cpu_seconds
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
        os.nice(limits.nice)
        # an ignored signal stays ignored across exec: a host started under
        # nohup would leave every visitor's program deaf to the hangup that
        # ends an idle or dropped session
        for number in (signal.SIGHUP, signal.SIGINT, signal.SIGTERM):
            signal.signal(number, signal.SIG_DFL)

    return setup


async def start_visitor_process(
    command: Sequence[str], data: Path, env: Mapping[str, str], limits: HostLimits, tty: int
) -> asyncio.subprocess.Process:
    """The visitor's cardtable on the terminal ``tty`` (a pty's slave side),
    told its data folder and nothing else, in a session of its own so that a
    hangup reaches all of it."""
    return await asyncio.create_subprocess_exec(
        *command,
        "--data-dir",
        str(data),
        stdin=tty,
        stdout=tty,
        stderr=tty,
        env=dict(env),
        cwd=str(data.parent),
        start_new_session=True,
        preexec_fn=child_setup(limits),
    )


def hang_up(process: asyncio.subprocess.Process | None) -> None:
    """End a visitor's program as a closed terminal does (its game is saved)."""
    if process is not None and process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGHUP)
