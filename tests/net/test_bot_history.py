"""A bot at a table is handed the public history as its seat saw it."""

from __future__ import annotations

import random
import re
from collections.abc import Hashable

import pytest

from net import table as table_module
from net.local import open_table
from rules.bots import Bot, Situation
from rules.events import visible_events

from .helpers import BOT, HUMAN, domination_config


class _Historian(Bot):
    """Keeps each history it is handed; plays the first legal move."""

    def __init__(self) -> None:
        self.histories: list[tuple[int, list[str]]] = []

    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        self.histories.append((situation.seat, [e.text for e in situation.history]))
        return situation.legal[0]


async def test_the_bot_gets_the_history_its_seat_may_see(monkeypatch: pytest.MonkeyPatch) -> None:
    historian = _Historian()
    monkeypatch.setattr(table_module, "make_bot", lambda game, level: historian)
    # a fixed deal in which seat 0 draws while the bot is still to move (a random
    # one may end before it does)
    config = domination_config(target_score=30)
    client = open_table(None, "domination", config, [HUMAN, BOT], (0,), seed=7)
    await client.start()
    while client.table.status == "playing":
        await client.idle()
        update = client.snapshot(0)
        if update.legal:
            await client.play(0, update.legal[0], update.state_id)
    await client.idle()
    assert historian.histories, "the bot never moved"
    table = client.table
    for seat, texts in historian.histories:
        assert seat == 1
        # a prefix of what seat 1 may see: the same texts, in the same order
        seen = [e.text for e in visible_events(table._events, 1)]
        assert texts == seen[: len(texts)]
    # the human's draws reach the bot as counts only, never as cards
    longest = max((texts for _, texts in historian.histories), key=len)
    draws = [t for t in longest if t.startswith("{p0 draws|draw}")]
    assert draws, "the bot was never told that seat 0 drew"
    assert all(re.fullmatch(r"\{p0 draws\|draw\} \d+ cards?\.", t) for t in draws), draws
    await client.close()
