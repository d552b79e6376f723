"""Domination's rules: the deal, play, the end of a round and of the match, views.

Moves: a card (``10H``), with ``allow_concede`` ``concede``, and ``resign``.

Search: :meth:`DominationState.advance` plays without checks or events, and
``determinize`` deals the unseen cards again within what the table has learnt
about each hand (``hand_facts``: a seat that could not play holds no card that
could have followed)."""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any, ClassVar, Self

from ..cards import SUITS, Card, card_text, deck, rank
from ..errors import IllegalMove
from ..events import Event, NoData, SeatEvent, cards_drawn
from ..game import SAMPLE_SEED, GameState, Outcome
from ..rng import GameRng
from .events import (
    CardPlayed,
    DominationStarted,
    MatchWon,
    MultiplierGrew,
    RoundWon,
)
from .notation import CONCEDE, PLAYS, Concede, DominationMove, Play
from .options import DominationConfig
from .view import DominationView

if TYPE_CHECKING:
    from .spec import DominationSpec


HAND_SIZE = 5
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")

_TEXT = {c: card_text(c) for c in deck()}  # card_text is hot in play(); look it up once
ANY_CARD = sum(1 << c for c in deck())  # a set of cards as a mask: bit c = card c
# RANK_AND_UP[r]: every card of rank r or higher, any suit
RANK_AND_UP = [sum(1 << c for c in deck() if c & 15 >= r) for r in range(15)]


class DominationState(GameState[DominationMove, DominationConfig]):
    __slots__ = (
        "_ply",
        "config",
        "discards",
        "dom_start",
        "hand_facts",
        "hands",
        "leader",
        "over",
        "points",
        "resigned",
        "rng",
        "round_no",
        "run",
        "seed",
        "stock",
        "turn",
        "winner",
    )
    public_memory = ("_ply", "hand_facts")  # facts: what failed follows showed

    spec: ClassVar[DominationSpec]  # set by .spec, which imports this module

    def __init__(self, config: DominationConfig, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.rng = GameRng(seed)
        self.hands: list[list[Card]] = [[], []]
        # What everyone knows about each hand, from seats that could not play:
        # groups (count, mask) meaning "count of its cards are in mask", the
        # tightest group first; the masks are nested, each inside the next.
        self.hand_facts: list[list[tuple[int, int]]] = [[(HAND_SIZE, ANY_CARD)]] * 2
        self.stock: list[Card] = []  # top of the stock is the end of the list
        self.run: list[Card] = []
        self.dom_start = -1  # index in run of the first card of the same-suit chain
        self.discards = [0, 0, 0, 0]  # per suit, bit r set = rank r discarded
        self.points = [0, 0]
        self.leader = 0
        self.turn = 0
        self.round_no = 1
        self.over = False
        self.winner: int | None = None
        self.resigned: int | None = None
        self._ply = 0

    # ------------------------------------------------------------------ copy
    def copy(self) -> Self:
        return self._clone(self.rng.copy())

    def _clone(self, rng: GameRng) -> Self:
        new = object.__new__(type(self))
        new.config = self.config
        new.seed = self.seed
        new.rng = rng
        new.hands = [self.hands[0][:], self.hands[1][:]]
        new.hand_facts = self.hand_facts[:]  # the groups are replaced, never changed in place
        new.stock = self.stock[:]
        new.run = self.run[:]
        new.dom_start = self.dom_start
        new.discards = self.discards[:]
        new.points = self.points[:]
        new.leader = self.leader
        new.turn = self.turn
        new.round_no = self.round_no
        new.over = self.over
        new.winner = self.winner
        new.resigned = self.resigned
        new._ply = self._ply
        return new

    # ----------------------------------------------------------------- rules
    def to_act(self) -> tuple[int, ...]:
        return () if self.over else (self.turn,)

    def _can_follow(self, card: Card) -> bool:
        run = self.run
        if not run:
            return True
        last = run[-1]
        if self.dom_start >= 0:
            return card >> 4 == last >> 4 and card > last
        return card & 15 >= last & 15

    def _playable(self, seat: int) -> list[Card]:
        run = self.run
        hand = self.hands[seat]
        if not run:
            return hand[:]
        last = run[-1]
        if self.dom_start >= 0:
            s = last >> 4
            return [c for c in hand if c >> 4 == s and c > last]
        r = last & 15
        return [c for c in hand if c & 15 >= r]

    def legal_moves(self, seat: int) -> list[DominationMove]:
        if self.over or seat != self.turn:
            return []
        moves: list[DominationMove] = [PLAYS[c] for c in self._playable(seat)]
        if self.config.allow_concede and self.run:
            moves.append(CONCEDE)
        return moves

    def random_move(self, rng: random.Random) -> DominationMove:
        """A legal move of the seat to act, drawn uniformly from them all without
        listing them (random playouts: the engine's speed measure)."""
        cards = self._playable(self.turn)
        n = len(cards)
        i = int(rng.random() * (n + 1 if self.run and self.config.allow_concede else n))
        return PLAYS[cards[i]] if i < n else CONCEDE

    def is_inelegant_lead(self) -> bool:
        """The lead is the highest card of its suit not yet discarded."""
        if not self.run:
            return False
        lead = self.run[0]
        above = ((1 << 14) - 1) & ~((1 << ((lead & 15) + 1)) - 1)
        return self.discards[lead >> 4] & above == above

    def multiplier(self) -> int:
        return len(self.run) - self.dom_start if self.dom_start >= 0 else 1

    def round_value(self) -> int:
        """What the round is worth to the player of the last card if it ended now."""
        if not self.run:
            return 0
        if len(self.run) == 1 and self.is_inelegant_lead():
            return 1
        return (self.run[-1] & 15) * self.multiplier()

    def play_move(self, seat: int, move: DominationMove) -> list[Event]:
        if seat != self.turn:
            raise IllegalMove("it is not your turn")
        events: list[Event] = []
        if type(move) is Concede:
            if not self.config.allow_concede:
                raise IllegalMove("conceding a round is off in this match (allow_concede)")
            if not self.run:
                raise IllegalMove("you lead this round: play a card")
            self._ply += 1
            self._end_round(True, events)
            return events
        if type(move) is not Play:
            raise IllegalMove(f"{move} is not a domination move")
        card = move.card
        if card not in self.hands[seat]:
            raise IllegalMove(f"{_TEXT[card]} is not in your hand")
        if not self._can_follow(card):
            raise IllegalMove(self._why_not(card))
        self._play_card(seat, card, events)
        return events

    def resign(self, seat: int) -> list[Event]:
        self.over = True
        self.resigned = seat
        self.winner = 1 - seat
        self._ply += 1
        return [
            Event(
                "resign",
                f"{{p{seat} resigns|resign}}: {{p{1 - seat} wins|win}}.",
                SeatEvent(seat=seat),
            )
        ]

    def advance(self, seat: int, move: DominationMove) -> None:
        # the same rules as play, minus validation and events (``seat`` is the
        # seat to act: only it has moves)
        if isinstance(move, Play):
            self._play_card(seat, move.card, None)
        else:
            self._ply += 1
            self._end_round(True, None)

    def _play_card(self, seat: int, card: Card, events: list[Event] | None) -> None:
        """Put a legal card on the run; end the round if the other seat cannot answer.
        ``events`` collects the narration, or is None when nobody listens."""
        self.hands[seat].remove(card)
        self.hand_facts[seat] = _without(self.hand_facts[seat], card)
        run = self.run
        run.append(card)
        self._ply += 1
        n = len(run)
        if events is not None:
            text = _TEXT[card]
            events.append(
                Event("play", f"{{p{seat} plays|play}} {text}", CardPlayed(seat=seat, card=text))
            )
            if n == 1 and self.is_inelegant_lead():
                events.append(
                    Event(
                        "inelegant",
                        f"An Inelegant lead: {text} is the highest "
                        f"{SUIT_NAMES[card >> 4][:-1]} left. Unanswered, it scores only 1.",
                        CardPlayed(seat=seat, card=text),
                    )
                )
        if n > 1:
            if self.dom_start < 0:
                if run[-2] >> 4 == card >> 4:
                    self.dom_start = n - 2
                    if events is not None:
                        name = SUIT_NAMES[card >> 4]
                        events.append(
                            Event(
                                "domination",
                                f"Domination in {name}! Only higher {name} may follow. "
                                "Multiplier x2.",
                                DominationStarted(
                                    suit=SUITS[card >> 4], multiplier=2, start=_TEXT[run[-2]]
                                ),
                            )
                        )
            elif events is not None:
                mult = n - self.dom_start
                events.append(
                    Event(
                        "multiplier",
                        f"The Domination chain grows: multiplier x{mult}.",
                        MultiplierGrew(multiplier=mult),
                    )
                )
        self.turn = other = seat ^ 1
        if not self._has_play(other):
            self._end_round(False, events)

    def _has_play(self, seat: int) -> bool:
        run = self.run
        last = run[-1]
        if self.dom_start >= 0:
            s = last >> 4
            return any(c >> 4 == s and c > last for c in self.hands[seat])
        r = last & 15
        return any(c & 15 >= r for c in self.hands[seat])

    def _followers(self) -> int:
        """The cards that may follow the run now, as a mask (any card on an empty table)."""
        if not self.run:
            return ANY_CARD
        last = self.run[-1]
        if self.dom_start >= 0:
            return RANK_AND_UP[(last & 15) + 1] & (0xFFFF << (last & ~15))
        return RANK_AND_UP[last & 15]

    def _learn_cannot_play(self, seat: int) -> None:
        """Everyone saw ``seat`` unable to play on the run: none of its cards could follow."""
        followers = self._followers()
        self.hand_facts[seat] = [(n, mask & ~followers) for n, mask in self.hand_facts[seat]]

    def _why_not(self, card: Card) -> str:
        last = self.run[-1]
        if self.dom_start >= 0:
            name = SUIT_NAMES[last >> 4]
            if card >> 4 != last >> 4:
                return (
                    f"Domination is on: only {name} higher than {_TEXT[last]} may follow, "
                    f"not {_TEXT[card]}"
                )
            return (
                f"{_TEXT[card]} is lower than {_TEXT[last]}: Domination needs a higher {name[:-1]}"
            )
        return (
            f"{_TEXT[card]} is lower than {_TEXT[last]}: "
            f"play a card of rank {_TEXT[last][:-1]} or higher"
        )

    # ------------------------------------------------------------ round end
    def _end_round(self, conceded: bool, events: list[Event] | None) -> None:
        run = self.run
        winner = self.turn ^ 1  # the player who played the last card
        value = self.round_value()
        self.points[winner] += value
        if not conceded:
            self._learn_cannot_play(self.turn)
        if events is not None:
            inelegant = len(run) == 1 and self.is_inelegant_lead()
            mult = self.multiplier()
            last = run[-1]
            if inelegant:
                how = "an unanswered Inelegant lead scores 1"
            elif self.dom_start >= 0:
                how = f"{_TEXT[last]} is the last card: {rank(last)} x {mult} for Domination"
            else:
                how = f"{_TEXT[last]} is the last card"
            why = (
                f"{{p{self.turn} concedes|concede}}"
                if conceded
                else f"{{p{self.turn}}} cannot play"
            )
            events.append(
                Event(
                    "round_won",
                    f"{why}. {{p{winner} wins|win}} round {self.round_no} "
                    f"for {value} point{'s' if value != 1 else ''} ({how}).",
                    RoundWon(
                        seat=winner,
                        points=value,
                        round=self.round_no,
                        run=[_TEXT[c] for c in run],
                        multiplier=mult,
                        inelegant=inelegant,
                        conceded=conceded,
                        scores=self.points[:],
                    ),
                )
            )
        discards = self.discards
        for c in run:
            discards[c >> 4] |= 1 << (c & 15)
        self.run = []
        self.dom_start = -1
        cfg = self.config
        s0, s1 = self.points
        if (cfg.target_score and max(s0, s1) >= cfg.target_score) or (
            cfg.rounds and self.round_no >= cfg.rounds and s0 != s1
        ):
            # only the round's winner scored, so the scores cannot be level here
            self.over = True
            self.winner = 0 if s0 > s1 else 1
            if events is not None:
                events.append(
                    Event(
                        "game_over",
                        f"{{p{self.winner} wins|win}} the match {max(s0, s1)} to {min(s0, s1)}.",
                        MatchWon(winner=self.winner, scores=self.points[:]),
                    )
                )
            return
        self.round_no += 1
        self.leader = self.turn = winner
        self._refill(events)

    def _refill(self, events: list[Event] | None) -> None:
        hands = self.hands
        order = (self.leader, self.leader ^ 1)
        need = 2 * HAND_SIZE - len(hands[0]) - len(hands[1])
        if need > len(self.stock):
            cards = hands[0] + hands[1] + self.stock + self._discarded()
            self.rng.shuffle(cards)
            hands = self.hands = [[], []]
            self.hand_facts = [[], []]
            self.stock = cards
            self.discards = [0, 0, 0, 0]
            if events is not None:
                events.append(
                    Event(
                        "reshuffle",
                        "The deck cannot refill both hands: all 52 cards are shuffled, "
                        "the discards are cleared and 5 are dealt to each. Scores carry on.",
                        NoData(),
                    )
                )
        stock = self.stock
        for s in order:
            hand = hands[s]
            n = HAND_SIZE - len(hand)
            if n <= 0:
                continue
            drawn = stock[-n:][::-1]  # the top of the stock is the end of the list
            del stock[-n:]
            hand.extend(drawn)
            facts = self.hand_facts[s] = self.hand_facts[s][:]
            if facts and facts[-1][1] == ANY_CARD:
                facts[-1] = (facts[-1][0] + n, ANY_CARD)
            else:
                facts.append((n, ANY_CARD))
            if events is not None:
                texts = [_TEXT[c] for c in drawn]
                events.append(cards_drawn(s, texts))

    def _discarded(self) -> list[Card]:
        return [s * 16 + r for s in range(4) for r in range(1, 14) if self.discards[s] >> r & 1]

    # ------------------------------------------------------------ the end
    @property
    def is_over(self) -> bool:
        return self.over

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        if self.resigned is not None:
            return Outcome.resigned(self.resigned, 2, self.points)
        target = self.config.target_score
        if target and max(self.points) >= target:
            reason = f"first to {target} points"
        else:
            reason = f"ahead after {self.round_no} rounds"
        return Outcome.from_scores(self.points, reason)

    # ----------------------------------------------------------- information
    def scores(self) -> tuple[int, ...]:
        return (self.points[0], self.points[1])

    def view(self, seat: int | None) -> DominationView:
        run = self.run
        hand = None  # a seat's own view only
        if seat is not None:
            hand = [card_text(c) for c in sorted(self.hands[seat], key=_sort_key)]
        return DominationView(
            game="domination",
            seat=seat,
            hand_sizes=[len(self.hands[0]), len(self.hands[1])],
            run=[_TEXT[c] for c in run],
            domination_start=self.dom_start if self.dom_start >= 0 else None,
            domination_suit=SUITS[run[-1] >> 4] if self.dom_start >= 0 else None,
            multiplier=self.multiplier(),
            round_value=self.round_value(),
            inelegant_lead=len(run) == 1 and self.is_inelegant_lead(),
            discards={
                SUITS[s]: [r for r in range(1, 14) if self.discards[s] >> r & 1] for s in range(4)
            },
            stock=len(self.stock),
            round=self.round_no,
            leader=self.leader,
            turn=None if self.over else self.turn,
            target_score=self.config.target_score,
            rounds=self.config.rounds,
            resigned=self.resigned,
            hand=hand,
        )

    def snapshot(self) -> dict[str, Any]:
        return {
            "view": self.view(None).to_json(),
            "hands": [[card_text(c) for c in h] for h in self.hands],
            "stock": [card_text(c) for c in self.stock],
            "rng": self.rng.fingerprint(),
            "hand_facts": [[list(g) for g in groups] for groups in self.hand_facts],
            "ply": self._ply,
        }

    def hidden_cards(self, seat: int | None) -> Counter[str]:
        hidden = list(self.stock)
        for s in (0, 1):
            if s != seat:
                hidden += self.hands[s]
        return Counter(card_text(c) for c in hidden)

    def all_cards(self) -> Counter[str]:
        cards = self.hands[0] + self.hands[1] + self.stock + self.run + self._discarded()
        return Counter(card_text(c) for c in cards)

    def determinize(self, seat: int | None, rng: random.Random) -> Self:
        # the future shuffles are unknown too
        new = self._clone(GameRng(rng.getrandbits(64)))
        new.seed = SAMPLE_SEED
        if seat is not None:  # in the order the seat sees it, not the deal's
            new.hands[seat] = sorted(self.hands[seat], key=_sort_key)
        others = [s for s in (0, 1) if s != seat]
        pool = list(self.stock)
        for s in others:
            pool += self.hands[s]
        # Sorted first, so that the sample depends only on what `seat` knows
        # (which cards are unseen, and the public facts about hands), never on
        # where the cards really are.
        pool.sort()
        # Everyone knows the seat to act holds a card that follows, or the
        # round would be over.
        follow = self._followers() if not self.over else ANY_CARD
        wants = [(self.hand_facts[s], follow if s == self.turn else ANY_CARD) for s in others]
        hands = _deal_by_facts(pool, wants, rng)
        taken = set()
        for s, hand in zip(others, hands, strict=True):
            new.hands[s] = hand
            taken.update(hand)
        new.stock = [c for c in pool if c not in taken]
        rng.shuffle(new.stock)
        return new


def _deal_by_facts(
    pool: list[Card], wants: list[tuple[list[tuple[int, int]], int]], rng: random.Random
) -> list[list[Card]]:
    """Random hands from ``pool``, one per (facts, follow) in ``wants``: each hand
    meets its facts and holds at least one card of the ``follow`` mask.

    Each hand fills its tightest group first, which for one hand always meets
    true facts (the groups are nested); deals without a follower are drawn
    again. Rarely (two hands at once, or few followers left) that keeps
    failing; then a follower is placed first, and last of all only the hand
    sizes and the follower are kept."""
    for attempt in range(60):
        hands = _try_deal(pool, wants, rng, place_follower=attempt >= 30)
        if hands is not None:
            return hands
    sizes = [(sum(n for n, _ in facts), follow) for facts, follow in wants]
    hands = _try_deal(pool, [([(n, ANY_CARD)], f) for n, f in sizes], rng, place_follower=True)
    assert hands is not None, "the unseen cards cannot hold the hands"
    return hands


def _try_deal(
    pool: list[Card],
    wants: list[tuple[list[tuple[int, int]], int]],
    rng: random.Random,
    place_follower: bool,
) -> list[list[Card]] | None:
    free = pool[:]
    hands: list[list[Card]] = []
    for facts, follow in wants:
        groups = list(facts)
        hand: list[Card] = []
        if place_follower and follow != ANY_CARD:
            fits = [c for c in free if follow >> c & 1 and any(m >> c & 1 for _, m in groups)]
            if not fits:
                return None
            card = rng.choice(fits)
            groups = _without(groups, card)
            hand.append(card)
            free.remove(card)
        for n, mask in groups:
            fits = [c for c in free if mask >> c & 1]
            if len(fits) < n:
                return None
            picked = rng.sample(fits, n)
            hand += picked
            chosen = set(picked)
            free = [c for c in free if c not in chosen]
        if not any(follow >> c & 1 for c in hand):
            return None
        hands.append(hand)
    return hands


def _without(groups: list[tuple[int, int]], card: Card) -> list[tuple[int, int]]:
    """The facts about a hand after it showed ``card``, charged to the tightest
    group that allows it.

    Which group it came from is unknown; charging the tightest one never claims
    more than is known, as the masks are nested (see ``hand_facts``)."""
    bit = 1 << card
    for i, (n, mask) in enumerate(groups):
        if mask & bit:
            left = groups[:]
            if n > 1:
                left[i] = (n - 1, mask)
            else:
                del left[i]
            return left
    raise AssertionError("a card was played that the public facts ruled out")


def _sort_key(card: Card) -> tuple[int, int]:
    return (card & 15, card >> 4)
