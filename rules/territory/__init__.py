"""territory: Schmiedekamp's Domination, a duel for a grid of cards (seed 003, RULINGS.md).

Two players, one horizontal and one vertical, grow a grid from a square of
four cards: explore (place a card your way next to any card) or conquer
(discard a card matching one of yours and turn an opponent's card next to it
your way, then blitz on from the card just taken). A region holding every
value of the deck wins at once; once the stock is empty, the game ends when a
player runs out of cards and the most values in one region wins. Royal
Domination adds royals that attack as any value and fortify. The player rules
and the notation are in docs/rules/territory.md.

Modules: ``options`` (Config, presets, decks), ``board`` (cells, coordinates,
regions), ``notation`` (moves and their text), ``view`` (the typed views),
``state`` (the rules: turns, the end, views), ``position`` (the position text
and grid diagrams, both ways), ``spec`` (the spec: new game, words, bounds,
bots), ``events``, ``words``, ``figures``, ``from_view`` (a state from a
seat's view), ``bots`` (easy, medium, hard and the search adapter).
"""

from __future__ import annotations

from .board import best_region, pos_of, region_at, regions, value_mask, xy_of
from .notation import (
    PASS,
    STOP,
    Blitz,
    Conquer,
    Discard,
    Explore,
    Fortify,
    Pass,
    Stop,
    TerritoryMove,
    parse_move,
)
from .options import PRESETS, TerritoryConfig
from .position import parse_diagram
from .spec import SPEC, TerritorySpec
from .state import BLITZ, HORIZONTAL, MAIN, VERTICAL, TerritoryState
from .view import TerritoryView

__all__ = [
    "BLITZ",
    "HORIZONTAL",
    "MAIN",
    "PASS",
    "PRESETS",
    "SPEC",
    "STOP",
    "VERTICAL",
    "Blitz",
    "Conquer",
    "Discard",
    "Explore",
    "Fortify",
    "Pass",
    "Stop",
    "TerritoryConfig",
    "TerritoryMove",
    "TerritorySpec",
    "TerritoryState",
    "TerritoryView",
    "best_region",
    "parse_diagram",
    "parse_move",
    "pos_of",
    "region_at",
    "regions",
    "value_mask",
    "xy_of",
]
