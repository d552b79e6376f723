"""Computer players for every game, by level: easy, medium, hard."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, BotLevel, RandomBot, Situation

LEVELS = (
    BotLevel("easy", "Easy", "plays any legal move at random"),
    BotLevel("medium", "Medium", "plays by rules of thumb"),
    BotLevel("hard", "Hard", "searches ahead over the cards it cannot see"),
)

# (game id, level) -> factory; a game without its own bot for a level falls
# back to the next easier level, and every game has the random bot.
_FACTORIES: dict[tuple[str, str], Callable[[], Bot]] = {}


def register_bot(game_id: str, level: str, factory: Callable[[], Bot]) -> None:
    _FACTORIES[(game_id, level)] = factory


def _load() -> None:
    from ..domination import bots as _d  # noqa: F401  (registers itself)
    from ..stress import bots as _s  # noqa: F401  (registers itself)
    from ..territory import bots as _te  # noqa: F401  (registers itself)
    from ..trick import bots as _tb  # noqa: F401  (registers itself)
    from ..trick import engine as _tr  # noqa: F401  (registers itself)


def make_bot(game_id: str, level: str) -> Bot:
    _load()
    order = [lv.id for lv in LEVELS]
    if level not in order:
        raise ValueError(f"no bot level '{level}'; levels: {', '.join(order)}")
    for lv in reversed(order[: order.index(level) + 1]):
        factory = _FACTORIES.get((game_id, lv))
        if factory:
            return factory()
    return RandomBot()


__all__ = ["LEVELS", "Bot", "BotLevel", "RandomBot", "Situation", "make_bot", "register_bot"]
