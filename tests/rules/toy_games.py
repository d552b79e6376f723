"""Tiny games whose best play is known, for testing the search engine.

* ``pennies`` (2 seats, simultaneous): both show heads or tails at once; seat
  0 wins on a mismatch, seat 1 on a match. Each side's move is worth exactly a
  coin toss; a search that let seat 1 see seat 0's move before answering
  would value every move of seat 0 near 0.
* ``highest`` (2 to 8 seats, in turn): each seat says 1, 2 or 3 once; the
  highest number wins, ties going to the seat that said it first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from rules.config import GameConfig, option
from rules.errors import IllegalMove
from rules.events import Event
from rules.game import GameSpec, GameState, Outcome


@dataclass(frozen=True)
class ToyConfig(GameConfig):
    mode: str = option("pennies", "which toy", choices=("pennies", "highest"))


class ToyState(GameState[int, ToyConfig]):
    spec: ClassVar[ToySpec]

    def __init__(self, config: ToyConfig, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.said: list[int | None] = [None] * config.players
        self._ply = 0

    def to_act(self) -> tuple[int, ...]:
        if self.is_over:
            return ()
        waiting = [s for s, v in enumerate(self.said) if v is None]
        if self.config.mode == "pennies":
            return tuple(waiting)
        return (waiting[0],)

    def legal_moves(self, seat: int) -> list[int]:
        if seat not in self.to_act():
            return []
        return [0, 1] if self.config.mode == "pennies" else [1, 2, 3]

    def play_move(self, seat: int, move: int) -> list[Event]:
        if move not in self.legal_moves(seat):
            raise IllegalMove("not now")
        self.said[seat] = move
        self._ply += 1
        return []

    def resign(self, seat: int) -> list[Event]:
        raise IllegalMove("no resigning in a toy")

    @property
    def is_over(self) -> bool:
        return all(v is not None for v in self.said)

    def _winner(self) -> int:
        said = [v or 0 for v in self.said]
        if self.config.mode == "pennies":
            return 1 if said[0] == said[1] else 0
        return said.index(max(said))

    def outcome(self) -> Outcome | None:
        if not self.is_over:
            return None
        w = self._winner()
        others = tuple(s for s in range(self.config.players) if s != w)
        return Outcome(w, ((w,), others), self.scores(), "toy")

    def scores(self) -> tuple[int, ...]:
        if not self.is_over:
            return (0,) * self.config.players
        w = self._winner()
        return tuple(int(s == w) for s in range(self.config.players))

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"said": [v is not None for v in self.said]}

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.config = self.config
        new.seed = self.seed
        new.said = self.said[:]
        new._ply = self._ply
        return new

    def determinize(self, seat: int | None, rng: random.Random) -> Self:
        new = self.copy()
        if self.config.mode == "pennies":
            for s, v in enumerate(self.said):
                if s != seat and v is not None:
                    new.said[s] = rng.randrange(2)  # a pending choice is hidden
        return new

    def snapshot(self) -> dict[str, Any]:
        return {"said": self.said[:]}


class ToySpec(GameSpec[int, ToyConfig]):
    id = "toy"
    title = "Toy"
    summary = "a toy"
    min_players = 2
    max_players = 8
    Config = ToyConfig
    state_type = ToyState

    def new(
        self,
        config: ToyConfig | None = None,
        seed: int = 0,
        deck_order: Sequence[str] | None = None,
    ) -> ToyState:
        return ToyState(config or self.config(), seed)

    def parse_game_move(self, text: str) -> int:
        return int(text)

    def max_moves(self, config: ToyConfig) -> int:
        return config.players


ToyState.spec = ToySpec()
TOY = ToyState.spec
