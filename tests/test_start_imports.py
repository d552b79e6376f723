"""`cardtable` imports only what its home screen needs (issue 38: start-up
within 1.10x of a bare Textual app, tests/perf/bench_startup.py).

The command line's parser is made without importing any command's module;
the games, the bots, the save store and the network load when first used.
Each check runs in a fresh interpreter: this test process has imported
everything already. No timing here: bench_startup measures the time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tui import cli

REPO = Path(__file__).resolve().parents[1]

# what the home screen never needs: any of these at start-up is a regression
HEAVY = (
    "rules.bots",  # the computer players (and rules.game, rules.events under it)
    "rules.game",
    "rules.domination",  # a game: the registry loads them after the first frame
    "rules.trick",
    "saves.store",  # the save store and the record format (msgspec)
    "saves.record",
    "msgspec",
    "net.client",  # the network: only for a table elsewhere
    "tui.network",  # (the seats held elsewhere: read only if there is a seats file)
    "net.remote",
    "net.server",
    "net.protocol",
    "net.web_host",
    "net.ssh_host",
    "asyncssh",
    "aiohttp",
    "psycopg",
    "importlib.metadata",  # (--version looks itself up only when asked)
    "argparse",  # `cardtable` alone is answered without it (and gettext's regex)
    "gettext",
    "_hashlib",  # OpenSSL, 10 ms: nothing at start-up hashes or needs `secrets`
)

# the path `cardtable` takes to the home screen: the command line parsed as
# main() parses it (`cardtable` alone, its folders from the environment), the
# module launch_app opens the app from, and the app run headless until the
# home screen is drawn and settled (what it asks for after its first frame
# included)
_START = """
import asyncio, json, sys
from pathlib import Path
import tui.cli
args = tui.cli.parse_command_line([])
assert args.handler is tui.cli.cmd_home, args
import tui.run
from tui.app import CardTableApp

async def home():
    app = CardTableApp(Path(sys.argv[1]), Path(sys.argv[2]))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert type(app.screen).__name__ == "HomeScreen", app.screen
        modules = sorted(sys.modules)
    return modules

print(json.dumps(asyncio.run(home())))
"""


def _heavy_in(modules: list[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_the_home_screens_start_imports_nothing_heavy(
    tmp_path: Path, pytestconfig: pytest.Config
) -> None:
    cache = getattr(pytestconfig, "cache", None)
    env = dict(
        os.environ,
        CARDTABLE_DATA_DIR=str(tmp_path / "data"),
        CARDTABLE_CONFIG_DIR=str(tmp_path / "config"),
        TEXTUAL_ANIMATIONS="none",
        # bytecode kept between runs (in pytest's cache folder), as for an
        # installed program: else compiling Textual is most of this test's time
        # (no cache under `-p no:cacheprovider`: then a folder of this run's own)
        PYTHONPYCACHEPREFIX=str(cache.mkdir("start-imports-pycache") if cache else tmp_path),
    )
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run(
        [sys.executable, "-c", _START, str(tmp_path / "data"), str(tmp_path / "config")],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    modules = json.loads(done.stdout.strip().splitlines()[-1])
    assert _heavy_in(modules) == []
    # no command's module either: each loads only when its command is named
    commands = {target.arguments.partition(":")[0] for target in cli.COMMANDS.values()}
    assert sorted(commands & set(modules)) == []


def test_help_names_every_command_without_importing_one() -> None:
    probe = (
        "import contextlib, io, json, sys, tui.cli\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    code = tui.cli.main(['--help'])\n"
        "print(json.dumps([code, out.getvalue(), sorted(sys.modules)]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, check=True
    )
    code, text, modules = json.loads(done.stdout)
    assert code == 0
    for name, command in cli.COMMANDS.items():
        assert name in text and command.help.split()[0] in text
    assert "Games: domination, stress, territory, trick." in " ".join(text.split())
    commands = {target.arguments.partition(":")[0] for target in cli.COMMANDS.values()}
    assert sorted(commands & set(modules)) == []
    assert "rules.bots" not in modules


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_each_command_gets_its_flags_when_named(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # the table's "module:function" resolves, and the command's own help shows
    assert cli.main([name, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: cardtable {name}")
    assert len(out.splitlines()) > 4  # its description or its flags, not an empty parser


def test_cardtable_alone_is_answered_as_argparse_answers_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the home screen's command line skips argparse: the same namespace
    assert vars(cli.parse_command_line([])) == vars(cli.build_parser().parse_args([]))
    monkeypatch.setattr(sys, "argv", ["cardtable"])
    assert vars(cli.parse_command_line()) == vars(cli.build_parser().parse_args([]))
    monkeypatch.setattr(sys, "argv", ["cardtable", "--ascii"])
    assert cli.parse_command_line().ascii is True  # anything more: argparse
