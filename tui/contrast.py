"""Contrast between two colours, as WCAG 2 measures it (1:1 to 21:1): the app
keeps theme colours that fall below :data:`MINIMUM` from reaching the screen,
and tests/tui/test_themes.py checks every theme with it."""

from __future__ import annotations

from textual.color import Color

MINIMUM = 3.0  # WCAG's minimum for bold text and interface marks


def _luminance(colour: Color) -> float:
    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.r) + 0.7152 * channel(colour.g) + 0.0722 * channel(colour.b)


def contrast(a: Color, b: Color) -> float:
    high, low = sorted([_luminance(a), _luminance(b)], reverse=True)
    return (high + 0.05) / (low + 0.05)
