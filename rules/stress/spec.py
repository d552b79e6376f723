"""Stress's spec: the new game, its presets, its words and bounds."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..cards import deck, stack_deck
from ..choices import ChoiceGroup
from ..config import chosen_seat
from ..events import Event
from ..figures import Samples
from ..game import GameSpec, GameState, Outcome
from ..registry import CATALOGUE
from ..views import View
from . import figures as stress_figures
from . import words
from .events import (
    STRESS_EVENTS,
)
from .from_view import stress_state_from_view
from .notation import (
    FACE_DOWN,
    StressMove,
    parse_move,
)
from .options import CARDS_PER_SEAT, PRESETS, StressConfig
from .position import read_position, write_position
from .state import PLAY_LIMIT, SWAP, SWAP_LIMIT, StressState, effective_top
from .view import StressView

if TYPE_CHECKING:
    from ..bots.roster import GameBots


class StressSpec(GameSpec[StressMove, StressConfig]):
    id = "stress"
    computer_ratings: ClassVar[Mapping[str, float]] = {"easy": 25.0, "medium": 37.0, "hard": 43.0}
    title, summary = CATALOGUE["stress"]
    min_players = 2
    max_players = 8
    Config = StressConfig
    view_type = StressView
    event_types = STRESS_EVENTS
    presets: ClassVar[dict[str, dict[str, Any]]] = PRESETS
    state_type = StressState

    figures = stress_figures.FIGURES

    def figure_samples(self, seat: int, events: Sequence[Event], outcome: Outcome) -> Samples:
        return stress_figures.figure_samples(seat, events, outcome)

    def state_from_view(
        self, config: StressConfig, view: View, scores: Sequence[int]
    ) -> StressState:
        return stress_state_from_view(config, view, scores)

    def new(
        self,
        config: StressConfig | None = None,
        seed: int = 0,
        deck_order: Sequence[str] | None = None,
    ) -> StressState:
        """Deal from the top: each seat in turn takes 4 face down (slots 1-4),
        4 face up and 4 into the hand; the next card starts the stack."""
        cfg = config or self.config()
        n = cfg.players
        state = StressState(cfg, seed)
        full = deck(copies=cfg.deck_count)
        if deck_order is None:
            cards = full
            state.rng.shuffle(cards)
        else:
            cards = stack_deck(deck_order, full)
        state.first = state.turn = chosen_seat(cfg.first_player, lambda: state.rng.randrange(n))
        for s in range(n):
            at = s * CARDS_PER_SEAT
            state.down[s] = tuple(cards[at : at + FACE_DOWN])
            state.up[s] = tuple(cards[at + FACE_DOWN : at + 2 * FACE_DOWN])
            state.hands[s] = cards[at + 2 * FACE_DOWN : at + CARDS_PER_SEAT]
        state.dealt_up = state.up[:]
        state.dealt_hand = [tuple(h) for h in state.hands]
        starter = cards[n * CARDS_PER_SEAT]
        # the starter keeps its rank but nobody played it: no skip, no burn
        state.stack = [starter]
        state.top = effective_top(state.stack)
        state.stock = cards[n * CARDS_PER_SEAT + 1 :][::-1]
        return state

    def parse_game_move(self, text: str) -> StressMove:
        return parse_move(text)

    def bots(self) -> GameBots:
        from .bots import BOTS  # loaded with the first computer: the rules load without the search

        return BOTS

    def write_position(self, state: StressState) -> str:
        return write_position(state)

    def parse_position(self, config: StressConfig, text: str) -> StressState:
        return read_position(config, text)

    def max_moves(self, config: StressConfig) -> int:
        # every seat swaps at most SWAP_LIMIT times and says ready once; then
        # every move is a play, and the game ends at PLAY_LIMIT plays
        return config.players * (SWAP_LIMIT + 1) + PLAY_LIMIT

    def table_lines(self, view: View, names: Sequence[str], you: Collection[int] = ()) -> list[str]:
        assert isinstance(view, StressView), "this game's tables give its own views"
        return words.table_lines(view, names, you)

    def choice_groups(
        self, config: StressConfig, moves: Sequence[str], view: View
    ) -> list[ChoiceGroup]:
        """By what a move does, plays by rank (words.choice_groups)."""
        if not isinstance(view, StressView):
            return []
        return words.choice_groups([self.parse_game_move(m) for m in moves], view)

    def move_words_seen(self, config: StressConfig, move: str, view: View) -> str:
        """With the view: where the cards come from, how big a pick-up is."""
        if not isinstance(view, StressView):
            return self.move_words(config, move)
        return words.move_words(self.parse_move(move), view)

    def move_words(self, config: StressConfig, move: str) -> str:
        return words.move_words(self.parse_move(move))

    def score_label(self, config: StressConfig) -> str:
        return words.SCORE_LABEL

    def turn_label(self, state: GameState[StressMove, StressConfig], ply: int) -> str:
        # the swaps happen at once, before the first turn; then each play is a turn
        if not isinstance(state, StressState):
            return super().turn_label(state, ply)
        return "The swaps" if state.phase == SWAP else f"Turn {state.plays + 1}"

    def rematch_config(self, config: StressConfig, outcome: Outcome) -> StressConfig:
        # whoever came last alone starts the next game
        last = outcome.ranking[-1]
        if len(last) != 1:
            return config
        return config.replace(first_player=str(last[0]))


StressState.spec = StressSpec()
SPEC = StressState.spec
