"""The one place that decides every glyph in ASCII mode (`--ascii`, or the
ASCII card style in Settings): the whole screen, not the cards alone.

Two tables. ``ASCII_CELLS`` maps each non-ASCII character the app draws
(Textual's borders and scrollbars, the header's icon, separators, arrows,
suits, card backs) to one ASCII character of the same width, and is applied
to everything the app writes to the terminal (``ascii_cells``), after layout:
one cell for one cell, so nothing moves. ``ASCII_WORDS`` names the keys in
footers, the palette and prompts in words ("Enter", "arrows") where a single
character would not say it; those are chosen where the text is made, before
layout (``in_words``, ``key_text``). tests/tui/test_glyphs.py holds every screen to these tables.
"""

from __future__ import annotations

import re

from rich.cells import get_character_cell_size

# one cell for one cell: borders, rules, separators, marks
ASCII_CELLS: dict[str, str] = {
    # lines and corners (Textual's borders, the cards' outlines, rules)
    **dict.fromkeys("─━═╌╍┄┅┈┉⎯▔▁╸╺╴╶╼╾", "-"),
    **dict.fromkeys("│┃║╎╏┆┇┊┋▏▕▎▍▌▋▊▉▐", "|"),
    **dict.fromkeys("╭╮╰╯┌┐└┘┏┓┗┛╔╗╚╝╒╕╘╛╓╖╙╜├┤┬┴┼╞╡╟╢╤╧╪╫╠╣╦╩╬┣┫┳┻╋", "+"),
    # blocks and shades (scrollbars, card backs)
    **dict.fromkeys("█▇▆▅▄▃▂▀░▒▓", "#"),
    # marks and punctuation
    "·": ".",
    "•": "*",
    "…": ".",
    "×": "x",
    "⭘": "o",
    "●": "*",
    "○": "o",
    "▸": ">",
    "▶": ">",
    "◀": "<",
    "▾": "v",
    "▼": "v",
    "▲": "^",
    "→": ">",
    "←": "<",
    "↑": "^",
    "↓": "v",
    "⇅": "=",
    "⏎": ">",
    "✓": "+",
    "✔": "+",
    "✗": "x",
    "—": "-",
    "–": "-",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    " ": " ",  # a no-break space
    # suits, where a text names a card in the Unicode style
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
    "♤": "S",
    "♡": "H",
    "♢": "D",
    "♧": "C",
}

_TRANSLATION = str.maketrans(ASCII_CELLS)

# in words where a text is made, before layout (widths may change): keys named
# in footers, the palette and prompts ("Enter"), longest first
ASCII_WORDS: dict[str, str] = {
    "←↑↓→": "arrows",
    "←→": "<- ->",
    "↑↓": "up/down",
    "⏎": "Enter",
    "→": "->",
    "←": "<-",
    "↑": "up",
    "↓": "down",
    "…": "...",
    "⇅": "<>",
    "±": "+/-",
}


def ascii_cells(text: str) -> str:
    """``text`` with every character of ``ASCII_CELLS`` replaced, cell for cell,
    and any other beyond ASCII (a name from the network in another script, a
    glyph a library draws) by "?" in each cell it takes: the terminal gets
    ASCII whatever the screen holds, and nothing moves."""
    return _BEYOND_ASCII.sub(_unknown_cells, text.translate(_TRANSLATION))


def unknown_glyphs(text: str) -> set[str]:
    """The characters beyond ASCII in ``text`` that ``ASCII_CELLS`` does not
    know (ASCII mode would draw them as "?"): tests hold every screen to none."""
    return set(_BEYOND_ASCII.findall(text.translate(_TRANSLATION)))


_BEYOND_ASCII = re.compile(r"[^\x00-\x7f]")


def _unknown_cells(found: re.Match[str]) -> str:
    return "?" * get_character_cell_size(found.group())


def in_words(text: str, ascii: bool) -> str:
    """``text`` for the screen: as written, or in ASCII with its keys and marks
    spelled out ("⏎ plays" -> "Enter plays")."""
    if not ascii:
        return text
    for glyph, words in ASCII_WORDS.items():
        text = text.replace(glyph, words)
    return ascii_cells(text)


def key_text(shown: str, ascii: bool) -> str:
    """A key as the footer or a prompt names it: ``⏎`` or, in ASCII, ``Enter``."""
    return in_words(shown, ascii)


# a chart's series in ASCII mode: one character each, each its own, so that
# lines and bars stay apart without colour (a braille dot or a block has no
# ASCII twin: all would become one mark)
ASCII_MARKS = "*o+x%@="


def chart_marker(series: int, ascii: bool, drawn: str = "braille") -> str:
    """The mark plotext draws series number ``series`` with: ``drawn`` (braille
    dots for lines, "sd" blocks for bars), or in ASCII mode a character of its own."""
    return ASCII_MARKS[series % len(ASCII_MARKS)] if ascii else drawn
