"""Post-game analysis: a seat's own moves replayed through the search engine.

At each decision the seat had (more than one legal move), the engine searches
what the seat knew then: the state as it was, seen through
``Situation.sample`` (hidden cards dealt again), and the events the seat had
seen. The cost of a move is the engine's value of its best move minus its
value of the move played (in win chance, or in points where the game's
adapter reads values as points); the moments that cost most come first.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from ..events import Event, visible_events
from ..game import GameSpec
from .base import Situation
from .search import Budget, analyse, engine_for


@dataclass(frozen=True)
class Moment:
    ply: int  # index of the move in the record
    played: Hashable
    best: Hashable
    played_value: float
    best_value: float

    @property
    def cost(self) -> float:
        return max(0.0, self.best_value - self.played_value)


def review(
    spec: GameSpec[Any, Any],
    config: Any,
    seed: int,
    moves: Sequence[tuple[int, str]],
    seat: int,
    rng: random.Random,
    budget: Budget | None = None,
    deck_order: Sequence[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Moment]:
    """Every decision of ``seat`` in the record, dearest first.

    A move the search never tried at all (possible with a small budget) is
    valued as the search's worst tried move: the cost shown is then a floor."""
    adapter, default = engine_for(spec.id)
    state = spec.new(config, seed, deck_order)
    seen: list[Event] = []
    out: list[Moment] = []
    for ply, (who, text) in enumerate(moves):
        if progress is not None:
            progress(ply, len(moves))  # moves gone through, of all
        move = spec.parse_move(text)
        if who == seat:
            situation = Situation(state, seat, seen)
            if len(situation.legal) > 1 and move in situation.legal:
                analysis = analyse(situation, adapter, budget or default, rng)
                tried = [e for e in analysis.moves if e.visits]
                values = {e.move: e.value for e in tried}
                best = tried[0]
                played = values.get(move, min(values.values()))
                out.append(Moment(ply, move, best.move, played, best.value))
        seen.extend(visible_events(state.play(who, move), seat))
    out.sort(key=lambda m: m.cost, reverse=True)
    return out
