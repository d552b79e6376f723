"""Territory's spec: the new game, its presets, its words and bounds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..cards import card_text, parse_card, stack_deck
from ..choices import ChoiceGroup
from ..config import chosen_seat
from ..events import Event
from ..figures import Samples
from ..game import GameSpec, GameState, Outcome
from ..registry import CATALOGUE
from ..views import View
from . import figures as territory_figures
from . import words
from .board import (
    CARD_MASK,
    FORT_SHIFT,
    pos_of,
)
from .events import TERRITORY_EVENTS
from .from_view import territory_state_from_view
from .notation import (
    TerritoryMove,
    parse_move,
)
from .options import PRESETS, TerritoryConfig
from .position import parse_diagram, read_position, write_position
from .state import SQUARE, TerritoryState
from .view import TerritoryView

if TYPE_CHECKING:
    from ..bots.roster import GameBots


class TerritorySpec(GameSpec[TerritoryMove, TerritoryConfig]):
    id = "territory"
    computer_ratings: ClassVar[Mapping[str, float]] = {"easy": 25.0, "medium": 37.4, "hard": 40.9}
    title, summary = CATALOGUE["territory"]
    min_players = 2
    max_players = 2
    Config = TerritoryConfig
    view_type = TerritoryView
    event_types = TERRITORY_EVENTS
    presets: ClassVar[dict[str, dict[str, Any]]] = PRESETS
    state_type = TerritoryState

    figures = territory_figures.FIGURES

    def figure_samples(self, seat: int, events: Sequence[Event], outcome: Outcome) -> Samples:
        return territory_figures.figure_samples(seat, events, outcome)

    def new(
        self,
        config: TerritoryConfig | None = None,
        seed: int = 0,
        deck_order: Sequence[str] | None = None,
    ) -> TerritoryState:
        cfg = config or self.config()
        state = TerritoryState(cfg, seed)
        full = cfg.full_deck()
        if deck_order is None:
            cards = full[:]
            state.rng.shuffle(cards)
        else:
            cards = stack_deck(deck_order, full)
        state.first = state.turn = chosen_seat(cfg.first_player, lambda: state.rng.randrange(2))
        # deck order is top first: seat 0's hand, seat 1's, then the square;
        # a royal of Royal Domination is never on the grid, so the square
        # takes the next number cards and the royals met stay on the stock
        h = cfg.hand_size
        state.hands = [cards[:h], cards[h : 2 * h]]
        rest = cards[2 * h :]
        square = [c for c in rest if not cfg.is_royal(c)][:4]
        for (x, y, owner), card in zip(SQUARE, square, strict=True):
            state.grid[pos_of(x, y)] = card | owner << 6
        taken = set(square)
        state.stock = [c for c in rest if c not in taken][::-1]
        state.index_grid()
        return state

    def position(
        self,
        config: TerritoryConfig | None,
        diagram: str,
        hands: Sequence[Sequence[str]],
        *,
        stock: Sequence[str] | None = None,
        discards: Sequence[str] = (),
        turn: int = 0,
        origin: tuple[int, int] = (0, 0),
        seed: int = 0,
    ) -> TerritoryState:
        """A position set up by hand, for tests and puzzles: the grid from a
        diagram (:func:`parse_diagram`), both hands, the discard pile (oldest
        first) and the seat to act, at the start of its turn. ``stock`` (top
        first) None puts every card not named elsewhere on the stock, in the
        deck's fixed order; a list is the whole stock, and the cards not named
        anywhere join the discard pile. ValueError for a card that is not in
        the deck or is named twice."""
        cfg = config or self.config()
        state = TerritoryState(cfg, seed)
        state.grid = parse_diagram(diagram, origin)
        state.hands = [[parse_card(t) for t in hands[0]], [parse_card(t) for t in hands[1]]]
        state.discards = [parse_card(t) for t in discards]
        named = [*state.hands[0], *state.hands[1], *state.discards]
        for cell in state.grid.values():
            named.append(cell & CARD_MASK)
            if cell >> FORT_SHIFT:
                named.append(cell >> FORT_SHIFT)
        left = Counter(cfg.full_deck())
        for card in named + [parse_card(t) for t in stock or ()]:
            if left[card] == 0:
                raise ValueError(f"{card_text(card)} is not in the deck, or is named twice")
            left[card] -= 1
        rest = [c for c in cfg.full_deck() if left[c]]
        if stock is None:
            state.stock = rest[::-1]
        else:
            state.stock = [parse_card(t) for t in stock][::-1]
            state.discards += rest
        state.index_grid()
        state.first = state.turn = turn
        return state

    def parse_game_move(self, text: str) -> TerritoryMove:
        return parse_move(text)

    def bots(self) -> GameBots:
        from .bots import BOTS  # loaded with the first computer: the rules load without the search

        return BOTS

    def write_position(self, state: TerritoryState) -> str:
        return write_position(state)

    def parse_position(self, config: TerritoryConfig, text: str) -> TerritoryState:
        return read_position(config, text)

    def score_label(self, config: TerritoryConfig) -> str:
        # scores() counts the distinct values (A to 10) of each player's best
        # region, as the table's "best 8/10" and the reason's "8 values" do
        return "values in the best region"

    def table_lines(self, view: View, names: Sequence[str], you: Collection[int] = ()) -> list[str]:
        assert isinstance(view, TerritoryView), "this game's tables give its own views"
        return words.table_lines(view, names, you)

    def choice_groups(
        self, config: TerritoryConfig, moves: Sequence[str], view: View
    ) -> list[ChoiceGroup]:
        """By what a move does, then by cell (words.choice_groups)."""
        if not isinstance(view, TerritoryView):
            return []
        return words.choice_groups([parse_move(m) for m in moves], view)

    def move_words_seen(self, config: TerritoryConfig, move: str, view: View) -> str:
        """With the grid known: ``conquer 9| at 2,1 with a 9``."""
        if not isinstance(view, TerritoryView):
            return self.move_words(config, move)
        return words.move_words_on(parse_move(move), words.grid_of(view))

    def move_words(self, config: TerritoryConfig, move: str) -> str:
        """A move in words (words.py): ``explore 7C at 2,-1``; the screen
        names the cards too, as it knows the grid."""
        return words.move_words(parse_move(move))

    def turn_label(self, state: GameState[TerritoryMove, TerritoryConfig], ply: int) -> str:
        # a turn may take several moves (a Blitz's conquests): they share its number
        if not isinstance(state, TerritoryState):
            return super().turn_label(state, ply)
        return f"Turn {state.turn_no}"

    def state_from_view(
        self, config: TerritoryConfig, view: View, scores: Sequence[int]
    ) -> TerritoryState:
        return territory_state_from_view(config, view, scores)

    def rematch_config(self, config: TerritoryConfig, outcome: Outcome) -> TerritoryConfig:
        if outcome.winner is None:
            return config
        return config.replace(first_player=str(1 - outcome.winner))  # the loser starts

    def max_moves(self, config: TerritoryConfig) -> int:
        # Every move but stop and pass takes a card out of a hand for good;
        # a stop ends a turn that took a card, and every pass but the game's
        # last follows a turn that took one.
        return 3 * len(config.full_deck()) + 2


TerritoryState.spec = TerritorySpec()
SPEC = TerritoryState.spec
