"""What a bot sees and how it answers.

A bot never holds the true state: it gets a :class:`Situation` built from
``view(seat)``, the legal moves, and a way to sample states consistent with
what the seat has seen (``state.determinize``). Search bots search those
samples; simple bots read the view.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from ..events import Event
from ..game import GameSpec, GameState
from ..views import View


class Situation:
    """A seat's knowledge at a decision: its view, its legal moves, the public
    history, and samples.

    ``history`` is the events the seat has seen, already redacted for it
    (``visible_events(events, seat)``): the order of earlier plays tells a bot
    what a hand held when. Samples never contradict it, as the state's
    ``determinize`` keeps what the table learnt from those same events."""

    __slots__ = ("_state", "config", "history", "legal", "seat", "spec", "view")

    def __init__(
        self, state: GameState[Any, Any], seat: int, history: Sequence[Event] = ()
    ) -> None:
        self._state = state.copy()  # private: only reachable through sample()
        self.seat = seat
        self.history: tuple[Event, ...] = tuple(history)
        self.spec: GameSpec[Any, Any] = state.spec
        self.config: Any = state.config  # the rules in force: public
        self.view: View = state.view(seat)
        self.legal: list[Hashable] = state.legal_moves(seat)

    def sample(self, rng: random.Random) -> GameState[Any, Any]:
        """A state the seat cannot tell from the real one, hidden cards resampled."""
        return self._state.determinize(self.seat, rng)


class Bot(ABC):
    """A computer player. ``choose`` may take time: the table runs it in a worker."""

    name: str = "bot"

    @abstractmethod
    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        """One of ``situation.legal``."""


class RandomBot(Bot):
    """Any game: a uniformly random legal move."""

    name = "random"

    def choose(self, situation: Situation, rng: random.Random) -> Hashable:
        return rng.choice(situation.legal)


@dataclass(frozen=True)
class BotLevel:
    id: str
    label: str
    description: str
