"""Browser visitors: which engine, by measurement (not a pytest test).

    uv run python tests/perf/bench_web.py --visitors 5                 # first frames, memory
    uv run python tests/perf/bench_web.py --visitors 50 --load 60      # + keys under load
    uv run --with textual-serve python tests/perf/bench_web.py ...     # + textual-serve's row
    uv run python tests/perf/bench_web.py --browser                    # + Chromium's page load

Engines, side by side in one run (the machine is shared and noisy):

- ``cardtable web``: net/web_host.py, a process per visitor on a pty, the
  next one started ahead (a spare, net/web_spare.py); and ``cardtable web
  (no spare)``, each program started when its visitor comes;
- ``textual-serve`` (if importable): its stock ``Server`` running the same
  program, a process per tab on pipes with Textual's WebDriver;
- ``ssh-host``: the reference, today's cost of a visitor.

Each engine runs in a process of its own; this script is the browsers. For
each engine: visitors arrive one after another, and the time from opening
the websocket (the SSH session) to the home screen's text is taken for the
first ``--timed`` (the rest arrive ten at a time, untimed); then the
memory of every visitor's program (private: Private_Clean + Private_Dirty of
smaps_rollup; and RSS) while all are there; then, with ``--load SECONDS``,
every visitor presses a key (down, up, ...) every ``--key-interval`` seconds
on average and the time from the key to the next bytes of the screen is
taken. With ``--browser`` Chromium loads the page of ``cardtable web`` and
the time from navigation to the home screen's text in its terminal is taken.
Prints median and spread, and what else the machine was doing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
import asyncssh

ROOT = Path(__file__).resolve().parents[2]
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.")
HOME = "Choose a game"
SPARE, COLD = "cardtable web", "cardtable web (no spare)"  # (net/web_spare.py)
KEYS = ("\x1b[B", "\x1b[A")  # down, up: the home screen's list moves
# textual-serve runs its program on pipes, which cardtable refuses ("needs a
# terminal"): for its row the app is started directly, past that check
PROGRAM = (
    f"{sys.executable} -c 'import sys; from pathlib import Path; from tui.app import "
    "CardTableApp; CardTableApp(Path(sys.argv[1])).run()'"
)

# prints "ready" when it listens, then "spare" each time a spare program
# (net/web_spare.py) is loaded and waiting; argv[4] "cold": no spares
OURS = """
import asyncio, sys
from pathlib import Path
from net.visitors import HostLimits
from net.web_host import WebConfig, start_web_host
async def main():
    n = int(sys.argv[2])
    limits = HostLimits(sessions=n, per_address=n)
    config = WebConfig(Path(sys.argv[1]), limits=limits, game_server="127.0.0.1:9")
    if sys.argv[4] == "cold":
        config.spare_command = None
    _, host = await start_web_host(config, "127.0.0.1", int(sys.argv[3]))
    print("ready", flush=True)
    while host.spares is not None:
        await host.spares.ready.wait()
        print("spare", flush=True)
        waiting = host.spares.spare
        while host.spares.spare is waiting:  # until a visitor takes it
            await asyncio.sleep(0.05)
    await asyncio.Event().wait()
asyncio.run(main())
"""
THEIRS = """
import sys
from textual_serve.server import Server
Server(sys.argv[1], host="127.0.0.1", port=int(sys.argv[2])).serve()
"""
SSH = """
import asyncio, sys
from pathlib import Path
from net.ssh_host import HostConfig, HostLimits, start_host
async def main():
    n = int(sys.argv[2])
    limits = HostLimits(sessions=n, per_address=n, connections_per_address=n + 1)
    await start_host(HostConfig(Path(sys.argv[1]), limits=limits), "127.0.0.1", int(sys.argv[3]))
    print("ready", flush=True)
    await asyncio.Event().wait()
asyncio.run(main())
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def memory_mb(pid: int) -> tuple[float, float]:
    """(private, RSS) in MB."""
    private = rss = 0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith(("Private_Clean:", "Private_Dirty:")):
            private += int(line.split()[1])
        elif line.startswith("Rss:"):
            rss = int(line.split()[1])
    return private / 1024, rss / 1024


def visitor_programs(server_pid: int) -> list[int]:
    """The visitors' cardtable processes (python running tui.cli, not a shell;
    or a spare that a visitor took: the one waiting is in the folder spare/)."""
    found = []
    for pid in descendants(server_pid):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            waiting = os.readlink(f"/proc/{pid}/cwd").endswith("/spare")
        except OSError:
            continue
        program = any(b"tui.cli" in part or b"tui.app" in part for part in cmd)
        program = program or (any(b"tui.spare_cli" in part for part in cmd) and not waiting)
        if program and not cmd[0].endswith(b"sh") and b"serve" not in cmd:
            found.append(pid)
    return found


def machine() -> str:
    """The load average and the busiest other processes, for the report."""
    load = Path("/proc/loadavg").read_text().split()[:3]
    ticks: list[tuple[int, str]] = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                name = stat[stat.index("(") + 1 : stat.rindex(")")]
                fields = stat.rsplit(")", 1)[1].split()
                ticks.append((int(fields[11]) + int(fields[12]), name))
            except (OSError, ValueError, IndexError):
                continue
    names: dict[str, int] = {}
    for total, name in ticks:
        names[name] = names.get(name, 0) + total
    busiest = sorted(names.items(), key=lambda item: -item[1])[:6]
    return f"load average {' '.join(load)}; most CPU so far: " + ", ".join(
        f"{name} ({total / os.sysconf('SC_CLK_TCK'):.0f} s)" for name, total in busiest
    )


class Visitor:
    """One browser tab on a websocket engine (ours or textual-serve's)."""

    def __init__(self, engine: str, base: str) -> None:
        self.engine = engine
        self.base = base
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.frame = asyncio.Event()
        self.latencies: list[float] = []

    async def arrive(self) -> float:
        start = time.perf_counter()
        if self.engine.startswith("cardtable web"):
            async with self.session.get(self.base) as page:  # the cookie
                await page.read()
        url = self.base.replace("http", "ws") + "ws?cols=100&rows=30"
        if self.engine == "textual-serve":
            url = self.base.replace("http", "ws") + "ws?width=100&height=30"
        self.socket = await self.session.ws_connect(url, max_msg_size=0)
        if self.engine == "textual-serve":
            await self.socket.send_str(json.dumps(["resize", {"width": 100, "height": 30}]))
        seen = ""
        while HOME not in seen:
            message = await asyncio.wait_for(self.socket.receive(), 120)
            if message.type != aiohttp.WSMsgType.BINARY:
                raise SystemExit(f"{self.engine}: no home screen ({message}); seen {seen!r}")
            seen += ESCAPE.sub("", message.data.decode("utf-8", "replace"))
        seconds = time.perf_counter() - start
        asyncio.get_running_loop().create_task(self._read())
        return seconds

    async def _read(self) -> None:
        assert self.socket is not None
        async for message in self.socket:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.frame.set()

    async def press_keys(self, until: float, interval: float) -> None:
        assert self.socket is not None
        turn = 0
        while time.perf_counter() < until:
            await asyncio.sleep(random.uniform(0.5, 1.5) * interval)
            await asyncio.sleep(0.05)  # let the last key's trailing frames pass
            self.frame.clear()
            start = time.perf_counter()
            await self.socket.send_str(json.dumps(["stdin", KEYS[turn % 2]]))
            turn += 1
            try:
                await asyncio.wait_for(self.frame.wait(), 10)
            except TimeoutError:
                self.latencies.append(10.0)
                continue
            self.latencies.append(time.perf_counter() - start)

    async def leave(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        await self.session.close()


class SSHVisitor:
    def __init__(self, port: int, name: str) -> None:
        self.port, self.name = port, name

    async def arrive(self) -> float:
        start = time.perf_counter()
        self.conn = await asyncssh.connect(
            "127.0.0.1", self.port, username=self.name, known_hosts=None, client_keys=None,
            password="",
        )  # fmt: skip
        process = await self.conn.create_process(
            term_type="xterm-256color", term_size=(100, 30), encoding=None
        )
        seen = ""
        while HOME not in seen:
            seen += ESCAPE.sub("", (await process.stdout.read(65536)).decode("utf-8", "replace"))
        return time.perf_counter() - start

    async def leave(self) -> None:
        self.conn.close()


async def listening(port: int) -> None:
    for _ in range(600):
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        writer.close()
        return
    raise SystemExit(f"nothing listens on {port}")


def spread(name: str, values: list[float], unit: str, scale: float = 1.0) -> str:
    values = [v * scale for v in values]
    cuts = statistics.quantiles(values, n=100) if len(values) >= 2 else values * 99
    return (
        f"  {name}: median {statistics.median(values):.2f} {unit}, min {min(values):.2f}, "
        f"max {max(values):.2f}, p90 {cuts[89]:.2f}, p99 {cuts[98]:.2f} (n={len(values)})"
    )


async def run_engine(engine: str, visitors: int, load: float, interval: float, timed: int) -> None:
    data = Path(tempfile.mkdtemp(prefix="bench-web-"))
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if engine.startswith("cardtable web"):
        spare = "cold" if engine == COLD else "spare"
        argv = [sys.executable, "-c", OURS, str(data), str(visitors), str(port), spare]
    elif engine == "textual-serve":
        argv = [sys.executable, "-c", THEIRS, f"{PROGRAM} {data}", str(port)]
    else:
        argv = [sys.executable, "-c", SSH, str(data), str(visitors), str(port)]
    server = await asyncio.create_subprocess_exec(
        *argv, cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    try:
        if engine == "textual-serve":
            await listening(port)  # it prints its banner through Rich
        else:
            assert server.stdout is not None
            await asyncio.wait_for(server.stdout.readline(), 60)
        base = f"http://127.0.0.1:{port}/"
        tabs: list[Visitor | SSHVisitor] = []
        firsts = []

        def new_tab(i: int) -> Visitor | SSHVisitor:
            return SSHVisitor(port, f"v{i}") if engine == "ssh-host" else Visitor(engine, base)

        for i in range(min(timed, visitors)):  # one after another: each first frame alone
            if engine == SPARE:  # a visitor who comes when a spare waits (not at once)
                assert server.stdout is not None
                await asyncio.wait_for(server.stdout.readline(), 60)
            tab = new_tab(i)
            firsts.append(await tab.arrive())
            tabs.append(tab)
        for start in range(len(tabs), visitors, 10):  # the rest ten at a time, untimed
            group = [new_tab(i) for i in range(start, min(start + 10, visitors))]
            await asyncio.gather(*(tab.arrive() for tab in group))
            tabs.extend(group)
        await asyncio.sleep(2.0)  # every app settled
        programs = visitor_programs(server.pid)
        memory = [memory_mb(pid) for pid in programs]
        print(f"{engine}: {visitors} visitors ({len(programs)} programs)")
        print(spread(f"first frame (connect to home screen, {len(firsts)} alone)", firsts, "s"))
        print(spread("private memory per visitor", [m[0] for m in memory], "MB"))
        print(spread("RSS per visitor", [m[1] for m in memory], "MB"))
        if load and engine != "ssh-host":
            print(f"  machine before the load: {machine()}")
            until = time.perf_counter() + load
            web_tabs = [t for t in tabs if isinstance(t, Visitor)]
            await asyncio.gather(*(t.press_keys(until, interval) for t in web_tabs))
            latencies = [x for t in web_tabs for x in t.latencies]
            print(
                spread(f"key to screen, all pressing every ~{interval:g} s", latencies, "ms", 1000)
            )
        for tab in tabs:
            await tab.leave()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            await asyncio.wait_for(server.wait(), 15)
        except TimeoutError:
            os.killpg(server.pid, signal.SIGKILL)
        for pid in visitor_programs(server.pid):
            os.kill(pid, signal.SIGKILL)


def browser_first_frames(times: int, spare: bool) -> None:
    """Chromium: from navigation to the home screen's text in the terminal
    (``spare``: each page comes when a spare program waits)."""
    from playwright.sync_api import sync_playwright

    data = Path(tempfile.mkdtemp(prefix="bench-web-browser-"))
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    import subprocess

    server = subprocess.Popen(
        # room for every page: a closed page's program waits a minute for it
        [sys.executable, "-c", OURS, str(data), str(times + 1), str(port),
         "spare" if spare else "cold"], cwd=ROOT, env=env,
        stdout=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    assert server.stdout is not None
    server.stdout.readline()
    seconds = []
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=args)
            for _ in range(times):
                if spare:
                    server.stdout.readline()
                context = browser.new_context()  # a new visitor each time
                page = context.new_page()
                page.goto(f"http://127.0.0.1:{port}/", wait_until="commit")
                deadline = time.monotonic() + 120
                while time.monotonic() < deadline:
                    shown = page.evaluate(
                        "() => window.cardtable ? [performance.now(), (() => { const b ="
                        " window.cardtable.terminal.buffer.active; let s = ''; for (let i = 0;"
                        " i < b.length; i++) s += b.getLine(i).translateToString(true);"
                        " return s; })()] : [performance.now(), '']"
                    )
                    if HOME in shown[1]:
                        seconds.append(shown[0] / 1000)
                        break
                    page.wait_for_timeout(10)
                else:
                    raise SystemExit("the page never showed the home screen")
                context.close()
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(15)
    how = "a spare waiting" if spare else "no spare"
    print(f"cardtable web in Chromium ({how}): page navigation to the home screen's text")
    print(spread("first frame", seconds, "s"))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--visitors", type=int, default=5)
    parser.add_argument("--timed", type=int, default=5, help="first frames taken (alone)")
    parser.add_argument("--load", type=float, default=0.0, metavar="SECONDS")
    parser.add_argument("--key-interval", type=float, default=1.0, metavar="SECONDS")
    parser.add_argument("--browser", action="store_true")
    parser.add_argument("--engines", default=f"{SPARE},{COLD},textual-serve,ssh-host")
    args = parser.parse_args()
    print(f"machine at the start: {machine()}")
    for engine in args.engines.split(","):
        if engine == "textual-serve":
            try:
                import textual_serve  # noqa: F401
            except ImportError:
                print("textual-serve: not installed (uv run --with textual-serve ...): skipped")
                continue
        await run_engine(engine, args.visitors, args.load, args.key_interval, args.timed)
    if args.browser:
        await asyncio.to_thread(browser_first_frames, 5, False)
        await asyncio.to_thread(browser_first_frames, 5, True)
    print(f"machine at the end: {machine()}")


if __name__ == "__main__":
    asyncio.run(main())
