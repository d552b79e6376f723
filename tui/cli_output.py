"""The command line's one way out: plain text to standard output, and the
error for output that cannot be written."""

from __future__ import annotations

import sys

from tui.plain import plain


class OutputError(Exception):
    """Our own output could not be written (`> /dev/full`): one line, exit 1."""


def print_out(text: str) -> None:
    """Print to stdout: the one way out, so plain text only (no escapes)."""
    text = plain(text, None, newlines=True)
    try:
        try:
            print(text)
        except UnicodeEncodeError:  # a terminal that cannot show a suit symbol
            encoding = getattr(sys.stdout, "encoding", None) or "ascii"
            print(text.encode(encoding, "replace").decode(encoding))
    except BrokenPipeError:
        raise
    except OSError as err:  # `> /dev/full`
        raise OutputError(str(err)) from err
