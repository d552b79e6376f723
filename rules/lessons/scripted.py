"""The scripted opponent of a lesson: it plays the lesson's moves in order."""

from __future__ import annotations

import random
import threading
from collections.abc import Hashable, Sequence

from ..bots.base import Bot, Situation


class ScriptedBot(Bot):
    """Plays ``moves`` (notation) one after the other, whatever happens.

    The table asks a bot once per move it plays (a simultaneous phase keeps a
    choice that is still legal), so a counter is where the script stands. A
    move the rules refuse (a lesson out of step with its rules; the lesson
    tests catch that) goes back to the table, which plays a legal one instead
    and logs the bug; after the script, any legal move."""

    name = "scripted"

    def __init__(self, moves: Sequence[str]) -> None:
        self._moves = list(moves)
        self._next = 0
        self._lock = threading.Lock()  # the table asks from its worker threads

    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        with self._lock:
            if self._next >= len(self._moves):
                return rng.choice(situation.legal)
            text = self._moves[self._next]
            self._next += 1
        return situation.spec.parse_move(text)
