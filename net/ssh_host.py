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
import hashlib
import logging
import os
import re
import socket
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from net.grants import Grants, guest_name
from net.listen import Listener, listening_sockets
from net.ssh_session import LINE_MODE_COMMANDS as LINE_MODE_COMMANDS
from net.ssh_session import NO_PTY as NO_PTY
from net.ssh_session import VisitorSession
from net.ssh_table_server import TableServerProcess as TableServerProcess
from net.visitors import HostLimits as HostLimits  # where it was, for callers
from net.visitors import visitor_dirs as visitor_dirs
from rules.plain import plain

log = logging.getLogger(__name__)

HOST_KEY = "ssh_host_ed25519_key"
_IDENTITY = re.compile(r"guest-[a-z0-9]+(?:[-_.][a-z0-9]+)*|key-[0-9a-f]{24}")
NAMES_DIR = "names"  # <data>/visitors/names/<name>: the key that keeps a name


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


def guest_identity(name: str) -> str:
    """A keyless guest's folder name: the canonical name, so one name, one
    folder, and two names never one folder."""
    return f"guest-{guest_name(name)}"


def key_identity(key: asyncssh.SSHKey) -> str:
    """A key's folder name: its public key's SHA-256, shortened."""
    digest = hashlib.sha256(key.public_data).hexdigest()
    return f"key-{digest[:24]}"


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
        return VisitorSession(self.host, self.visitor, self.address, self.username, self.link)


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
