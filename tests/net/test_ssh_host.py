"""`cardtable ssh-host` over loopback with an asyncssh client: a visitor with a
pty gets cardtable's home screen and its resizes, one without gets a line and
is closed, identities keep their saves apart, and the limits hold.

Most tests run a stand-in program (it prints its folders and terminal) in
place of cardtable, so they are quick; one runs the real app."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest

from net.ssh_host import (
    NO_PTY,
    HostConfig,
    HostLimits,
    guest_identity,
    guest_name,
    key_identity,
    load_host_key,
    start_host,
    visitor_dirs,
)

ESCAPE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.")
# the stand-in visitor program: says where it was told to keep things, and its size
STAND_IN = (
    sys.executable,
    "-c",
    "import os, resource, shutil, sys; "
    "print('ARGS', sys.argv[1:], 'CONFIG', os.environ['CARDTABLE_CONFIG_DIR'], "
    "'TERM', os.environ['TERM'], 'SERVER', os.environ.get('CARDTABLE_SERVER'), "
    "'USER', os.environ.get('USER'), "
    "'SIZE', tuple(shutil.get_terminal_size()), "
    "'AS', resource.getrlimit(resource.RLIMIT_AS)[0], "
    "'CPU', resource.getrlimit(resource.RLIMIT_CPU)[0], 'NICE', os.nice(0), "
    "'HOME', os.environ['HOME'], 'TMPDIR', os.environ['TMPDIR'], "
    "'NOPYC', os.environ.get('PYTHONDONTWRITEBYTECODE'), "
    "'VISITOR', os.environ.get('CARDTABLE_VISITOR'), "
    "'ALLOW', os.environ.get('CARDTABLE_ALLOW_JOIN'), "
    "'TTY', os.isatty(0), flush=True); sys.stdin.readline()",
)


async def read_until(process: asyncssh.SSHClientProcess[bytes], text: str) -> str:
    """What the visitor's terminal shows (escapes removed) once ``text`` is in it."""
    seen = ""
    while text not in seen:
        try:
            chunk = await asyncio.wait_for(process.stdout.read(65536), 20)
        except TimeoutError:
            raise AssertionError(f"{text!r} never came; the terminal showed:\n{seen}") from None
        if not chunk:
            break
        seen += ESCAPE.sub("", chunk.decode("utf-8", "replace"))
    return seen


@pytest.fixture
async def guests(tmp_path: Path) -> AsyncIterator[tuple[int, Path]]:
    config = HostConfig(
        tmp_path, command=STAND_IN, limits=HostLimits(per_address=2), game_server="127.0.0.1:7999"
    )
    acceptor, _ = await start_host(config, "127.0.0.1", 0)
    yield acceptor.sockets[0].getsockname()[1], tmp_path
    acceptor.close()
    await acceptor.wait_closed()


def connect(port: int, user: str, **options: object) -> asyncssh.SSHClientConnection:
    """A client of the host; keyless unless given ``client_keys`` (a guest
    without a key answers keyboard-interactive, which asks nothing)."""
    options = {"client_keys": None, "password": "", **options}
    return asyncssh.connect(  # type: ignore[return-value]
        "127.0.0.1", port, username=user, known_hosts=None, **options
    )


async def test_a_visitor_runs_in_their_own_terminal_and_folder(
    guests: tuple[int, Path],
) -> None:
    port, data = guests
    async with connect(port, "Ada") as conn:
        process = await conn.create_process(
            term_type="xterm-256color", term_size=(100, 30), encoding=None
        )
        shown = await read_until(process, "TTY")
        process.stdin.write(b"\r")
        await asyncio.wait_for(process.wait_closed(), 20)
    home = data / "visitors" / "guest-ada"
    assert f"'--data-dir', '{home / 'data'}'" in shown
    assert f"CONFIG {home / 'config'}" in shown
    assert "TERM xterm-256color" in shown and "SIZE (100, 30)" in shown and "TTY True" in shown
    assert "SERVER 127.0.0.1:7999" in shown  # the table server visitors meet on
    assert "USER ada" in shown  # the name their Join form offers
    assert f"AS {HostLimits().memory_bytes}" in shown  # the memory cap holds in the process
    # a guest: told so, with a CPU ceiling, yielding the CPU, writing only at home
    assert "VISITOR 1" in shown and "ALLOW 127.0.0.1:7999" in shown
    # (nice is added to the host's own: a host started under `nice -n 19` stays at 19)
    visitor_nice = min(19, os.nice(0) + HostLimits().nice)
    assert f"CPU {HostLimits().cpu_seconds}" in shown and f"NICE {visitor_nice}" in shown
    assert f"HOME {home / 'home'}" in shown and f"TMPDIR {home / 'tmp'}" in shown
    assert "NOPYC 1" in shown


async def test_two_visitors_keep_their_saves_apart(guests: tuple[int, Path]) -> None:
    port, data = guests
    for name in ("ada", "bea"):
        async with connect(port, name) as conn:
            process = await conn.create_process(term_type="xterm", encoding=None)
            shown = await read_until(process, "TTY")
            process.stdin.write(b"\r")
            assert f"visitors/guest-{name}/data" in shown
    assert sorted(p.name for p in (data / "visitors").iterdir()) == ["guest-ada", "guest-bea"]
    assert (data / "visitors" / "guest-ada").stat().st_mode & 0o077 == 0  # the visitor's own


async def test_without_a_terminal_a_visitor_gets_one_line(guests: tuple[int, Path]) -> None:
    port, data = guests
    async with connect(port, "ada") as conn:
        for command in (None, "cat /etc/passwd"):
            done = await conn.run(command, encoding=None) if command else None
            if done is None:  # a shell without a pty
                process = await conn.create_process(encoding=None)
                out = await asyncio.wait_for(process.stdout.read(), 20)
                await process.wait_closed()
                status = process.exit_status
            else:
                out, status = done.stdout, done.exit_status
            assert out == NO_PTY.encode() and status == 1
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.start_sftp_client()
    assert not (data / "visitors").exists()  # nobody got a program


async def test_sessions_per_address_are_limited(guests: tuple[int, Path]) -> None:
    port, _ = guests
    async with (
        connect(port, "ada") as ada,
        connect(port, "bea") as bea,
        connect(port, "cyd") as cyd,
    ):
        first = await ada.create_process(term_type="xterm", encoding=None)
        second = await bea.create_process(term_type="xterm", encoding=None)
        assert "TTY" in await read_until(first, "TTY")
        assert "TTY" in await read_until(second, "TTY")
        third = await cyd.create_process(term_type="xterm", encoding=None)
        refused = await asyncio.wait_for(third.stdout.read(), 20)
        assert b"too many sessions from your address" in refused
        for process in (first, second):
            process.stdin.write(b"\r")
            await asyncio.wait_for(process.wait_closed(), 20)
        # the count goes down again
        fourth = await cyd.create_process(term_type="xterm", encoding=None)
        assert "TTY" in await read_until(fourth, "TTY")
        fourth.stdin.write(b"\r")


async def test_with_authorized_keys_only_those_keys_get_in_and_each_is_its_own(
    tmp_path: Path,
) -> None:
    allowed = asyncssh.generate_private_key("ssh-ed25519")
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(allowed.export_public_key())
    config = HostConfig(tmp_path / "data", authorized_keys=keys, command=STAND_IN)
    acceptor, _ = await start_host(config, "127.0.0.1", 0)
    port = acceptor.sockets[0].getsockname()[1]
    try:
        with pytest.raises(asyncssh.PermissionDenied):
            async with connect(port, "ada", client_keys=[stranger]):
                pass
        for name in ("ada", "someone-else"):  # the login name changes nothing
            async with connect(port, name, client_keys=[allowed]) as conn:
                process = await conn.create_process(term_type="xterm", encoding=None)
                shown = await read_until(process, "TTY")
                process.stdin.write(b"\r")
                assert f"visitors/{key_identity(allowed)}/data" in shown
    finally:
        acceptor.close()


def test_a_guest_name_has_one_spelling_and_look_alikes_are_not_names(tmp_path: Path) -> None:
    assert guest_identity("Ada") == guest_identity("ADA") == "guest-ada"
    # width and compatibility forms are the same name, not a look-alike of it
    assert guest_identity("\uff21\uff24\uff21") == "guest-ada"  # fullwidth ADA
    assert guest_identity("Ada.Lovelace_2-b") == "guest-ada.lovelace_2-b"
    for not_a_name in [
        "ADA-",  # separators only between letters and digits
        "ada.",
        "-ADA-",
        "a--da",
        "",
        "///",
        "../../etc",
        "\x1b[2J",
        "ada\u200b",  # zero-width space
        "a\u0301da",  # a combining accent
        "\u0430da",  # a Cyrillic a
        "\u0391DA",  # a Greek capital alpha
        "ada lovelace",
        "x" * 33,
    ]:
        with pytest.raises(ValueError, match="a guest name is"):
            guest_name(not_a_name)
    for bad in ("../x", "guest-a/b", "root", "guest-", "guest-..", "key-xyz"):
        with pytest.raises(ValueError):
            visitor_dirs(tmp_path, bad)


def test_the_host_key_is_made_once_and_kept_private(tmp_path: Path) -> None:
    first = load_host_key(tmp_path)
    assert load_host_key(tmp_path).public_data == first.public_data
    assert (tmp_path / "ssh_host_ed25519_key").stat().st_mode & 0o077 == 0


async def test_a_visitor_reaches_the_home_screen_and_resizes_reach_the_app(
    tmp_path: Path,
) -> None:
    acceptor, _ = await start_host(HostConfig(tmp_path), "127.0.0.1", 0)
    port = acceptor.sockets[0].getsockname()[1]
    try:
        async with connect(port, "ada") as conn:
            process = await conn.create_process(
                term_type="xterm-256color", term_size=(80, 24), encoding=None
            )
            assert "Choose a game" in await read_until(process, "Choose a game")
            process.change_terminal_size(60, 20)
            assert "too small" in await read_until(process, "too small")
            process.stdin.write(b"\x11")  # Ctrl+Q
            await asyncio.wait_for(process.wait_closed(), 20)
            assert process.exit_status == 0
    finally:
        acceptor.close()


@pytest.mark.parametrize("host_ignores_hangup", [False, True])
async def test_an_idle_visitor_is_told_and_the_session_ends(
    tmp_path: Path, host_ignores_hangup: bool
) -> None:
    # a host started under nohup ignores SIGHUP, and an ignored signal stays
    # ignored in its children unless they put it back
    previous = signal.signal(
        signal.SIGHUP, signal.SIG_IGN if host_ignores_hangup else signal.SIG_DFL
    )
    try:
        await idle_visitor_is_told_and_the_session_ends(tmp_path)
    finally:
        signal.signal(signal.SIGHUP, previous)


async def idle_visitor_is_told_and_the_session_ends(tmp_path: Path) -> None:
    # an idle limit of nothing: the timer that every keystroke restarts runs out
    # at once, with no waiting on the clock
    limits = HostLimits(per_address=1, idle_seconds=0)
    config = HostConfig(tmp_path, command=STAND_IN, limits=limits)
    acceptor, _ = await start_host(config, "127.0.0.1", 0)
    port = acceptor.sockets[0].getsockname()[1]
    try:
        async with connect(port, "ada") as conn:
            process = await conn.create_process(term_type="xterm", encoding=None)
            shown = await read_until(process, "Goodbye")
            assert "Idle for too long: your games are saved." in shown
            await asyncio.wait_for(process.wait_closed(), 20)
            # the session no longer counts against the address: another gets in
            again = await conn.create_process(term_type="xterm", encoding=None)
            assert "Idle for too long" in await read_until(again, "Goodbye")
    finally:
        acceptor.close()
        await acceptor.wait_closed()


def test_a_bad_server_address_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tui.cli import main

    for address in ("nowhere", "host:0", ":7420", "host:port"):
        code = main(["ssh-host", "--guests", "--server", address, "--data-dir", str(tmp_path)])
        err = capsys.readouterr().err
        assert code == 2 and "--server must be HOST:PORT" in err and err.count("\n") == 1


# A visitor's program that plays at the host's table server, as the app's Join
# does: told "create" or "join TABLE" on its terminal, it plays random legal
# moves to the end and prints the result.
VISITOR = (
    sys.executable,
    "-c",
    """
import asyncio, os, random, sys
from net.remote import RemoteClient

async def main():
    host, port = os.environ["CARDTABLE_SERVER"].rsplit(":", 1)
    name = os.path.basename(os.path.dirname(sys.argv[-1]))
    client = await RemoteClient.connect(host, int(port), name)
    print("connected", flush=True)
    order = sys.stdin.readline().split()
    if order[0] == "create":
        table = await client.create("domination", ["open", "open"], options={"target_score": 20})
        await client.join(table.table)
        print("TABLE", table.table, flush=True)
    else:
        await client.join(order[1])
    print("seated", flush=True)
    seat, rng = client.my_seats[0], random.Random(name)
    while True:
        update = await client.wait_for(lambda u: u.over or bool(u.legal))
        if update.over:
            break
        await client.play(seat, rng.choice(update.legal), update.state_id)
        print("played", update.state_id, flush=True)
    print("OVER", name, "seat", seat, "winner", update.result.winner, flush=True)
    await client.close()

asyncio.run(main())
""",
)


async def test_two_visitors_play_one_table_at_the_hosts_table_server(tmp_path: Path) -> None:
    from net.server import TableServer
    from saves.store import SaveStore

    tables = TableServer(SaveStore(tmp_path / "tables"))
    host, port = await tables.start("127.0.0.1", 0)
    config = HostConfig(tmp_path, command=VISITOR, game_server=f"{host}:{port}")
    acceptor, _ = await start_host(config, "127.0.0.1", 0)
    ssh_port = acceptor.sockets[0].getsockname()[1]
    try:
        async with connect(ssh_port, "ada") as ada_conn, connect(ssh_port, "bea") as bea_conn:
            ada = await ada_conn.create_process(term_type="xterm", encoding=None)
            bea = await bea_conn.create_process(term_type="xterm", encoding=None)
            ada.stdin.write(b"create\r")
            shown = await read_until(ada, "TABLE")
            table_id = re.search(r"TABLE (\w+)", shown)
            assert table_id is not None
            bea.stdin.write(f"join {table_id[1]}\r".encode())
            ada_end = await read_until(ada, "winner")
            try:
                bea_end = await read_until(bea, "winner")
            except AssertionError as err:
                raise AssertionError(f"{err}\nADA:{ada_end}") from None
        assert "OVER guest-ada seat 0" in ada_end and "OVER guest-bea seat 1" in bea_end, (
            ada_end,
            bea_end,
        )
        winner = re.search(r"winner (\d)", ada_end)
        assert winner is not None and f"winner {winner[1]}" in bea_end  # one game, one result
        await tables.tables[table_id[1]].table.idle()  # the last move's save is behind it
        saved = SaveStore(tmp_path / "tables").load(table_id[1])
        assert saved.status == "finished" and [s.name for s in saved.seats] == [
            "guest-ada",
            "guest-bea",
        ]
    finally:
        acceptor.close()
        await acceptor.wait_closed()
        await tables.close()


@pytest.mark.slow  # the real app in a pty, a game started and played: CI's slow step
async def test_a_visitor_who_drops_finds_the_game_saved_to_resume(tmp_path: Path) -> None:
    from saves.store import SaveStore

    acceptor, host = await start_host(HostConfig(tmp_path), "127.0.0.1", 0)
    port = acceptor.sockets[0].getsockname()[1]
    store = SaveStore(tmp_path / "visitors" / "guest-ada" / "data")

    def our_moves() -> int:
        records = [e.record for e in store.list() if e.record is not None]
        return sum(1 for r in records for seat, _ in r.moves if seat == 0)

    try:
        conn = await connect(port, "ada")
        process = await conn.create_process(
            term_type="xterm-256color", term_size=(80, 24), encoding=None
        )
        await read_until(process, "Choose a game")
        process.stdin.write(b"\r")  # Domination
        await read_until(process, "Start")
        process.stdin.write(b"\x13")  # Ctrl+S: start, against the computer
        await read_until(process, "Your turn")  # the computer may lead first
        for key in b"12345":  # the first card that may be played
            process.stdin.write(bytes([key]))
            if "You play" in await read_until(process, "play"):
                break
        # the move is saved as it is made; wait for the file (another process)
        for _ in range(400):
            if our_moves():
                break
            await asyncio.sleep(0.025)
        visitors = list(host.processes)
        conn.abort()  # the connection drops: no goodbye, no quit
        # the visitor's cardtable is hung up on, as a closed terminal is, and ends
        for visitor in visitors:
            await asyncio.wait_for(visitor.wait(), 20)
    finally:
        acceptor.close()
    games = store.list()
    assert len(games) == 1
    record = games[0].record
    assert record is not None and record.status == "playing"  # nothing damaged, to resume
    assert our_moves() >= 1  # our card is in it
