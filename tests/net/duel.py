"""A tiny simultaneous game with a move timer, to test the table's timers.

Each round both seats secretly pick 1, 2 or 3; the higher pick scores a point.
A pick stays hidden from the other seat until both are in. With a timer, a
seat that runs out of time picks 1 (its clock's timeout move). The real simultaneous
game (trick) is written elsewhere; this one only exercises the table.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from rules.config import GameConfig, option
from rules.errors import IllegalMove, NotationError
from rules.events import Event, EventData, SeatEvent
from rules.game import GameSpec, GameState, MoveClock, Outcome
from rules.views import View


class Picked(EventData, frozen=True, kw_only=True, omit_defaults=True):
    seat: int
    pick: int | None = None  # the seat's own; hidden from the other


class Picks(EventData, frozen=True, kw_only=True, omit_defaults=True):
    picks: list[int]


@dataclass(frozen=True)
class DuelConfig(GameConfig):
    rounds: int = option(3, "Rounds", min=1)
    timer: int = option(0, "Seconds per pick (0: no timer)", min=0)


class DuelState(GameState[int, DuelConfig]):
    spec: ClassVar[DuelSpec]

    def __init__(self, config: DuelConfig, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.picks: list[int | None] = [None, None]
        self.points = [0, 0]
        self.round = 1
        self.resigned: int | None = None
        self._ply = 0

    def to_act(self) -> tuple[int, ...]:
        if self.is_over:
            return ()
        return tuple(s for s in (0, 1) if self.picks[s] is None)

    def legal_moves(self, seat: int) -> list[int]:
        return [1, 2, 3] if seat in self.to_act() else []

    def resign(self, seat: int) -> list[Event]:
        self.resigned = seat
        self._ply += 1
        return [Event("resign", f"{{p{seat} resigns|resign}}.", SeatEvent(seat=seat))]

    def play_move(self, seat: int, move: int) -> list[Event]:
        if seat not in self.to_act():
            raise IllegalMove("you have already picked" if not self.is_over else "it is over")
        if move not in (1, 2, 3):
            raise IllegalMove("pick 1, 2 or 3")
        self.picks[seat] = move
        self._ply += 1
        events = [
            Event(
                "pick",
                f"{{p{seat} picks|pick}} {move}.",
                Picked(seat=seat, pick=move),
                private_to=seat,
                redacted=Event("pick", f"{{p{seat} has|have}} picked.", Picked(seat=seat)),
            )
        ]
        a, b = self.picks
        if a is not None and b is not None:
            if a != b:
                self.points[0 if a > b else 1] += 1
            events.append(Event("reveal", f"Picks: {a} and {b}.", Picks(picks=[a, b])))
            self.picks = [None, None]
            self.round += 1
        return events

    @property
    def is_over(self) -> bool:
        return self.round > self.config.rounds or self.resigned is not None

    def outcome(self) -> Outcome | None:
        if self.resigned is not None:
            return Outcome.resigned(self.resigned, 2, self.points)
        return Outcome.from_scores(self.points, "rounds played") if self.is_over else None

    def scores(self) -> tuple[int, ...]:
        return tuple(self.points)

    def view(self, seat: int | None) -> DuelView:
        return DuelView(
            game="duel",
            seat=seat,
            round=self.round,
            picked=[p is not None for p in self.picks],
            my_pick=self.picks[seat] if seat is not None else None,
        )

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.picks = self.picks[:]
        new.points = self.points[:]
        return new

    def determinize(self, seat: int | None, rng: random.Random) -> Self:
        new = self.copy()
        for s in (0, 1):
            if s != seat and new.picks[s] is not None:
                new.picks[s] = rng.choice((1, 2, 3))
        return new

    def snapshot(self) -> dict[str, Any]:
        return {"picks": self.picks[:], "points": self.points[:], "round": self.round}

    def clock(self, seat: int) -> MoveClock | None:
        if not self.config.timer or seat not in self.to_act():
            return None
        return MoveClock(self.config.timer, 1, self.round)


class DuelView(View, frozen=True, kw_only=True, omit_defaults=True):
    round: int
    picked: list[bool]
    my_pick: int | None = None  # a seat's own pick this round


class DuelSpec(GameSpec[int, DuelConfig]):
    id = "duel"
    title = "Duel"
    summary = "Pick a number; higher scores."
    Config = DuelConfig
    state_type = DuelState
    view_type = DuelView
    event_types: ClassVar[Mapping[str, type[EventData]]] = {"pick": Picked, "reveal": Picks}

    def new(
        self,
        config: DuelConfig | None = None,
        seed: int = 0,
        deck_order: Sequence[str] | None = None,
    ) -> DuelState:
        return DuelState(config or self.config(), seed)

    def parse_game_move(self, text: str) -> int:
        if text.strip() in ("1", "2", "3"):
            return int(text)
        raise NotationError(f"'{text}' is not a pick: 1, 2 or 3")

    def max_moves(self, config: DuelConfig) -> int:
        return 2 * config.rounds


DuelState.spec = DuelSpec()
SPEC = DuelState.spec
