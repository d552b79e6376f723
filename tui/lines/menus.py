"""Numbered choices: every menu of line mode is a question, then its
options one to a line, answered with a number (or the option's first word)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.plain import plain

from .io import LineIO

BACK_WORDS = ("back", "b", "quit", "q")


async def choose(
    io: LineIO, question: str, options: Sequence[str], back: str = "back"
) -> int | None:
    """The index of the option chosen, or None for ``back`` (typed as the
    word, or its number: the last one). Bad input gets one line saying what
    would be taken, and the question again."""
    shown = [*options, back]
    io.say(f"{question} Choose 1 to {len(shown)}:")
    io.say(*(f"{i}: {text}" for i, text in enumerate(shown, 1)))
    while True:
        text = (await io.line()).strip()
        low = text.lower()
        if text.isdigit() and 1 <= int(text) <= len(shown):
            number = int(text)
            return None if number == len(shown) else number - 1
        if low in BACK_WORDS or low == back.lower():
            return None
        firsts = [o.split(" ")[0].lower().rstrip(":,") for o in options]
        if low and firsts.count(low) == 1:
            return firsts.index(low)
        io.say(f"Not a choice: {plain(text, 40)!r}. Type a number from 1 to {len(shown)}.")


async def ask_text(io: LineIO, question: str, default: str = "") -> str:
    """A line of text (Enter alone: ``default``)."""
    io.say(f"{question}" + (f" (Enter for {default}):" if default else ":"))
    return (await io.line()).strip() or default
