"""Drive ``cardtable --lines`` through a real pseudo-terminal, as a screen
reader user's terminal would: read lines, answer each prompt, keep every
byte written (tests assert there is no escape byte among them)."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import termios
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

CHOICES = re.compile(r"Choose (?:1 to )?(\d+)[,:]")
# the end of a turn's prompt, and of a menu (its last option)
PROMPT_END = "Or: list, hand, table, scores, hint, log, rules, help, quit."
# what others do that changes nothing of a waiting turn's choices
NEWS_AFTER_PROMPT = re.compile(r".+ (?:has submitted|is ready)\.")


def listed_numbers(prompt: str) -> set[int]:
    """The choice numbers a turn's prompt lists or says how to hear: "3: play
    4S" (one a line), "12 for Grow" (a group's row), "Explore, 1 to 27: ...
    To hear them: list explore" (a group said by what it holds)."""
    numbers = {int(n) for n in re.findall(r"^(\d+): \S", prompt, re.M)}
    numbers |= {int(n) for n in re.findall(r"(?:: |, )(\d+) for \S", prompt)}
    said = r"^.+, (\d+) to (\d+): .+ To hear them: list \w+\.$"
    for first, last in re.findall(said, prompt, re.M):
        numbers |= set(range(int(first), int(last) + 1))
    return numbers


# a run's whole budget: a stuck program fails the test instead of hanging it
READ_TIMEOUT = 60.0


@dataclass
class LineRun:
    """One line-mode process on a pty."""

    args: Sequence[str]
    data_dir: Path
    config_dir: Path
    env: dict[str, str] = field(default_factory=dict)
    output: bytearray = field(default_factory=bytearray)
    sent: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        master, slave = os.openpty()
        attrs = termios.tcgetattr(slave)
        attrs[3] &= ~termios.ECHO  # what we type is in `sent`, not the output
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
        env = {
            **os.environ,
            "TERM": "dumb",
            "CARDTABLE_CONFIG_DIR": str(self.config_dir),
            "CARDTABLE_DATA_DIR": str(self.data_dir),
            "PYTHONIOENCODING": "utf-8",
            **self.env,
        }
        env.pop("NO_COLOR", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tui.cli", "--data-dir", str(self.data_dir), *self.args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            close_fds=True,
        )
        os.close(slave)
        self.master = master
        self.seen = 0  # output already handed to a caller

    def read_until(self, done: Callable[[str], bool]) -> str:
        """Output until ``done(new text)`` holds (or the process ends)."""
        while True:
            # the terminal ends its lines with CR LF
            text = self.output[self.seen :].decode("utf-8", "replace").replace("\r\n", "\n")
            if done(text):
                self.seen = len(self.output)
                return text
            ready, _, _ = select.select([self.master], [], [], READ_TIMEOUT)
            if not ready:
                raise AssertionError(f"no output for {READ_TIMEOUT} s; last: {text[-300:]!r}")
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                self.seen = len(self.output)
                return text
            self.output += chunk

    def send(self, line: str) -> None:
        self.sent.append(line)
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        try:
            code = self.proc.wait(timeout=READ_TIMEOUT)
        finally:
            os.close(self.master)
        return code

    @property
    def text(self) -> str:
        return self.output.decode("utf-8", "replace").replace("\r\n", "\n")


def prompt_waiting(text: str) -> bool:
    """A prompt is complete at the end of ``text``: a turn's, a menu's, a hand-off."""
    tail = text.rstrip("\r\n")
    # news that leaves the turn as it was may follow a prompt (another seat's
    # hidden submission in Trick, another player ready in Stress's swaps):
    # the prompt is still the one waiting
    while "\n" in tail and NEWS_AFTER_PROMPT.fullmatch(tail.rsplit("\n", 1)[1]):
        tail = tail.rsplit("\n", 1)[0].rstrip("\r\n")
    return (
        tail.endswith(PROMPT_END)
        or tail.endswith("when you have the keyboard.")
        or tail.endswith("(Enter lists the choices again).")
        or bool(re.search(r"\d+: (home|back|quit|leave the server)$", tail))
    )


def play_to_the_end(
    run: LineRun, pick: Callable[[str, int], str] = lambda text, n: "1"
) -> list[str]:
    """Answer every prompt (``pick``: the answer to a turn's prompt with ``n``
    choices) until the game is over; the prompts seen, in order."""
    prompts = []
    while True:
        text = run.read_until(lambda t: prompt_waiting(t) or run.proc.poll() is not None)
        if run.proc.poll() is not None and not prompt_waiting(text):
            raise AssertionError(f"the program ended: {run.text[-800:]}")
        prompts.append(text)
        if "What next?" in text:
            run.send("home")
            return prompts
        if text.rstrip().endswith("when you have the keyboard."):
            run.send("")
            continue
        if text.rstrip().endswith("(Enter lists the choices again)."):
            # the turn asked again after news (a chat line): its choices were
            # listed with the turn; Enter lists them once more, as a player would
            run.send("")
            continue
        found = CHOICES.findall(text)
        assert found, f"a prompt without its choices: {text[-400:]!r}"
        run.send(pick(text, int(found[-1])))
