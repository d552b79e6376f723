"""The stress game state: the deal, the swaps, the play, views and sampling.

Cards are ints (``rules.cards``). Per seat the state keeps the hand (a list),
the face-up row and the face-down row (tuples, replaced when they change, so
that a copy shares them), and what the table knows of the hand
(``knowledge``). The face-down row keeps its four slots: a card played leaves
a 0, so "face-down card 2" names the same card all game.

The swap phase is simultaneous: every seat not yet ready acts. Until all are
ready, the others see the face-up rows as dealt (``dealt_up``) and nothing of
anyone's swaps; then the final rows are shown to all.

Speed matters (search bots play thousands of random moves a second): the
effective top of the stack is kept as a rank (``top``, 0 = anything goes),
which ranks may follow it is a table lookup (``FOLLOWS``), and moves are
shared objects (``notation``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Self

from ..cards import Card, card_text
from ..errors import IllegalMove
from ..events import Event, SeatEvent, cards_drawn
from ..game import SAMPLE_SEED, GameState, MoveClock, Outcome
from ..rng import GameRng
from .events import (
    BlindCard,
    Burned,
    CardsPlayed,
    FaceUpRevealed,
    Finished,
    GameOver,
    PickedUp,
    Swapped,
)
from .knowledge import NO_FACTS, Facts, add_unknown, charge, deal_within, exclude
from .notation import (
    BLINDS,
    PICKUP,
    READY,
    SINGLE,
    SWAPS,
    Blind,
    PickUp,
    Play,
    Ready,
    StressMove,
    Swap,
    plays_of,
)
from .options import StressConfig
from .view import StressView

if TYPE_CHECKING:
    from .spec import StressSpec

HAND_SIZE = 4  # the hand is refilled to this; also cards dealt face up and face down
PLAY_LIMIT = 2000  # RULINGS.md: a game that passes 2,000 plays ends
CAP_REASON = f"the game passed {PLAY_LIMIT:,} plays: the rest ranked by cards left"
# Any arrangement of the eight cards is four swaps away; the limit only keeps
# the game bounded (max_moves) and is far above what anyone needs.
SWAP_LIMIT = 8

SWAP, PLAY = 0, 1
HAND, UP, DOWN = "hand", "face_up", "face_down"

# Order 2 < 3 < ... < 10 < J < Q < K < A: the strength of each rank (A = 1).
POWER = (0, 14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0, 0)
ANY = sum(1 << r for r in range(1, 14))
RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
# card text by card int (a list: indexing beats a dict lookup on hot paths)
TEXT = [card_text(c) if 1 <= c & 15 <= 13 else "" for c in range(64)]


def _follows(top: int, ten_wild: bool) -> int:
    """The ranks that may be played on an effective top of rank ``top`` (0: anything)."""
    if top == 0:
        return ANY
    mask = 1 << 2 | 1 << 3
    for r in range(1, 14):
        below_nine = POWER[r] < 9
        if (below_nine if top == 9 else POWER[r] >= POWER[top]) or (ten_wild and r == 10):
            mask |= 1 << r
    return mask


# FOLLOWS[ten_wild][top]: a bit per rank that may follow
FOLLOWS = tuple(tuple(_follows(t, w) for t in range(14)) for w in (False, True))


@cache
def _ranks_text(mask: int) -> list[str]:
    """Rank names in a mask, weakest first (2 ... A); shared: copy before handing out."""
    return [RANK_NAMES[r] for r in sorted(range(1, 14), key=POWER.__getitem__) if mask >> r & 1]


def effective_top(stack: Sequence[Card]) -> int:
    """The rank that the next play must beat, seen through 3s: 0 when anything
    goes (an empty stack, a 2, or nothing but 3s)."""
    for c in reversed(stack):
        r = c & 15
        if r != 3:
            return 0 if r == 2 else r
    return 0


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def _texts(cards: Sequence[Card]) -> list[str]:
    return [TEXT[c] for c in cards]


def _sort_key(card: Card) -> tuple[int, int]:
    return (POWER[card & 15], card >> 4)


def _without(cards: Sequence[Card], gone: Sequence[Card]) -> list[Card]:
    """``cards`` minus ``gone``, copies counted (a multiset difference)."""
    left = list(cards)
    for c in gone:
        if c in left:
            left.remove(c)
    return left


class StressState(GameState[StressMove, StressConfig]):
    __slots__ = (
        "_ply",
        "cemetery",
        "config",
        "dealt_hand",
        "dealt_up",
        "down",
        "end_reason",
        "facts",
        "finished",
        "first",
        "follows",
        "gone",
        "hands",
        "known",
        "over",
        "phase",
        "plays",
        "ready",
        "resigned",
        "rng",
        "rng_print",
        "seed",
        "stack",
        "stock",
        "swaps",
        "top",
        "turn",
        "up",
    )
    # facts: what pick-ups showed; dealt_up: the rows everybody saw dealt
    public_memory = ("_ply", "dealt_up", "facts")

    spec: ClassVar[StressSpec]

    def __init__(self, config: StressConfig, seed: int) -> None:
        n = config.players
        self.config = config
        self.seed = seed
        self.rng = GameRng(seed)
        self.rng_print: str | None = None  # the RNG's fingerprint, once asked for
        self.follows = FOLLOWS[config.ten_wild]
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.up: list[tuple[Card, ...]] = [()] * n
        self.dealt_up: list[tuple[Card, ...]] = [()] * n
        # the hand as dealt: until the swaps are shown, what the others cannot see
        # of a seat (its hand and row, less the row as dealt) is exactly this
        self.dealt_hand: list[tuple[Card, ...]] = [()] * n
        self.down: list[tuple[Card, ...]] = [()] * n  # 0 = a slot already played
        self.known: list[tuple[Card, ...]] = [()] * n
        self.facts: list[Facts] = [NO_FACTS] * n
        self.stock: list[Card] = []  # the top of the stock is the end of the list
        self.stack: list[Card] = []  # bottom first
        self.top = 0  # the effective top's rank, through 3s; 0: anything may be played
        self.cemetery: list[Card] = []
        self.phase = SWAP
        self.ready = [False] * n
        self.swaps = [0] * n
        self.first = 0
        self.turn = 0
        self.gone = [False] * n  # finished or resigned
        self.finished: list[int] = []
        self.resigned: list[int] = []
        self.plays = 0
        self.over = False
        self.end_reason = ""
        self._ply = 0

    # ------------------------------------------------------------------ copy
    def copy(self) -> Self:
        return self._clone(self.rng.copy())

    def _clone(self, rng: GameRng) -> Self:
        new = object.__new__(type(self))
        new.config = self.config
        new.seed = self.seed
        new.rng = rng
        new.rng_print = self.rng_print  # a copy's RNG draws what this one would
        new.follows = self.follows
        new.hands = [h[:] for h in self.hands]
        # rows, knowledge and facts are tuples, replaced when they change
        new.up = self.up[:]
        new.dealt_up = self.dealt_up
        new.dealt_hand = self.dealt_hand
        new.down = self.down[:]
        new.known = self.known[:]
        new.facts = self.facts[:]
        new.stock = self.stock[:]
        new.stack = self.stack[:]
        new.top = self.top
        new.cemetery = self.cemetery[:]
        new.phase = self.phase
        new.ready = self.ready[:]
        new.swaps = self.swaps[:]
        new.first = self.first
        new.turn = self.turn
        new.gone = self.gone[:]
        new.finished = self.finished[:]
        new.resigned = self.resigned[:]
        new.plays = self.plays
        new.over = self.over
        new.end_reason = self.end_reason
        new._ply = self._ply
        return new

    # ------------------------------------------------------------ who acts
    def to_act(self) -> tuple[int, ...]:
        if self.over:
            return ()
        if self.phase == PLAY:
            return (self.turn,)
        ready, gone = self.ready, self.gone
        return tuple(s for s in range(self.config.players) if not ready[s] and not gone[s])

    def source(self, seat: int) -> str | None:
        """Where ``seat`` plays from now: hand, face_up, face_down, or None (no cards)."""
        if self.hands[seat]:
            return HAND
        if self.up[seat]:
            return UP
        if any(self.down[seat]):
            return DOWN
        return None

    def cards_left(self, seat: int) -> int:
        return len(self.hands[seat]) + len(self.up[seat]) + sum(1 for c in self.down[seat] if c)

    def legal_moves(self, seat: int) -> list[StressMove]:
        if self.over:
            return []
        if self.phase == SWAP:
            return self._swap_moves(seat)
        if seat != self.turn:
            return []
        follows = self.follows[self.top]
        cards = self.hands[seat] or self.up[seat]
        if not cards:
            moves: list[StressMove] = [BLINDS[i] for i, c in enumerate(self.down[seat]) if c]
            if self.config.allow_voluntary_pickup and self.stack:
                moves.append(PICKUP)
            return moves
        moves = []
        by_rank: dict[int, list[Card]] = {}
        for c in cards:
            if follows >> (c & 15) & 1:
                same = by_rank.get(c & 15)
                if same is None:
                    by_rank[c & 15] = [c]
                else:
                    same.append(c)
        for same in by_rank.values():
            if len(same) == 1:
                moves.append(SINGLE[same[0]])
            else:
                same.sort()
                moves.extend(plays_of(tuple(same)))
        if not moves or (self.config.allow_voluntary_pickup and self.stack):
            moves.append(PICKUP)
        return moves

    def _swap_moves(self, seat: int) -> list[StressMove]:
        if self.ready[seat] or self.gone[seat]:
            return []
        if self.swaps[seat] >= SWAP_LIMIT:
            return [READY]
        up = self.up[seat]
        moves: list[StressMove] = []
        for h in sorted(set(self.hands[seat])):
            moves.extend(SWAPS[(h, u)] for u in sorted(set(up)) if u != h)
        moves.append(READY)
        return moves

    def _can_play(self, seat: int) -> bool:
        follows = self.follows[self.top]
        return any(follows >> (c & 15) & 1 for c in self.hands[seat] or self.up[seat])

    # ------------------------------------------------------------ the moves
    def play_move(self, seat: int, move: StressMove) -> list[Event]:
        if self.gone[seat]:
            raise IllegalMove(self._why_gone(seat))
        kind = type(move)
        if self.phase == SWAP:
            if kind is Swap:
                return self._swap(seat, move)  # type: ignore[arg-type]
            if kind is Ready:
                return self._ready(seat)
            raise IllegalMove(
                "before the first turn you may only swap a hand card with a face-up card "
                "('swap 7H QS') or say 'ready'"
            )
        if seat != self.turn:
            raise IllegalMove("it is not your turn")
        if kind is Play:
            return self._play_cards(seat, move.cards)  # type: ignore[union-attr]
        if kind is Blind:
            return self._play_blind(seat, move.position)  # type: ignore[union-attr]
        if kind is PickUp:
            return self._pick_up(seat)
        if kind is Swap or kind is Ready:
            raise IllegalMove("the swaps are over: play a card or pick up the stack")
        raise IllegalMove("that is not a move of stress")

    def advance(self, seat: int, move: StressMove) -> None:
        # play_move's own steps with events=None: no checks, no narration, and
        # no table knowledge kept (``known`` and ``facts`` go stale: a state
        # advanced this way is never sampled from)
        kind = type(move)
        if kind is Play:
            cards: tuple[Card, ...] = move.cards  # type: ignore[union-attr]
            hand = self.hands[seat]
            if hand:
                for c in cards:
                    hand.remove(c)
            else:
                self.up[seat] = tuple(_without(self.up[seat], cards))
            self._land(seat, cards, cards[0] & 15, None)
        elif kind is Blind:
            self._turn_up(seat, move.position, None)  # type: ignore[union-attr]
        elif kind is PickUp:
            self._take_stack(seat, None)
        elif kind is Swap:
            self._exchange(seat, move.hand_card, move.up_card)  # type: ignore[union-attr]
        else:
            self.ready[seat] = True
            self._ply += 1
            self._start_play_if_all_ready(None)

    def _why_gone(self, seat: int) -> str:
        if seat in self.resigned:
            return "you have resigned"
        return "you have finished: you have no cards left to play"

    # swaps ----------------------------------------------------------------------
    def _swap(self, seat: int, move: Swap) -> list[Event]:
        if self.ready[seat]:
            raise IllegalMove("you are ready: wait for the others")
        if self.swaps[seat] >= SWAP_LIMIT:
            raise IllegalMove(f"you have swapped {SWAP_LIMIT} times, the most allowed: say ready")
        h, u = move.hand_card, move.up_card
        hand, up = self.hands[seat], self.up[seat]
        if h not in hand:
            raise IllegalMove(f"{TEXT[h]} is not in your hand")
        if u not in up:
            raise IllegalMove(f"{TEXT[u]} is not among your face-up cards")
        if h == u:
            raise IllegalMove("swapping a card for its twin changes nothing")
        self._exchange(seat, h, u)
        text = (
            f"{{p{seat} takes|take}} {TEXT[u]} into the hand "
            f"and {{p{seat}:puts|put}} {TEXT[h]} face up."
        )
        data = Swapped(seat=seat, hand_card=TEXT[h], up_card=TEXT[u])
        # nothing for the others: a seat's swaps stay secret until all are ready
        return [Event("swap", text, data, private_to=seat)]

    def _exchange(self, seat: int, h: Card, u: Card) -> None:
        """Hand card ``h`` goes face up in the place of ``u``, which goes to the hand."""
        hand = self.hands[seat]
        hand[hand.index(h)] = u
        row = list(self.up[seat])
        row[row.index(u)] = h  # the new card takes the old one's place in the row
        self.up[seat] = tuple(row)
        self.swaps[seat] += 1
        self._ply += 1

    def _ready(self, seat: int) -> list[Event]:
        if self.ready[seat]:
            raise IllegalMove("you are ready already: wait for the others")
        self.ready[seat] = True
        self._ply += 1
        events = [Event("ready", f"{{p{seat} is|are}} ready.", SeatEvent(seat=seat))]
        self._start_play_if_all_ready(events)
        return events

    def _start_play_if_all_ready(self, events: list[Event] | None) -> None:
        n = self.config.players
        if any(not self.ready[s] and not self.gone[s] for s in range(n)):
            return
        self.phase = PLAY
        for s in range(n):
            # everyone saw the dealt row: what left it is now known to be in the hand
            known = _without(self.dealt_up[s], self.up[s])
            self.known[s] = tuple(known)
            unknown = len(self.hands[s]) - len(known)
            self.facts[s] = add_unknown(NO_FACTS, unknown) if unknown else NO_FACTS
        self.turn = self.first if not self.gone[self.first] else self._next_active(self.first)
        if events is None:
            return
        rows = [_texts(r) for r in self.up]
        shown = "; ".join(
            f"{{p{s}}} {' '.join(row) or '-'}" for s, row in enumerate(rows) if not self.gone[s]
        )
        events.append(
            Event("reveal", f"Everyone is ready. Face up: {shown}.", FaceUpRevealed(face_up=rows))
        )
        events.append(
            Event("turn", f"{{p{self.turn} plays|play}} first.", SeatEvent(seat=self.turn))
        )

    # plays ------------------------------------------------------------------------
    def _play_cards(self, seat: int, cards: tuple[Card, ...]) -> list[Event]:
        hand = self.hands[seat]
        source = HAND if hand else UP
        held: Sequence[Card] = hand if hand else self.up[seat]
        if not held:
            raise IllegalMove(
                "your hand and face-up cards are played: turn up a face-down card ('blind 1')"
            )
        r = cards[0] & 15
        if len(cards) == 1:
            if cards[0] not in held:
                raise IllegalMove(self._not_held(seat, cards[0], source))
        else:
            for c in cards:
                if (c & 15) != r:
                    raise IllegalMove("the cards of one play share a rank")
                if held.count(c) < cards.count(c):
                    raise IllegalMove(self._not_held(seat, c, source))
        if not self.follows[self.top] >> r & 1:
            raise IllegalMove(self._why_not(r))
        if source is HAND:
            known = self.known[seat]
            facts = self.facts[seat]
            for c in cards:
                hand.remove(c)
                if c in known:
                    known = tuple(_without(known, (c,)))
                else:
                    facts = charge(facts, c)
            self.known[seat] = known
            self.facts[seat] = facts
        else:
            self.up[seat] = tuple(_without(self.up[seat], cards))
        texts = _texts(cards)
        where = "" if source is HAND else " from the face-up cards"
        events = [
            Event(
                "play",
                f"{{p{seat} plays|play}} {' '.join(texts)}{where}.",
                CardsPlayed(seat=seat, cards=texts, source=source),
            )
        ]
        self._land(seat, cards, r, events)
        return events

    def _not_held(self, seat: int, card: Card, source: str) -> str:
        if source is HAND:
            if card in self.up[seat]:
                return f"{TEXT[card]} is face up: play your hand first"
            return f"{TEXT[card]} is not in your hand"
        return f"{TEXT[card]} is not among your face-up cards"

    def _why_not(self, r: int) -> str:
        top = RANK_NAMES[self.top]
        if self.top == 9:
            return f"a 9 is on top: play a rank below 9 (or a 2 or a 3), not a {RANK_NAMES[r]}"
        return (
            f"a {RANK_NAMES[r]} may not go on a {top}: play a {top} or higher, a 2 or a 3, "
            "or pick up the stack"
        )

    def _play_blind(self, seat: int, position: int) -> list[Event]:
        if self.hands[seat] or self.up[seat]:
            where = "hand" if self.hands[seat] else "face-up cards"
            raise IllegalMove(f"play your {where} first: face-down cards come last")
        if not self.down[seat][position - 1]:
            raise IllegalMove(f"your face-down card {position} is already played")
        events: list[Event] = []
        self._turn_up(seat, position, events)
        return events

    def _turn_up(self, seat: int, position: int, events: list[Event] | None) -> None:
        """Face-down card ``position`` is played: on the stack if it follows, else
        onto the stack and the stack into the hand."""
        row = self.down[seat]
        i = position - 1
        card = row[i]
        self.down[seat] = (*row[:i], 0, *row[i + 1 :])
        r = card & 15
        follows = self.follows[self.top] >> r & 1
        if events is not None:
            text = TEXT[card]
            data = BlindCard(seat=seat, card=text, position=position)
            said = f"{{p{seat} turns|turn}} up face-down card {position}: {text}"
            if follows:
                events.append(Event("blind", f"{said}.", data))
            else:
                events.append(
                    Event(
                        "blind_fails",
                        f"{said}, which cannot be played. It goes on the stack, and the stack "
                        "into the hand.",
                        data,
                    )
                )
        if follows:
            self._land(seat, (card,), r, events)
        else:
            self.stack.append(card)
            self._take_stack(seat, events)

    def _pick_up(self, seat: int) -> list[Event]:
        if not self.stack:
            raise IllegalMove("the stack is empty: play any card")
        voluntary = self.config.allow_voluntary_pickup
        if not voluntary:
            if not self.hands[seat] and not self.up[seat]:
                raise IllegalMove(
                    "turn up a face-down card ('blind 1'): only a card that fails is picked up"
                )
            if self._can_play(seat):
                raise IllegalMove("you can play, so you may not pick up the stack")
            if self.hands[seat]:
                # everyone now knows that no card in this hand could go on the stack
                self.facts[seat] = exclude(self.facts[seat], self.follows[self.top])
        events: list[Event] = []
        self._take_stack(seat, events)
        return events

    def _take_stack(self, seat: int, events: list[Event] | None) -> None:
        """``seat`` picks up the stack (``events`` None: for search, unnarrated
        and without the table's knowledge of hands)."""
        stack = self.stack
        self.hands[seat].extend(stack)
        self.stack = []
        self.top = 0
        self.plays += 1
        self._ply += 1
        nxt = self._next_active(seat)
        self.turn = nxt
        if events is not None:
            self.known[seat] += tuple(stack)
            count = len(stack)
            events.append(
                Event(
                    "pickup",
                    f"{{p{seat} picks|pick}} up the stack "
                    f"({count} card{'s' if count != 1 else ''}). "
                    f"{{p{nxt} starts|start}} a new stack.",
                    PickedUp(seat=seat, cards=_texts(stack), next=nxt),
                )
            )
        if self.plays >= PLAY_LIMIT:
            self._end_by_cap(events)

    def _land(self, seat: int, cards: tuple[Card, ...], r: int, events: list[Event] | None) -> None:
        """Cards of rank ``r`` just went on the stack from ``seat``: refill, burn,
        finish, skip, and pass the turn (``events`` None: for search, unnarrated
        and without the table's knowledge of hands)."""
        self.plays += 1
        self._ply += 1
        stack = self.stack
        stack.extend(cards)
        if r != 3:  # a 3 is see-through: the top stays what it was
            self.top = 0 if r == 2 else r
        if self.stock and len(self.hands[seat]) < HAND_SIZE:
            self._refill(seat, events)
        if r == 10:
            self.cemetery.extend(stack)
            count = len(stack)
            self.stack = []
            self.top = 0
            if events is not None:
                events.append(
                    Event(
                        "burn",
                        f"The 10 burns the stack: {count} "
                        f"card{'s go' if count != 1 else ' goes'} to the cemetery.",
                        Burned(seat=seat, count=count),
                    )
                )
        if not self.hands[seat] and not self.up[seat] and not any(self.down[seat]):
            self._finish(seat, events)
            if self.over:
                return
        elif r == 10:
            if events is not None:
                events.append(
                    Event("again", f"{{p{seat} starts|start}} a new stack.", SeatEvent(seat=seat))
                )
            if self.plays >= PLAY_LIMIT:
                self._end_by_cap(events)
            return
        nxt = self._next_active(seat)
        if r == 8:
            for _ in range(len(cards) if self.config.skip_per_eight else 1):
                if events is not None:
                    events.append(
                        Event("skip", f"{{p{nxt} misses|miss}} a turn.", SeatEvent(seat=nxt))
                    )
                nxt = self._next_active(nxt)
        self.turn = nxt
        if self.plays >= PLAY_LIMIT:
            self._end_by_cap(events)

    def _refill(self, seat: int, events: list[Event] | None) -> None:
        hand, stock = self.hands[seat], self.stock
        k = 1 if self.config.draw_one_per_turn else min(HAND_SIZE - len(hand), len(stock))
        drawn = stock[-k:]
        drawn.reverse()
        del stock[-k:]
        hand.extend(drawn)
        if events is None:
            return
        self.facts[seat] = add_unknown(self.facts[seat], k)
        texts = _texts(drawn)
        events.append(cards_drawn(seat, texts))

    def _next_active(self, seat: int) -> int:
        gone, n = self.gone, self.config.players
        s = (seat + 1) % n
        while gone[s]:
            s = (s + 1) % n
        return s

    # the end ----------------------------------------------------------------------
    def _finish(self, seat: int, events: list[Event] | None) -> None:
        self.finished.append(seat)
        self.gone[seat] = True
        place = len(self.finished)
        if events is not None:
            events.append(
                Event(
                    "finish",
                    f"{{p{seat} has|have}} played every card "
                    f"and {{p{seat}:finishes|finish}} {_ordinal(place)}.",
                    Finished(seat=seat, place=place),
                )
            )
        active = [s for s in range(self.config.players) if not self.gone[s]]
        if self.config.stop_at_first:
            self._end(f"{{p{seat}}} finished first", events)
        elif len(active) <= 1:
            last = f"{{p{active[0]} is|are}} left holding cards" if active else "everyone is out"
            self._end(f"{{p{self.finished[0]}}} finished first; {last}", events)

    def _end_by_cap(self, events: list[Event] | None) -> None:
        self._end(CAP_REASON, events)

    def _end(self, reason: str, events: list[Event] | None) -> None:
        self.over = True
        self.end_reason = reason
        outcome = self.outcome()
        assert outcome is not None
        if events is not None:
            order = ", ".join(" and ".join(f"{{p{s}}}" for s in group) for group in outcome.ranking)
            events.append(
                Event(
                    "game_over",
                    f"Game over: {reason}. Order: {order}.",
                    GameOver(
                        ranking=[list(g) for g in outcome.ranking], scores=list(outcome.scores)
                    ),
                )
            )

    def resign(self, seat: int) -> list[Event]:
        if self.gone[seat]:
            raise IllegalMove(self._why_gone(seat))
        self._ply += 1
        self.resigned.append(seat)
        self.gone[seat] = True
        events = [
            Event(
                "resign",
                f"{{p{seat} resigns|resign}}; {{p{seat}:their|your}} cards stay where they are, "
                "out of play.",
                SeatEvent(seat=seat),
            )
        ]
        active = [s for s in range(self.config.players) if not self.gone[s]]
        if len(active) <= 1:
            self._end(f"{{p{seat}}} resigned", events)
        elif self.phase == SWAP:
            self._start_play_if_all_ready(events)
        elif self.turn == seat:
            self.turn = self._next_active(seat)
            events.append(
                Event("turn", f"{{p{self.turn} plays|play}} next.", SeatEvent(seat=self.turn))
            )
        return events

    @property
    def is_over(self) -> bool:
        return self.over

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        scores = self.scores()
        ranking: list[tuple[int, ...]] = [(s,) for s in self.finished]
        playing = [s for s in range(self.config.players) if not self.gone[s]]
        for left in sorted({scores[s] for s in playing}):
            ranking.append(tuple(s for s in playing if scores[s] == left))
        ranking += [(s,) for s in reversed(self.resigned)]
        winner = ranking[0][0] if len(ranking[0]) == 1 else None
        return Outcome(winner, tuple(ranking), scores, self.end_reason)

    def stopped_by_limit(self) -> str | None:
        # the reason is part of the state (copied, saved in snapshots and
        # position texts), so it tells a capped game from one that finished
        # on its 2,000th play without a flag of its own
        if self.over and self.end_reason == CAP_REASON:
            return f"the {PLAY_LIMIT:,}-play limit (ranked by cards left)"
        return None

    def scores(self) -> tuple[int, ...]:
        """Cards still held per seat (hand, face up and face down): fewer is better."""
        return tuple(self.cards_left(s) for s in range(self.config.players))

    def clock(self, seat: int) -> MoveClock | None:
        cfg = self.config
        if not cfg.timer or self.over:
            return None
        if self.phase == SWAP:
            if self.ready[seat] or self.gone[seat]:
                return None
            return MoveClock(float(cfg.swap_timer), READY, "swaps")
        if seat != self.turn:
            return None
        # every move of the play phase is a turn of its own (a 10 gives a new one)
        return MoveClock(float(cfg.timer), self.cheapest_move(seat), self.plays)

    def cheapest_move(self, seat: int) -> StressMove:
        """The move the clock makes: the weakest single card that is not a 2, 3
        or 10 if there is one, else the weakest special; otherwise the first
        face-down card, or picking up."""
        moves = self.legal_moves(seat)
        plays = [m for m in moves if type(m) is Play and len(m.cards) == 1]
        if plays:
            return min(plays, key=lambda m: (m.rank in (2, 3, 10), _sort_key(m.cards[0])))
        return moves[0]

    # ----------------------------------------------------------- information
    def view(self, seat: int | None) -> StressView:
        n = self.config.players
        over = self.over
        playing = self.phase == PLAY
        up, gone = self.up, self.gone
        rows = up if playing else [up[s] if s == seat else self.dealt_up[s] for s in range(n)]
        sources = []
        for s in range(n):
            if gone[s]:
                sources.append("resigned" if s in self.resigned else "finished")
            else:
                sources.append(self.source(s) or "finished")
        top = self.top
        effective = None
        if top:
            effective = next(TEXT[c] for c in reversed(self.stack) if c & 15 != 3)
        cfg = self.config
        hand = swaps_left = None  # a seat's own view only
        if seat is not None:
            hand = [TEXT[c] for c in sorted(self.hands[seat], key=_sort_key)]
            if not playing and not over:
                swaps_left = max(0, SWAP_LIMIT - self.swaps[seat])
        return StressView(
            game="stress",
            seat=seat,
            phase="over" if over else "play" if playing else "swap",
            players=n,
            decks=cfg.deck_count,
            first_player=self.first,
            turn=self.turn if playing and not over else None,
            hand_sizes=[len(h) for h in self.hands],
            known_in_hand=[[TEXT[c] for c in sorted(k, key=_sort_key)] for k in self.known],
            face_up=[[TEXT[c] for c in r] for r in rows],
            face_down=[[c != 0 for c in r] for r in self.down],
            sources=sources,
            stock=len(self.stock),
            stack=[TEXT[c] for c in self.stack],
            top=effective,
            allowed_ranks=_ranks_text(self.follows[top])[:],
            cemetery=[TEXT[c] for c in self.cemetery],
            ready=[True] * n if playing or over else self.ready[:],
            finished=self.finished[:],
            resigned=self.resigned[:],
            plays=self.plays,
            play_limit=PLAY_LIMIT,
            rules={
                "ten_wild": cfg.ten_wild,
                "skip_per_eight": cfg.skip_per_eight,
                "allow_voluntary_pickup": cfg.allow_voluntary_pickup,
                "draw_one_per_turn": cfg.draw_one_per_turn,
                "stop_at_first": cfg.stop_at_first,
            },
            hand=hand,
            swaps_left=swaps_left,
        )

    def snapshot(self) -> dict[str, Any]:
        if self.rng_print is None:
            # the state draws only while dealing: one fingerprint serves it for life
            self.rng_print = self.rng.fingerprint()
        return {
            "hands": [[TEXT[c] for c in h] for h in self.hands],
            "face_up": [[TEXT[c] for c in r] for r in self.up],
            "dealt_up": [[TEXT[c] for c in r] for r in self.dealt_up],
            "dealt_hand": [[TEXT[c] for c in r] for r in self.dealt_hand],
            "face_down": [[TEXT[c] if c else None for c in r] for r in self.down],
            "known": [[TEXT[c] for c in k] for k in self.known],
            "facts": [[list(g) for g in f] for f in self.facts],
            "stock": [TEXT[c] for c in self.stock],
            "stack": [TEXT[c] for c in self.stack],
            "cemetery": [TEXT[c] for c in self.cemetery],
            "top": self.top,
            "phase": self.phase,
            "ready": self.ready[:],
            "swaps": self.swaps[:],
            "first": self.first,
            "turn": self.turn,
            "gone": self.gone[:],
            "finished": self.finished[:],
            "resigned": self.resigned[:],
            "plays": self.plays,
            "over": self.over,
            "end_reason": self.end_reason,
            "rng": self.rng_print,
            "ply": self._ply,
        }

    def _unseen_by(self, seat: int | None) -> list[Card]:
        """The cards ``seat`` cannot see, wherever they are (copies counted)."""
        cards = self.stock[:]
        for row in self.down:
            cards += [c for c in row if c]
        hands, known = self.hands, self.known
        for s in range(self.config.players):
            if s == seat:
                continue
            if self.phase == SWAP:
                cards += self.dealt_hand[s]
            elif known[s]:
                cards += _without(hands[s], known[s])
            else:
                cards += hands[s]
        return cards

    def hidden_cards(self, seat: int | None) -> Counter[str]:
        return Counter({TEXT[c]: k for c, k in Counter(self._unseen_by(seat)).items()})

    def all_cards(self) -> Counter[str]:
        cards = self.stock + self.stack + self.cemetery
        for s in range(self.config.players):
            cards += self.hands[s]
            cards += self.up[s]
            cards += [c for c in self.down[s] if c]
        return Counter({TEXT[c]: k for c, k in Counter(cards).items()})

    def determinize(self, seat: int | None, rng: random.Random) -> Self:
        bits = rng.getrandbits(64)
        new = self._clone(GameRng(bits))
        new.rng_print = f"sampled {bits:x}"  # names that RNG as well as its fingerprint
        new.seed = SAMPLE_SEED
        # what the table knows of each hand, in the order the view shows it
        new.known = [tuple(sorted(k, key=_sort_key)) for k in self.known]
        if seat is not None:  # the seat's own hand too, not in the deal's order
            new.hands[seat] = sorted(self.hands[seat], key=_sort_key)
        # sorted first, so that the sample depends only on what `seat` knows
        pool = sorted(self._unseen_by(seat))
        others = [s for s in range(self.config.players) if s != seat]
        if self.phase == SWAP:
            # The others' hands and swaps are theirs alone: each is sampled as
            # if it had not swapped yet. The seat's own hand as dealt is its
            # hand and row now, less the row everybody saw dealt.
            rng.shuffle(pool)
            new.dealt_hand = self.dealt_hand[:]
            new.swaps = [n if s == seat else 0 for s, n in enumerate(self.swaps)]
            if seat is not None:
                own = Counter(self.hands[seat]) + Counter(self.up[seat])
                own.subtract(self.dealt_up[seat])
                new.dealt_hand[seat] = tuple(sorted(own.elements(), key=_sort_key))
            for s in others:
                new.up[s] = self.dealt_up[s]
                k = len(self.hands[s])
                new.hands[s] = pool[len(pool) - k :]
                new.dealt_hand[s] = tuple(new.hands[s])
                del pool[len(pool) - k :]
        else:
            # after the swaps nothing reads the hands as dealt or the swaps
            # made: a sample knows none of them
            new.dealt_hand = [()] * self.config.players
            new.swaps = [0] * self.config.players
            new.ready = [True] * self.config.players  # who had said so is history
            wants = [self.facts[s] for s in others]
            for s, extra in zip(others, deal_within(pool, wants, rng), strict=True):
                new.hands[s] = list(new.known[s]) + extra
            rng.shuffle(pool)
        for s in range(self.config.players):
            row = self.down[s]
            if any(row):
                slots = list(row)
                for i, c in enumerate(slots):
                    if c:
                        slots[i] = pool.pop()
                new.down[s] = tuple(slots)
        new.stock = pool
        return new
