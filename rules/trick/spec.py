"""Trick's spec: the new game, its presets, its words and bounds."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..choices import ChoiceGroup
from ..config import chosen_seat
from ..events import Event
from ..figures import Samples
from ..game import GameSpec, GameState, Outcome
from ..registry import CATALOGUE
from ..views import View
from . import figures as trick_figures
from . import words as trick_words
from .events import (
    TRICK_EVENTS,
)
from .from_view import trick_state_from_view
from .notation import (
    TrickMove,
    parse_move,
)
from .options import PRESET_LABELS, PRESETS, TrickConfig
from .position import read_position, write_position
from .state import TrickState
from .view import TrickView
from .words import Words, move_words

if TYPE_CHECKING:
    from ..bots.roster import GameBots


class TrickSpec(GameSpec[TrickMove, TrickConfig]):
    id = "trick"
    computer_ratings: ClassVar[Mapping[str, float]] = {"easy": 25.0, "medium": 37.4, "hard": 42.2}
    title, summary = CATALOGUE["trick"]
    min_players = 2
    max_players = 2
    Config = TrickConfig
    view_type = TrickView
    event_types = TRICK_EVENTS
    presets: ClassVar[dict[str, dict[str, Any]]] = PRESETS
    preset_labels: ClassVar[dict[str, str]] = PRESET_LABELS
    state_type = TrickState

    figures = trick_figures.FIGURES

    def figure_samples(self, seat: int, events: Sequence[Event], outcome: Outcome) -> Samples:
        return trick_figures.figure_samples(seat, events, outcome)

    view_move_fields = ("pending", "history", "last_round.moves")
    event_move_fields = ("move", "moves")

    def new(
        self,
        config: TrickConfig | None = None,
        seed: int = 0,
        deck_order: Sequence[str] | None = None,
    ) -> TrickState:
        if deck_order:
            raise ValueError("Five-Card Trick has no deck to order")
        cfg = config or self.config()
        state = TrickState(cfg, seed)
        state.defender = chosen_seat(cfg.defender, lambda: state.rng.randrange(2))
        items = state.pos.items
        if cfg.items == "each":
            items[0] = [1, 1, 1]
            items[1] = [1, 1, 1]
        elif cfg.items == "split":
            # as in the seed's Final Match: one player Overload, the other the other two
            over = state.rng.randrange(2)
            items[over] = [1, 0, 0]
            items[1 - over] = [0, 1, 1]
        return state

    def parse_game_move(self, text: str) -> TrickMove:
        return parse_move(text)

    def bots(self) -> GameBots:
        from .bots import BOTS  # loaded with the first computer: the rules load without the search

        return BOTS

    def write_position(self, state: TrickState) -> str:
        return write_position(state)

    def parse_position(self, config: TrickConfig, text: str) -> TrickState:
        return read_position(config, text)

    def state_from_view(self, config: TrickConfig, view: View, scores: Sequence[int]) -> TrickState:
        return trick_state_from_view(config, view, scores)

    def upgrade_config(self, values: dict[str, Any], version: int) -> dict[str, Any]:
        # format 1 named the defender "1" or "2"; seats now count from 0
        if version < 2 and values.get("defender") in ("1", "2"):
            values = {**values, "defender": str(int(values["defender"]) - 1)}
        return values

    def score_label(self, config: TrickConfig) -> str:
        return "chips"

    def table_lines(self, view: View, names: Sequence[str], you: Collection[int] = ()) -> list[str]:
        assert isinstance(view, TrickView), "this game's tables give its own views"
        return trick_words.table_lines(view, names, you)

    def choice_groups(
        self, config: TrickConfig, moves: Sequence[str], view: View
    ) -> list[ChoiceGroup]:
        """By the first action (words.choice_groups)."""
        return trick_words.choice_groups(moves, Words.of(config.names))

    def move_words(self, config: TrickConfig, move: str) -> str:
        if move.strip() not in ("-", "", "missed", "priority"):  # a view's words for a round
            self.parse_move(move)  # NotationError for what is no move of this game
        return move_words(move, Words.of(config.names))

    def turn_label(self, state: GameState[TrickMove, TrickConfig], ply: int) -> str:
        # a round is two submissions at once: both are of "Round 22"
        if not isinstance(state, TrickState):
            return super().turn_label(state, ply)
        return f"Round {state.pos.round_no}"

    def max_moves(self, config: TrickConfig) -> int:
        # two submissions a round, a round replayed at most `missed_replays`
        # times, and each seat's Claim Priority used at most once
        return config.round_cap * 2 * (config.missed_replays + 1) + 2


TrickState.spec = TrickSpec()
SPEC = TrickState.spec
