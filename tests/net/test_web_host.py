"""`cardtable web` at the wire: the page, the cookie that finds a visitor's
folder again, the websocket, and the confinement, which must be an SSH
guest's exactly (net/visitors.py serves both doors).

The visitor's program is a stand-in here that prints what it was given; the
real program in a real browser is tests/tui/test_web_browser.py's."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import asyncssh
import pytest

from net.ssh_host import HostConfig, start_host
from net.visitors import HostLimits
from net.web_host import (
    CLOSE_REASONS,
    COOKIE,
    ELSEWHERE,
    FROM_ADDRESS,
    FULL,
    NO_COOKIE,
    WebConfig,
    listening_port,
    start_web_host,
)

# says, as one JSON line, all it was given; then each line typed, until the end
STAND_IN = (
    sys.executable,
    "-c",
    "import json, os, resource, shutil, sys; "
    "print('GIVEN' + json.dumps({'args': sys.argv[1:], 'env': dict(os.environ), "
    "'as': resource.getrlimit(resource.RLIMIT_AS)[0], "
    "'cpu': resource.getrlimit(resource.RLIMIT_CPU)[0], 'nice': os.nice(0), "
    "'tty': os.isatty(0), 'pid': os.getpid(), 'cwd': os.getcwd(), "
    "'size': tuple(shutil.get_terminal_size())}), flush=True); "
    "[print('TYPED', line.strip(), flush=True) for line in sys.stdin]",
)
# the same, as a spare (net/web_spare.py): loaded ahead, then told who it is
STAND_IN_SPARE = (
    sys.executable,
    "-c",
    "from tui.spare_cli import await_visitor; await_visitor(); " + STAND_IN[2],
)
GIVEN = re.compile(r"GIVEN(\{.*?\})\r?\n", re.S)
SECONDS = 20  # the most a test waits for an answer


class Tab:
    """One browser tab, as the page speaks to the server."""

    def __init__(self, session: aiohttp.ClientSession, base: str) -> None:
        self.session = session
        self.base = base
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.seen = ""

    async def open(self, cols: int = 80, rows: int = 24, **headers: str) -> None:
        url = self.base.replace("http", "ws") + f"ws?cols={cols}&rows={rows}"
        self.socket = await self.session.ws_connect(url, headers=headers)

    async def until(self, pattern: str) -> re.Match[str]:
        assert self.socket is not None
        while (found := re.search(pattern, self.seen, re.S)) is None:
            message = await asyncio.wait_for(self.socket.receive(), SECONDS)
            if message.type != aiohttp.WSMsgType.BINARY:
                raise AssertionError(f"{pattern!r} never came ({message}); seen: {self.seen!r}")
            self.seen += message.data.decode("utf-8", "replace")
        return found

    async def given(self) -> dict[str, Any]:
        return dict(json.loads((await self.until(GIVEN.pattern))[1]))

    async def closed(self) -> tuple[int | None, str]:
        """The code and sentence the server closed with."""
        assert self.socket is not None
        while True:
            message = await asyncio.wait_for(self.socket.receive(), SECONDS)
            if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                return self.socket.close_code, str(message.extra or "")

    async def type(self, text: str) -> None:
        assert self.socket is not None
        await self.socket.send_str(json.dumps(["stdin", text]))


@pytest.fixture
async def web(tmp_path: Path) -> AsyncIterator[tuple[str, Path]]:
    config = WebConfig(tmp_path, command=STAND_IN, game_server="127.0.0.1:7420")
    async with serving(config) as base:
        yield base, tmp_path


class serving:
    def __init__(self, config: WebConfig) -> None:
        self.config = config

    async def __aenter__(self) -> str:
        self.runner, self.host = await start_web_host(self.config, "127.0.0.1", 0)
        return f"http://127.0.0.1:{listening_port(self.runner)}/"

    async def __aexit__(self, *exc: object) -> None:
        await self.runner.cleanup()


async def visitor(base: str) -> aiohttp.ClientSession:
    """A browser: loads the page (which gives it its cookie)."""
    session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    async with session.get(base) as page:
        assert page.status == 200
    return session


async def test_the_page_gives_a_cookie_and_serves_only_its_own_files(
    web: tuple[str, Path],
) -> None:
    base, _ = web
    async with aiohttp.ClientSession() as session:
        async with session.get(base) as page:
            text = await page.text()
            assert "<h1>cardtable</h1>" in text and "static/xterm.js" in text
            assert re.fullmatch(r"[0-9a-f]{32}", page.cookies[COOKIE].value)
            assert page.cookies[COOKIE]["httponly"] and page.cookies[COOKIE]["samesite"]
            assert "default-src 'self'" in page.headers["Content-Security-Policy"]
        async with session.get(base + "static/xterm.js") as script:
            assert script.status == 200 and "Terminal" in await script.text()
        # the first script opens the websocket, so the visitor's program starts
        # while xterm.js (0.5 MB) loads: before every other script and style sheet
        scripts = re.findall(r'<(?:script src|link rel="stylesheet" href)="([^"]+)"', text)
        assert scripts[0] == "static/connect.js"
        async with session.get(base + "static/connect.js") as script:
            assert script.status == 200 and "new WebSocket" in await script.text()
        for stray in ("static/../web_host.py", "static/vendor", "static/index.html"):
            async with session.get(base + stray) as nothing:
                assert nothing.status == 404, stray


async def test_a_tab_without_the_cookie_is_told_what_to_do(web: tuple[str, Path]) -> None:
    base, _ = web
    async with aiohttp.ClientSession() as session:
        tab = Tab(session, base)
        await tab.open()
        assert await tab.closed() == (NO_COOKIE, CLOSE_REASONS[NO_COOKIE])


async def test_a_page_of_another_site_cannot_open_a_visitors_session(
    web: tuple[str, Path],
) -> None:
    base, _ = web
    session = await visitor(base)
    async with session:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await Tab(session, base).open(Origin="http://evil.example")
        assert refused.value.status == 403


async def test_a_browser_visitor_is_confined_exactly_as_an_ssh_guest(tmp_path: Path) -> None:
    """One stand-in program through both doors: the same grants, folders,
    ceilings, priority and environment, but for who the visitor is."""
    limits = HostLimits(memory_bytes=300 * 2**20, cpu_seconds=1234, nice=7)
    offered, also = "127.0.0.1:7420", ("tables.example:7000",)
    ssh_config = HostConfig(
        tmp_path, limits=limits, command=STAND_IN, game_server=offered, allow_join=also
    )
    listener, _ = await start_host(ssh_config, "127.0.0.1", 0)
    try:
        port = listener.sockets[0].getsockname()[1]
        async with asyncssh.connect(
            "127.0.0.1", port, username="ada", known_hosts=None, client_keys=None, password=""
        ) as conn:
            process = await conn.create_process(
                term_type="xterm-256color", term_size=(80, 24), encoding=None
            )
            seen = ""
            while (found := GIVEN.search(seen)) is None:
                seen += (await asyncio.wait_for(process.stdout.read(65536), SECONDS)).decode()
            by_ssh = json.loads(found[1])
            process.close()
    finally:
        listener.close()
    config = WebConfig(
        tmp_path, limits=limits, command=STAND_IN, game_server=offered, allow_join=also
    )
    async with serving(config) as base, await visitor(base) as session:
        tab = Tab(session, base)
        await tab.open()
        by_web = await tab.given()

    web_root = Path(by_web["cwd"])
    by_web_user = by_web["env"]["USER"]
    assert re.fullmatch(r"web-[0-9a-f]{24}", web_root.name)
    assert web_root.parent == tmp_path / "visitors" and (web_root / "data").is_dir()
    assert by_web["args"] == ["--data-dir", str(web_root / "data")]
    for given in (by_ssh, by_web):  # what differs is who the visitor is, and that alone
        root = given["cwd"]
        given["args"] = [a.replace(root, "ROOT") for a in given["args"]]
        given["env"] = {k: v.replace(root, "ROOT") for k, v in given["env"].items()}
        assert given["env"].pop("USER") == given["env"].pop("LOGNAME")
        for key in ("cwd", "pid", "size"):
            given.pop(key)
    by_web["env"].pop("COLORTERM")  # xterm.js shows 24-bit colour; an SSH client may not
    assert by_web == by_ssh
    assert by_web_user == "guest"  # not the host's account
    env = by_web["env"]
    assert env["CARDTABLE_VISITOR"] == "1" and env["CARDTABLE_SERVER"] == offered
    assert env["CARDTABLE_ALLOW_JOIN"] == "127.0.0.1:7420,tables.example:7000"
    assert (by_web["as"], by_web["cpu"], by_web["nice"], by_web["tty"]) == (
        300 * 2**20,
        1234,
        min(19, os.nice(0) + 7),  # (added to the host's own nice)
        True,
    )


async def test_a_spare_program_is_confined_exactly_as_one_started_for_its_visitor(
    tmp_path: Path,
) -> None:
    """A program loaded ahead (web_spare.py) is, once a visitor takes it, the
    program a cold start gives them: the same environment (nothing of the
    spare's own), folder, arguments, ceilings, priority and terminal."""
    limits = HostLimits(memory_bytes=300 * 2**20, cpu_seconds=1234, nice=7)
    given: dict[str, dict[str, Any]] = {}
    for how, spare in (("cold", None), ("spare", STAND_IN_SPARE)):
        config = WebConfig(
            tmp_path / how, limits=limits, command=STAND_IN, game_server="127.0.0.1:7420"
        )
        config.spare_command = spare
        door = serving(config)
        async with door as base, await visitor(base) as session:
            keeper = door.host.spares
            waiting = None
            if spare is not None:
                assert keeper is not None
                await asyncio.wait_for(keeper.ready.wait(), SECONDS)
                assert keeper.spare is not None
                waiting = keeper.spare.process.pid
            tab = Tab(session, base)
            await tab.open(cols=90, rows=30)
            given[how] = await tab.given()
            if waiting is not None:
                assert given[how]["pid"] == waiting  # the spare it was, not a cold start
        root = given[how].pop("cwd")
        assert root.startswith(str(tmp_path / how / "visitors" / "web-"))
        given[how]["args"] = [a.replace(root, "ROOT") for a in given[how]["args"]]
        given[how]["env"] = {k: v.replace(root, "ROOT") for k, v in given[how]["env"].items()}
        given[how].pop("pid")
    assert given["spare"] == given["cold"]
    assert given["spare"]["size"] == [90, 30]
    assert not any("spare" in v for v in given["spare"]["env"].values())


async def test_visitors_are_capped_in_all_and_per_address(tmp_path: Path) -> None:
    for limits, refusal in (
        (HostLimits(sessions=1), FULL),
        (HostLimits(per_address=1), FROM_ADDRESS),
    ):
        config = WebConfig(tmp_path, limits=limits, command=STAND_IN)
        async with serving(config) as base:
            first, second = await visitor(base), await visitor(base)  # two browsers
            async with first, second:
                tab = Tab(first, base)
                await tab.open()
                await tab.given()
                refused = Tab(second, base)
                await refused.open()
                assert await refused.closed() == (refusal, CLOSE_REASONS[refusal])


async def test_a_new_tab_takes_the_visitors_program_over_and_a_dropped_one_comes_back(
    web: tuple[str, Path],
) -> None:
    base, _ = web
    async with await visitor(base) as session:
        first = Tab(session, base)
        await first.open()
        pid = (await first.given())["pid"]
        second = Tab(session, base)
        await second.open(cols=100, rows=30)
        assert await first.closed() == (ELSEWHERE, CLOSE_REASONS[ELSEWHERE])
        await second.type("still me\r")
        await second.until("TYPED still me")
        assert second.socket is not None
        await second.socket.close()  # the tab drops; the program waits for it
        third = Tab(session, base)
        await third.open()
        await third.type("back\r")
        await third.until("TYPED back")  # the same program: its first line was read above
    async with await visitor(base) as stranger:  # another browser: a program of its own
        other = Tab(stranger, base)
        await other.open()
        assert (await other.given())["pid"] != pid


def test_cardtable_web_says_what_is_wrong_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tui.cli import main

    data = ["--data-dir", str(tmp_path)]
    for argv, words in (
        (["web", *data], "add --guests"),
        (["web", "--guests", "--server", "nowhere", *data], "--server must be HOST:PORT"),
        (["web", "--guests", "--port", "70000", *data], "--port must be from 1 to 65535"),
        (["web", "--guests", "--visitor-memory", "8", *data], "--visitor-memory is at least"),
    ):
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 2 and words in err and err.count("\n") == 1, (argv, err)
