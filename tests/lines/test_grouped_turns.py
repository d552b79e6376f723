"""A Territory game in line mode, in process: the turn's prompt is short,
``list explore`` reads the group cell by cell, words of a move play it, bad
input gets one line, and the game is played to its end."""

from __future__ import annotations

import re

from tui.lines.table import TableSession

from .pty_driver import CHOICES, listed_numbers
from .test_session import ScriptedIO, at_prompt, table


async def test_a_territory_game_heard_in_groups() -> None:
    script = iter(["list explore", "list conquer", "zzz"])
    typed: list[str] = []

    def answer(lines: list[str]) -> str | None:
        if not at_prompt(lines):
            return None
        reply = next(script, None)
        if reply is not None:
            return reply
        if not typed:  # words of the first cell's first value: "9 at 1,-1"
            cell = re.search(
                r"^Explore at (-?\d+,-?\d+)\b.*?: \d+ for an? (\w+)", "\n".join(lines), re.M
            )
            assert cell, lines[-30:]
            typed.append(f"{cell.group(2)} at {cell.group(1)}")
            return typed[0]
        return "1"

    io = ScriptedIO(answer)
    session = TableSession(table("territory", "computer:easy", seed=3), io, "words")
    assert await session.run() == "over"
    text = "\n".join(io.lines)
    assert "\x1b" not in text and "The game is over." in text
    first = text[text.index("Your turn. Choose") :]
    first = first[: first.index("\nOr: list")]
    n = int(CHOICES.findall(first)[0])
    assert n > 12 and "by group" in first  # grouped: more than a short list holds
    assert len(first.split("\n")) <= 13  # the prompt line and at most 12 of choices
    assert listed_numbers(first) == set(range(1, n + 1))
    heard = text[text.index("> list explore\n") :].split("\n")[1:]
    assert heard[0].startswith("Explore, 1 to ") and heard[1].startswith("Explore at ")
    assert len([h for h in heard[: heard.index(next(h for h in heard if h.startswith(">")))]]) > 2
    after = text[text.index("> zzz\n") :].split("\n")
    assert after[1].startswith("Not a move or a command: 'zzz'. Type a number from 1 to")
    assert after[2].startswith("Your turn: choose 1 to")  # one line, then where it stands
    value, cell = typed[0].split(" at ")
    assert re.search(rf"^> {re.escape(typed[0])}\nYou explore an? {value} at {cell}\.", text, re.M)
