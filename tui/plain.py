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

from typing import TYPE_CHECKING

# the cleaning itself is headless (the server uses it too): rules/plain.py
from rules.plain import ELLIPSIS, LIMIT, PLACEHOLDER, plain, quoted

if TYPE_CHECKING:
    from rich.text import Text

__all__ = ["ELLIPSIS", "LIMIT", "PLACEHOLDER", "plain", "plain_text", "quoted"]


def plain_text(
    text: object, limit: int | None = LIMIT, *, newlines: bool = False, style: str = ""
) -> Text:
    """:func:`plain` as a Rich ``Text``, for any widget: never read as markup."""
    from rich.text import Text

    return Text(plain(text, limit, newlines=newlines), style=style, end="")
