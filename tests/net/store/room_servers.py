"""Servers of one card room for the tests and the benchmark: real
``cardtable serve`` processes on one PostgreSQL, each on an address of its
own (loopback), started and killed like any process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[3]
STARTING = 60.0  # seconds a server may take to start on a loaded machine


def free_port(host: str) -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


@dataclass
class Served:
    """One ``cardtable serve`` of the room."""

    host: str
    port: int
    process: asyncio.subprocess.Process
    data_dir: Path

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def kill(self) -> None:
        """SIGKILL: nothing is said, nothing is flushed."""
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGKILL)

    def stop(self) -> None:
        """SIGSTOP: as a machine gone looks to the others (no reset, no end:
        its connections are silent, a new one is taken by the system and
        never answered), until :meth:`resume`."""
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGCONT)

    def log(self) -> str:
        """What it said on stderr (warnings, errors) so far."""
        return (self.data_dir / "server.log").read_text(errors="replace")


async def serve(
    url: str, data_dir: Path, host: str = "127.0.0.1", port: int | None = None, *extra: str
) -> Served:
    port = port or free_port(host)
    data_dir.mkdir(parents=True, exist_ok=True)
    with open(data_dir / "server.log", "wb") as log:  # its stderr: warnings, errors
        process = await _start(url, data_dir, host, port, log, extra)
    assert process.stdout is not None
    while True:
        line = (await asyncio.wait_for(process.stdout.readline(), STARTING)).decode()
        if not line:
            raise RuntimeError(f"the server at {host}:{port} did not start")
        if "one of the room's servers" in line:
            break
    # its output is not read any more: it says nothing more but errors
    return Served(host, port, process, data_dir)


async def _start(
    url: str, data_dir: Path, host: str, port: int, log: IO[bytes], extra: tuple[str, ...]
) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "from tui.cli import main; raise SystemExit(main())",
        "serve",
        "--host",
        host,
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
        "--database",
        url,
        "--advertise",
        f"{host}:{port}",
        "--thinkers",
        "1",
        *extra,
        stdout=asyncio.subprocess.PIPE,
        stderr=log,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


@contextlib.asynccontextmanager
async def room(
    url: str, folder: Path, hosts: list[str], *extra: str
) -> AsyncIterator[list[Served]]:
    """``len(hosts)`` servers of one room, one per host; all stopped after."""
    servers = []
    try:
        for i, host in enumerate(hosts):
            servers.append(await serve(url, folder / f"server-{i}", host, None, *extra))
        yield servers
    finally:
        for served in servers:
            served.resume()  # (a stopped process hears nothing, SIGTERM included)
            with contextlib.suppress(ProcessLookupError):
                served.process.send_signal(signal.SIGTERM)
        for served in servers:
            try:
                await asyncio.wait_for(served.process.wait(), 30)
            except TimeoutError:
                served.kill()
                await served.process.wait()
