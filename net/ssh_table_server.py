"""The table server ssh visitors meet at: ``cardtable serve`` in a process of
its own on loopback, started and stopped by ``cardtable ssh-host``."""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from net.visitors import HostLimits
from rules.plain import plain

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
