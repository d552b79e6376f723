"""``cardtable ssh-host``: serve cardtable to anyone who connects with ssh.

Each visitor gets a cardtable process of their own, in a pseudo-terminal of
its own (its controlling terminal, so window resizes arrive as SIGWINCH), with
the visitor's TERM. The SSH protocol is asyncssh's; this module only decides
who may come in, where their saves live, and the limits.

Identity. With an authorized-keys file, a visitor logs in with one of its keys
and *is that key* (``key-<fingerprint>``): choosing another login name reaches
no one else's saves. In guest mode anybody may come in and the login name,
cleaned, is the name (``guest-ada``): guests who pick the same name share a
folder, as the host was told. Each identity has a data folder and a settings
folder under ``<data>/visitors/<identity>/`` and the program is started with
exactly those, and nothing the visitor sends names a path: no shell, no exec,
no SFTP, no forwarding.

Limits: sessions in total and per address, an idle timeout (no keystroke),
and a cap on each visitor process's address space. A dropped connection ends
its process; the game was saved after every move.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import logging
import os
import re
import signal
import struct
import sys
import termios
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from rules.plain import plain

log = logging.getLogger(__name__)

HOST_KEY = "ssh_host_ed25519_key"
NO_PTY = (
    "cardtable needs a terminal: connect with `ssh -t` (or without a command), "
    "from a terminal window.\r\n"
)
_NAME = re.compile(r"[^a-z0-9_-]+")


@dataclass(frozen=True)
class HostLimits:
    sessions: int = 50  # visitors at once
    per_address: int = 4  # visitors at once from one address
    idle_seconds: float = 30 * 60  # no keystroke for this long: the session ends
    memory_bytes: int = 512 * 2**20  # address space of a visitor's process


@dataclass
class HostConfig:
    data_dir: Path
    authorized_keys: Path | None = None  # None: guest mode
    limits: HostLimits = field(default_factory=HostLimits)
    # the program each visitor runs; its data and settings folders are appended
    command: tuple[str, ...] = (sys.executable, "-m", "tui.cli")
    # the table server visitors join to play each other ("host:port"), offered
    # by their Join form through $CARDTABLE_SERVER
    game_server: str | None = None


def guest_identity(username: str) -> str:
    """A guest's folder name from the login name: lowercase letters, digits,
    ``-`` and ``_``, at most 32 characters; never empty, never a path."""
    cleaned = _NAME.sub("-", username.lower()).strip("-")[:32] or "anonymous"
    return f"guest-{cleaned}"


def key_identity(key: asyncssh.SSHKey) -> str:
    """A key's folder name: its public key's SHA-256, shortened."""
    digest = hashlib.sha256(key.public_data).hexdigest()
    return f"key-{digest[:24]}"


def visitor_dirs(data_dir: Path, identity: str) -> tuple[Path, Path]:
    """The data and settings folders of one identity (made on first use)."""
    if not re.fullmatch(r"(guest|key)-[a-z0-9_-]{1,32}", identity):
        raise ValueError(f"not a visitor identity: {identity!r}")
    root = data_dir / "visitors" / identity
    data, config = root / "data", root / "config"
    data.mkdir(parents=True, exist_ok=True)
    config.mkdir(parents=True, exist_ok=True)
    return data, config


def load_host_key(data_dir: Path) -> asyncssh.SSHKey:
    """The host key, generated on first start and kept (owner-only) in the data folder."""
    path = data_dir / HOST_KEY
    if path.exists():
        return asyncssh.read_private_key(str(path))
    data_dir.mkdir(parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key.export_private_key())
    return key


def _set_size(fd: int, width: int, height: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


class Host:
    """The sessions of one ``ssh-host``: counts them for the limits."""

    def __init__(self, config: HostConfig) -> None:
        self.config = config
        self.by_address: Counter[str] = Counter()
        self.total = 0
        self.processes: set[asyncio.subprocess.Process] = set()

    def server(self) -> asyncssh.SSHServer:
        return _Server(self)

    def admit(self, address: str) -> str | None:
        """Why a new session from ``address`` is refused, or None (then counted)."""
        limits = self.config.limits
        if self.total >= limits.sessions:
            return "cardtable is full right now: try again later."
        if self.by_address[address] >= limits.per_address:
            return "too many sessions from your address: close one first."
        self.total += 1
        self.by_address[address] += 1
        return None

    def release(self, address: str) -> None:
        self.total -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]


class _Server(asyncssh.SSHServer):
    def __init__(self, host: Host) -> None:
        self.host = host
        self.identity: str | None = None
        self.username = ""
        self.address = "?"

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"

    def begin_auth(self, username: str) -> bool:
        self.username = username
        if self.host.config.authorized_keys is None:
            self.identity = guest_identity(username)
            return False  # guests need no authentication
        return True

    def public_key_auth_supported(self) -> bool:
        return self.host.config.authorized_keys is not None

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        path = self.host.config.authorized_keys
        if path is None:
            return False
        try:
            allowed = asyncssh.read_authorized_keys(str(path))
        except (OSError, ValueError):
            log.exception("cannot read the authorized keys in %s", path)
            return False
        if allowed.validate(key, username, self.address, self.address) is None:
            return False
        self.identity = key_identity(key)
        return True

    def session_requested(self) -> asyncssh.SSHServerSession[bytes]:
        assert self.identity is not None  # authentication came first
        return _Session(self.host, self.identity, self.address, self.username)


class _Session(asyncssh.SSHServerSession[bytes]):
    """One visitor: a pty, the cardtable process on it, bytes both ways."""

    def __init__(self, host: Host, identity: str, address: str, username: str = "") -> None:
        self.host = host
        self.identity = identity
        # the login name: what the visitor's Join form offers as their name
        self.username = plain(username, 32).strip()
        self.address = address
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term: tuple[str, int, int] | None = None  # TERM, width, height
        self.master: int | None = None
        self.process: asyncio.subprocess.Process | None = None
        self.counted = False
        self.idle: asyncio.TimerHandle | None = None

    # -------------------------------------------------------------- requests
    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: Any, term_modes: Any) -> bool:
        width, height = (term_size[0] or 80, term_size[1] or 24) if term_size else (80, 24)
        self.term = (term_type or "xterm-256color", width, height)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return True  # answered in session_started: a command gets the no-pty line

    def subsystem_requested(self, subsystem: str) -> bool:
        return False  # no SFTP, nothing that reaches the file system

    def session_started(self) -> None:
        asyncio.get_running_loop().create_task(self._start())

    async def _start(self) -> None:
        chan = self.chan
        assert chan is not None
        if self.term is None or chan.get_command() is not None:
            chan.write(NO_PTY.encode())
            chan.exit(1)
            return
        refused = self.host.admit(self.address)
        if refused is not None:
            chan.write(f"{refused}\r\n".encode())
            chan.exit(1)
            return
        self.counted = True
        try:
            await self._spawn()
        except OSError as err:
            log.exception("cannot start a visitor's cardtable")
            chan.write(f"cardtable could not start here: {err.strerror or err}.\r\n".encode())
            chan.exit(1)

    async def _spawn(self) -> None:
        assert self.term is not None and self.chan is not None
        term, width, height = self.term
        data, config = visitor_dirs(self.host.config.data_dir, self.identity)
        master, slave = os.openpty()
        _set_size(master, width, height)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": os.environ.get("LANG", "C.UTF-8"),
            "HOME": str(config),
            "TERM": term,
            "CARDTABLE_CONFIG_DIR": str(config),
        }
        if term in ("linux", "vt100", "vt220", "xterm", "screen"):
            env["TEXTUAL_COLOR_SYSTEM"] = "standard"  # a 16-colour terminal
        if self.host.config.game_server:
            env["CARDTABLE_SERVER"] = self.host.config.game_server
        if self.username:
            env["USER"] = env["LOGNAME"] = self.username
        memory = self.host.config.limits.memory_bytes
        process = await asyncio.create_subprocess_exec(
            *self.host.config.command,
            "--data-dir",
            str(data),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            cwd=str(config),
            start_new_session=True,
            preexec_fn=_child_setup(memory),
        )
        os.close(slave)
        self.master, self.process = master, process
        self.host.processes.add(process)
        os.set_blocking(master, False)
        asyncio.get_running_loop().add_reader(master, self._from_process)
        self._touch()
        asyncio.get_running_loop().create_task(self._wait(process))

    # -------------------------------------------------------------- traffic
    def _from_process(self) -> None:
        assert self.master is not None and self.chan is not None
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: the process has closed its terminal
            data = b""
        if not data:
            self._stop_reading()
            return
        try:
            self.chan.write(data)
        except (BrokenPipeError, asyncssh.Error):  # the visitor has gone
            self._stop_reading()
            self._end_process()

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self.master is None:
            return
        self._touch()
        with contextlib.suppress(OSError):
            os.write(self.master, data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if self.master is not None and width and height:
            _set_size(self.master, width, height)  # the kernel sends the process SIGWINCH

    def _touch(self) -> None:
        if self.idle is not None:
            self.idle.cancel()
        loop = asyncio.get_running_loop()
        self.idle = loop.call_later(self.host.config.limits.idle_seconds, self._idle_out)

    def _idle_out(self) -> None:
        if self.chan is not None:
            self.chan.write(b"\r\nIdle for too long: your games are saved. Goodbye.\r\n")
        self._end_process()

    async def _wait(self, process: asyncio.subprocess.Process) -> None:
        code = await process.wait()
        self.host.processes.discard(process)
        self._stop_reading()
        if self.chan is not None:
            with contextlib.suppress(Exception):
                self.chan.exit(code if code >= 0 else 1)

    def _stop_reading(self) -> None:
        if self.master is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self.master)
            with contextlib.suppress(OSError):
                os.close(self.master)
            self.master = None

    def _end_process(self) -> None:
        process = self.process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGHUP)  # as a closed terminal does

    def connection_lost(self, exc: Exception | None) -> None:
        if self.idle is not None:
            self.idle.cancel()
        self._end_process()
        if self.counted:
            self.counted = False
            self.host.release(self.address)


def _child_setup(memory: int) -> Callable[[], None]:
    def setup() -> None:
        import resource

        fcntl.ioctl(0, termios.TIOCSCTTY, 0)  # the pty becomes its controlling terminal
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        # an ignored signal stays ignored across exec: a host started under
        # nohup would leave every visitor's program deaf to the hangup that
        # ends an idle or dropped session
        for number in (signal.SIGHUP, signal.SIGINT, signal.SIGTERM):
            signal.signal(number, signal.SIG_DFL)

    return setup


async def start_host(
    config: HostConfig, host: str = "127.0.0.1", port: int = 2222
) -> tuple[asyncssh.SSHAcceptor, Host]:
    """Listen for visitors; returns the acceptor (``close()`` it) and the host."""
    state = Host(config)
    acceptor = await asyncssh.create_server(
        state.server,
        host,
        port,
        server_host_keys=[load_host_key(config.data_dir)],
        encoding=None,
        allow_pty=True,
        agent_forwarding=False,
        x11_forwarding=False,
        login_timeout=60,
    )
    return acceptor, state
