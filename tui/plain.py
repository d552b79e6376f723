"""Outside text, made safe to show: the one way a string from outside the program
(a save file, the command line, later the network) reaches a terminal.

:func:`plain` returns a ``str`` for the command line; :func:`plain_text` a
``rich.text.Text`` for widgets, which Textual and Rich never read as markup (a
``str`` given to a ``Static``, a ``DataTable`` cell or a notification is read as
markup: ``[/]`` crashes it, ``[@click=app.quit]`` becomes an action). Both
replace terminal escape sequences and control characters (C0, DEL, C1, line
and paragraph separators, bidirectional overrides) with a visible placeholder
and cut what is too long, so nothing can set the title, clear the screen or
move the cursor.

This module imports nothing of Rich until :func:`plain_text` is called, so
the command line stays headless (tests/test_cli.py checks ``sys.modules``).
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.text import Text

PLACEHOLDER = "\N{REPLACEMENT CHARACTER}"  # what a control character becomes
ELLIPSIS = "…"
LIMIT = 200  # characters: a name, a reason, a move, a file name

# A whole escape sequence becomes one placeholder (not "]2;PWNED" left behind):
# CSI (ESC [ ... final), OSC/DCS/SOS/PM/APC (ESC ] ... up to BEL or ESC \), any
# other ESC + one character, and the same introduced by their C1 forms.
_ESCAPE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b.?",
    re.DOTALL,
)
# Format characters that reorder what a terminal shows ("Trojan Source")
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


def _safe_char(ch: str, newlines: bool) -> str:
    if ch == "\n":
        return ch if newlines else PLACEHOLDER
    if ch == "\t":
        return " "
    if ch in _BIDI or unicodedata.category(ch) in _UNSAFE_CATEGORIES:
        return PLACEHOLDER
    return ch


def plain(text: object, limit: int | None = LIMIT, *, newlines: bool = False) -> str:
    """``text`` (anything: a non-string is shown as ``str()`` would) as plain,
    printable text of at most ``limit`` characters (None: no limit), cut with an
    ellipsis. Line breaks are kept only with ``newlines``; a tab is a space."""
    if not isinstance(text, str):
        try:
            text = str(text)
        except Exception:  # an int too long to print, a broken __str__
            text = f"<{type(text).__name__}>"
    if limit is not None and len(text) > 4 * limit + 64:
        text = text[: 4 * limit + 64]  # no need to clean what is cut anyway
        cut = True
    else:
        cut = False
    if not text.isprintable():
        text = _ESCAPE.sub(PLACEHOLDER, text)
        text = "".join(_safe_char(ch, newlines) for ch in text)
    if limit is not None and (cut or len(text) > limit):
        text = text[: max(limit - 1, 0)] + ELLIPSIS
    return text


def plain_text(
    text: object, limit: int | None = LIMIT, *, newlines: bool = False, style: str = ""
) -> Text:
    """:func:`plain` as a Rich ``Text``, for any widget: never read as markup."""
    from rich.text import Text

    return Text(plain(text, limit, newlines=newlines), style=style, end="")


def quoted(text: object, limit: int = 40) -> str:
    """Outside text quoted in a sentence ('like this'), short and on one line."""
    return f"'{plain(text, limit)}'"
