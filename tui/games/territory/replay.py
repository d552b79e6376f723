"""A Territory position as text, for the replay viewer (``describe``, found
by tui/games/__init__.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from rules.events import fill_names
from rules.territory.view import TerritoryView
from rules.views import View
from tui.seating import addressed_as_you
from tui.widgets.cards import CardStyle, card_label

from .grid import whole_grid
from .players import counts_line, region_lines


def describe(
    view: View,
    scores: Sequence[int],
    names: Sequence[str],
    style: CardStyle,
    snapshot: dict[str, Any] | None = None,
) -> RenderableType:
    """A Territory view as text for replays: the whole grid with its
    coordinates, each player's best region, the counts and the hands (every
    hand when ``snapshot``, the state's own record, reveals them)."""
    assert isinstance(view, TerritoryView), f"a Territory replay was given {type(view).__name__}"
    lines = []
    if scores:
        lines.append("   ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True)))
    lines += whole_grid(view)
    lines += region_lines(view, names)
    lines.append(counts_line(view, style))
    # the person named You is addressed as such ("Your hand", not "You's hand")
    you = addressed_as_you(names, range(len(names)))
    hands: list[tuple[int, Sequence[str]]] = []
    if snapshot is not None:
        hands = list(enumerate(snapshot["hands"]))
    elif view.seat is not None and view.hand is not None:
        hands = [(view.seat, view.hand)]
    for seat, hand in hands:
        cards = " ".join(card_label(c, style) for c in hand)
        lines.append(fill_names(f"{{p{seat}'s}} hand: ", names, you) + (cards or "(empty)"))
    return Text("\n".join(lines))
