"""Visitors of `cardtable ssh-host`: time to the first frame and private memory
(not a pytest test).

    uv run python tests/perf/bench_ssh_host.py --visitors 5

Each visitor connects over loopback with a pty, and the time from connecting
to the home screen's text is taken; then the private memory (Private_Clean +
Private_Dirty of /proc/PID/smaps_rollup) of each visitor's cardtable process
is read while all are connected. Prints median and spread.

The host is given room for every visitor (all come from 127.0.0.1, and the
default allows 4 sessions per address), and a visitor who is refused or
whose terminal closes early fails the run with what it showed instead of
waiting for ever.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import tempfile
import time
from pathlib import Path

import asyncssh

from net.ssh_host import HostConfig, HostLimits, start_host

ESCAPE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.")


def private_kib(pid: int) -> int:
    total = 0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith(("Private_Clean:", "Private_Dirty:")):
            total += int(line.split()[1])
    return total


async def visit(port: int, name: str) -> tuple[float, asyncssh.SSHClientConnection, object]:
    start = time.perf_counter()
    # a guest without a key (keyboard-interactive, which asks nothing)
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=name, known_hosts=None, client_keys=None, password=""
    )
    process = await conn.create_process(
        term_type="xterm-256color", term_size=(80, 24), encoding=None
    )
    seen = ""
    while "Choose a game" not in seen:
        chunk = await asyncio.wait_for(process.stdout.read(65536), 60)
        if not chunk:
            raise SystemExit(f"{name} never saw the home screen; it showed: {seen.strip()!r}")
        seen += ESCAPE.sub("", chunk.decode("utf-8", "replace"))
    return time.perf_counter() - start, conn, process


async def main(visitors: int) -> None:
    data = Path(tempfile.mkdtemp())
    room = HostLimits(sessions=visitors, per_address=visitors, connections_per_address=visitors + 1)
    listener, host = await start_host(HostConfig(data, limits=room), "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    firsts, sessions = [], []
    for i in range(visitors):  # one after another: each first frame on its own
        seconds, conn, process = await visit(port, f"visitor{i}")
        firsts.append(seconds)
        sessions.append((conn, process))
    await asyncio.sleep(1.0)  # let every app settle before measuring memory
    memory = [private_kib(p.pid) / 1024 for p in host.processes]
    q = statistics.quantiles
    print(f"visitors: {visitors}")
    print(
        f"first frame: median {statistics.median(firsts):.2f} s, "
        f"min {min(firsts):.2f}, max {max(firsts):.2f}"
        + (f", p90 {q(firsts, n=10)[-1]:.2f}" if len(firsts) >= 2 else "")
    )
    print(
        f"private memory per visitor: median {statistics.median(memory):.1f} MB, "
        f"min {min(memory):.1f}, max {max(memory):.1f}"
    )
    for conn, process in sessions:
        process.stdin.write(b"\x11")  # type: ignore[attr-defined]
        conn.close()
    listener.close()
    await listener.wait_closed()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--visitors", type=int, default=5)
    asyncio.run(main(parser.parse_args().visitors))
