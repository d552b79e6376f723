"""A Stress position rebuilt from one seat's view (``state_from_view``).

The view shows every row, the stack, the cemetery, the seat's own hand and
the cards the whole table knows are in each other hand. What it cannot see
(the rest of the other hands, the face-down cards, the stock, and during the
swaps the others' hands and swaps) is dealt here from the cards seen nowhere
else, in the deck's fixed order; ``determinize`` reshuffles them.

What the view does not carry is left open: the public facts about the other
hands (ranks a player who had to pick up cannot hold, see knowledge.py)
become "any rank", and the others' swaps count as not made. Samples of this
state are looser than the table's own, never better informed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..cards import Card, deck, parse_card
from ..views import View
from .knowledge import NO_FACTS, add_unknown
from .options import StressConfig
from .state import PLAY, SWAP, SWAP_LIMIT, StressState, effective_top
from .view import StressView


def stress_state_from_view(config: StressConfig, given: View, scores: Sequence[int]) -> StressState:
    """The position ``given`` (a Stress view) shows its seat."""
    view = StressView.read(given)
    seat = view.seat
    if seat is None or view.hand is None:
        raise ValueError("a spectator's view holds no hand to play from")
    n = config.players
    state = StressState(config, 0)
    cards = _cards
    own = cards(view.hand)
    known = [cards(k) for k in view.known_in_hand]
    rows = [tuple(cards(r)) for r in view.face_up]
    state.stack = cards(view.stack)
    state.cemetery = cards(view.cemetery)
    seen: Counter[Card] = Counter(own)
    for s in range(n):
        seen.update(rows[s])
        if s != seat:
            seen.update(known[s])
    seen.update(state.stack)
    seen.update(state.cemetery)
    left = Counter(deck(copies=config.deck_count))
    left.subtract(seen)
    if any(k < 0 for k in left.values()):
        raise ValueError("the view shows more copies of a card than the decks hold")
    pool: list[Card] = []
    for card in deck(copies=config.deck_count):  # the fixed order, copies counted
        if left[card] > 0:
            pool.append(card)
            left[card] -= 1
    sizes = [int(k) for k in view.hand_sizes]
    downs = [sum(1 for d in row if d) for row in view.face_down]
    unknown = [0 if s == seat else sizes[s] - len(known[s]) for s in range(n)]
    if len(pool) != sum(unknown) + sum(downs) + int(view.stock):
        raise ValueError("the view's card counts do not add up to the decks")
    for s in range(n):
        if s == seat:
            state.hands[s] = own
        else:
            state.hands[s] = known[s] + pool[: unknown[s]]
            del pool[: unknown[s]]
        state.known[s] = tuple(known[s])
        state.facts[s] = add_unknown(NO_FACTS, unknown[s]) if unknown[s] else NO_FACTS
        slots = []
        for face_down in view.face_down[s]:
            slots.append(pool.pop(0) if face_down else 0)
        state.down[s] = tuple(slots)
    state.stock = pool
    state.up = list(rows)
    state.dealt_up = list(rows)  # during the swaps the others show their rows as dealt
    state.dealt_hand = [tuple(h) for h in state.hands]
    state.top = effective_top(state.stack)
    phase = view.phase
    state.over = phase == "over"
    state.phase = SWAP if phase == "swap" else PLAY
    state.ready = [bool(r) for r in view.ready]
    if view.swaps_left is not None:
        state.swaps[seat] = SWAP_LIMIT - int(view.swaps_left)
    state.first = int(view.first_player)
    turn = view.turn
    state.turn = state.first if turn is None else int(turn)
    state.finished = [int(s) for s in view.finished]
    state.resigned = [int(s) for s in view.resigned]
    state.gone = [s in state.finished or s in state.resigned for s in range(n)]
    state.plays = int(view.plays)
    return state


def _cards(texts: Sequence[str]) -> list[Card]:
    return [parse_card(t) for t in texts]
