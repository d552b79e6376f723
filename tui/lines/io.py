"""Plain lines out, plain lines in: line mode's only contact with the terminal.

Every line written goes through :func:`rules.plain.plain` (no escape byte,
no control character, whatever a name or a chat line from the network holds)
and is flushed at once: a screen reader, a pipe and ``TERM=dumb`` all get the
same stream of whole lines, never a redraw.

Input is read by a daemon thread, one line at a time, and handed to the event
loop, so the table's updates (a computer's move, a chat line) are written
while the player has not answered yet, and a pending read never keeps the
program from ending.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import TextIO

from rules.plain import plain

# the longest line read (a paste of a whole file is not a move)
MAX_INPUT = 2000


class EndOfInput(Exception):
    """Standard input is closed (a script ran out, the terminal went away)."""


class LineIO:
    """Write lines; read lines (``await line()``) while the loop runs on."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self._in = stdin if stdin is not None else sys.stdin
        self._out = stdout if stdout is not None else sys.stdout
        self._queue: asyncio.Queue[str | None] | None = None
        self._ended = False

    def say(self, *lines: str) -> None:
        """Each text as plain lines (a text with line breaks is several)."""
        for text in lines:
            for line in plain(text, None, newlines=True).split("\n"):
                self._out.write(line.rstrip() + "\n")
        self._out.flush()

    def ask(self, prompt: str) -> None:
        """A prompt: a line of its own that ends with a colon or a question
        mark (screen readers read a whole line; a prompt without its line
        break may never be read out)."""
        self.say(prompt)

    def _start(self) -> asyncio.Queue[str | None]:
        if self._queue is None:
            loop = asyncio.get_running_loop()
            queue: asyncio.Queue[str | None] = asyncio.Queue()
            self._queue = queue

            def read() -> None:
                while True:
                    try:
                        text = self._in.readline()
                    except (OSError, ValueError, UnicodeDecodeError):
                        text = ""
                    if not text:
                        loop.call_soon_threadsafe(queue.put_nowait, None)
                        return
                    loop.call_soon_threadsafe(queue.put_nowait, text)

            threading.Thread(target=read, name="line-input", daemon=True).start()
        return self._queue

    async def line(self) -> str:
        """The next line typed, stripped; EndOfInput once input has ended."""
        if self._ended:
            raise EndOfInput
        queue = self._start()
        text = await queue.get()
        if text is None:
            self._ended = True
            raise EndOfInput
        return plain(text[:MAX_INPUT].strip(), None)
