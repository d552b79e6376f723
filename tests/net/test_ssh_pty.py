"""A visitor's terminal size on the ssh host (net/ssh_pty.py): clipped to the
cap whatever the client says, no descriptor left behind when a pty cannot be
set up, a storm of window changes coalesced; and, through the real host, an
oversized terminal gets the capped size and leaves nothing open (100 of
them in the slow run)."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import struct
import termios
from pathlib import Path

import pytest

from net import ssh_pty
from net.ssh_host import HostConfig, HostLimits, start_host
from net.ssh_pty import MAX_COLUMNS, MAX_ROWS, Resizer, clipped, open_pty, set_size
from tests.fake_time import FakeTime

from .test_ssh_host import STAND_IN, connect, read_until


def open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def ptys_in_use() -> int:
    return int(Path("/proc/sys/kernel/pty/nr").read_text())


def size_of(fd: int) -> tuple[int, int]:
    rows, columns, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
    return columns, rows


def test_a_size_is_clipped_to_the_cap_and_nonsense_is_the_usual_size() -> None:
    assert clipped(70_000, 24) == (MAX_COLUMNS, 24)
    assert clipped(65_535, 65_535) == (MAX_COLUMNS, MAX_ROWS) == (1000, 500)
    assert clipped(0, 0) == (80, 24) and clipped(-5, "x") == (80, 24)
    assert clipped(132, 50) == (132, 50)


def test_a_pty_of_any_asked_size_opens_at_the_capped_size() -> None:
    master, slave = open_pty(70_000, 2**40)  # past struct's 65,535: once a leak
    try:
        assert size_of(master) == (MAX_COLUMNS, MAX_ROWS)
        set_size(master, 2**20, 3)  # a window change too
        assert size_of(slave) == (MAX_COLUMNS, 3)
    finally:
        os.close(master)
        os.close(slave)


def test_a_pty_that_cannot_be_set_up_leaves_no_descriptor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(fd: int, width: int, height: int) -> None:
        raise OSError(25, "Inappropriate ioctl for device")

    before = open_fds()
    monkeypatch.setattr(ssh_pty, "set_size", refuse)
    with pytest.raises(OSError):
        open_pty(80, 24)
    assert open_fds() == before


def test_a_storm_of_window_changes_reaches_the_program_once_an_interval() -> None:
    applied: list[tuple[int, int]] = []
    loop = FakeTime(now=0.0)  # the event loop's time and timers, moved by hand
    resizer = Resizer(lambda w, h: applied.append((w, h)), interval=0.1, timing=loop)
    resizer.request(100, 30)
    assert applied == [(100, 30)]  # the first at once
    for i in range(5000):  # 5,000 changes within the interval
        resizer.request(80 + i % 170, 70_000)
    assert applied == [(100, 30)]
    loop.run_until(0.1)
    assert applied == [(100, 30), (80 + 4999 % 170, MAX_ROWS)]  # the newest, clipped
    loop.run_until(0.5)
    resizer.request(90, 40)  # a change after a quiet spell: at once again
    assert applied[-1] == (90, 40) and len(applied) == 3
    resizer.request(91, 41)
    resizer.close()  # the pty closes: nothing more reaches it
    loop.run_until(1.0)
    assert applied[-1] == (90, 40)


async def _oversized_visits(tmp_path: Path, count: int) -> list[str]:
    """``count`` visits asking for a 70,000-column terminal, four at a time;
    what each saw."""
    limits = HostLimits(per_address=4, connections_per_address=8)
    config = HostConfig(tmp_path, command=STAND_IN, limits=limits, game_server="127.0.0.1:7999")
    listener, _ = await start_host(config, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]

    async def visit(i: int) -> str:
        async with connect(port, f"big{i}") as conn:
            process = await conn.create_process(
                term_type="xterm", term_size=(70_000, 65_535), encoding=None
            )
            shown = await read_until(process, "SIZE")
            process.change_terminal_size(2**20, 2**20)  # a window change as big
            with contextlib.suppress(BrokenPipeError):
                process.stdin.write(b"\r")
            await asyncio.wait_for(process.wait_closed(), 20)
            return shown

    try:
        seen = []
        for start in range(0, count, 4):
            seen += await asyncio.gather(*(visit(i) for i in range(start, min(count, start + 4))))
    finally:
        listener.close()
        await listener.wait_closed()
    for _ in range(200):  # the host's own ends of the sessions close on its loop
        await asyncio.sleep(0)
    return seen


async def test_an_oversized_terminal_gets_the_capped_size_and_leaves_nothing_open(
    tmp_path: Path,
) -> None:
    fds, ptys = open_fds(), ptys_in_use()
    [shown] = await _oversized_visits(tmp_path, 1)
    assert f"SIZE ({MAX_COLUMNS}, {MAX_ROWS})" in shown
    assert len(open_fds() - fds) == 0
    assert ptys_in_use() <= ptys  # (other programs on the machine may close theirs)


@pytest.mark.slow  # 100 visitor processes: about a minute on a busy machine
async def test_a_hundred_oversized_terminals_leak_no_descriptor_and_no_pty(
    tmp_path: Path,
) -> None:
    fds, ptys = open_fds(), ptys_in_use()
    seen = await _oversized_visits(tmp_path, 100)
    assert all(f"SIZE ({MAX_COLUMNS}, {MAX_ROWS})" in shown for shown in seen)
    leaked = open_fds() - fds
    assert leaked == set(), leaked
    # other programs may open ptys meanwhile; ours alone would be 100 more
    assert ptys_in_use() - ptys < 10
