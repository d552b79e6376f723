"""The game contract every game implements (see docs/architecture.md).

A :class:`GameSpec` describes a game and creates states; a :class:`GameState`
answers who must act, the legal moves of a seat, plays a move (returning
events or raising :class:`~rules.errors.IllegalMove`), says whether the game is
over and how it ended, and gives each seat its :meth:`~GameState.view`. Moves
are small hashable objects whose ``str()`` is the game's notation and which
``spec.parse_move`` reads back.

The table, saves, network, bots and tests speak only this contract.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

from .config import GameConfig
from .errors import IllegalMove, NotationError
from .events import Event

Move = Hashable
M = TypeVar("M", bound=Hashable)
C = TypeVar("C", bound=GameConfig)


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``ranking`` lists groups of tied seats, best first."""

    winner: int | None
    ranking: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    reason: str

    @property
    def is_draw(self) -> bool:
        return self.winner is None and len(self.ranking) == 1

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "ranking": [list(g) for g in self.ranking],
            "scores": list(self.scores),
            "reason": self.reason,
        }

    @classmethod
    def from_scores(cls, scores: Sequence[int], reason: str) -> Outcome:
        """Higher score ranks first; a tie at the top is a draw."""
        levels = sorted(set(scores), reverse=True)
        ranking = tuple(tuple(s for s, v in enumerate(scores) if v == lv) for lv in levels)
        winner = ranking[0][0] if len(ranking[0]) == 1 else None
        return cls(winner, ranking, tuple(scores), reason)


class GameState(ABC, Generic[M, C]):
    """One game in progress. Subclasses keep their fields cheap to copy."""

    spec: ClassVar[GameSpec[Any, Any]]
    config: C
    seed: int

    # --- who acts and what they may do -------------------------------------
    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """Seats that must act now (two at once in a simultaneous round)."""

    @abstractmethod
    def legal_moves(self, seat: int) -> list[M]:
        """Every legal move of ``seat`` now; empty when it need not act."""

    @abstractmethod
    def play(self, seat: int, move: M) -> list[Event]:
        """Apply a move; raise IllegalMove (state unchanged) if it is not legal."""

    def play_text(self, seat: int, text: str) -> list[Event]:
        try:
            move = self.spec.parse_move(text)
        except NotationError as err:
            raise IllegalMove(str(err)) from None
        return self.play(seat, move)

    # --- the end -------------------------------------------------------------
    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    # --- information ---------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know, as JSON-able data; ``None`` is a spectator.

        This is the only way information leaves a state.
        """

    @abstractmethod
    def copy(self) -> Self:
        """An independent copy, cheap enough for search (no deepcopy). A state
        that owns a ``rules.rng.GameRng`` copies it with ``GameRng.copy()``."""

    @abstractmethod
    def determinize(self, seat: int | None, rng: random.Random) -> Self:
        """A copy in which everything ``seat`` cannot see is resampled at random,
        consistently with what it has seen. ``view(seat)`` is unchanged by this;
        bots search such copies, and the contract tests use it to prove that
        views hold nothing hidden."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """Everything in the state, hidden parts included, as JSON-able data.

        For tests and bug reports only (replay must reproduce it exactly, in
        any process: give the RNG as ``rules.rng.rng_fingerprint``, not as a
        ``hash()``); never sent to a seat."""

    def timeout_move(self, seat: int) -> M | None:
        """The move the table plays for ``seat`` when its move timer runs out,
        or None if this game (or these options) has no move timer. When not None
        it is one of ``legal_moves(seat)``: ``play`` accepts exactly the moves
        that ``legal_moves`` lists, so a client can never send a move the rules
        keep for the table."""
        return None

    def hidden_cards(self, seat: int | None) -> Counter[str]:
        """Card texts that ``seat`` must not be able to see now (tests use it).

        A card the seat has watched go somewhere private (a public stack picked
        up into a hand, a face-down card turned up and taken back) is known to
        it, not hidden: views and events may go on naming it. The contract tests
        check that no view or event shows a seat a card hidden from it."""
        return Counter()

    def all_cards(self) -> Counter[str]:
        """Every card in the game, wherever it is (conservation check); empty if
        the game has no cards to conserve."""
        return Counter()

    @property
    def ply(self) -> int:
        """Number of moves played so far."""
        return self._ply  # type: ignore[attr-defined,no-any-return]


class GameSpec(ABC, Generic[M, C]):
    """A game: its id, title, options and presets, and how to start one."""

    id: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    Config: type[C]
    presets: ClassVar[Mapping[str, Mapping[str, Any]]] = {"default": {}}
    # One state type per game; `state_type.spec` points back here.
    state_type: ClassVar[type[GameState[Any, Any]]]

    def config(self, preset: str | None = None, **overrides: Any) -> C:
        """Build a Config from a named preset plus overrides (ValueError if bad)."""
        name = preset or next(iter(self.presets))
        if name not in self.presets:
            raise ValueError(
                f"{self.id} has no preset '{name}'; presets: {', '.join(self.presets)}"
            )
        values = dict(self.presets[name])
        values.update(overrides)
        cfg = self.Config.from_dict(values)
        if not self.min_players <= cfg.players <= self.max_players:
            raise ValueError(
                f"{self.title} takes {self.min_players}-{self.max_players} players, "
                f"not {cfg.players}"
            )
        return cfg

    @abstractmethod
    def new(
        self, config: C | None = None, seed: int = 0, deck_order: Sequence[str] | None = None
    ) -> GameState[M, C]:
        """A new game. ``deck_order`` (card texts, top first) fixes the deal for tests,
        puzzles and bug reports; otherwise the seed shuffles."""

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Read a move's notation; raise NotationError for text that is no move."""

    @abstractmethod
    def max_moves(self, config: C) -> int:
        """A bound: the game ends within this many moves whatever the players do."""

    def rematch_config(self, config: C, outcome: Outcome) -> C:
        """The options of a rematch (e.g. the loser leads); the same by default."""
        return config

    def seat_names(self, config: C) -> list[str]:
        """Default names of the seats, for display."""
        return [f"Player {i + 1}" for i in range(config.players)]

    def replay(
        self,
        config: C,
        seed: int,
        moves: Sequence[tuple[int, str]],
        deck_order: Sequence[str] | None = None,
    ) -> GameState[M, C]:
        """Rebuild a state from its record; IllegalMove if the record is bad."""
        state = self.new(config, seed, deck_order)
        for i, (seat, text) in enumerate(moves):
            try:
                state.play_text(seat, text)
            except IllegalMove as err:
                raise IllegalMove(f"move {i + 1} ({text} by seat {seat}): {err}") from None
        return state
