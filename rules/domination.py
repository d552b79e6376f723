"""domination: the two-player climbing duel (seed 000, RULINGS.md).

Each card played must rank >= the card before it, any suit. Two cards of one
suit in a row start Domination, which lasts to the end of the round: every
further card must be of that suit and higher, and the round's score is the
last card's rank times the length of the same-suit chain. The player to move
who cannot play ends the round; whoever played last wins it. A lead that is
the highest card of its suit not yet discarded is Inelegant: unanswered, it
scores 1. The player rules live in docs/rules/domination.md.

Moves: a card (``10H``) or, with ``allow_concede``, ``concede``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from .cards import SUITS, Card, card_text, cards_text, deck, parse_card, rank
from .config import GameConfig, option
from .errors import IllegalMove, NotationError
from .events import Event
from .game import GameSpec, GameState, Outcome

HAND_SIZE = 5
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


@dataclass(frozen=True)
class DominationConfig(GameConfig):
    target_score: int = option(
        100, "Points that win the match (0: no target, play a number of rounds)", min=0
    )
    rounds: int = option(
        0, "Rounds in the match, ties broken by further rounds (0: play to the target)", min=0
    )
    allow_concede: bool = option(False, "A player who could play may concede the round instead")
    first_leader: str = option("random", "Who leads the first round", choices=("random", "1", "2"))

    def validate(self) -> None:
        if self.target_score == 0 and self.rounds == 0:
            raise ValueError("set a target score or a number of rounds, or the match never ends")


@dataclass(frozen=True, slots=True)
class Play:
    """Play one card from the hand."""

    card: Card

    def __str__(self) -> str:
        return card_text(self.card)


@dataclass(frozen=True, slots=True)
class Concede:
    """End the round now although a card could be played (``allow_concede``)."""

    def __str__(self) -> str:
        return "concede"


DominationMove = Play | Concede
_PLAY = {c: Play(c) for c in deck()}
CONCEDE = Concede()


class DominationState(GameState[DominationMove, DominationConfig]):
    __slots__ = (
        "_ply",
        "config",
        "discards",
        "dom_start",
        "hands",
        "leader",
        "over",
        "rng",
        "round_no",
        "run",
        "scores",
        "seed",
        "stock",
        "turn",
        "winner",
    )

    spec: ClassVar[DominationSpec]

    def __init__(self, config: DominationConfig, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.rng = random.Random(seed)
        self.hands: list[list[Card]] = [[], []]
        self.stock: list[Card] = []  # top of the stock is the end of the list
        self.run: list[Card] = []
        self.dom_start = -1  # index in run of the first card of the same-suit chain
        self.discards = [0, 0, 0, 0]  # per suit, bit r set = rank r discarded
        self.scores = [0, 0]
        self.leader = 0
        self.turn = 0
        self.round_no = 1
        self.over = False
        self.winner: int | None = None
        self._ply = 0

    # ------------------------------------------------------------------ copy
    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.config = self.config
        new.seed = self.seed
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        new.rng = rng
        new.hands = [self.hands[0][:], self.hands[1][:]]
        new.stock = self.stock[:]
        new.run = self.run[:]
        new.dom_start = self.dom_start
        new.discards = self.discards[:]
        new.scores = self.scores[:]
        new.leader = self.leader
        new.turn = self.turn
        new.round_no = self.round_no
        new.over = self.over
        new.winner = self.winner
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
        moves: list[DominationMove] = [_PLAY[c] for c in self._playable(seat)]
        if self.config.allow_concede and self.run:
            moves.append(CONCEDE)
        return moves

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

    def play(self, seat: int, move: DominationMove) -> list[Event]:
        if self.over:
            raise IllegalMove("the match is over")
        if seat != self.turn:
            raise IllegalMove("it is not your turn")
        if type(move) is Concede:
            if not self.config.allow_concede:
                raise IllegalMove("conceding a round is off in this match (allow_concede)")
            if not self.run:
                raise IllegalMove("you lead this round: play a card")
            self._ply += 1
            return self._end_round(conceded=True)
        if type(move) is not Play:
            raise IllegalMove(f"{move} is not a domination move")
        card = move.card
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalMove(f"{card_text(card)} is not in your hand")
        if not self._can_follow(card):
            raise IllegalMove(self._why_not(card))
        hand.remove(card)
        self.run.append(card)
        self._ply += 1
        events = [
            Event(
                "play",
                f"{{p{seat}}} plays {card_text(card)}",
                {"seat": seat, "card": card_text(card)},
            )
        ]
        run = self.run
        n = len(run)
        if n == 1:
            if self.is_inelegant_lead():
                events.append(
                    Event(
                        "inelegant",
                        f"An Inelegant lead: {card_text(card)} is the highest "
                        f"{SUIT_NAMES[card >> 4]} left. Unanswered, it scores only 1.",
                        {"seat": seat, "card": card_text(card)},
                    )
                )
        elif self.dom_start < 0 and run[-2] >> 4 == card >> 4:
            self.dom_start = n - 2
            events.append(
                Event(
                    "domination",
                    f"Domination in {SUIT_NAMES[card >> 4]}! Only higher "
                    f"{SUIT_NAMES[card >> 4]} may follow. Multiplier x2.",
                    {"suit": SUITS[card >> 4], "multiplier": 2, "start": card_text(run[-2])},
                )
            )
        elif self.dom_start >= 0:
            events.append(
                Event(
                    "multiplier",
                    f"The Domination chain grows: multiplier x{n - self.dom_start}.",
                    {"multiplier": n - self.dom_start},
                )
            )
        other = 1 - seat
        self.turn = other
        if not self._has_play(other):
            events.extend(self._end_round(conceded=False))
        return events

    def _has_play(self, seat: int) -> bool:
        run = self.run
        last = run[-1]
        if self.dom_start >= 0:
            s = last >> 4
            return any(c >> 4 == s and c > last for c in self.hands[seat])
        r = last & 15
        return any(c & 15 >= r for c in self.hands[seat])

    def _why_not(self, card: Card) -> str:
        last = self.run[-1]
        if self.dom_start >= 0:
            name = SUIT_NAMES[last >> 4]
            if card >> 4 != last >> 4:
                return (
                    f"Domination is on: only {name} higher than {card_text(last)} may follow, "
                    f"not {card_text(card)}"
                )
            return (
                f"{card_text(card)} is lower than {card_text(last)}: "
                f"Domination needs a higher {name[:-1]}"
            )
        return (
            f"{card_text(card)} is lower than {card_text(last)}: "
            f"play a card of rank {card_text(last)[:-1]} or higher"
        )

    # ------------------------------------------------------------ round end
    def _end_round(self, conceded: bool) -> list[Event]:
        run = self.run
        winner = self.turn ^ 1  # the player who played the last card
        value = self.round_value()
        inelegant = len(run) == 1 and self.is_inelegant_lead()
        self.scores[winner] += value
        if inelegant:
            how = "an unanswered Inelegant lead scores 1"
        elif self.dom_start >= 0:
            how = f"{rank(run[-1])} x {self.multiplier()} Domination"
        else:
            how = f"{card_text(run[-1])} is the last card"
        why = f"{{p{self.turn}}} concedes. " if conceded else f"{{p{self.turn}}} cannot play. "
        events = [
            Event(
                "round_won",
                f"{why}{{p{winner}}} wins round {self.round_no} for {value} "
                f"point{'s' if value != 1 else ''} ({how}).",
                {
                    "seat": winner,
                    "points": value,
                    "round": self.round_no,
                    "run": [card_text(c) for c in run],
                    "multiplier": self.multiplier(),
                    "inelegant": inelegant,
                    "scores": self.scores[:],
                },
            )
        ]
        for c in run:
            self.discards[c >> 4] |= 1 << (c & 15)
        self.run = []
        self.dom_start = -1
        cfg = self.config
        s0, s1 = self.scores
        if (cfg.target_score and max(s0, s1) >= cfg.target_score) or (
            cfg.rounds and self.round_no >= cfg.rounds and s0 != s1
        ):
            self.over = True
            self.winner = 0 if s0 > s1 else 1
            events.append(
                Event(
                    "game_over",
                    f"{{p{self.winner}}} wins the match {max(s0, s1)} to {min(s0, s1)}.",
                    {"winner": self.winner, "scores": self.scores[:]},
                )
            )
            return events
        self.round_no += 1
        self.leader = self.turn = winner
        events.extend(self._refill())
        return events

    def _refill(self) -> list[Event]:
        order = (self.leader, 1 - self.leader)
        need = sum(HAND_SIZE - len(self.hands[s]) for s in order)
        events: list[Event] = []
        if need > len(self.stock):
            cards = self.hands[0] + self.hands[1] + self.stock + self._discarded()
            self.rng.shuffle(cards)
            self.hands = [[], []]
            self.stock = cards
            self.discards = [0, 0, 0, 0]
            events.append(
                Event(
                    "reshuffle",
                    "The deck cannot refill both hands: all 52 cards are shuffled, "
                    "the discards are cleared and 5 are dealt to each. Scores carry on.",
                    {},
                )
            )
        for s in order:
            hand = self.hands[s]
            drawn = []
            while len(hand) < HAND_SIZE:
                c = self.stock.pop()
                hand.append(c)
                drawn.append(c)
            if drawn:
                n = len(drawn)
                events.append(
                    Event(
                        "draw",
                        f"{{p{s}}} draws {cards_text(drawn)}.",
                        {"seat": s, "cards": [card_text(c) for c in drawn]},
                        private_to=s,
                        redacted=Event(
                            "draw",
                            f"{{p{s}}} draws {n} card{'s' if n != 1 else ''}.",
                            {"seat": s, "count": n},
                        ),
                    )
                )
        return events

    def _discarded(self) -> list[Card]:
        return [s * 16 + r for s in range(4) for r in range(1, 14) if self.discards[s] >> r & 1]

    # ------------------------------------------------------------ the end
    @property
    def is_over(self) -> bool:
        return self.over

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        return Outcome.from_scores(self.scores, "match won")

    # ----------------------------------------------------------- information
    def view(self, seat: int | None) -> dict[str, Any]:
        run = self.run
        v: dict[str, Any] = {
            "game": "domination",
            "seat": seat,
            "hand_sizes": [len(self.hands[0]), len(self.hands[1])],
            "run": [card_text(c) for c in run],
            "domination_start": self.dom_start if self.dom_start >= 0 else None,
            "domination_suit": SUITS[run[-1] >> 4] if self.dom_start >= 0 else None,
            "multiplier": self.multiplier(),
            "round_value": self.round_value(),
            "inelegant_lead": len(run) == 1 and self.is_inelegant_lead(),
            "discards": {
                SUITS[s]: [r for r in range(1, 14) if self.discards[s] >> r & 1] for s in range(4)
            },
            "stock": len(self.stock),
            "scores": self.scores[:],
            "round": self.round_no,
            "leader": self.leader,
            "turn": None if self.over else self.turn,
            "to_act": list(self.to_act()),
            "target_score": self.config.target_score,
            "rounds": self.config.rounds,
            "over": self.over,
            "outcome": o.to_json() if (o := self.outcome()) else None,
        }
        if seat is not None:
            v["hand"] = [card_text(c) for c in sorted(self.hands[seat], key=_sort_key)]
            v["legal_moves"] = [str(m) for m in self.legal_moves(seat)]
        return v

    def snapshot(self) -> dict[str, Any]:
        return {
            "view": self.view(None),
            "hands": [[card_text(c) for c in h] for h in self.hands],
            "stock": [card_text(c) for c in self.stock],
            "rng": hash(self.rng.getstate()),  # ints hash the same in every run
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
        new = self.copy()
        pool = list(self.stock)
        others = [s for s in (0, 1) if s != seat]
        for s in others:
            pool += self.hands[s]
        rng.shuffle(pool)
        for s in others:
            n = len(self.hands[s])
            new.hands[s] = pool[:n]
            pool = pool[n:]
        new.stock = pool
        # the future shuffles are unknown too
        new.rng = random.Random(rng.getrandbits(64))
        return new


def _sort_key(card: Card) -> tuple[int, int]:
    return (card & 15, card >> 4)


class DominationSpec(GameSpec[DominationMove, DominationConfig]):
    id = "domination"
    title = "Domination"
    summary = "A climbing duel: play equal or higher, chain a suit for Domination multipliers."
    min_players = 2
    max_players = 2
    Config = DominationConfig
    presets: ClassVar[dict[str, dict[str, Any]]] = {
        "standard": {},
        "short": {"target_score": 50},
        "ten-rounds": {"target_score": 0, "rounds": 10},
        "concede": {"allow_concede": True},
    }
    state_type = DominationState

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
            cards = [parse_card(t) for t in deck_order]
            if sorted(cards) != sorted(deck()):
                raise ValueError("a domination deck must hold each of the 52 cards once")
        if cfg.first_leader == "random":
            state.leader = state.rng.randrange(2)
        else:
            state.leader = int(cfg.first_leader) - 1
        state.turn = state.leader
        # deck order is top first: seat 1 takes the top five, seat 2 the next
        # five, and the rest is the stock, whose top is the end of our list
        state.hands = [cards[0:5], cards[5:10]]
        state.stock = cards[10:][::-1]
        return state

    def parse_move(self, text: str) -> DominationMove:
        t = text.strip().lower()
        if t == "concede":
            return CONCEDE
        try:
            return _PLAY[parse_card(t)]
        except (ValueError, KeyError):
            raise NotationError(
                f"'{text}' is not a domination move: play a card like 10H or QS, or 'concede'"
            ) from None

    def rematch_config(self, config: DominationConfig, outcome: Outcome) -> DominationConfig:
        if outcome.winner is None:
            return config
        return config.replace(first_leader=str(2 - outcome.winner))  # the loser leads

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
