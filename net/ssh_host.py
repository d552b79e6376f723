"""``cardtable ssh-host``: serve cardtable to anyone who connects with ssh.

Each visitor gets a cardtable process of their own, in a pseudo-terminal of
its own (its controlling terminal, so window resizes arrive as SIGWINCH), with
the visitor's TERM. The SSH protocol is asyncssh's; this module only decides
who may come in, where their saves live, what their process may do, and the
limits.

Visitors are guests: they get what the host granted and nothing more. Their
process is told so (net/grants.py: no table server of its own, Join only to
the table server offered here and the addresses the operator allowed), runs
at a lower priority with CPU and memory ceilings, and writes only inside its
own folder. Nothing a visitor sends names a path: no shell, no exec, no SFTP,
no forwarding.

Identity (docs/hosting.md, "Who is who"). With an authorized-keys file a
visitor *is their key* (``key-<fingerprint>``). In guest mode a visitor who
offers a key is that key too, and the login name is only the name others see;
a guest without a key is their name (``guest-<name>``). A guest name is
checked, not cleaned: NFKC, casefolded, and then only ``a-z 0-9`` with single
``- _ .`` between them, so no two look-alike spellings are two names and the
folder name is the name itself. A name belongs to whoever used it first: a
key keeps it for itself; a name first used without a key stays keyless, one
session at a time. No name is used by two identities at once.

Limits: SSH connections in total and per address (counted from the moment
they are accepted, before any SSH is spoken), a connection that opens no
session within a few seconds is closed, sessions in total and per address,
an idle timeout (no keystroke), and when the process runs out of file
descriptors the host stops accepting for a moment instead of failing in a
loop. A dropped connection ends its visitor's process; the game was saved
after every move.
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
import socket
import struct
import sys
import termios
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from net.grants import Grants
from net.listen import Listener, listening_sockets
from rules.plain import plain

log = logging.getLogger(__name__)

HOST_KEY = "ssh_host_ed25519_key"
NO_PTY = (
    "cardtable needs a terminal: connect with `ssh -t` (or without a command), "
    "from a terminal window; `ssh -t HOST lines` is line mode, for screen readers.\r\n"
)
GUEST_NAME_RULE = (
    "a guest name is 1 to 32 letters a-z and digits, with single - _ or . between them"
)
_GUEST_NAME = re.compile(r"[a-z0-9]+(?:[-_.][a-z0-9]+)*")
_IDENTITY = re.compile(r"guest-[a-z0-9]+(?:[-_.][a-z0-9]+)*|key-[0-9a-f]{24}")
NAMES_DIR = "names"  # <data>/visitors/names/<name>: the key that keeps a name


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


@dataclass
class HostConfig:
    data_dir: Path
    authorized_keys: Path | None = None  # None: guest mode
    limits: HostLimits = field(default_factory=HostLimits)
    # the program each visitor runs; its data folder is appended
    command: tuple[str, ...] = (sys.executable, "-m", "tui.cli")
    # the table server visitors join to play each other ("host:port"), offered
    # by their Join form through $CARDTABLE_SERVER
    game_server: str | None = None
    # more table servers visitors may join (the operator's --allow-join)
    allow_join: tuple[str, ...] = ()

    def grants(self) -> Grants:
        offered = [self.game_server] if self.game_server else []
        return Grants.for_visitor([*offered, *self.allow_join])


# the commands a visitor may give instead of a shell: line mode
# (`ssh -t host lines`), for screen readers (docs/lines.md)
LINE_MODE_COMMANDS = frozenset({"lines", "--lines"})


def guest_name(username: str) -> str:
    """A guest's name from the login name, in its one canonical spelling
    (NFKC, casefolded); ValueError (the rule, as a sentence) if it is not a
    name: control, zero-width, combining and non-Latin characters make no
    look-alikes of another name, they are refused."""
    name = unicodedata.normalize("NFKC", username).casefold()
    if len(name) > 32 or not _GUEST_NAME.fullmatch(name):
        raise ValueError(GUEST_NAME_RULE)
    return name


def guest_identity(name: str) -> str:
    """A keyless guest's folder name: the canonical name, so one name, one
    folder, and two names never one folder."""
    return f"guest-{guest_name(name)}"


def key_identity(key: asyncssh.SSHKey) -> str:
    """A key's folder name: its public key's SHA-256, shortened."""
    digest = hashlib.sha256(key.public_data).hexdigest()
    return f"key-{digest[:24]}"


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


@dataclass
class Visitor:
    """Who a connection is, once authenticated: the folder (identity), the
    name others see, whether a key proved it, or why they may not play."""

    identity: str
    name: str
    keyed: bool
    refusal: str | None = None
    # a key's first use of a name: kept for it once a session is admitted
    # (a login alone, with no session, claims nothing)
    claims_name: bool = False


class Host:
    """The connections and sessions of one ``ssh-host``: counts them for the
    limits and knows which names are in use."""

    def __init__(self, config: HostConfig) -> None:
        self.config = config
        self.by_address: Counter[str] = Counter()  # sessions
        self.total = 0
        self.connections_by_address: Counter[str] = Counter()
        self.connections = 0
        # name -> (identity, sessions): who uses a name right now
        self.names: dict[str, tuple[str, int]] = {}
        self.processes: set[asyncio.subprocess.Process] = set()

    # ------------------------------------------------------------ connections
    def admit_connection(self, address: str) -> bool:
        """Whether a new connection from ``address`` is taken (then counted)."""
        limits = self.config.limits
        if self.connections >= limits.connections:
            return False
        if self.connections_by_address[address] >= limits.connections_per_address:
            return False
        self.connections += 1
        self.connections_by_address[address] += 1
        return True

    def release_connection(self, address: str) -> None:
        self.connections -= 1
        self.connections_by_address[address] -= 1
        if self.connections_by_address[address] <= 0:
            del self.connections_by_address[address]

    # ------------------------------------------------------------ identities
    def visitor(self, username: str, key: asyncssh.SSHKey | None) -> Visitor:
        """Who logged in as ``username`` with ``key`` (None: no key)."""
        if self.config.authorized_keys is not None:
            assert key is not None  # only keys get in
            return Visitor(key_identity(key), plain(username, 32).strip(), keyed=True)
        try:
            name = guest_name(username)
        except ValueError as err:
            shown = plain(username, 32)
            return Visitor("", "", False, f"'{shown}' is not a name here: {err}.")
        if key is None:
            identity = f"guest-{name}"
            if self._name_keeper(name) is not None:
                return Visitor(identity, name, False, self._taken(name, "someone with a key"))
            return Visitor(identity, name, keyed=False)
        identity = key_identity(key)
        keeper = self._name_keeper(name)
        if keeper is None and (self.config.data_dir / "visitors" / f"guest-{name}").exists():
            return Visitor(identity, name, True, self._taken(name, "a guest without a key"))
        if keeper is None:
            return Visitor(identity, name, keyed=True, claims_name=True)
        if keeper != identity:
            return Visitor(identity, name, True, self._taken(name, "someone else's key"))
        return Visitor(identity, name, keyed=True)

    @staticmethod
    def _taken(name: str, by: str) -> str:
        return f"the name {name} belongs to {by}: choose another (ssh OTHER@host)."

    def _name_keeper(self, name: str) -> str | None:
        try:
            return (self.config.data_dir / "visitors" / NAMES_DIR / name).read_text().strip()
        except OSError:
            return None

    def _keep_name(self, name: str, identity: str) -> str:
        """The first key to use a name keeps it (O_EXCL: one of two at once wins)."""
        folder = self.config.data_dir / "visitors" / NAMES_DIR
        folder.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(folder / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return self._name_keeper(name) or ""
        with os.fdopen(fd, "w") as out:
            out.write(identity + "\n")
        return identity

    # ------------------------------------------------------------ sessions
    def admit(self, address: str, visitor: Visitor | None = None) -> str | None:
        """Why a new session from ``address`` is refused, or None (then counted)."""
        limits = self.config.limits
        if self.total >= limits.sessions:
            return "cardtable is full right now: try again later."
        if self.by_address[address] >= limits.per_address:
            return "too many sessions from your address: close one first."
        if visitor is not None and visitor.name:
            user, sessions = self.names.get(visitor.name, (visitor.identity, 0))
            # a key may play in two windows; two keyless guests of one name are
            # two people nobody can tell apart
            if sessions and (user != visitor.identity or not visitor.keyed):
                return f"the name {visitor.name} is playing right now: choose another."
            if visitor.claims_name:
                keeper = self._keep_name(visitor.name, visitor.identity)
                if keeper != visitor.identity:  # another key came first, a moment ago
                    return self._taken(visitor.name, "someone else's key")
            self.names[visitor.name] = (visitor.identity, sessions + 1)
        self.total += 1
        self.by_address[address] += 1
        return None

    def release(self, address: str, visitor: Visitor | None = None) -> None:
        self.total -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]
        if visitor is not None and visitor.name in self.names:
            user, sessions = self.names[visitor.name]
            if sessions <= 1:
                del self.names[visitor.name]
            else:
                self.names[visitor.name] = (user, sessions - 1)


class _Server(asyncssh.SSHServer):
    """One SSH connection: who it is, and the clock for opening a session."""

    def __init__(self, host: Host, link: _Link) -> None:
        self.host = host
        self.link = link
        self.username = ""
        self.address = link.address
        # the key whose signature was checked last; None after a keyless login
        self.key: asyncssh.SSHKey | None = None
        self.visitor: Visitor | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.link.conn = conn

    def connection_lost(self, exc: Exception | None) -> None:
        self.link.closed()

    @property
    def guests(self) -> bool:
        return self.host.config.authorized_keys is None

    def begin_auth(self, username: str) -> bool:
        self.username = username
        # guests too are asked: a guest who has a key offers it and is that key
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # called for an offer and again with the signature, which asyncssh
        # checks: the last key seen before success is the one that signed
        path = self.host.config.authorized_keys
        if path is None:
            self.key = key
            return True
        try:
            allowed = asyncssh.read_authorized_keys(str(path))
        except (OSError, ValueError):
            log.exception("cannot read the authorized keys in %s", path)
            return False
        if allowed.validate(key, username, self.address, self.address) is None:
            return False
        self.key = key
        return True

    # a guest without a key: keyboard-interactive with no question (OpenSSH
    # asks nothing), or any password for clients that only know passwords
    def kbdint_auth_supported(self) -> bool:
        return self.guests

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.key = None
        return self.guests

    def password_auth_supported(self) -> bool:
        return self.guests

    def validate_password(self, username: str, password: str) -> bool:
        self.key = None
        return self.guests

    def auth_completed(self) -> None:
        self.visitor = self.host.visitor(self.username, self.key)

    def session_requested(self) -> asyncssh.SSHServerSession[bytes]:
        assert self.visitor is not None  # authentication came first
        self.link.session_opened()
        return _Session(self.host, self.visitor, self.address, self.username, self.link)


class _Session(asyncssh.SSHServerSession[bytes]):
    """One visitor: a pty, the cardtable process on it, bytes both ways."""

    def __init__(
        self, host: Host, visitor: Visitor, address: str, username: str, link: _Link
    ) -> None:
        self.host = host
        self.link = link
        self.visitor = visitor
        self.identity = visitor.identity
        # the name their Join form offers: the login name, as plain text
        self.username = visitor.name or plain(username, 32).strip()
        self.address = address
        self.lines = False  # the visitor asked for line mode (`ssh -t host lines`)
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

    def eof_received(self) -> bool:
        # `ssh -T host </dev/null` sends EOF at once: keep our half open so the
        # line we owe still goes out, then we close
        return True

    def session_started(self) -> None:
        # decided here, at once: every refusal is written before anything
        # the client sends next (its EOF) is looked at
        chan = self.chan
        assert chan is not None
        command = chan.get_command()
        # `ssh -t host lines`: line mode (docs/lines.md), the same grants
        self.lines = command is not None and command.strip() in LINE_MODE_COMMANDS
        if self.term is None or (command is not None and not self.lines):
            self._refuse(NO_PTY)
            return
        if self.visitor.refusal is not None:
            self._refuse(f"cardtable: {self.visitor.refusal}\r\n")
            return
        refused = self.host.admit(self.address, self.visitor)
        if refused is not None:
            self._refuse(f"{refused}\r\n")
            return
        self.counted = True
        asyncio.get_running_loop().create_task(self._start())

    def _refuse(self, line: str) -> None:
        assert self.chan is not None
        with contextlib.suppress(BrokenPipeError, asyncssh.Error):
            self.chan.write(line.encode())
        with contextlib.suppress(BrokenPipeError, asyncssh.Error, OSError):
            self.chan.exit(1)

    async def _start(self) -> None:
        try:
            await self._spawn()
        except (OSError, ValueError) as err:
            log.error("cannot start a visitor's cardtable: %s", err)
            reason = err.strerror if isinstance(err, OSError) and err.strerror else err
            self._refuse(f"cardtable could not start here: {reason}.\r\n")

    def environment(self, root: Path, data: Path, config: Path) -> dict[str, str]:
        """The visitor process's whole environment, made here: nothing of the
        host's (or the visitor's own) leaks in. Every folder a program might
        write to is inside the visitor's own."""
        assert self.term is not None
        term = self.term[0]
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
            **self.host.config.grants().environ(self.host.config.game_server),
        }
        if term in ("linux", "vt100", "vt220", "xterm", "screen"):
            env["TEXTUAL_COLOR_SYSTEM"] = "standard"  # a 16-colour terminal
        if self.username:
            env["USER"] = env["LOGNAME"] = self.username
        return env

    async def _spawn(self) -> None:
        assert self.term is not None and self.chan is not None
        _, width, height = self.term
        data, config = visitor_dirs(self.host.config.data_dir, self.identity)
        env = self.environment(data.parent, data, config)
        master, slave = os.openpty()
        _set_size(master, width, height)
        try:
            process = await asyncio.create_subprocess_exec(
                *self.host.config.command,
                *(["--lines"] if self.lines else []),
                "--data-dir",
                str(data),
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=env,
                cwd=str(data.parent),
                start_new_session=True,
                preexec_fn=_child_setup(self.host.config.limits),
            )
        except BaseException:
            os.close(master)
            raise
        finally:
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
            with contextlib.suppress(BrokenPipeError, asyncssh.Error):
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
        self.link.session_closed()
        if self.counted:
            self.counted = False
            self.host.release(self.address, self.visitor)


def _child_setup(limits: HostLimits) -> Callable[[], None]:
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


# ---------------------------------------------------------------- listening
class _Link:
    """One accepted TCP connection, counted from accept() to its close,
    whether it ever speaks SSH or not."""

    def __init__(self, listener: SSHListener, sock: socket.socket, address: str) -> None:
        self.listener = listener
        self.sock = sock
        self.address = address
        self.conn: asyncssh.SSHServerConnection | None = None
        self.task: asyncio.Task[None] | None = None
        self.sessions = 0
        self._released = False
        wait = listener.host.config.limits.session_wait_seconds
        self.clock = asyncio.get_running_loop().call_later(wait, self.too_slow)

    def session_opened(self) -> None:
        self.sessions += 1
        self.clock.cancel()

    def session_closed(self) -> None:
        """A connection kept open after its last session is one that opens
        none: the same clock runs again."""
        self.sessions -= 1
        if self.sessions <= 0 and not self._released:
            wait = self.listener.host.config.limits.session_wait_seconds
            self.clock = asyncio.get_running_loop().call_later(wait, self.too_slow)

    def too_slow(self) -> None:
        """No session in time (a half-open handshake, a login left waiting):
        the connection goes, and with it its place in the counts."""
        if self.sessions <= 0:
            self.abort()

    def abort(self) -> None:
        if self.conn is not None:
            self.conn.abort()
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.closed()

    def closed(self) -> None:
        if self._released:
            return
        self._released = True
        self.clock.cancel()
        with contextlib.suppress(OSError):
            self.sock.close()
        self.listener.forget(self)


class SSHListener:
    """The listening sockets of an ``ssh-host`` and its connections, accepted
    by the accept loop the table server uses too (net/listen.py): every
    connection is counted (and refused over the limits) the moment it is
    accepted, and running out of file descriptors pauses accepting, logged
    once, until a connection closes or a moment has passed."""

    def __init__(self, host: Host, sockets: Sequence[socket.socket], options: Any) -> None:
        self.host = host
        self.sockets = list(sockets)
        self.options = options
        self.links: set[_Link] = set()
        self._accepting = Listener(
            self.sockets,
            # over the limits: closed before any SSH is spoken
            lambda address: None if host.admit_connection(address) else "full",
            self._take,
            retry_seconds=host.config.limits.accept_pause_seconds,
            release=host.release_connection,
        )
        self._accepting.open = lambda: host.connections
        self._accepting.start()
        self._closed = asyncio.Event()

    @property
    def paused(self) -> bool:
        """Out of file descriptors right now."""
        return self._accepting.paused

    def _take(self, sock: socket.socket, address: str) -> None:
        link = _Link(self, sock, address)
        self.links.add(link)
        link.task = asyncio.get_running_loop().create_task(self._serve(link))

    async def _serve(self, link: _Link) -> None:
        try:
            await asyncssh.run_server(
                link.sock, options=self.options, server_factory=lambda: _Server(self.host, link)
            )
        except asyncio.CancelledError:
            link.closed()
        except (OSError, asyncssh.Error, TimeoutError) as err:
            # a failed handshake or login is the client's business: one debug line
            log.debug("ssh connection from %s ended: %s", link.address, err)
            link.closed()
        except Exception:
            log.exception("ssh connection from %s failed", link.address)
            link.closed()

    def forget(self, link: _Link) -> None:
        if link in self.links:
            self.links.discard(link)
            self._accepting.release(link.address)

    def close(self) -> None:
        """Stop listening, and end every connection (visitors are hung up on)."""
        self._accepting.close()
        for link in list(self.links):
            link.abort()
        self._closed.set()

    async def wait_closed(self) -> None:
        await self._closed.wait()
        await self._accepting.wait_closed()


async def start_host(
    config: HostConfig, host: str = "127.0.0.1", port: int = 2222
) -> tuple[SSHListener, Host]:
    """Listen for visitors; returns the listener (``close()`` it) and the host.
    OSError if it cannot listen there."""
    state = Host(config)
    options = await asyncssh.SSHServerConnectionOptions.construct(
        server_host_keys=[load_host_key(config.data_dir)],
        encoding=None,
        allow_pty=True,
        agent_forwarding=False,
        x11_forwarding=False,
        login_timeout=max(config.limits.session_wait_seconds, 1.0),
    )
    return SSHListener(state, await listening_sockets(host, port), options), state


# ---------------------------------------------------------------- the table server
# what one visitor may hold at the table server: connections (the lobby, a
# table, one reconnecting) and unfinished tables it created
VISITOR_CONNECTIONS = 4
VISITOR_TABLES = 8


class TableServerProcess:
    """The table server visitors meet at: ``cardtable serve`` in a process of
    its own on loopback, so that a busy table never delays a visitor's
    keystrokes in the host's event loop."""

    def __init__(self, process: asyncio.subprocess.Process, address: str) -> None:
        self.process = process
        self.address = address

    @classmethod
    async def start(
        cls,
        data_dir: Path,
        visitors: int = HostLimits.sessions,
        command: Sequence[str] = (sys.executable, "-m", "tui.cli"),
    ) -> TableServerProcess:
        """Start it on 127.0.0.1 at a free port and learn the port from the
        line it prints; OSError with its own words if it does not start.

        Every visitor reaches it from 127.0.0.1, so its limits per address
        are the limits of all ``visitors`` together: a few connections each
        (the lobby, a table, a reconnect), and each visitor's tables are
        still held to the per-name quota (guest names are unique here)."""
        process = await asyncio.create_subprocess_exec(
            *command,
            "--data-dir",
            str(data_dir),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--per-address",
            str(VISITOR_CONNECTIONS * visitors),
            "--tables-per-address",
            str(VISITOR_TABLES * visitors),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,  # the host's Ctrl+C is the host's; we stop it in order
            preexec_fn=_die_with_parent,
        )
        assert process.stdout is not None and process.stderr is not None
        try:
            line = await asyncio.wait_for(process.stdout.readline(), 30)
        except TimeoutError:
            line = b""
        found = re.search(rb"serving tables on (\S+):(\d+);", line)
        if found is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            why = (await process.stderr.read()).decode("utf-8", "replace").strip()
            await process.wait()
            raise OSError(f"the table server did not start: {plain(why or line, 200)}")
        # nothing more is read from it: its output goes nowhere rather than
        # filling a pipe that would one day block it
        asyncio.get_running_loop().create_task(_drain(process.stdout))
        asyncio.get_running_loop().create_task(_drain(process.stderr))
        return cls(process, f"{found[1].decode()}:{int(found[2])}")

    async def stop(self, grace: float = 10.0) -> None:
        """SIGTERM (it saves and stops in order), then SIGKILL after ``grace`` s."""
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), grace)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.process.kill()
                await self.process.wait()


def _die_with_parent() -> None:
    """A host that is killed outright (SIGKILL, a crash) takes its table
    server with it instead of leaving it listening (Linux; elsewhere the
    host's orderly stop is all there is)."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


async def _drain(stream: asyncio.StreamReader) -> None:
    with contextlib.suppress(Exception):
        while await stream.read(65536):
            pass
