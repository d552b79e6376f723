"""toy: a tiny card game for 3 to 8 seats that exists only for the tests.

It is registered by tests/conftest.py so that the contract suite, the table,
saves and the screens run over a game unlike the real ones: many seats, a
private draw, a card face down even to its owner, a turn of several steps
sharing one clock, and a simultaneous phase with a clock of its own length.

Rules. Ranks A (1) to 6 in four suits; with more than four seats, two such
decks. Each seat is dealt one card face down (nobody may look, its owner
included) and two cards to its hand. First every seat secretly bids a card of
its hand (``bid 7H``, all at once); once all have bid, the bids are shown.
Then the seats take turns from ``first_player`` on: ``draw`` (only the drawer
sees the card), up to two ``play <card>``, then ``end``; on a seat's last turn
``flip`` (turning its face-down card) closes the turn instead of ``end``. The
game ends after ``rounds`` turns each, or when a turn would start with the
stock empty; face-down cards still down are then turned. A seat scores the
ranks of its bid, its played cards and its turned card; the highest wins.
Resigning drops a seat (its hidden cards go face down to a discard pile) and
ranks it last; the last seat left wins.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from rules.cards import Card, CardTextError, card_text, deck, parse_card, rank, stack_deck
from rules.config import GameConfig, chosen_seat, option, seat_option
from rules.errors import IllegalMove, NotationError, shown_input
from rules.events import Event, EventData, SeatEvent
from rules.game import SAMPLE_SEED, GameSpec, GameState, MoveClock, Outcome
from rules.position import (
    NONE,
    PositionFields,
    cards_text,
    ints_text,
    position_lines,
    read_cards,
    rng_text,
    seats_text,
    yes_no,
)
from rules.rng import GameRng
from rules.views import View

RANKS = range(1, 7)  # a small deck: short games, and a stock that can run out
ONE_DECK_SEATS = 4  # more seats play with two decks
HAND = 2
MAX_PLAYS = 2  # cards a seat may play in one turn


@dataclass(frozen=True)
class ToyConfig(GameConfig):
    players: int = option(3, "Number of players", min=3, max=8)
    rounds: int = option(2, "Turns each seat takes before the game ends", min=1, max=10)
    timer: int = option(0, "Seconds per turn (0: no clock); the bid has twice that", min=0)
    first_player: str = seat_option("Who takes the first turn")


@dataclass(frozen=True, slots=True)
class Bid:
    card: Card

    def __str__(self) -> str:
        return f"bid {card_text(self.card)}"


@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Play:
    card: Card

    def __str__(self) -> str:
        return f"play {card_text(self.card)}"


@dataclass(frozen=True, slots=True)
class End:
    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Flip:
    def __str__(self) -> str:
        return "flip"


ToyMove = Bid | Draw | Play | End | Flip
DRAW, END, FLIP = Draw(), End(), Flip()
_WORDS: dict[str, ToyMove] = {"draw": DRAW, "end": END, "flip": FLIP}


class ToyView(View, frozen=True, kw_only=True, omit_defaults=True):
    phase: str  # bid | turns | over
    rounds: int
    hand: list[str]  # the seat's own hand (empty for a spectator)
    hand_sizes: list[int]
    face_down: list[bool]  # the seat still has its unturned card
    turned: list[str | None]
    bids: list[str | None]  # shown once all have bid; before, only one's own
    has_bid: list[bool]
    played: list[list[str]]
    turns_taken: list[int]
    stock: int
    discard: int
    out: list[int]  # seats that resigned, in order
    turn: int | None
    drawn: bool
    plays_left: int
    last_turn: bool


# card_text is hot in the checks that run after every move: look it up once
_TEXT = [card_text(c) for c in range(64)]


class SeatCard(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """A seat's bid, draw, play or turned card (hidden from the others: count only)."""

    seat: int
    card: str | None = None
    count: int | None = None


class ToyResigned(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """A seat resigned and its ``discarded`` cards went face down."""

    seat: int
    discarded: int


class BidsShown(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """Every seat's bid, turned up at once (None: a seat that resigned)."""

    bids: list[str | None]


class Over(EventData, frozen=True, kw_only=True, omit_defaults=True):
    """The game is over: the winner (None: a tie)."""

    winner: int | None


TOY_EVENTS: dict[str, type[EventData]] = {
    "bid": SeatCard,
    "draw": SeatCard,
    "play": SeatCard,
    "turn_up": SeatCard,
    "end": SeatEvent,
    "turn": SeatEvent,
    "resign": ToyResigned,
    "reveal": BidsShown,
    "over": Over,
}


def _texts(cards: Sequence[Card | None]) -> list[str | None]:
    return [None if c is None else _TEXT[c] for c in cards]


def _count(cards: Sequence[Card]) -> Counter[str]:
    return Counter({_TEXT[c]: n for c, n in Counter(cards).items()})


def _low(card: Card) -> tuple[int, int]:
    return (rank(card), card >> 4)


class ToyState(GameState[ToyMove, ToyConfig]):
    spec: ClassVar[ToySpec]

    def __init__(self, config: ToyConfig, seed: int) -> None:
        n = config.players
        self.config = config
        self.seed = seed
        self.rng = GameRng(seed)
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.down: list[Card | None] = [None] * n
        self.turned: list[Card | None] = [None] * n
        self.bids: list[Card | None] = [None] * n
        self.played: list[list[Card]] = [[] for _ in range(n)]
        self.stock: list[Card] = []  # top of the stock is the end of the list
        self.discard: list[Card] = []
        self.out: list[int] = []
        self.turns_taken = [0] * n
        self.phase = "bid"
        self.first = 0
        self.turn = 0
        self.turn_no = 0  # the clock's turn key: one per turn, whatever its steps
        self.drawn = False
        self.plays = 0
        self.result: Outcome | None = None  # set once, when the game ends
        self._ply = 0
        # all chance is in the deal: the RNG's fingerprint is taken once, after
        # it (snapshots come after every move in the tests and would hash it anew)
        self.rng_print = ""

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.rng = self.rng.copy()
        new.hands = [h[:] for h in self.hands]
        new.played = [p[:] for p in self.played]
        for name in ("down", "turned", "bids", "stock", "discard", "out", "turns_taken"):
            setattr(new, name, getattr(self, name)[:])
        return new

    # ------------------------------------------------------------ who acts
    def active(self) -> list[int]:
        return [s for s in range(self.config.players) if s not in self.out]

    def to_act(self) -> tuple[int, ...]:
        if self.phase == "bid":
            return tuple(s for s in self.active() if self.bids[s] is None)
        return (self.turn,) if self.phase == "turns" else ()

    def last_turn(self) -> bool:
        return self.turns_taken[self.turn] == self.config.rounds - 1

    def legal_moves(self, seat: int) -> list[ToyMove]:
        if seat not in self.to_act():
            return []
        cards = sorted(set(self.hands[seat]))
        if self.phase == "bid":
            return [Bid(c) for c in cards]
        if not self.drawn:
            return [DRAW]
        plays: list[ToyMove] = [Play(c) for c in cards] if self.plays < MAX_PLAYS else []
        return [*plays, FLIP if self.last_turn() else END]

    def clock(self, seat: int) -> MoveClock | None:
        timer = self.config.timer
        if not timer or seat not in self.to_act():
            return None
        if self.phase == "bid":
            return MoveClock(2 * timer, Bid(min(self.hands[seat], key=_low)), ("bid",))
        closing = FLIP if self.last_turn() else END
        return MoveClock(timer, closing if self.drawn else DRAW, ("turn", self.turn_no))

    # ------------------------------------------------------------ moves
    def play_move(self, seat: int, move: ToyMove) -> list[Event]:
        if move not in self.legal_moves(seat):
            raise IllegalMove(self._why_not(seat, move))
        self._ply += 1

        def p(third: str, second: str) -> str:  # the seat with its verb
            return f"{{p{seat} {third}|{second}}}"

        if type(move) is Bid:
            self.hands[seat].remove(move.card)
            self.bids[seat] = move.card
            shown = card_text(move.card)
            hidden = Event("bid", f"{p('has', 'have')} chosen a bid.", SeatCard(seat=seat))
            events = [
                Event(
                    "bid",
                    f"{p('bids', 'bid')} {shown}.",
                    SeatCard(seat=seat, card=shown),
                    seat,
                    hidden,
                )
            ]
            return events + self._after_bids()
        if type(move) is Draw:
            card = self.stock.pop()
            self.hands[seat].append(card)
            self.drawn = True
            shown = card_text(card)
            hidden = Event("draw", f"{p('draws', 'draw')} a card.", SeatCard(seat=seat, count=1))
            return [
                Event(
                    "draw",
                    f"{p('draws', 'draw')} {shown}.",
                    SeatCard(seat=seat, card=shown),
                    seat,
                    hidden,
                )
            ]
        if type(move) is Play:
            self.hands[seat].remove(move.card)
            self.played[seat].append(move.card)
            self.plays += 1
            shown = card_text(move.card)
            return [
                Event("play", f"{p('plays', 'play')} {shown}.", SeatCard(seat=seat, card=shown))
            ]
        if type(move) is Flip:
            events = [self._turn_up(seat, "turns up|turn up")]
        else:
            events = [Event("end", f"{p('ends', 'end')} the turn.", SeatEvent(seat=seat))]
        self.turns_taken[seat] += 1
        return events + self._next_turn()

    def _why_not(self, seat: int, move: object) -> str:
        if seat in self.out:
            return "you have resigned from this game"
        if seat not in self.to_act():
            if self.phase == "bid":
                return "you have bid already: wait for the others"
            return "it is not your turn"
        if self.phase == "bid":
            if type(move) is Bid:
                return f"you hold no {card_text(move.card)} to bid"
            return "everyone bids first: choose a card of your hand with 'bid <card>'"
        if type(move) is Bid:
            return "the bids are over"
        if not self.drawn:
            return "draw first"
        if type(move) is Draw:
            return "you have drawn this turn already"
        if type(move) is Play:
            if self.plays >= MAX_PLAYS:
                return f"you have played {MAX_PLAYS} cards this turn: end it"
            return f"you hold no {card_text(move.card)}"
        if type(move) is End:
            return "this is your last turn: close it with 'flip'"
        if type(move) is Flip:
            return "you turn your face-down card on your last turn only"
        return "that is not a move of this game"

    def resign(self, seat: int) -> list[Event]:
        if seat in self.out:
            raise IllegalMove("you have resigned from this game already")
        self._ply += 1
        self.out.append(seat)
        gone = self.hands[seat]
        self.hands[seat] = []
        if self.down[seat] is not None:
            gone.append(self.down[seat])  # type: ignore[arg-type]
            self.down[seat] = None
        pending = self.bids[seat]
        if self.phase == "bid" and pending is not None:
            gone.append(pending)  # never shown: it leaves with the rest
            self.bids[seat] = None
        self.discard += gone
        text = f"{{p{seat} resigns|resign}}; {len(gone)} cards go face down to the discard pile."
        events = [Event("resign", text, ToyResigned(seat=seat, discarded=len(gone)))]
        if len(self.active()) == 1:
            return events + self._finish(f"{{p{self.active()[0]} is|are}} the last player left.")
        if self.phase == "bid":
            return events + self._after_bids()
        if self.turn == seat:
            return events + self._next_turn()
        return events

    def _after_bids(self) -> list[Event]:
        if self.to_act():
            return []
        shown = _texts(self.bids)
        listed = ", ".join(f"{{p{s}}} {shown[s]}" for s in self.active())
        events = [Event("reveal", f"The bids: {listed}.", BidsShown(bids=shown))]
        self.phase = "turns"
        n = self.config.players
        first = next(s % n for s in range(self.first, self.first + n) if s % n not in self.out)
        return events + self._start_turn(first)

    def _next_turn(self) -> list[Event]:
        n = self.config.players
        rounds = self.config.rounds
        for s in range(self.turn + 1, self.turn + n + 1):
            if s % n not in self.out and self.turns_taken[s % n] < rounds:
                return self._start_turn(s % n)
        return self._finish(f"After {rounds} round{'s' if rounds > 1 else ''},")

    def _start_turn(self, seat: int) -> list[Event]:
        if not self.stock:
            return self._finish("The stock ran out;")
        self.turn = seat
        self.turn_no += 1
        self.drawn = False
        self.plays = 0
        return [Event("turn", f"{{p{seat} takes|take}} a turn.", SeatEvent(seat=seat))]

    def _turn_up(self, seat: int, verb: str) -> Event:
        card = self.down[seat]
        assert card is not None
        self.turned[seat] = card
        self.down[seat] = None
        shown = card_text(card)
        return Event("turn_up", f"{{p{seat} {verb}}} {shown}.", SeatCard(seat=seat, card=shown))

    def _finish(self, reason: str) -> list[Event]:
        self.phase = "over"
        events = [
            self._turn_up(s, "had face down|had face down")
            for s in self.active()
            if self.down[s] is not None
        ]
        self.result = outcome = self._ranked(reason)
        return [*events, Event("over", outcome.reason, Over(winner=outcome.winner))]

    # ------------------------------------------------------------ the end
    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def scores(self) -> tuple[int, ...]:
        # a bid counts once shown: it is hidden while the others still bid
        bids = self.bids if self.phase != "bid" else [None] * self.config.players
        return tuple(
            sum(rank(c) for c in self.played[s]) + sum(rank(c) for c in (t, b) if c is not None)
            for s, (t, b) in enumerate(zip(self.turned, bids, strict=True))
        )

    def _ranked(self, reason: str) -> Outcome:
        """The result now: seats still in by score, then those who resigned,
        the last to go ranking highest."""
        scores = self.scores()
        active = self.active()
        if len(active) == 1:
            ranking: tuple[tuple[int, ...], ...] = ((active[0],),)
            text = reason
        else:
            by_score = Outcome.from_scores([scores[s] for s in active], reason)
            ranking = tuple(tuple(active[i] for i in group) for group in by_score.ranking)
            best = scores[ranking[0][0]]
            if len(ranking[0]) == 1:
                text = f"{reason} {{p{ranking[0][0]} wins|win}} with {best} points."
            else:
                text = f"{reason} a tie at {best} points."
        ranking += tuple((s,) for s in reversed(self.out))
        winner = ranking[0][0] if len(ranking[0]) == 1 else None
        return Outcome(winner, ranking, scores, text)

    def outcome(self) -> Outcome | None:
        return self.result

    # ------------------------------------------------------------ information
    def view(self, seat: int | None) -> ToyView:
        shown = self.phase != "bid"
        return ToyView(
            game="toy",
            seat=seat,
            phase=self.phase,
            rounds=self.config.rounds,
            hand=[_TEXT[c] for c in self.hands[seat]] if seat is not None else [],
            hand_sizes=[len(h) for h in self.hands],
            face_down=[c is not None for c in self.down],
            turned=_texts(self.turned),
            bids=[
                _TEXT[b] if b is not None and (shown or s == seat) else None
                for s, b in enumerate(self.bids)
            ],
            has_bid=[b is not None for b in self.bids],
            played=[[_TEXT[c] for c in p] for p in self.played],
            turns_taken=self.turns_taken[:],
            stock=len(self.stock),
            discard=len(self.discard),
            out=self.out[:],
            turn=self.turn if self.phase == "turns" else None,
            drawn=self.drawn if self.phase == "turns" else False,
            plays_left=MAX_PLAYS - self.plays if self.phase == "turns" else 0,
            last_turn=self.phase == "turns" and self.last_turn(),
        )

    def _unseen(self, seat: int | None) -> list[Card]:
        """Every card ``seat`` cannot see, in a fixed order of places."""
        cards = self.stock + self.discard + [c for c in self.down if c is not None]
        for s in range(self.config.players):
            if s != seat:
                cards += self.hands[s]
                bid = self.bids[s]
                if self.phase == "bid" and bid is not None:
                    cards.append(bid)
        return cards

    def hidden_cards(self, seat: int | None) -> Counter[str]:
        return _count(self._unseen(seat))

    def all_cards(self) -> Counter[str]:
        cards = self.stock + self.discard + [c for p in self.played for c in p]
        for group in (self.down, self.turned, self.bids):
            cards += [c for c in group if c is not None]
        for hand in self.hands:
            cards += hand
        return _count(cards)

    def determinize(self, seat: int | None, rng: random.Random) -> Self:
        new = self.copy()
        new.seed = SAMPLE_SEED
        # a generator of its own, drawn from ``rng``, as the contract asks
        # (rules/game.py): the game's would carry the deal, and its position
        # text would be written whole after a search of 2,000 cycles for its
        # draws (85 ms a computer's move at the table)
        bits = rng.getrandbits(64)
        new.rng = GameRng(bits)
        new.rng_print = f"sampled {bits:x}"  # names that RNG as well as its fingerprint
        # sorted first, so that the sample depends only on which cards are unseen
        pool = sorted(self._unseen(seat))
        rng.shuffle(pool)

        def take(k: int) -> list[Card]:
            taken = pool[-k:] if k else []
            del pool[len(pool) - k :]
            return taken

        # refill the same places with the same numbers of cards
        new.stock = take(len(self.stock))
        new.discard = take(len(self.discard))
        new.down = [None if c is None else take(1)[0] for c in self.down]
        for s in range(self.config.players):
            if s != seat:
                new.hands[s] = take(len(self.hands[s]))
                if self.phase == "bid" and self.bids[s] is not None:
                    new.bids[s] = take(1)[0]
        assert not pool
        return new

    def position_text(self) -> str:
        return _position_text(self)

    def snapshot(self) -> dict[str, Any]:
        return {
            "view": self.view(None).to_json(),
            "hands": [[_TEXT[c] for c in h] for h in self.hands],
            "down": _texts(self.down),
            "bids": _texts(self.bids),
            "stock": [_TEXT[c] for c in self.stock],
            "discard": [_TEXT[c] for c in self.discard],
            "first": self.first,
            "turn_no": self.turn_no,
            "result": None if self.result is None else self.result.to_json(),
            "rng": self.rng_print,
            "ply": self._ply,
        }


_POSITION_KEYS = (
    "seed",
    "rng",
    "phase",
    "first",
    "turn",
    "turn_no",
    "drawn",
    "plays",
    "hands",
    "face_down",
    "turned",
    "bids",
    "played",
    "stock",
    "discard",
    "out",
    "turns_taken",
    "result",
    "ply",
)


def _one_card(card: Card | None) -> str:
    return NONE if card is None else _TEXT[card]


def _read_one_card(text: str) -> Card | None:
    cards = read_cards(text)
    if len(cards) > 1:
        raise ValueError("one card at most")
    return cards[0] if cards else None


def _position_text(state: ToyState) -> str:
    return position_lines(
        "toy",
        [
            ("seed", str(state.seed)),
            ("rng", rng_text(state.rng, state.seed)),
            ("phase", state.phase),
            ("first", str(state.first)),
            ("turn", str(state.turn)),
            ("turn_no", str(state.turn_no)),
            ("drawn", yes_no(state.drawn)),
            ("plays", str(state.plays)),
            ("hands", seats_text(cards_text(h) for h in state.hands)),
            ("face_down", seats_text(_one_card(c) for c in state.down)),
            ("turned", seats_text(_one_card(c) for c in state.turned)),
            ("bids", seats_text(_one_card(c) for c in state.bids)),
            ("played", seats_text(cards_text(p) for p in state.played)),
            ("stock", cards_text(state.stock[::-1])),
            ("discard", cards_text(state.discard)),
            ("out", ints_text(state.out)),
            ("turns_taken", ints_text(state.turns_taken)),
            ("result", NONE if state.result is None else json.dumps(state.result.to_json())),
            ("ply", str(state._ply)),
        ],
    )


def _read_position(config: ToyConfig, text: str) -> ToyState:
    n = config.players
    fields = PositionFields(text, "toy", _POSITION_KEYS, n)
    state = ToyState(config, fields.number("seed"))
    state.rng = fields.rng()
    state.phase = fields.text("phase")
    if state.phase not in ("bid", "turns", "over"):
        raise fields.bad("phase", "is not bid, turns or over")
    state.first = fields.number("first", 0, n - 1)
    state.turn = fields.number("turn", 0, n - 1)
    state.turn_no = fields.number("turn_no", 0)
    state.drawn = fields.flag("drawn")
    state.plays = fields.number("plays", 0, MAX_PLAYS)
    state.hands = fields.seat_cards("hands")
    state.down = fields.per_seat("face_down", _read_one_card, "a card or -")
    state.turned = fields.per_seat("turned", _read_one_card, "a card or -")
    state.bids = fields.per_seat("bids", _read_one_card, "a card or -")
    state.played = fields.seat_cards("played")
    state.stock = fields.cards("stock")[::-1]
    state.discard = fields.cards("discard")
    state.out = fields.ints("out")
    state.turns_taken = fields.ints("turns_taken", n)
    result = fields.read(
        "result", lambda t: None if t == NONE else Outcome.from_json(json.loads(t)), "a result"
    )
    state.result = result
    state._ply = fields.number("ply", 0)
    state.rng_print = state.rng.fingerprint()
    return state


class ToySpec(GameSpec[ToyMove, ToyConfig]):
    id = "toy"
    title = "Toy"
    summary = "A test game: bid at once, then draw, play and flip in turns (3 to 8 players)."
    min_players = 3
    max_players = 8
    Config = ToyConfig
    presets: ClassVar[dict[str, dict[str, Any]]] = {
        "standard": {},
        "quick": {"rounds": 1},
    }
    state_type = ToyState
    view_type = ToyView
    event_types = TOY_EVENTS

    def full_deck(self, config: ToyConfig) -> list[Card]:
        return deck(RANKS, copies=1 if config.players <= ONE_DECK_SEATS else 2)

    def new(
        self,
        config: ToyConfig | None = None,
        seed: int = 0,
        deck_order: Sequence[str] | None = None,
    ) -> ToyState:
        cfg = config or self.config()
        state = ToyState(cfg, seed)
        if deck_order is None:
            cards = self.full_deck(cfg)
            state.rng.shuffle(cards)
        else:
            cards = stack_deck(deck_order, self.full_deck(cfg))
        n = cfg.players
        state.first = chosen_seat(cfg.first_player, lambda: state.rng.randrange(n))
        # top first: a face-down card to each seat, then two hand cards each
        state.down = list(cards[:n])
        state.hands = [cards[n + HAND * s : n + HAND * (s + 1)] for s in range(n)]
        state.stock = cards[n + HAND * n :][::-1]
        state.rng_print = state.rng.fingerprint()
        return state

    def parse_game_move(self, text: str) -> ToyMove:
        words = text.strip().lower().split()
        if len(words) == 1 and words[0] in _WORDS:
            return _WORDS[words[0]]
        if len(words) == 2 and words[0] in ("bid", "play"):
            try:
                card = parse_card(words[1])
            except CardTextError:
                pass
            else:
                return Bid(card) if words[0] == "bid" else Play(card)
        raise NotationError(
            f"{shown_input(text, 24)} is not a toy move: "
            "write draw, end, flip, bid <card> or play <card> (a card like 7H or AS)"
        )

    def parse_position(self, config: ToyConfig, text: str) -> ToyState:
        return _read_position(config, text)

    def max_moves(self, config: ToyConfig) -> int:
        # a bid each, then at most `rounds` turns a seat of draw, two plays and end/flip
        return config.players * (1 + config.rounds * (2 + MAX_PLAYS))


ToyState.spec = ToySpec()
SPEC = ToyState.spec
