"""``cardtable web``: serve cardtable to browsers, each tab a guest.

The page (net/web_static/) is a terminal, xterm.js, served from here (no
other site is asked for anything), and a websocket to ``/ws``, opened first
thing (connect.js), so the visitor's program starts while the page loads. Behind the
websocket each visitor gets what an SSH visitor gets (net/visitors.py): a
cardtable process of their own on a pseudo-terminal, with their own data
folder, the environment built from scratch with the visitor's grants (no
Host, Join only to the table server offered here), nice, CPU and memory
ceilings, and the same caps on visitors in all and per address.

Who a visitor is: a random token in a cookie (``cardtable_visitor``), made
on their first visit; the folder is ``visitors/web-<digest of the token>``,
so a new tab, a reload or a return next week finds the same saves, and the
folder's name gives nobody the token. One visitor has one program at a
time: a second tab takes it over (the first is told), and a tab that drops
leaves the program running for ``reattach_seconds``, so a reload or a
reconnect comes back to the very screen it left.

The websocket carries terminal bytes as binary frames to the browser, and
JSON text frames from it: ``["stdin", text]`` and ``["resize", cols, rows]``.
A session that ends is closed with a code from 4000 up and a sentence the
page shows (:data:`CLOSE_REASONS`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import re
import secrets
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from net.grants import Grants
from net.visitors import (
    HostLimits,
    hang_up,
    set_pty_size,
    start_visitor_process,
    visitor_dirs,
    visitor_environment,
)
from net.web_spare import SpareKeeper

log = logging.getLogger(__name__)

COOKIE = "cardtable_visitor"
GUEST = "guest"  # a browser visitor's login name
_TOKEN = re.compile(r"[0-9a-f]{32}")
STATIC = Path(__file__).with_name("web_static")
# the files the page loads, by the name it asks for: nothing else is served
# (no folder listing, no path a request can steer)
STATIC_FILES = {
    "connect.js": ("connect.js", "text/javascript"),
    "app.js": ("app.js", "text/javascript"),
    "app.css": ("app.css", "text/css"),
    "xterm.js": ("vendor/xterm.js", "text/javascript"),
    "xterm.css": ("vendor/xterm.css", "text/css"),
    "addon-fit.js": ("vendor/addon-fit.js", "text/javascript"),
}
# every page says where its parts may come from: here, and nowhere else
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

# why a session closed, as the close code's sentence the page shows
FULL, FROM_ADDRESS, ENDED, ELSEWHERE, IDLE, NO_COOKIE, NOT_STARTED, STOPPED = range(4000, 4008)
CLOSE_REASONS = {
    FULL: "cardtable is full right now: try again later.",
    FROM_ADDRESS: "Too many sessions from your address: close one first.",
    ENDED: "Your cardtable has closed; your games are saved.",
    ELSEWHERE: "cardtable is open in another tab of this browser: this one has let it go.",
    IDLE: "Idle for too long: your games are saved.",
    NO_COOKIE: "This page needs its cookie to keep your games: allow cookies here and reload.",
    NOT_STARTED: "cardtable could not start here: try again later.",
    STOPPED: "The host has stopped cardtable; your games are saved.",
}
MAX_COLUMNS, MAX_ROWS = 500, 200  # a terminal larger than any screen is a mistake
TERM = "xterm-256color"  # what xterm.js is
VISITOR_COMMAND = (sys.executable, "-m", "tui.cli")
SPARE_COMMAND = (sys.executable, "-m", "tui.spare_cli")  # the same, started ahead (web_spare.py)


@dataclass
class WebConfig:
    data_dir: Path
    limits: HostLimits = field(default_factory=HostLimits)
    # the program each visitor runs; its data folder is appended
    command: tuple[str, ...] = VISITOR_COMMAND
    # that program started ahead of its visitor, loaded and waiting
    # (net/web_spare.py); None: each starts when its visitor comes
    spare_command: tuple[str, ...] | None = SPARE_COMMAND
    game_server: str | None = None  # the table server offered (host:port)
    allow_join: tuple[str, ...] = ()  # more table servers visitors may join
    # behind a reverse proxy every visitor comes from the proxy: the visitor's
    # address is the last one the proxy added to X-Forwarded-For
    behind_proxy: bool = False
    reattach_seconds: float = 60.0  # a dropped tab's program waits this long for it

    def __post_init__(self) -> None:
        if self.command != VISITOR_COMMAND and self.spare_command == SPARE_COMMAND:
            self.spare_command = None  # cardtable's spare is no spare of another program

    def grants(self) -> Grants:
        offered = [self.game_server] if self.game_server else []
        return Grants.for_visitor([*offered, *self.allow_join])


def identity_of(token: str) -> str:
    """A visitor's folder name: a digest of their token, which it does not reveal."""
    return "web-" + hashlib.sha256(b"cardtable web visitor " + token.encode()).hexdigest()[:24]


class VisitorProgram:
    """One visitor's cardtable on its pty, and the tab (websocket) showing it,
    if any: it outlives a dropped tab for a while, and a new tab takes it over."""

    def __init__(self, host: WebHost, identity: str, address: str) -> None:
        self.host = host
        self.identity = identity
        self.address = address
        self.master: int | None = None
        self.process: asyncio.subprocess.Process | None = None
        self.socket: web.WebSocketResponse | None = None
        self.size = (80, 24)
        self._orphaned: asyncio.TimerHandle | None = None
        self._idle: asyncio.TimerHandle | None = None
        self.ended = asyncio.Event()
        self.close_code = ENDED  # what the tab is told when the program ends
        self._starting = asyncio.Lock()  # two tabs at once start one program

    async def start(self, width: int, height: int) -> None:
        """Start the program, unless a tab that came a moment earlier has."""
        async with self._starting:
            if self.process is None:
                await self._start(width, height)

    async def _start(self, width: int, height: int) -> None:
        config = self.host.config
        data, settings = visitor_dirs(config.data_dir, self.identity)
        env = self.host.environment(data.parent, settings)
        self.size = (width, height)
        spare = self.host.spares.take() if self.host.spares is not None else None
        if spare is not None:  # loaded already: told who it is, as the cold start would be
            try:
                self.process, master = spare.hand_over(
                    env, data.parent, ["--data-dir", str(data)], self.size
                )
            except OSError:  # it died as it was taken: a cold start instead
                spare.discard()
                spare = None
        if spare is None:
            master, tty = os.openpty()
            set_pty_size(master, width, height)
            try:
                self.process = await start_visitor_process(
                    config.command, data, env, config.limits, tty
                )
            except BaseException:
                os.close(master)
                raise
            finally:
                os.close(tty)
        self.master = master
        os.set_blocking(master, False)
        self.touch()
        asyncio.get_running_loop().create_task(self._pump())

    # ------------------------------------------------------------ the tab
    async def attach(
        self, socket: web.WebSocketResponse, width: int, height: int, repaint: bool = True
    ) -> None:
        """``socket`` shows this program from now on; a tab that showed it is
        let go. ``repaint``: the program has drawn already, for another tab."""
        if self._orphaned is not None:
            self._orphaned.cancel()
            self._orphaned = None
        previous, self.socket = self.socket, socket
        if previous is not None and not previous.closed:
            await _close(previous, ELSEWHERE)
        if self.master is not None:
            if repaint and (width, height) == self.size:
                # the same size tells the program nothing: one row less and
                # back, so it paints the whole screen for the new tab
                set_pty_size(self.master, width, max(height - 1, 1))
                await asyncio.sleep(0.05)
            self.resize(width, height)

    def detach(self, socket: web.WebSocketResponse) -> None:
        """The tab went: the program waits for one to come back, for a while."""
        if self.socket is not socket:
            return  # already taken over by another tab
        self.socket = None
        if not self.ended.is_set():
            loop = asyncio.get_running_loop()
            self._orphaned = loop.call_later(self.host.config.reattach_seconds, self.stop)

    def type(self, text: str) -> None:
        if self.master is None:
            return
        self.touch()
        with contextlib.suppress(OSError):  # a full input queue drops what a flood sends
            os.write(self.master, text.encode("utf-8", "replace"))

    def resize(self, width: int, height: int) -> None:
        width, height = min(max(width, 1), MAX_COLUMNS), min(max(height, 1), MAX_ROWS)
        self.size = (width, height)
        if self.master is not None:
            set_pty_size(self.master, width, height)

    def touch(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
        loop = asyncio.get_running_loop()
        self._idle = loop.call_later(self.host.config.limits.idle_seconds, self._idle_out)

    def _idle_out(self) -> None:
        self.stop(IDLE)

    def stop(self, code: int = ENDED) -> None:
        """End the program as a closed terminal does; its tab is told why."""
        self.close_code = code
        hang_up(self.process)

    # ------------------------------------------------------------ output
    async def _pump(self) -> None:
        """The program's output to whichever tab shows it, until it ends;
        read on while no tab shows it, so the program never waits for one."""
        assert self.master is not None and self.process is not None
        master = self.master
        while True:
            data = await _read(master)
            if not data:
                break
            socket = self.socket
            if socket is not None and not socket.closed:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await socket.send_bytes(data)
        await self.process.wait()
        self.master = None
        os.close(master)
        for timer in (self._idle, self._orphaned):
            if timer is not None:
                timer.cancel()
        self.ended.set()
        self.host.forget(self)
        if self.socket is not None and not self.socket.closed:
            await _close(self.socket, self.close_code)


async def _read(fd: int) -> bytes:
    """What the program wrote next; b"" once it has closed its terminal."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()

    def readable() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(fd, readable)
    try:
        await ready
    finally:
        loop.remove_reader(fd)
    try:
        return os.read(fd, 65536)
    except BlockingIOError:
        return await _read(fd)
    except OSError:  # EIO: nobody holds the terminal any more
        return b""


async def _close(socket: web.WebSocketResponse, code: int) -> None:
    with contextlib.suppress(ConnectionError, RuntimeError):
        await socket.close(code=code, message=CLOSE_REASONS[code].encode())


class WebHost:
    """The visitors of one ``cardtable web``: their programs by identity,
    counted for the limits, and the page's routes."""

    def __init__(self, config: WebConfig) -> None:
        self.config = config
        self.programs: dict[str, VisitorProgram] = {}
        self.by_address: Counter[str] = Counter()
        # a visitor's program started ahead of them (None: each starts cold)
        self.spares: SpareKeeper | None = None
        if config.spare_command is not None:
            self.spares = SpareKeeper(
                config.spare_command, config.data_dir / "spare", self.environment, config.limits
            )
        self.page = (STATIC / "index.html").read_bytes()
        self.files = {
            name: ((STATIC / path).read_bytes(), kind)
            for name, (path, kind) in STATIC_FILES.items()
        }

    def application(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.handle_page)
        app.router.add_get("/ws", self.handle_socket)
        app.router.add_get("/static/{name}", self.handle_static)
        app.on_shutdown.append(self._shutdown)
        return app

    # ------------------------------------------------------------ programs
    def environment(self, root: Path, settings: Path) -> dict[str, str]:
        """A visitor's whole environment (net/visitors.py), in ``root``."""
        grants = self.config.grants().environ(self.config.game_server)
        # a browser says no name: the Join form offers "guest" (not the
        # host's account name) until the visitor types one, kept in their settings
        env = visitor_environment(root, settings, TERM, GUEST, grants)
        env["COLORTERM"] = "truecolor"  # xterm.js shows 24-bit colour
        return env

    # ------------------------------------------------------------ limits
    def admit(self, identity: str, address: str) -> VisitorProgram | int:
        """The program for a new tab: the visitor's own if it runs, else a
        new one, counted; or the close code that says why not."""
        running = self.programs.get(identity)
        if running is not None and not running.ended.is_set():
            return running
        limits = self.config.limits
        if len(self.programs) >= limits.sessions:
            return FULL
        if self.by_address[address] >= limits.per_address:
            return FROM_ADDRESS
        program = VisitorProgram(self, identity, address)
        self.programs[identity] = program
        self.by_address[address] += 1
        return program

    def forget(self, program: VisitorProgram) -> None:
        if self.programs.get(program.identity) is program:
            del self.programs[program.identity]
            self.by_address[program.address] -= 1
            if self.by_address[program.address] <= 0:
                del self.by_address[program.address]

    def address(self, request: web.Request) -> str:
        if self.config.behind_proxy:
            forwarded = request.headers.get("X-Forwarded-For", "")
            last = forwarded.rsplit(",", 1)[-1].strip()
            if last:
                return last
        return request.remote or "?"

    # ------------------------------------------------------------ routes
    async def handle_page(self, request: web.Request) -> web.Response:
        response = web.Response(
            body=self.page, content_type="text/html", charset="utf-8", headers=HEADERS
        )
        response.headers["Cache-Control"] = "no-store"
        token = request.cookies.get(COOKIE, "")
        if not _TOKEN.fullmatch(token):
            token = secrets.token_hex(16)
        # sent again each time, so a visitor who comes back keeps it a year more
        proxied_tls = request.headers.get("X-Forwarded-Proto") == "https"
        secure = request.secure or (self.config.behind_proxy and proxied_tls)
        response.set_cookie(
            COOKIE, token, max_age=365 * 24 * 3600, httponly=True, samesite="Strict", secure=secure
        )
        return response

    async def handle_static(self, request: web.Request) -> web.Response:
        found = self.files.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound()
        body, kind = found
        headers = {**HEADERS, "Cache-Control": "max-age=3600"}
        return web.Response(body=body, content_type=kind, headers=headers)

    def _same_origin(self, request: web.Request) -> bool:
        """A page of another site may not open a visitor's session with their
        cookie: the websocket must come from this page."""
        origin = request.headers.get("Origin")
        if origin is None:
            return True  # not a browser: it holds no visitor's cookie but its own
        host = request.headers.get("X-Forwarded-Host") if self.config.behind_proxy else None
        return urlsplit(origin).netloc == (host or request.host)

    async def handle_socket(self, request: web.Request) -> web.WebSocketResponse:
        if not self._same_origin(request):
            raise web.HTTPForbidden(text="this session belongs to the cardtable page")
        socket = web.WebSocketResponse(heartbeat=30, max_msg_size=64 * 1024)
        await socket.prepare(request)
        token = request.cookies.get(COOKIE, "")
        if not _TOKEN.fullmatch(token):
            await _close(socket, NO_COOKIE)
            return socket
        width = _number(request.query.get("cols"), 80, MAX_COLUMNS)
        height = _number(request.query.get("rows"), 24, MAX_ROWS)
        program = self.admit(identity_of(token), self.address(request))
        if isinstance(program, int):
            await _close(socket, program)
            return socket
        fresh = program.process is None
        if fresh:
            try:
                await program.start(width, height)
            except (OSError, ValueError) as err:
                log.error("cannot start a web visitor's cardtable: %s", err)
                self.forget(program)
                await _close(socket, NOT_STARTED)
                return socket
        # (a program just started has drawn nothing yet: no repaint to ask for)
        await program.attach(socket, width, height, repaint=not fresh)
        try:
            async for message in socket:
                if message.type == WSMsgType.TEXT:
                    _obey(program, message.data)
        finally:
            program.detach(socket)
        return socket

    async def _shutdown(self, app: web.Application) -> None:
        if self.spares is not None:
            self.spares.stop()
        programs = list(self.programs.values())
        for program in programs:
            program.stop(STOPPED)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(p.ended.wait() for p in programs)), timeout=10)
        for program in programs:  # a program that ignored the hangup
            if program.process is not None and program.process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    program.process.kill()


def _number(text: str | None, default: int, most: int) -> int:
    if text is None or not text.isdigit():
        return default
    return min(max(int(text), 1), most)


def _obey(program: VisitorProgram, text: str) -> None:
    """One message from the page; anything else is ignored (the page is ours,
    a message that is not its own comes from somebody poking at it)."""
    try:
        message = json.loads(text)
    except ValueError:
        return
    if not isinstance(message, list) or not message:
        return
    if message[0] == "stdin" and len(message) == 2 and isinstance(message[1], str):
        program.type(message[1])
    elif (
        message[0] == "resize"
        and len(message) == 3
        and all(isinstance(n, int) and not isinstance(n, bool) for n in message[1:])
    ):
        program.resize(message[1], message[2])


async def start_web_host(
    config: WebConfig, host: str = "127.0.0.1", port: int = 8080
) -> tuple[web.AppRunner, WebHost]:
    """Serve the page; returns the runner (``await runner.cleanup()`` stops
    it, hanging up on every visitor) and the host. OSError if it cannot
    listen there."""
    state = WebHost(config)
    runner = web.AppRunner(
        state.application(), access_log=None, handle_signals=False, shutdown_timeout=1.0
    )
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except BaseException:
        await runner.cleanup()
        raise
    if state.spares is not None:
        state.spares.prepare()  # the first visitor's program, loaded before they come
    return runner, state


def listening_port(runner: web.AppRunner) -> int:
    """The port it listens on (for ``--port 0``)."""
    return int(runner.addresses[0][1])
