"""A lesson and a network game in line mode, through a pty (slow: each is
a few subprocesses and seconds)."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tui.settings import SETTINGS_FILE

from .pty_driver import CHOICES, LineRun, play_to_the_end, prompt_waiting


@pytest.mark.slow
def test_the_domination_lesson_from_start_to_end(dirs: tuple[Path, Path]) -> None:
    data, config = dirs
    run = LineRun(["--lines", "learn", "domination"], data, config)
    # the lesson's step says which card to play: "play the 4 of hearts"
    steps = 0
    while True:
        text = run.read_until(lambda t: prompt_waiting(t) or "What next?" in t)
        if "What next?" in text:
            assert "Lesson done: Domination." in text
            if not prompt_waiting(text):  # the menu may come in the same read
                run.read_until(prompt_waiting)
            run.send("back")
            break
        wanted = re.findall(r"play the (\w+ of \w+)", text)
        found = CHOICES.findall(text)
        assert found, text
        options = dict(re.findall(r"^(\d+): play (.+)$", text, re.M))
        pick = next((n for n, card in options.items() if wanted and card == wanted[-1]), "1")
        run.send(pick)
        steps += 1
    assert run.close() == 0
    assert steps >= 7
    assert b"\x1b" not in run.output
    assert run.text.count("Not that one") <= 2  # the coach keeps the script


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.mark.slow
def test_a_network_game_against_a_real_loopback_server(dirs: tuple[Path, Path]) -> None:
    data, config = dirs
    port = _free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tui.cli",
            "--data-dir",
            str(data / "server"),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        assert server.stdout is not None
        assert b"serving tables" in server.stdout.readline()
        run = LineRun(["--lines", "join", f"127.0.0.1:{port}", "--cards", "letters"], data, config)
        run.read_until(prompt_waiting)
        run.send("create")  # the lobby's "create a table", by its first word
        run.read_until(prompt_waiting)
        run.send("1")  # Domination
        text = run.read_until(prompt_waiting)
        if "which rules?" in text:
            run.send("1")
            run.read_until(prompt_waiting)
        run.send("2")  # Player 2: the computer, easy
        run.send("say hello table")
        prompts = play_to_the_end(run)
        text = run.read_until(prompt_waiting)
        assert "Lobby." in text
        run.send("leave the server")
        assert run.close() == 0
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert b"\x1b" not in run.output
    assert "says: hello table" in run.text
    assert re.search(r"^Waiting for \S", run.text, re.M)  # the other seat's turn, said once
    assert "The game is over." in run.text
    assert any("your turn" in p for p in prompts)  # "Player, your turn": named, not "you"
    assert re.search(r"\d+: play (10|[2-9AJQK])[SHDC]$", run.text, re.M)  # card letters


def test_line_mode_imports_neither_textual_nor_rich(dirs: tuple[Path, Path]) -> None:
    """A whole (short) session in a pipe, then sys.modules: no Textual, no Rich."""
    data, config = dirs
    script = (
        "import sys, runpy\n"
        "sys.argv = ['cardtable', '--data-dir', sys.argv[1], '--lines']\n"
        "from tui.cli import main\n"
        "code = main()\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "print('LOADED', bad)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(data)],
        input="5\n2\n6\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={"CARDTABLE_CONFIG_DIR": str(config), "TERM": "dumb", "PATH": ""},
    )
    assert "LOADED []" in done.stdout, done.stdout + done.stderr
    assert "Cards are now named like this: 4S, QH." in done.stdout
    assert "\x1b" not in done.stdout


def test_line_mode_keeps_its_settings_under_the_data_dir(tmp_path: Path) -> None:
    """N26 in line mode: a run with --data-dir reads and writes its settings
    there, never in the player's own config folder."""
    own, data = tmp_path / "own-config", tmp_path / "try"
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "--data-dir", str(data), "--lines"],
        input="5\n2\n6\n",  # the card words: letters; then quit
        capture_output=True,
        text=True,
        timeout=60,
        env={"CARDTABLE_CONFIG_DIR": str(own), "TERM": "dumb", "PATH": ""},
    )
    assert "Cards are now named like this: 4S, QH." in done.stdout, done.stdout + done.stderr
    assert json.loads((data / SETTINGS_FILE).read_text())["line_cards"] == "letters"
    assert not own.exists()
