"""`cardtable ssh-host` against what a guest could try, over loopback: a name
that folds onto someone else's, a look-alike, two sessions of one name, a key
that is not the name's; `ssh -T host </dev/null`; connections that never open
a session, by raw TCP and by SSH; more connections than allowed; the host out
of file descriptors; and the table server in a process of its own."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest

from net.ssh_host import (
    NO_PTY,
    Host,
    HostConfig,
    HostLimits,
    SSHListener,
    TableServerProcess,
    key_identity,
    start_host,
)
from tests.processes import process_ended

from .test_ssh_host import STAND_IN, connect, read_until

BANNER_SECONDS = 20  # the most a test waits for the host to answer


async def _host(
    tmp_path: Path, session_wait: float
) -> AsyncIterator[tuple[int, Path, Host, SSHListener]]:
    limits = HostLimits(per_address=8, connections_per_address=8, session_wait_seconds=session_wait)
    config = HostConfig(tmp_path, command=STAND_IN, limits=limits, game_server="127.0.0.1:7999")
    listener, state = await start_host(config, "127.0.0.1", 0)
    yield listener.sockets[0].getsockname()[1], tmp_path, state, listener
    listener.close()
    await listener.wait_closed()


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[tuple[int, Path, Host, SSHListener]]:
    # the default time to open a session: a loaded machine never runs out of it
    async for running in _host(tmp_path, HostLimits().session_wait_seconds):
        yield running


@pytest.fixture
async def impatient_host(tmp_path: Path) -> AsyncIterator[tuple[int, Path, Host, SSHListener]]:
    # a connection that opens no session is closed at once: what the tests of
    # that wait for is the closing, whenever it comes
    async for running in _host(tmp_path, 0.05):
        yield running


async def visit(port: int, user: str, **options: object) -> str:
    """What one visit shows, to the end (the stand-in reads a line, then ends)."""
    async with connect(port, user, **options) as conn:
        process = await conn.create_process(term_type="xterm", encoding=None)
        with contextlib.suppress(BrokenPipeError):  # a refusal closes at once
            process.stdin.write(b"\r")
        shown = await read_until(process, "\n")
        await asyncio.wait_for(process.wait_closed(), BANNER_SECONDS)
        return shown + (await process.stdout.read()).decode("utf-8", "replace")


async def until(condition: object, what: str, seconds: float = BANNER_SECONDS) -> None:
    """Wait for ``condition()`` (the host's counts change on its own loop)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():  # type: ignore[operator]
        if loop.time() > deadline:
            raise AssertionError(f"never: {what}")
        await asyncio.sleep(0.01)


# ---------------------------------------------------------------- who is who
async def test_names_that_folded_onto_adas_reach_nothing_of_hers(
    host: tuple[int, Path, Host, SSHListener],
) -> None:
    port, data, _, _ = host
    assert "guest-ada/data" in await visit(port, "Ada")
    (data / "visitors" / "guest-ada" / "data" / "games").mkdir()
    for user in ["ADA-", "ada.", "-ADA-", "ada\u200b", "a\u0301da", "\u0430da", "", "..."]:
        shown = await visit(port, user)
        assert "is not a name here: a guest name is 1 to 32 letters" in shown, (user, shown)
        assert "ARGS" not in shown  # no program was started
    assert sorted(p.name for p in (data / "visitors").iterdir()) == ["guest-ada"]
    # one name in its other spellings is that name (nobody else's look-alike)
    assert "guest-ada/data" in await visit(port, "\uff21\uff24\uff21")


async def test_a_name_plays_once_at_a_time_without_a_key(
    host: tuple[int, Path, Host, SSHListener],
) -> None:
    port, _, state, _ = host
    async with connect(port, "ada") as first:
        playing = await first.create_process(term_type="xterm", encoding=None)
        await read_until(playing, "TTY")
        for user in ("ada", "ADA"):
            shown = await visit(port, user)
            assert "the name ada is playing right now: choose another." in shown
        playing.stdin.write(b"\r")
        await asyncio.wait_for(playing.wait_closed(), BANNER_SECONDS)
    await until(lambda: not state.names, "the name is free again")
    assert "guest-ada/data" in await visit(port, "ADA")


async def test_a_guests_key_is_their_identity_and_keeps_their_name(
    host: tuple[int, Path, Host, SSHListener],
) -> None:
    port, data, _, _ = host
    mine = asyncssh.generate_private_key("ssh-ed25519")
    theirs = asyncssh.generate_private_key("ssh-ed25519")
    shown = await visit(port, "Bea", client_keys=[mine])
    assert f"visitors/{key_identity(mine)}/data" in shown and "USER bea" in shown
    assert f"visitors/{key_identity(mine)}/data" in await visit(port, "BEA", client_keys=[mine])
    # the name is kept for that key: not for another key, nor for no key
    assert "the name bea belongs to someone else's key" in await visit(
        port, "bea", client_keys=[theirs]
    )
    assert "the name bea belongs to someone with a key" in await visit(port, "bea")
    # a name guests without a key use is not taken over by a key
    await visit(port, "cyd")
    assert "the name cyd belongs to a guest without a key" in await visit(
        port, "cyd", client_keys=[theirs]
    )
    assert not (data / "visitors" / "guest-bea").exists()


def test_a_key_offered_but_not_proven_is_nobodys(tmp_path: Path) -> None:
    # public keys are public: offering Bea's (asyncssh asks us before any
    # signature) and then logging in without a key must not make one Bea
    from types import SimpleNamespace

    from net.ssh_host import _Server

    state = Host(HostConfig(tmp_path))
    bea = asyncssh.generate_private_key("ssh-ed25519")
    server = _Server(state, SimpleNamespace(address="127.0.0.1"))  # type: ignore[arg-type]
    server.begin_auth("bea")
    assert server.validate_public_key("bea", bea)  # the offer: "go on, sign"
    assert server.get_kbdint_challenge("bea", "", "") is True  # no signature: no key
    server.auth_completed()
    assert server.visitor is not None
    assert server.visitor.identity == "guest-bea" and not server.visitor.keyed
    # and the other way round: a signature after a keyless try is the key
    server.get_kbdint_challenge("bea", "", "")
    server.validate_public_key("bea", bea)
    server.auth_completed()
    assert server.visitor.identity == key_identity(bea)


# ---------------------------------------------------------------- no terminal
async def test_without_a_terminal_the_line_arrives_every_time_then_the_channel_closes(
    host: tuple[int, Path, Host, SSHListener],
) -> None:
    # `ssh -T host </dev/null`: the shell request and EOF at once, 20 times
    port, _, _, _ = host
    async with connect(port, "ada") as conn:
        for _ in range(20):
            process = await conn.create_process(encoding=None)
            process.stdin.write_eof()
            out = await asyncio.wait_for(process.stdout.read(), BANNER_SECONDS)
            await asyncio.wait_for(process.wait_closed(), BANNER_SECONDS)
            assert out == NO_PTY.encode() and process.exit_status == 1


# ---------------------------------------------------------------- connections
def raw(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(
        ("127.0.0.1", port), timeout=BANNER_SECONDS, source_address=(source, 0)
    )
    return sock


def banner(sock: socket.socket) -> bytes:
    """What the host says first: its SSH banner, or b"" if it closed on us."""
    try:
        return sock.recv(256)
    except ConnectionResetError:
        return b""


async def test_raw_connections_count_against_the_limits(
    host: tuple[int, Path, Host, SSHListener],
) -> None:
    port, _, state, _ = host
    loop = asyncio.get_running_loop()
    held = [await loop.run_in_executor(None, raw, port) for _ in range(8)]
    try:
        for sock in held:
            assert (await loop.run_in_executor(None, banner, sock)).startswith(b"SSH-")
        assert state.connections == 8
        # the ninth from the same address is closed before any SSH is spoken
        ninth = await loop.run_in_executor(None, raw, port)
        assert await loop.run_in_executor(None, banner, ninth) == b""
        ninth.close()
        # another address still gets in
        other = await loop.run_in_executor(None, raw, port, "127.0.0.2")
        assert (await loop.run_in_executor(None, banner, other)).startswith(b"SSH-")
        other.close()
    finally:
        for sock in held:
            sock.close()
    await until(lambda: state.connections == 0, "all released")


def _read_to_end(sock: socket.socket) -> bytes:
    data = b""
    try:
        while chunk := sock.recv(4096):
            data += chunk
    except ConnectionResetError:
        pass
    return data


async def test_raw_connections_that_open_no_session_are_closed(
    impatient_host: tuple[int, Path, Host, SSHListener],
) -> None:
    port, _, state, _ = impatient_host
    loop = asyncio.get_running_loop()
    held = [await loop.run_in_executor(None, raw, port) for _ in range(8)]
    try:
        for sock in held:  # each is closed by the host, no matter how long that takes
            said = await loop.run_in_executor(None, _read_to_end, sock)
            # its banner, unless the host's reset came first and took it with it
            # (a loaded machine reads the later sockets after their reset)
            assert said == b"" or said.startswith(b"SSH-")
        await until(lambda: state.connections == 0, "all released")
    finally:
        for sock in held:
            sock.close()


async def test_a_login_that_opens_no_session_is_closed(
    host: tuple[int, Path, Host, SSHListener],
) -> None:
    # the host's own clock is armed for the configured wait from the accept
    # (asyncio's call_later keeps it); the test runs it out rather than waiting
    # a real second: a wait short enough to wait for is one a loaded machine's
    # login can outlast
    port, _, state, listener = host
    wait = HostLimits().session_wait_seconds
    conns = [await connect(port, f"idle{i}") for i in range(3)]  # logged in: no session follows
    try:
        links = list(listener.links)
        now = asyncio.get_running_loop().time()
        assert len(links) == 3 and state.connections == 3
        for link in links:
            assert not link.clock.cancelled() and now < link.clock.when() <= now + wait
            link.too_slow()  # its wait is over
        for conn in conns:
            await asyncio.wait_for(conn.wait_closed(), BANNER_SECONDS)
        await until(lambda: state.connections == 0, "all released")
    finally:
        for conn in conns:
            conn.close()


async def test_connections_in_total_are_capped(tmp_path: Path) -> None:
    limits = HostLimits(connections=3, connections_per_address=8)
    listener, state = await start_host(HostConfig(tmp_path, limits=limits), "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    loop = asyncio.get_running_loop()
    held = []
    try:
        for i in range(3):  # from three addresses: the per-address limit is not it
            sock = await loop.run_in_executor(None, raw, port, f"127.0.0.{i + 1}")
            held.append(sock)
            assert (await loop.run_in_executor(None, banner, sock)).startswith(b"SSH-")
        fourth = await loop.run_in_executor(None, raw, port, "127.0.0.9")
        assert await loop.run_in_executor(None, banner, fourth) == b""
        fourth.close()
        held.pop().close()
        await until(lambda: state.connections == 2, "one released")
        again = await loop.run_in_executor(None, raw, port, "127.0.0.9")
        held.append(again)
        assert (await loop.run_in_executor(None, banner, again)).startswith(b"SSH-")
    finally:
        for sock in held:
            sock.close()
        listener.close()
        await listener.wait_closed()


# the host in a process of its own with few file descriptors: it runs out,
# says so once, and accepts again once connections close
OUT_OF_FDS = textwrap.dedent(
    """
    import asyncio, logging, os, resource, sys
    from pathlib import Path
    from net.ssh_host import HostConfig, HostLimits, start_host

    async def main():
        logging.basicConfig(level=logging.WARNING, format="LOG %(message)s")
        limits = HostLimits(connections=1000, connections_per_address=1000,
                            accept_pause_seconds=0.05)
        listener, _ = await start_host(HostConfig(Path(sys.argv[1]), limits=limits),
                                       "127.0.0.1", 0)
        # twenty descriptors to spare, no more
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        in_use = max(int(fd) for fd in os.listdir("/proc/self/fd"))
        resource.setrlimit(resource.RLIMIT_NOFILE, (in_use + 21, hard))
        print("PORT", listener.sockets[0].getsockname()[1], flush=True)
        await listener.wait_closed()

    asyncio.run(main())
    """
)


def test_out_of_file_descriptors_the_host_pauses_says_so_once_and_resumes(
    tmp_path: Path,
) -> None:
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    host = subprocess.Popen(
        [sys.executable, "-c", OUT_OF_FDS, str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    held: list[socket.socket] = []
    try:
        assert host.stdout is not None and host.stderr is not None
        port = int(host.stdout.readline().split()[1])
        # far more connections than the host has descriptors for: the last
        # wait in its queue, unanswered
        held = [raw(port) for _ in range(45)]
        last = held[-1]
        line = host.stderr.readline()  # (waits for the host to run out)
        assert "out of file descriptors (Too many open files)" in line
        last.setblocking(False)  # twenty-five past the last descriptor: not accepted
        with pytest.raises(BlockingIOError):
            last.recv(256)
        last.setblocking(True)
        for sock in held[:35]:
            sock.close()
        del held[:35]
        last.settimeout(BANNER_SECONDS)
        assert last.recv(256).startswith(b"SSH-")  # served at last
        assert host.stderr.readline().startswith("LOG accepting connections again")
    finally:
        for sock in held:
            sock.close()
        host.kill()
        _, rest = host.communicate(timeout=BANNER_SECONDS)
    assert "Traceback" not in rest and "out of file descriptors" not in rest  # said once


# ---------------------------------------------------------------- the table server
async def test_the_table_server_runs_in_its_own_process_and_stops_with_the_host(
    tmp_path: Path,
) -> None:
    from net.remote import RemoteClient

    tables = await TableServerProcess.start(tmp_path)
    try:
        assert tables.process.pid != os.getpid()
        host, port = tables.address.rsplit(":", 1)
        assert host == "127.0.0.1"
        client = await RemoteClient.connect(host, int(port), "Ada")
        made = await client.create("domination", ["open", "computer:easy"])
        await client.close()
    finally:
        await tables.stop()
    assert tables.process.returncode == 0  # stopped in order: its saves reached the disk
    # the table server keeps its games in its database (docs/store.md)
    from net.store import open_store

    store = await open_store(None, tmp_path)
    try:
        assert (await store.tables.load_record(made.table)).game == "domination"
    finally:
        await store.close()
    with pytest.raises(OSError):
        await RemoteClient.connect(host, int(port), "Ada")


async def test_the_table_server_has_room_for_every_visitor_although_all_come_from_loopback(
    tmp_path: Path,
) -> None:
    from net.remote import RemoteClient

    # 3 visitors, 4 connections each: 12 (the default for one address is 16)
    tables = await TableServerProcess.start(tmp_path, visitors=3)
    clients = []
    try:
        host, port = tables.address.rsplit(":", 1)
        for n in range(12):
            clients.append(await RemoteClient.connect(host, int(port), f"Visitor{n}"))
        with pytest.raises(ConnectionError):
            clients.append(await RemoteClient.connect(host, int(port), "OneTooMany"))
    finally:
        for client in clients:
            await client.close()
        await tables.stop()


def test_ssh_host_starts_its_table_server_process_and_stops_it(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a free port for the SSH side
        probe.bind(("127.0.0.1", 0))
        ssh_port = probe.getsockname()[1]
    command = [sys.executable, "-m", "tui.cli", "--data-dir", str(tmp_path), "ssh-host"]
    host = subprocess.Popen(
        [*command, "--guests", "--port", str(ssh_port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert host.stdout is not None
        assert f"ssh -p {ssh_port}" in host.stdout.readline()
        line = host.stdout.readline()
        assert "visitors play each other at the table server 127.0.0.1:" in line
        tables_port = int(line.rsplit(":", 1)[1])
        children = Path(f"/proc/{host.pid}/task/{host.pid}/children").read_text().split()
        assert len(children) == 1  # `cardtable serve`, a process of its own
        serve = Path(f"/proc/{children[0]}/cmdline").read_bytes().split(b"\0")
        assert b"serve" in serve and b"0" in serve
        with socket.create_connection(("127.0.0.1", tables_port), timeout=BANNER_SECONDS):
            pass
        host.terminate()
        assert host.wait(BANNER_SECONDS) == 0
    finally:
        host.kill()
        _, errors = host.communicate(timeout=BANNER_SECONDS)
    assert errors == ""
    assert not Path(f"/proc/{children[0]}").exists()  # stopped with the host
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", tables_port), timeout=BANNER_SECONDS)


def gone(pid: int, seconds: float = BANNER_SECONDS) -> bool:
    """Whether process ``pid`` (not our child: we cannot wait for it) ends
    within ``seconds``. A process that has ended but not yet been reaped (a
    zombie: its parent, the host, is dead, and whoever inherits it reaps it
    when it gets round to it) has ended: it holds no socket and runs no code.
    Waiting for the reaping waited on the machine's init, not on cardtable:
    1.1-2.0 s after the table server had stopped, here, against 0.1 s for the
    stop itself."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process_ended(pid):
            return True
        time.sleep(0.01)
    return False


def test_a_host_killed_outright_takes_its_table_server_with_it(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        ssh_port = probe.getsockname()[1]
    command = [sys.executable, "-m", "tui.cli", "--data-dir", str(tmp_path), "ssh-host"]
    host = subprocess.Popen(
        [*command, "--guests", "--port", str(ssh_port)], stdout=subprocess.PIPE, text=True
    )
    assert host.stdout is not None
    host.stdout.readline()
    tables_port = int(host.stdout.readline().rsplit(":", 1)[1])
    children = Path(f"/proc/{host.pid}/task/{host.pid}/children").read_text().split()
    host.kill()
    host.wait()
    host.stdout.close()
    # it is told at once (SIGTERM from the kernel); its orderly stop takes a moment
    assert gone(int(children[0])), "the table server outlived its host"
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", tables_port), timeout=BANNER_SECONDS)


def test_the_operators_flags_reach_the_host(tmp_path: Path) -> None:
    from tui.cli import UserError, build_parser
    from tui.host_cli import host_config

    def config(*flags: str) -> HostConfig:
        args = build_parser().parse_args(["ssh-host", "--guests", *flags])
        return host_config(args, tmp_path, "127.0.0.1:7999")

    default = config()
    assert default.limits.cpu_seconds == 3600 and default.limits.memory_bytes == 512 * 2**20
    assert default.grants().join_only == {("127.0.0.1", 7999)}
    chosen = config(
        "--allow-join", "10.0.0.5:7420", "--allow-join", "[::1]:7000",
        "--visitor-cpu", "0", "--visitor-memory", "300",
    )  # fmt: skip
    assert chosen.limits.cpu_seconds is None and chosen.limits.memory_bytes == 300 * 2**20
    assert chosen.grants().join_only == {("127.0.0.1", 7999), ("10.0.0.5", 7420), ("::1", 7000)}
    for flags, said in [
        (["--allow-join", "anywhere"], "--allow-join must be HOST:PORT"),
        (["--visitor-cpu", "-1"], "--visitor-cpu is 0"),
        (["--visitor-memory", "10"], "--visitor-memory is at least 64"),
    ]:
        with pytest.raises(UserError, match=said):
            config(*flags)


async def test_a_login_without_a_session_claims_no_name(
    host: tuple[int, Path, Host, SSHListener],
) -> None:
    port, data, _, _ = host
    squatter = asyncssh.generate_private_key("ssh-ed25519")
    async with connect(port, "dee", client_keys=[squatter]):
        pass  # logged in, opened nothing
    assert not (data / "visitors" / "names" / "dee").exists()
    assert "guest-dee/data" in await visit(port, "dee")
