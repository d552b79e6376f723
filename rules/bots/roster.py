"""What a game declares of its computer players: one record on its spec.

A game's spec answers ``bots()`` with a :class:`GameBots`: its bot of each
level, the search adapter and budget its hints and engine bot use, its own
judge of a position, and any scripted players the arena may name. There is no
registry: :func:`make_bot`, the hints, the engine bot and the arena all ask
the spec, so a game that declares nothing still has every computer (the
random bot at every level, the generic search adapter) and a game's bots are
found wherever its spec is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import UnknownGame
from ..game import GameSpec
from ..registry import get_game
from .base import Bot

if TYPE_CHECKING:  # the search and the advice ask this module
    from .advice import Judge
    from .search import Adapter, Budget


@dataclass(frozen=True)
class GameBots:
    """A game's computer players and search, as its spec declares them."""

    # level id (rules.bots.LEVELS) -> a new bot; a level left out falls back
    # to the next easier one the game has, and at last to the random bot
    levels: Mapping[str, Callable[[], Bot]] = field(default_factory=dict)
    # the search adapter of the game's hints, analysis and engine bot, and the
    # budget of its hard level; None: the generic ones (rules.bots.search)
    adapter: Callable[[], Adapter] | None = None
    budget: Budget | None = None
    # the game's own judgement of a position (rules.bots.advice); None: the
    # search engine's with the adapter above
    judge: Judge | None = None
    # further players by name, for the arena (Trick's scripted strategies)
    scripted: Mapping[str, Callable[[], Bot]] = field(default_factory=dict)


NO_BOTS = GameBots()


def bots_of(spec: GameSpec[Any, Any]) -> GameBots:
    """What ``spec`` declares, or :data:`NO_BOTS` for a game that declares none."""
    declared = spec.bots()
    if declared is None:
        return NO_BOTS
    assert isinstance(declared, GameBots), f"{spec.id}: bots() gives a GameBots"
    return declared


def bots_for(game_id: str) -> GameBots:
    """What the game ``game_id`` declares; :data:`NO_BOTS` for a game the
    registry does not know (a table a test builds from a spec of its own):
    such a game declares nothing, so it gets the random bot and the generic
    search, as a registered game that declares nothing does."""
    try:
        spec = get_game(game_id)
    except UnknownGame:
        return NO_BOTS
    return bots_of(spec)
