"""A Domination position rebuilt from one seat's view (``state_from_view``).

What the view cannot tell (the other hand, the stock's order, the public
facts about the other hand from its failed follows) is left open: every
unseen card may be anywhere, so samples of this state are looser than the
table's own determinize, never better informed."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import SUITS, deal_unseen, deck, parse_card
from ..views import View
from .options import DominationConfig
from .state import ANY_CARD, DominationState
from .view import DominationView


def domination_state_from_view(
    config: DominationConfig, given: View, scores: Sequence[int]
) -> DominationState:
    """The position ``given`` (a Domination view) shows its seat."""
    view = DominationView.read(given)
    seat = view.seat
    if seat is None or view.hand is None:
        raise ValueError("a spectator's view holds no hand to play from")
    state = DominationState(config, 0)
    own = [parse_card(t) for t in view.hand]
    run = [parse_card(t) for t in view.run]
    discards = [0, 0, 0, 0]
    for s, suit in enumerate(SUITS):
        for r in view.discards[suit]:
            discards[s] |= 1 << int(r)
    seen = set(own) | set(run)
    seen.update(s * 16 + r for s in range(4) for r in range(1, 14) if discards[s] >> r & 1)
    unseen = [c for c in deck() if c not in seen]
    state.hands[seat] = own
    state.hands[1 - seat], state.stock = deal_unseen(unseen, view.hand_sizes[1 - seat], view.stock)
    state.hand_facts = [[(len(h), ANY_CARD)] for h in state.hands]
    state.run = run
    start = view.domination_start
    state.dom_start = -1 if start is None else int(start)
    state.discards = discards
    state.points = [int(scores[0]), int(scores[1])]
    state.leader = int(view.leader)
    state.round_no = int(view.round)
    state.resigned = view.resigned
    turn = view.turn
    state.over = turn is None
    state.turn = state.leader if turn is None else int(turn)
    return state
