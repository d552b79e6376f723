"""A spare visitor's program for ``cardtable web``: one started ahead of its
visitor, so that a new tab's program has done its imports already (half a
second of CPU, most of the first frame; tui/spare_cli.py is the program).

The spare is started as a visitor's program is (net/visitors.py: from
scratch, the same environment but for who the visitor is, on a pty of its
own as controlling terminal, nice and both ceilings), with its home, temp
and settings folders in ``spare/`` of the host's data folder, not any
visitor's. It reads nothing and writes nothing there: it waits. A visitor
who comes takes it: their environment, folder and arguments go down a pipe
(the same the cold start gives), their tab gets its pty, and the next spare
starts. One spare at most; it is no visitor (the caps count visitors).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from net.visitors import HostLimits, child_setup, hang_up, set_pty_size

SPARE_FD = "CARDTABLE_SPARE_FD"  # tui/spare_cli.py reads who it is from this descriptor
LOADED = b"loaded\n"  # what a spare says down it once its imports are done
LOAD_SECONDS = 120.0  # a spare that has not loaded by then is ended (a stuck host)

log = logging.getLogger(__name__)


class Spare:
    """A started spare: its process, its pty's master side, and the socket
    that says when it has loaded and will tell it who it is."""

    def __init__(
        self, process: asyncio.subprocess.Process, master: int, channel: socket.socket
    ) -> None:
        self.process = process
        self.master = master
        self.channel = channel

    async def loaded(self) -> bool:
        """Wait until it has done its imports (False: it ended, or took too long)."""
        loop = asyncio.get_running_loop()
        try:
            said = await asyncio.wait_for(loop.sock_recv(self.channel, len(LOADED)), LOAD_SECONDS)
        except (OSError, TimeoutError):
            return False
        return said == LOADED

    def alive(self) -> bool:
        return self.process.returncode is None

    def hand_over(
        self, env: Mapping[str, str], cwd: Path, argv: Sequence[str], size: tuple[int, int]
    ) -> tuple[asyncio.subprocess.Process, int]:
        """Make it this visitor's program (``env``, ``cwd`` and ``argv`` as the
        cold start has them); its process and pty master, now the caller's."""
        set_pty_size(self.master, *size)  # before it draws: it reads the size after this
        line = json.dumps({"env": dict(env), "cwd": str(cwd), "argv": list(argv)}) + "\n"
        try:
            data = line.encode("utf-8")  # a few KB: the socket's buffer takes it at once
            if self.channel.send(data) != len(data):
                raise OSError("the spare took part of who it is")
        finally:
            self.channel.close()
        return self.process, self.master

    def discard(self) -> None:
        """End it unused (the host stops)."""
        self.channel.close()  # it reads the end, and exits
        hang_up(self.process)
        with contextlib.suppress(OSError):
            os.close(self.master)


async def start_spare(
    command: Sequence[str], folder: Path, env: Mapping[str, str], limits: HostLimits
) -> Spare:
    """A spare running ``command`` in ``folder``, with a visitor's environment
    (net/visitors.py's, with its folders in ``folder``). OSError if it cannot
    start."""
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    master, tty = os.openpty()
    env = {**env, SPARE_FD: str(theirs.fileno())}
    try:
        process = await asyncio.create_subprocess_exec(
            *command,
            stdin=tty,
            stdout=tty,
            stderr=tty,
            env=env,
            cwd=str(folder),
            start_new_session=True,
            pass_fds=(theirs.fileno(),),
            preexec_fn=child_setup(limits),
        )
    except BaseException:
        os.close(master)
        ours.close()
        raise
    finally:
        os.close(tty)
        theirs.close()
    os.set_blocking(master, False)
    return Spare(process, master, ours)


class SpareKeeper:
    """Keeps one spare ready: started at the host's start and again each time
    a visitor takes it. ``environment(root, settings)`` is a visitor's."""

    def __init__(
        self,
        command: Sequence[str],
        folder: Path,
        environment: Callable[[Path, Path], dict[str, str]],
        limits: HostLimits,
    ) -> None:
        self.command = tuple(command)
        self.folder = folder  # its home, temp and settings folders: no visitor's
        self.environment = environment
        self.limits = limits
        self.spare: Spare | None = None
        self.ready = asyncio.Event()  # (tests and benchmarks wait for it)
        self._starting: asyncio.Task[None] | None = None
        self._stopped = False

    def prepare(self) -> None:
        """Start the next spare in the background, unless one runs or starts."""
        if self._stopped or self.spare is not None:
            return
        if self._starting is None or self._starting.done():
            self.ready.clear()
            self._starting = asyncio.get_running_loop().create_task(self._start())

    async def _start(self) -> None:
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            (self.folder / "config").mkdir(exist_ok=True)
            env = self.environment(self.folder, self.folder / "config")
            spare = await start_spare(self.command, self.folder, env, self.limits)
        except (OSError, ValueError) as err:
            log.warning("no spare program (each visitor's starts when they come): %s", err)
            return
        try:
            loaded = await spare.loaded()
        except asyncio.CancelledError:  # the host stops
            spare.discard()
            raise
        if not loaded:
            log.warning("a spare program did not load (each visitor's starts when they come)")
            spare.discard()
            return
        if self._stopped:
            spare.discard()
            return
        self.spare = spare
        self.ready.set()

    def take(self) -> Spare | None:
        """The spare, for a visitor (None: start theirs cold); the next one starts."""
        spare, self.spare = self.spare, None
        self.prepare()
        if spare is not None and not spare.alive():
            spare.discard()
            return None
        return spare

    def stop(self) -> None:
        self._stopped = True
        if self._starting is not None:
            self._starting.cancel()
        if self.spare is not None:
            self.spare.discard()
            self.spare = None
