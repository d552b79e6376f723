"""An ssh-host visitor chooses line mode with the command `lines`
(`ssh -t HOST lines`): their process gets --lines and nothing else changes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from net.ssh_host import NO_PTY, HostConfig, HostLimits, start_host

from .test_ssh_host import STAND_IN, connect, read_until


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[int]:
    config = HostConfig(
        tmp_path, command=STAND_IN, limits=HostLimits(per_address=2), game_server="127.0.0.1:7999"
    )
    acceptor, _ = await start_host(config, "127.0.0.1", 0)
    yield acceptor.sockets[0].getsockname()[1]
    acceptor.close()
    await acceptor.wait_closed()


async def test_the_lines_command_runs_line_mode_with_the_same_grants(
    host: int, tmp_path: Path
) -> None:
    shown = {}
    for command in (None, "lines"):
        async with connect(host, "ada") as conn:
            process = await conn.create_process(command, term_type="dumb", encoding=None)
            shown[command] = await read_until(process, "TTY")
            process.stdin.write(b"\r")
            await asyncio.wait_for(process.wait_closed(), 20)
    home = tmp_path / "visitors" / "guest-ada"
    assert f"ARGS ['--lines', '--data-dir', '{home / 'data'}']" in shown["lines"]
    assert "ARGS ['--data-dir'" in shown[None]
    # the rest of what the process is given is the same: grants, folders, limits
    assert shown["lines"].split("TERM", 1)[1] == shown[None].split("TERM", 1)[1]


async def test_other_commands_and_lines_without_a_terminal_get_one_line(host: int) -> None:
    async with connect(host, "ada") as conn:
        for command in ("lines --data-dir /", "cat /etc/passwd", "lines"):
            done = await conn.run(command, encoding=None)
            assert done.stdout == NO_PTY.encode() and done.exit_status == 1
