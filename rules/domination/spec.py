"""Domination's spec: the new game, its presets, its words and bounds."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..cards import deck, stack_deck
from ..config import chosen_seat
from ..events import Event
from ..figures import Samples
from ..game import GameSpec, GameState, Outcome
from ..registry import CATALOGUE
from ..views import View
from . import figures as domination_figures
from . import words as domination_words
from .events import (
    DOMINATION_EVENTS,
)
from .from_view import domination_state_from_view
from .notation import DominationMove, parse_move
from .options import PRESETS, DominationConfig
from .position import read_position, write_position
from .state import DominationState
from .view import DominationView

if TYPE_CHECKING:
    from ..bots.roster import GameBots


class DominationSpec(GameSpec[DominationMove, DominationConfig]):
    id = "domination"
    computer_ratings: ClassVar[Mapping[str, float]] = {"easy": 25.0, "medium": 28.9, "hard": 30.0}
    title, summary = CATALOGUE["domination"]
    min_players = 2
    max_players = 2
    Config = DominationConfig
    view_type = DominationView
    event_types = DOMINATION_EVENTS
    presets: ClassVar[dict[str, dict[str, Any]]] = PRESETS
    state_type = DominationState

    figures = domination_figures.FIGURES

    def score_target(self, config: DominationConfig) -> int | None:
        return config.target_score or None

    def figure_samples(self, seat: int, events: Sequence[Event], outcome: Outcome) -> Samples:
        return domination_figures.figure_samples(seat, events)

    def new(
        self,
        config: DominationConfig | None = None,
        seed: int = 0,
        deck_order: Sequence[str] | None = None,
    ) -> DominationState:
        cfg = config or self.config()
        state = DominationState(cfg, seed)
        if deck_order is None:
            cards = deck()
            state.rng.shuffle(cards)
        else:
            cards = stack_deck(deck_order, deck())
        state.leader = chosen_seat(cfg.first_leader, lambda: state.rng.randrange(2))
        state.turn = state.leader
        # deck order is top first: seat 1 takes the top five, seat 2 the next
        # five, and the rest is the stock, whose top is the end of our list
        state.hands = [cards[0:5], cards[5:10]]
        state.stock = cards[10:][::-1]
        return state

    def parse_game_move(self, text: str) -> DominationMove:
        return parse_move(text)

    def bots(self) -> GameBots:
        from .bots import BOTS  # loaded with the first computer: the rules load without the search

        return BOTS

    def write_position(self, state: DominationState) -> str:
        return write_position(state)

    def parse_position(self, config: DominationConfig, text: str) -> DominationState:
        return read_position(config, text)

    def rematch_config(self, config: DominationConfig, outcome: Outcome) -> DominationConfig:
        if outcome.winner is None:
            return config
        return config.replace(first_leader=str(1 - outcome.winner))  # the loser leads

    def state_from_view(
        self, config: DominationConfig, given: View, scores: Sequence[int]
    ) -> DominationState:
        return domination_state_from_view(config, given, scores)

    def upgrade_config(self, values: dict[str, Any], version: int) -> dict[str, Any]:
        # format 1 named the first leader "1" or "2"; seats now count from 0
        if version < 2 and values.get("first_leader") in ("1", "2"):
            values = {**values, "first_leader": str(int(values["first_leader"]) - 1)}
        return values

    def table_lines(self, view: View, names: Sequence[str], you: Collection[int] = ()) -> list[str]:
        assert isinstance(view, DominationView), "a Domination table gives Domination views"
        return domination_words.table_lines(view, names, you)

    def move_words(self, config: DominationConfig, move: str) -> str:
        self.parse_move(move)  # NotationError for what is no move of this game
        return domination_words.move_words(move)

    def turn_label(self, state: GameState[DominationMove, DominationConfig], ply: int) -> str:
        if not isinstance(state, DominationState):
            return super().turn_label(state, ply)
        return domination_words.turn_label(state.round_no, len(state.run))

    def max_moves(self, config: DominationConfig) -> int:
        # a round uses at most the 10 cards in hand plus a concession, and every
        # round scores at least 1 point for its winner
        per_round = 11
        bound_rounds = 0
        if config.target_score:
            bound_rounds = 2 * config.target_score - 1
        if config.rounds:
            r = config.rounds + 1  # a tie is broken by the next round's points
            bound_rounds = min(bound_rounds, r) if bound_rounds else r
        return bound_rounds * per_round


DominationState.spec = DominationSpec()
SPEC = DominationState.spec
