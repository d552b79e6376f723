"""A saved game played back through the game's own screen.

:class:`ReplayClient` is a :class:`~net.client.TableClient` with a record
behind it instead of a table: the screen subscribes and draws its updates as
it would at a live table, and the replay viewer moves the position back and
forth. The states are rebuilt from the record with the game's own rules.

Secrecy as everywhere else: an update carries ``view(seat)`` and the events
redacted for that seat, nothing more. Which seats a viewer may look through is
the viewer's decision (``perspectives``): until a game is over, only the seats
this computer's people played.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.errors import IllegalMove, MoveError
from rules.events import Event, visible_events
from rules.game import GameState
from saves.record import GameRecord

from .client import FINISHED, PLAYING, TableClient, Update, UpdateListeners

__all__ = ["ReplayClient", "ReplayGame", "replay_perspectives"]

Listener = Callable[[Update], None]


@dataclass
class ReplayGame:
    """Every position of a recorded game: ``states[i]`` after ``i`` moves,
    reached by the move whose events are ``events[i]`` (none for the deal).
    ``problem`` says why the replay stops early, if it does."""

    record: GameRecord
    states: list[GameState[Any, Any]] = field(default_factory=list)
    events: list[list[Event]] = field(default_factory=list)
    problem: str = ""

    @classmethod
    def build(cls, record: GameRecord) -> ReplayGame:
        from saves.errors import SaveError

        game = cls(record)
        try:
            spec = record.spec()
            state = spec.new(record.game_config(), record.seed, record.deck_order)
        except (SaveError, ValueError) as err:
            game.problem = f"This game cannot be replayed: {err}"
            return game
        game.states.append(state.copy())
        game.events.append([])
        for i, (seat, text) in enumerate(record.moves):
            try:
                events = state.play_text(seat, text)
            except MoveError as err:
                game.problem = f"Move {i + 1} ({text[:40]}) does not replay: {err}"
                break
            game.states.append(state.copy())
            game.events.append(events)
        return game

    @property
    def finished(self) -> bool:
        return self.record.status == FINISHED

    @property
    def last(self) -> int:
        """The last position (moves played)."""
        return len(self.states) - 1


def replay_perspectives(record: GameRecord) -> list[int | None]:
    """Whose eyes a replay may show, in the order a viewer cycles them: every
    seat and the spectator once the game is over; until then only the seats
    of this computer's people (or the spectator's view if there are none)."""
    if record.status == FINISHED:
        return [*range(len(record.seats)), None]
    people = [i for i, seat in enumerate(record.seats) if seat.kind == "human"]
    return list(people) or [None]


class ReplayClient(TableClient):
    """One perspective on a :class:`ReplayGame`, at a position the viewer moves.

    Nobody may act: updates carry no legal moves, and ``play`` refuses."""

    interactive = False

    def __init__(self, game: ReplayGame, perspective: int | None, position: int) -> None:
        if not game.states:
            raise ValueError(game.problem or "this game has no position to show")
        record = game.record
        self.game = game
        self.game_id = record.game
        self.config = dict(record.config)
        self.preset = record.preset
        self.seats = list(record.seats)
        self.record_id = record.id
        self.perspective = perspective
        self.my_seats = () if perspective is None else (perspective,)
        # the seats this computer's people played (the narration's "you")
        self.people = tuple(i for i, s in enumerate(record.seats) if s.kind == "human")
        self.position = max(0, min(game.last, position))
        self._listeners = UpdateListeners()

    # ------------------------------------------------------------ moving
    def go(self, position: int) -> None:
        """Show ``position`` (clamped to the game); listeners get the update,
        with the events of the move that led there when it is the next one."""
        position = max(0, min(self.game.last, position))
        if position == self.position:
            return
        forward = position == self.position + 1
        self.position = position
        events = self.game.events[position] if forward else []
        self._listeners.tell(self._update(self.perspective, events))

    def _update(self, seat: int | None, events: list[Event]) -> Update:
        state = self.game.states[self.position]
        over = state.is_over
        return Update(
            state_id=self.position,
            seat=seat,
            view=state.view(seat),
            to_act=() if over else state.to_act(),
            scores=state.scores(),
            events=tuple(visible_events(events, seat)),
            status=FINISHED if over else PLAYING,
            result=state.outcome(),
            connected=tuple(range(len(self.seats))),
        )

    # ------------------------------------------------------------ TableClient
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self._listeners.add(listener)

    async def start(self) -> None:
        """Nothing to start: the viewer moves the position."""

    def snapshot(self, seat: int | None) -> Update:
        self._check_mine(seat)
        return self._update(seat, [])

    def history(self, seat: int | None) -> list[Event]:
        self._check_mine(seat)
        happened = [e for events in self.game.events[1 : self.position + 1] for e in events]
        return visible_events(happened, seat)

    async def play(self, seat: int, move: str, state_id: int) -> None:
        raise IllegalMove("this is a replay: nothing can be played")

    async def resign(self, seat: int) -> None:
        raise IllegalMove("this is a replay: nothing can be played")

    async def rematch(self) -> TableClient:
        raise IllegalMove("this is a replay")

    async def idle(self) -> None:
        """Nothing ever thinks in a replay."""

    async def close(self) -> None:
        self._listeners.clear()

    def _check_mine(self, seat: int | None) -> None:
        if seat != self.perspective:
            raise ValueError("a replay shows only the perspective it was opened with")
