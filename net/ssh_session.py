"""One ssh visitor's session: a pty, the visitor's own cardtable process on
it, and the bytes both ways (net/ssh_host.py decides who may come in).

The session gets a terminal only if the client asks for one (a command other
than line mode's, or no pty, gets the one line :data:`NO_PTY`). The size is
clipped and window changes coalesced (net/ssh_pty.py), the pty's descriptors
are closed on every failure and when the process ends, and a session idle
for too long (no keystroke) ends its process; the game was saved after
every move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import asyncssh

from net.ssh_pty import DEFAULT_SIZE, Resizer, clipped, open_pty, set_size
from net.visitors import start_visitor_process, visitor_dirs, visitor_environment
from rules.plain import plain

if TYPE_CHECKING:
    from net.ssh_host import Host, Visitor

log = logging.getLogger("net.ssh_host")

NO_PTY = (
    "cardtable needs a terminal: connect with `ssh -t` (or without a command), "
    "from a terminal window; `ssh -t HOST lines` is line mode, for screen readers.\r\n"
)
# the commands a visitor may give instead of a shell: line mode
# (`ssh -t host lines`), for screen readers (docs/lines.md)
LINE_MODE_COMMANDS = frozenset({"lines", "--lines"})


class SessionCount(Protocol):
    """The connection a session runs on, which counts its sessions (one
    that has none for a while is closed)."""

    def session_opened(self) -> None: ...

    def session_closed(self) -> None: ...


class VisitorSession(asyncssh.SSHServerSession[bytes]):
    """One visitor: a pty, the cardtable process on it, bytes both ways."""

    def __init__(
        self, host: Host, visitor: Visitor, address: str, username: str, link: SessionCount
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
        self.resizer: Resizer | None = None  # window changes, coalesced (net/ssh_pty.py)
        self.lost = False  # the visitor's connection has gone
        self.counted = False
        self.idle: asyncio.TimerHandle | None = None

    # -------------------------------------------------------------- requests
    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: Any, term_modes: Any) -> bool:
        # clipped to the cap, whatever was asked (net/ssh_pty.py)
        width, height = clipped(term_size[0], term_size[1]) if term_size else DEFAULT_SIZE
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
        except Exception as err:  # whatever it was: one line each side, nothing left open
            log.error("cannot start a visitor's cardtable: %s", err)
            reason = err.strerror if isinstance(err, OSError) and err.strerror else err
            self._refuse(f"cardtable could not start here: {reason}.\r\n")

    def environment(self, root: Path, data: Path, config: Path) -> dict[str, str]:
        """The visitor process's whole environment (net/visitors.py)."""
        assert self.term is not None
        grants = self.host.config.grants().environ(self.host.config.game_server)
        return visitor_environment(root, config, self.term[0], self.username, grants)

    async def _spawn(self) -> None:
        assert self.term is not None and self.chan is not None
        _, width, height = self.term
        data, config = visitor_dirs(self.host.config.data_dir, self.identity)
        env = self.environment(data.parent, data, config)
        master, slave = open_pty(width, height)  # both closed again if it fails
        try:
            command = (*self.host.config.command, *(["--lines"] if self.lines else []))
            process = await start_visitor_process(
                command, data, env, self.host.config.limits, slave
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self.master, self.process = master, process
        self.host.processes.add(process)
        asyncio.get_running_loop().create_task(self._wait(process))
        if self.lost:  # the visitor left while it started: it ends at once
            self._end_process()
            return
        os.set_blocking(master, False)
        asyncio.get_running_loop().add_reader(master, self._from_process)
        self.resizer = Resizer(self._resize)
        self._touch()

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
        if self.resizer is not None:
            self.resizer.request(width, height)  # clipped, and a storm coalesced

    def _resize(self, width: int, height: int) -> None:
        if self.master is not None:
            with contextlib.suppress(OSError):
                set_size(self.master, width, height)  # the kernel sends the process SIGWINCH

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
        if self.resizer is not None:
            self.resizer.close()
            self.resizer = None
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
        self.lost = True
        if self.idle is not None:
            self.idle.cancel()
        self._end_process()
        self.link.session_closed()
        if self.counted:
            self.counted = False
            self.host.release(self.address, self.visitor)
