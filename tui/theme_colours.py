"""The colours cardtable adds to a theme's: the suits', and the footer's keys
where a theme draws them too pale (tests/tui/test_themes.py checks every theme)."""

from __future__ import annotations

from textual.theme import Theme

# Suit colours per theme kind. ANSI themes get the terminal's own palette so the
# suits stay legible with 16 colours; others get fixed, readable hues.
_SUIT_COLOURS_RGB = {
    "suit-red": "#e0484f",
    "suit-blue": "#4a8fe0",
    "suit-green": "#3fae5a",
}
# on a light table: the hues above fall to 2.4:1 there once a 256-colour
# terminal rounds them; these keep above 4.5:1
_SUIT_COLOURS_LIGHT = {
    "suit-red": "#b3261e",
    "suit-blue": "#1f5fae",
    "suit-green": "#2a7a3c",
}
_SUIT_COLOURS_ANSI = {
    "suit-red": "ansi_bright_red",
    "suit-blue": "ansi_bright_blue",
    "suit-green": "ansi_bright_green",
}


def _pale_footer_keys(variables: dict[str, str]) -> bool:
    from textual.color import Color, ColorParseError

    from tui.contrast import MINIMUM, contrast

    try:
        key = Color.parse(variables["footer-key-foreground"])
        back = Color.parse(variables["footer-background"])
        Color.parse(variables["footer-description-foreground"])
    except (KeyError, ColorParseError):
        return False
    return contrast(back.blend(key, key.a), back) < MINIMUM


def table_colours(theme: Theme, variables: dict[str, str]) -> dict[str, str]:
    """The CSS variables to add to (or replace in) ``theme``'s ``variables``."""
    colours = _SUIT_COLOURS_RGB if theme.dark else _SUIT_COLOURS_LIGHT
    colours = _SUIT_COLOURS_ANSI if theme.ansi else colours
    if not theme.ansi and _pale_footer_keys(variables):
        # the footer's keys are drawn in the accent, in some themes too pale on
        # the footer: they take the colour its descriptions are legible in
        # (bold tells them apart)
        key_colour = variables["footer-description-foreground"]
        colours = {**colours, "footer-key-foreground": key_colour}
    return colours
