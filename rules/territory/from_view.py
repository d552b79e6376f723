"""A Territory position rebuilt from one seat's view (``state_from_view``).

The grid, the discard pile and the seat's own hand are in the view; what it
cannot see is the other hand and the stock, which together hold exactly the
cards of the deck seen nowhere else. They are dealt here in the deck's fixed
order (the other hand first): ``determinize`` reshuffles them, so a sample of
this state is as good as one of the table's own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..cards import deal_unseen, parse_card
from ..views import View
from .board import cell_of, pos_of
from .options import TerritoryConfig
from .state import TerritoryState
from .view import TerritoryView


def territory_state_from_view(
    config: TerritoryConfig, given: View, scores: Sequence[int]
) -> TerritoryState:
    """The position ``given`` (a Territory view) shows its seat (scores follow
    from the grid)."""
    view = TerritoryView.read(given)
    seat = view.seat
    if seat is None or view.hand is None:
        raise ValueError("a spectator's view holds no hand to play from")
    state = TerritoryState(config, 0)
    seen: Counter[int] = Counter()
    for c in view.cells:
        card = parse_card(c.card)
        fort = parse_card(c.fortified_by) if c.fortified_by else 0
        state.grid[pos_of(c.x, c.y)] = cell_of(card, c.owner, fort)
        seen[card] += 1
        if fort:
            seen[fort] += 1
    state.discards = [parse_card(t) for t in view.discards]
    own = [parse_card(t) for t in view.hand]
    seen.update(state.discards)
    seen.update(own)
    left = Counter(config.full_deck())
    left.subtract(seen)
    if any(n < 0 for n in left.values()):
        raise ValueError("the view shows a card the deck does not hold, or one twice")
    unseen = []
    for card in config.full_deck():  # the fixed order; a card may come twice
        if left[card] > 0:
            unseen.append(card)
            left[card] -= 1
    state.hands[seat] = own
    state.hands[1 - seat], state.stock = deal_unseen(unseen, view.hand_sizes[1 - seat], view.stock)
    state.index_grid()
    turn = view.turn
    state.over = turn is None
    state.first = int(view.first_player)
    state.turn = state.first if turn is None else int(turn)
    state.turn_no = int(view.turn_number)
    blitz = view.blitz_from
    state.blitz_at = -1 if blitz is None else pos_of(int(blitz[0]), int(blitz[1]))
    state.passes = int(view.passes)
    state.resigned = view.resigned
    return state
