"""Outside text, made safe to show: the one way a string from outside the program
(a save file, the command line, the network) reaches a terminal or another player.

:func:`plain` replaces terminal escape sequences and control characters (C0,
DEL, C1, line and paragraph separators, bidirectional overrides) with a visible
placeholder and cuts what is too long, so nothing can set the title, clear the
screen or move the cursor. It lives here, headless, so that the server
(net/server.py) cleans names and chat with it; the app's widgets use
:func:`tui.plain.plain_text`, which wraps it.
"""

from __future__ import annotations

import re
import unicodedata

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


def quoted(text: object, limit: int = 40) -> str:
    """Outside text quoted in a sentence ('like this'), short and on one line."""
    return f"'{plain(text, limit)}'"
