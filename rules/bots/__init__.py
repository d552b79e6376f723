"""Computer players for every game, by level: easy, medium, hard.

Each game declares its own on its spec (``GameSpec.bots()``, :mod:`.roster`);
this package holds what every game shares: the levels, the random bot, the
search engine, the advice and the arena."""

from __future__ import annotations

from .base import Bot, BotLevel, RandomBot, Situation
from .roster import bots_for

LEVELS = (
    BotLevel("easy", "Easy", "plays any legal move at random"),
    BotLevel("medium", "Medium", "plays by rules of thumb"),
    BotLevel("hard", "Hard", "searches ahead over the cards it cannot see"),
)


def make_bot(game_id: str, level: str) -> Bot:
    """The game's bot of ``level`` (its spec's ``bots()``), else of the next
    easier level it has, else the random bot."""
    levels = bots_for(game_id).levels
    order = [lv.id for lv in LEVELS]
    if level not in order:
        raise ValueError(f"no bot level '{level}'; levels: {', '.join(order)}")
    for lv in reversed(order[: order.index(level) + 1]):
        factory = levels.get(lv)
        if factory:
            return factory()
    return RandomBot()


__all__ = ["LEVELS", "Bot", "BotLevel", "RandomBot", "Situation", "make_bot"]
