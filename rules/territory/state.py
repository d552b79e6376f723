"""Territory's game state and spec: turns of several steps, the end, views.

A turn is one of explore, conquer (then blitz, step by step, until the
player stops or cannot go on), fortify (Royal Domination), discard (with
``conquest_requires_capture`` off) or pass. The seat to act stays the same
through the steps of a conquest; ``turn_no`` counts whole turns, and the move
clock keys on it so that a conquest and its blitzes share one clock.

Search: :meth:`TerritoryState.advance` plays without checks or events;
``determinize`` deals the unseen cards (the stock and the other hand) again.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Self

from ..cards import Card, card_text, deck, rank_text
from ..errors import IllegalMove, shown_input
from ..events import Event, SeatEvent, cards_drawn
from ..game import SAMPLE_SEED, GameState, MoveClock, Outcome
from ..rng import GameRng
from .board import (
    CARD_MASK,
    FORT_SHIFT,
    OFFSET,
    OWNER_BIT,
    STEPS,
    WIDTH,
    best_regions,
    coord_text,
    open_cells,
    region_at,
    value_mask,
    xy_of,
)
from .events import Discarded, Explored, Fortified, GameOver, Taken
from .notation import (
    BLITZES,
    CONQUERS,
    EXPLORES,
    FORTIFIES,
    PASS,
    STOP,
    Blitz,
    Conquer,
    Discard,
    Explore,
    Fortify,
    Pass,
    Stop,
    TerritoryMove,
    discard,
)
from .options import TerritoryConfig
from .view import CellView, RegionView, TerritoryView
from .words import a_value, grid_label, values_words

if TYPE_CHECKING:
    from .spec import TerritorySpec

HORIZONTAL, VERTICAL = 0, 1  # seat 0 plays horizontal, seat 1 vertical
ORIENTATIONS = ("horizontal", "vertical")
TEXT = {c: card_text(c) for c in deck(range(1, 15))}  # card text, looked up once
MAIN, BLITZ = "main", "blitz"
# the setup square, dealt in this order; row y=1 is nearer the horizontal player
SQUARE = ((0, 0, VERTICAL), (1, 0, VERTICAL), (0, 1, HORIZONTAL), (1, 1, HORIZONTAL))

# how a game ended (``end``), besides going on
REGION, CARDS, STUCK, RESIGNED = "region", "cards", "stuck", "resigned"


def _hand_key(card: Card) -> tuple[int, int]:
    return (card & 15, card >> 4)


class TerritoryState(GameState[TerritoryMove, TerritoryConfig]):
    __slots__ = (
        "_ply",
        "_rng_print",
        "blitz_at",
        "config",
        "discards",
        "end",
        "first",
        "grid",
        "hands",
        "need",
        "open",
        "over",
        "owned",
        "passes",
        "resigned",
        "rng",
        "seed",
        "stock",
        "turn",
        "turn_no",
        "where",
        "winner",
    )
    # where: each value's cells in the order they were played, which all saw
    public_memory = ("_ply", "where")

    spec: ClassVar[TerritorySpec]

    def __init__(self, config: TerritoryConfig, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.rng = GameRng(seed)  # used at setup only: the shuffle and the first player
        self._rng_print: str | None = None
        self.grid: dict[int, int] = {}  # pos -> cell (board.py)
        self.open: dict[int, None] = {}  # empty cells next to a card: where to explore
        self.owned = [0, 0]  # cards each seat controls
        # where[seat << 4 | value]: the cells of that value the seat controls
        # (fortified or not); the tuples are replaced, never changed in place
        self.where: dict[int, tuple[int, ...]] = {}
        self.hands: list[list[Card]] = [[], []]
        self.stock: list[Card] = []  # the top is the end of the list
        self.discards: list[Card] = []  # public, oldest first
        self.turn = 0
        self.first = 0
        self.turn_no = 1
        self.blitz_at = -1  # during a blitz: the cell of the card just taken
        self.passes = 0  # turns passed in a row
        self.over = False
        self.winner: int | None = None
        self.end = ""
        self.resigned: int | None = None
        self.need = sum(1 << v for v in range(1, config.values + 1))
        self._ply = 0

    # ------------------------------------------------------------------ copy
    def copy(self) -> Self:
        new = self._clone(self.rng.copy())
        new._rng_print = self._rng_print  # the same generator state
        return new

    def _clone(self, rng: GameRng) -> Self:
        new = object.__new__(type(self))
        new.config = self.config
        new.seed = self.seed
        new.rng = rng
        new._rng_print = None
        new.grid = self.grid.copy()
        new.open = self.open.copy()
        new.owned = self.owned[:]
        new.where = self.where.copy()
        new.hands = [self.hands[0][:], self.hands[1][:]]
        new.stock = self.stock[:]
        new.discards = self.discards[:]
        new.turn = self.turn
        new.first = self.first
        new.turn_no = self.turn_no
        new.blitz_at = self.blitz_at
        new.passes = self.passes
        new.over = self.over
        new.winner = self.winner
        new.end = self.end
        new.resigned = self.resigned
        new.need = self.need
        new._ply = self._ply
        return new

    def index_grid(self) -> None:
        """Derive what the state keeps beside the grid (the open cells, the
        cards each seat controls, the cells by value) from the grid alone."""
        self.open = open_cells(self.grid)
        self.owned = [0, 0]
        where: dict[int, list[int]] = {}
        for p in sorted(self.grid):
            cell = self.grid[p]
            self.owned[cell >> 6 & 1] += 1
            where.setdefault((cell & OWNER_BIT) >> 2 | cell & 15, []).append(p)
        self.where = {k: tuple(v) for k, v in where.items()}

    # ----------------------------------------------------------- who acts
    def to_act(self) -> tuple[int, ...]:
        return () if self.over else (self.turn,)

    @property
    def step(self) -> str:
        return BLITZ if self.blitz_at >= 0 else MAIN

    def legal_moves(self, seat: int) -> list[TerritoryMove]:
        if self.over or seat != self.turn:
            return []
        if self.blitz_at >= 0:
            return self._blitz_moves(seat)
        return self.main_moves(seat)

    def main_moves(
        self,
        seat: int,
        explore_at: Iterable[int] | None = None,
        one_per_value: bool = False,
    ) -> list[TerritoryMove]:
        """The legal moves of a turn's first step (PASS if there is none).

        For search, a narrower list: ``explore_at`` the only cells to explore
        (all open cells if None), and ``one_per_value`` only the first card of
        each value in hand (suits never matter, so the others play the same)."""
        grid = self.grid
        hand = self.hands[seat]
        if one_per_value:
            firsts: dict[int, Card] = {}
            for card in hand:
                firsts.setdefault(card & 15, card)
            hand = list(firsts.values())
        cfg = self.config
        royal_game = cfg.royal_domination
        moves: list[TerritoryMove] = []
        opens = list(self.open if explore_at is None else explore_at)
        royals: list[Card] = []
        for card in hand:
            if royal_game and card & 15 > 10:
                royals.append(card)
            else:
                moves += map(EXPLORES[card].__getitem__, opens)
        mine = seat << 6
        where = self.where
        base = seat << 4
        if self.owned[seat ^ 1] > 1:
            # by value: the unfortified opponent cards next to a card of yours
            # of that value, in order of discovery
            targets: dict[int, dict[int, None]] = {}
            for card in hand:
                if royal_game and card & 15 > 10:
                    continue
                v = card & 15
                found = targets.get(v)
                if found is None:
                    found = targets[v] = {}
                    for p in where.get(base | v, ()):
                        for d in STEPS:
                            c = grid.get(p + d)
                            if c is not None and c & OWNER_BIT != mine and c < 128:
                                found[p + d] = None
                if found:
                    moves += map(CONQUERS[card].__getitem__, found)
            if royals:
                # a royal attacks as any value: any opponent card next to yours
                beside: dict[int, None] = {}
                for p, cell in grid.items():
                    if cell & OWNER_BIT == mine:
                        for d in STEPS:
                            c = grid.get(p + d)
                            if c is not None and c & OWNER_BIT != mine:
                                beside[p + d] = None
                for card in royals:
                    conquers = CONQUERS[card]
                    r = card & 15
                    for n in beside:
                        fort = grid[n] >> FORT_SHIFT
                        if fort == 0 or fort & 15 == r:
                            moves.append(conquers[n])
        if not cfg.conquest_requires_capture:
            for card in hand:
                if (royal_game and card & 15 > 10) or where.get(base | card & 15):
                    moves.append(discard(card))
        if royals:
            free = [p for p, cell in grid.items() if cell & OWNER_BIT == mine and cell < 128]
            free.sort()
            for card in royals:
                moves += map(FORTIFIES[card].__getitem__, free)
        if not moves:
            moves.append(PASS)
        return moves

    def _blitz_targets(self, seat: int, at: int) -> list[int]:
        """Opponent cards a blitz from ``at`` could take: next to it, unfortified,
        and never the opponent's last card."""
        if self.owned[seat ^ 1] <= 1:
            return []
        grid = self.grid
        mine = seat << 6
        out = []
        for d in STEPS:
            n = at + d
            c = grid.get(n)
            if c is not None and c & OWNER_BIT != mine and c >> FORT_SHIFT == 0:
                out.append(n)
        return out

    def _blitz_moves(self, seat: int) -> list[TerritoryMove]:
        at = self.blitz_at
        v = self.grid[at] & 15
        moves: list[TerritoryMove] = []
        found = self._blitz_targets(seat, at)
        if found:
            # a card on the grid is never a royal, so a royal never matches
            for card in self.hands[seat]:
                if card & 15 == v:
                    moves += map(BLITZES[card].__getitem__, found)
        moves.append(STOP)
        return moves

    # ----------------------------------------------------------- playing
    def play_move(self, seat: int, move: TerritoryMove) -> list[Event]:
        if seat != self.turn:
            raise IllegalMove("it is not your turn")
        why = self._why_illegal(seat, move)
        if why is not None:
            raise IllegalMove(why)
        events: list[Event] = []
        self._apply(seat, move, events)
        return events

    def advance(self, seat: int, move: TerritoryMove) -> None:
        self._apply(seat, move, None)

    def _why_illegal(self, seat: int, move: TerritoryMove) -> str | None:
        """Why ``seat`` (whose turn it is) may not play ``move`` now, or None."""
        blitzing = self.blitz_at >= 0
        if isinstance(move, Stop):
            return None if blitzing else "there is no blitz to stop"
        if blitzing and not isinstance(move, Blitz):
            return (
                f"you are blitzing from {coord_text(self.blitz_at)}: "
                "blitz with a matching card or stop"
            )
        if isinstance(move, Pass):
            if self.main_moves(seat) != [PASS]:
                return "you may pass only when no action is legal"
            return None
        if not isinstance(move, (Explore, Conquer, Blitz, Fortify, Discard)):
            return f"{shown_input(move)} is not a territory move"
        card = move.card
        if card not in self.hands[seat]:
            return f"{card_text(card)} is not in your hand"
        cfg = self.config
        royal = cfg.is_royal(card)
        if isinstance(move, Discard):
            if cfg.conquest_requires_capture:
                return "a conquest must take a card in this game (conquest_requires_capture)"
            if not royal and not self._controls_value(seat, card & 15):
                return f"you control no card of value {rank_text(card & 15)} to match"
            return None
        at = move.at
        grid = self.grid
        cell = grid.get(at)
        if isinstance(move, Explore):
            if royal:
                return "a royal is never explored: attack or fortify with it"
            if cell is not None:
                return f"{coord_text(at)} is taken"
            if at not in self.open:
                return f"{coord_text(at)} touches no card: explore next to one"
            return None
        if isinstance(move, Fortify):
            if not royal:
                return "only a royal (J Q K) fortifies, in Royal Domination"
            if cell is None or cell & OWNER_BIT != seat << 6:
                return f"you control no card at {coord_text(at)}"
            if cell >> FORT_SHIFT:
                return f"the card at {coord_text(at)} is already fortified"
            return None
        # a conquest: the first of the turn, or a blitz
        if isinstance(move, Blitz) and not blitzing:
            return "a blitz follows a conquest: conquer first"
        if cell is None or cell & OWNER_BIT != (seat ^ 1) << 6:
            return f"your opponent has no card at {coord_text(at)}"
        if self.owned[seat ^ 1] <= 1:
            return "you may never take your opponent's last card"
        fort = cell >> FORT_SHIFT
        if isinstance(move, Blitz):
            if at - self.blitz_at not in STEPS:
                return (
                    "a blitz takes a card next to the one just taken, "
                    f"at {coord_text(self.blitz_at)}"
                )
            if royal:
                return "a royal never blitzes"
            if card & 15 != grid[self.blitz_at] & 15:
                return f"{card_text(card)} does not match the card just taken"
            if fort:
                return "only a royal takes a fortified card, and never in a blitz"
            return None
        if fort and not (royal and fort & 15 == card & 15):
            return (
                f"the card at {coord_text(at)} is fortified by {card_text(fort)}: "
                f"only a {_royal_name(fort)} takes it"
            )
        mine = seat << 6
        for d in STEPS:
            c = grid.get(at + d)
            if c is not None and c & OWNER_BIT == mine and (royal or c & 15 == card & 15):
                return None
        if royal:
            return f"the card at {coord_text(at)} touches no card of yours"
        return (
            f"the card at {coord_text(at)} touches no {rank_text(card & 15)} of yours "
            f"to match {card_text(card)}"
        )

    def _controls_value(self, seat: int, value: int) -> bool:
        return bool(self.where.get(seat << 4 | value))

    def _apply(self, seat: int, move: TerritoryMove, events: list[Event] | None) -> None:
        """Play a legal move; ``events`` collects the narration, or is None."""
        self._ply += 1
        if isinstance(move, Explore):
            self._explore(seat, move.card, move.at, events)
        elif isinstance(move, (Conquer, Blitz)):
            self._take(seat, move.card, move.at, isinstance(move, Blitz), events)
        elif isinstance(move, Stop):
            if events is not None:
                events.append(
                    Event("stop", f"{{p{seat} stops|stop}} the blitz.", SeatEvent(seat=seat))
                )
            self._end_turn(seat, events)
        elif isinstance(move, Fortify):
            card, at = move.card, move.at
            self.hands[seat].remove(card)
            self.grid[at] |= card << FORT_SHIFT
            if events is not None:
                x, y = xy_of(at)
                under = TEXT[self.grid[at] & CARD_MASK]
                text = TEXT[card]
                # the narration names values, as the grid shows them (N19)
                said = f"{grid_label(self.grid[at] & CARD_MASK, seat)} at {x},{y}"
                events.append(
                    Event(
                        "fortify",
                        f"{{p{seat} fortifies|fortify}} {said} with {a_value(card)}.",
                        Fortified(seat=seat, card=text, x=x, y=y, under=under),
                    )
                )
            self._end_turn(seat, events)
        elif isinstance(move, Discard):
            card = move.card
            self.hands[seat].remove(card)
            self.discards.append(card)
            if events is not None:
                text = TEXT[card]
                events.append(
                    Event(
                        "discard",
                        f"{{p{seat} discards|discard}} {a_value(card)} without a capture.",
                        Discarded(seat=seat, card=text),
                    )
                )
            self._end_turn(seat, events)
        else:  # Pass
            self.passes += 1
            if events is not None:
                events.append(
                    Event(
                        "pass",
                        f"{{p{seat} has|have}} no legal action and {{p{seat}:passes|pass}}.",
                        SeatEvent(seat=seat),
                    )
                )
            if self.passes >= 2:
                self._finish(STUCK, events)
                return
            self._end_turn(seat, events, passed=True)

    def _explore(self, seat: int, card: Card, at: int, events: list[Event] | None) -> None:
        self.hands[seat].remove(card)
        grid = self.grid
        grid[at] = card | seat << 6
        self.owned[seat] += 1
        key = seat << 4 | card & 15
        self.where[key] = (*self.where.get(key, ()), at)
        opens = self.open
        del opens[at]
        for d in STEPS:
            n = at + d
            if n not in grid and n not in opens:
                opens[n] = None
        if events is not None:
            x, y = xy_of(at)
            text = TEXT[card]
            events.append(
                Event(
                    "explore",
                    f"{{p{seat} explores|explore}} {a_value(card)} at {x},{y}.",
                    Explored(seat=seat, card=text, x=x, y=y),
                )
            )
        if self._completes(at):
            self._win(seat, events)
            return
        self._end_turn(seat, events)

    def _take(
        self, seat: int, card: Card, at: int, blitz: bool, events: list[Event] | None
    ) -> None:
        self.hands[seat].remove(card)
        self.discards.append(card)
        grid = self.grid
        cell = grid[at]
        fort = cell >> FORT_SHIFT
        if fort:  # taken by the matching royal: both royals are discarded
            self.discards.append(fort)
        grid[at] = (cell & CARD_MASK) | seat << 6
        self.owned[seat] += 1
        self.owned[seat ^ 1] -= 1
        where = self.where
        v = cell & 15
        lost = (seat ^ 1) << 4 | v
        where[lost] = tuple([p for p in where[lost] if p != at])
        where[seat << 4 | v] = (*where.get(seat << 4 | v, ()), at)
        if events is not None:
            x, y = xy_of(at)
            text, taken = TEXT[card], TEXT[cell & CARD_MASK]
            how = (
                f"{{p{seat} blitzes|blitz}}: {{p{seat}:discards|discard}}"
                if blitz
                else f"{{p{seat} discards|discard}}"
            )
            label = grid_label(cell & CARD_MASK, seat ^ 1)
            line = f"{how} {a_value(card)} and {{p{seat}:takes|take}} {label} at {x},{y}"
            fortifier = TEXT[fort] if fort else None
            if fort:
                line += f", fortified by {a_value(fort)}: both royals are discarded"
            data = Taken(seat=seat, card=text, x=x, y=y, taken=taken, fortifier=fortifier)
            events.append(Event("blitz" if blitz else "conquer", line + ".", data))
        if self._completes(at):
            self._win(seat, events)
            return
        if self.hands[seat] and self._blitz_targets(seat, at):
            # the blitz may go on; whether the hand can match stays private
            self.blitz_at = at
            return
        self._end_turn(seat, events)

    def _completes(self, at: int) -> bool:
        """Whether the region holding ``at`` now has every value of the deck."""
        base = (self.grid[at] & OWNER_BIT) >> 2
        where = self.where
        # most of the time the seat lacks a value anywhere: no walk needed
        for v in range(1, self.config.values + 1):
            if not where.get(base | v):
                return False
        region = region_at(self.grid, at)
        if len(region) < self.config.values:
            return False
        need = self.need
        return value_mask(self.grid, region) & need == need

    def _end_turn(self, seat: int, events: list[Event] | None, passed: bool = False) -> None:
        self.blitz_at = -1
        if not passed:
            self.passes = 0
        hand = self.hands[seat]
        n = min(self.config.hand_size - len(hand), len(self.stock))
        if n > 0:
            stock = self.stock
            drawn = stock[-n:][::-1]  # the top of the stock is the end of the list
            del stock[-n:]
            hand += drawn
            if events is not None:
                texts = [TEXT[c] for c in drawn]
                events.append(cards_drawn(seat, texts, values_words(drawn)))
        if not self.stock and not (self.hands[0] and self.hands[1]):
            self._finish(CARDS, events)
            return
        self.turn = seat ^ 1
        self.turn_no += 1

    # ------------------------------------------------------------ the end
    def _win(self, seat: int, events: list[Event] | None) -> None:
        self.over = True
        self.winner = seat
        self.end = REGION
        self.blitz_at = -1
        if events is not None:
            events.append(Event("game_over", self._reason() + ".", GameOver(winner=seat)))

    def _finish(self, how: str, events: list[Event] | None) -> None:
        """The game ends without a complete region: the tie-breaks decide."""
        self.over = True
        self.end = how
        self.blitz_at = -1
        k0, k1 = self.standing(0), self.standing(1)
        self.winner = 0 if k0 > k1 else 1 if k1 > k0 else None
        if events is not None:
            events.append(
                Event(
                    "game_over",
                    self._reason() + ".",
                    GameOver(winner=self.winner, standing=[list(k0), list(k1)]),
                )
            )

    def standing(self, seat: int) -> tuple[int, int, int]:
        """What decides a game that runs out of cards, compared in order: the
        distinct values in the seat's best region, that region's size, and the
        cards the seat controls."""
        distinct, size, _ = best_regions(self.grid)[seat]
        return (distinct, size, self.owned[seat])

    def _reason(self) -> str:
        w = self.winner
        if self.end == REGION:
            return f"{{p{w} holds|hold}} all {self.config.values} values in one region"
        if self.end == RESIGNED:
            return f"{{p{self.resigned}}} resigned"
        if self.end == CARDS:
            empty = 0 if not self.hands[0] else 1
            why = f"The stock is empty and {{p{empty} has|have}} no cards left"
        else:
            why = "Neither player can act"
        k = (self.standing(0), self.standing(1))
        if w is None:
            return f"{why}: a draw, level on values, region size and cards controlled"
        mine, theirs = k[w], k[w ^ 1]
        if mine[0] != theirs[0]:
            by = f"{mine[0]} values in one region to {theirs[0]}"
        elif mine[1] != theirs[1]:
            by = f"level on values ({mine[0]}), a region of {mine[1]} cards to {theirs[1]}"
        else:
            by = f"level on values and region size, {mine[2]} cards controlled to {theirs[2]}"
        return f"{why}: {{p{w} wins|win}}, {by}"

    def resign(self, seat: int) -> list[Event]:
        self.over = True
        self.resigned = seat
        self.winner = seat ^ 1
        self.end = RESIGNED
        self.blitz_at = -1
        self._ply += 1
        return [
            Event(
                "resign",
                f"{{p{seat} resigns|resign}}: {{p{seat ^ 1} wins|win}}.",
                SeatEvent(seat=seat),
            )
        ]

    @property
    def is_over(self) -> bool:
        return self.over

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        scores = self.scores()
        if self.resigned is not None:
            return Outcome.resigned(self.resigned, 2, scores)
        w = self.winner
        ranking = ((0, 1),) if w is None else ((w,), (w ^ 1,))
        return Outcome(w, ranking, scores, self._reason())

    # ------------------------------------------------------------ clocks
    def clock(self, seat: int) -> MoveClock | None:
        if not self.config.timer or self.over or seat != self.turn:
            return None
        return MoveClock(self.config.timer, self.timeout_move(), (self.turn_no,))

    def timeout_move(self) -> TerritoryMove:
        """What the clock plays: ``stop`` in a blitz; otherwise the lowest card
        explored on the open cell nearest the setup square (or, if nothing may
        be explored, the first legal move)."""
        if self.blitz_at >= 0:
            return STOP
        seat = self.turn
        cards = [c for c in self.hands[seat] if not self.config.is_royal(c)]
        if not cards:
            return self.main_moves(seat)[0]

        def distance(p: int) -> tuple[int, int]:
            x, y = xy_of(p)
            return (abs(2 * x - 1) + abs(2 * y - 1), p)

        return EXPLORES[min(cards, key=_hand_key)][min(self.open, key=distance)]

    # ----------------------------------------------------------- information
    def scores(self) -> tuple[int, ...]:
        b0, b1 = best_regions(self.grid)
        return (b0[0], b1[0])

    def view(self, seat: int | None) -> TerritoryView:
        grid = self.grid
        cells: list[CellView] = []
        for p in sorted(grid):
            cell = grid[p]
            y, x = divmod(p, WIDTH)
            fort = cell >> FORT_SHIFT
            cells.append(
                CellView(
                    x=x - OFFSET,
                    y=y - OFFSET,
                    card=TEXT[cell & CARD_MASK],
                    owner=cell >> 6 & 1,
                    fortified_by=TEXT[fort] if fort else None,
                )
            )
        best: list[RegionView] = []
        for _, size, region in best_regions(grid):
            mask = value_mask(grid, region)
            best.append(
                RegionView(
                    values=[v for v in range(1, 15) if mask >> v & 1],
                    size=size,
                    cells=[list(xy_of(p)) for p in sorted(region)],
                )
            )
        cfg = self.config
        hand = None if seat is None else [TEXT[c] for c in sorted(self.hands[seat], key=_hand_key)]
        return TerritoryView(
            game="territory",
            seat=seat,
            cells=cells,
            orientation=list(ORIENTATIONS),
            hand_sizes=[len(self.hands[0]), len(self.hands[1])],
            stock=len(self.stock),
            discards=[TEXT[c] for c in self.discards],
            best_regions=best,
            values_to_win=list(range(1, cfg.values + 1)),
            turn=None if self.over else self.turn,
            turn_number=self.turn_no,
            first_player=self.first,
            step=self.step,
            blitz_from=list(xy_of(self.blitz_at)) if self.blitz_at >= 0 else None,
            passes=self.passes,
            hand_size=cfg.hand_size,
            deck=cfg.deck,
            royal_domination=cfg.royal_domination,
            conquest_requires_capture=cfg.conquest_requires_capture,
            timer=cfg.timer,
            resigned=self.resigned,
            hand=hand,
        )

    def snapshot(self) -> dict[str, Any]:
        # the raw fields, not the view: what the view derives (regions) follows
        # from them, and tests take thousands of snapshots. Cells are given as
        # board positions (board.pos_of) to keep it cheap.
        grid = self.grid
        cells = []
        for p in sorted(grid):
            c = grid[p]
            cells.append([p, TEXT[c & CARD_MASK], c >> 6 & 1, TEXT.get(c >> FORT_SHIFT)])
        return {
            "grid": cells,
            "open": list(self.open),
            "where": sorted([k, list(v)] for k, v in self.where.items()),
            "owned": self.owned[:],
            "hands": [[TEXT[c] for c in h] for h in self.hands],
            "stock": [TEXT[c] for c in self.stock],
            "discards": [TEXT[c] for c in self.discards],
            "turn": self.turn,
            "first": self.first,
            "turn_no": self.turn_no,
            "blitz_at": self.blitz_at,
            "passes": self.passes,
            "over": self.over,
            "winner": self.winner,
            "end": self.end,
            "resigned": self.resigned,
            "rng": self.rng_print(),
            "ply": self._ply,
        }

    def rng_print(self) -> str:
        """The RNG's fingerprint, worked out once: the RNG draws only at setup."""
        if self._rng_print is None:
            self._rng_print = self.rng.fingerprint()
        return self._rng_print

    def hidden_cards(self, seat: int | None) -> Counter[str]:
        hidden = list(self.stock)
        for s in (0, 1):
            if s != seat:
                hidden += self.hands[s]
        return Counter(TEXT[c] for c in hidden)

    def all_cards(self) -> Counter[str]:
        cards = self.hands[0] + self.hands[1] + self.stock + self.discards
        for cell in self.grid.values():
            cards.append(cell & CARD_MASK)
            if cell >> FORT_SHIFT:
                cards.append(cell >> FORT_SHIFT)
        return Counter(TEXT[c] for c in cards)

    def determinize(self, seat: int | None, rng: random.Random) -> Self:
        new = self._clone(GameRng(rng.getrandbits(64)))
        new.seed = SAMPLE_SEED
        if seat is not None:  # in the order the seat sees it, not the deal's
            new.hands[seat] = sorted(self.hands[seat], key=_hand_key)
        others = [s for s in (0, 1) if s != seat]
        pool = list(self.stock)
        for s in others:
            pool += self.hands[s]
        # sorted first, so that the sample depends only on which cards are
        # unseen, never on where they really are
        pool.sort()
        rng.shuffle(pool)
        for s in others:
            n = len(self.hands[s])
            new.hands[s] = pool[:n]
            del pool[:n]
        new.stock = pool
        return new


def _royal_name(card: Card) -> str:
    return {11: "Jack", 12: "Queen", 13: "King"}[card & 15]


# ---------------------------------------------------------------- positions
