"""The game contract every game implements (see docs/contract.md).

A :class:`GameSpec` describes a game and creates states; a :class:`GameState`
answers who must act, the legal moves of a seat, plays a move (returning
events or raising :class:`~rules.errors.IllegalMove`), says whether the game is
over and how it ended, the scores, each seat's move clock, and gives each seat
its :meth:`~GameState.view`. Moves are small hashable objects whose ``str()``
is the game's notation and which ``spec.parse_move`` reads back.

Resigning is a move like any other (``resign`` in every game's notation): it
is recorded and replayed, and the game decides what follows. It is accepted
from any seat still in the game, whether or not that seat must act now, and
is never listed among the legal moves (a bot choosing at random must not
resign).

The table, saves, network, bots and tests speak only this contract.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar

from .choices import ChoiceGroup
from .config import GameConfig
from .errors import IllegalMove, MoveError, NotationError, shown_input
from .events import COMMON_EVENT_TYPES, Event, EventData, fill_names
from .figures import Figure, Samples
from .views import View

if TYPE_CHECKING:  # the bots import the contract, not the other way round
    from .bots.roster import GameBots

Move = Hashable
M = TypeVar("M", bound=Hashable)
C = TypeVar("C", bound=GameConfig)

RESIGN_TEXT = "resign"


@dataclass(frozen=True, slots=True)
class Resign:
    """Give up: in a two-seat game the other seat wins; with more seats the
    resigning seat drops out, ranked last, and the others play on."""

    def __str__(self) -> str:
        return RESIGN_TEXT


RESIGN = Resign()


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``ranking`` lists groups of tied seats, best first.
    ``reason`` may name seats as ``{p0}``, ``{p1}``... like an event's text."""

    winner: int | None
    ranking: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    reason: str

    @property
    def is_draw(self) -> bool:
        return self.winner is None and len(self.ranking) == 1

    def render(self, names: Sequence[str], you: Collection[int] = ()) -> str:
        """The reason with seat placeholders filled in (``you``: the seats
        addressed in the second person)."""
        return fill_names(self.reason, names, you)

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "ranking": [list(g) for g in self.ranking],
            "scores": list(self.scores),
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """Read :meth:`to_json`'s form back; ValueError if it is not one."""
        try:
            winner = data["winner"]
            ranking = tuple(tuple(int(s) for s in group) for group in data["ranking"])
            scores = tuple(data["scores"])
            reason = data["reason"]
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"not a game result: {err}") from None
        ints = [s for g in ranking for s in g] + list(scores)
        if winner is not None:
            ints.append(winner)
        if not isinstance(reason, str) or any(type(i) is not int for i in ints):
            raise ValueError("not a game result: seats and scores must be whole numbers")
        return cls(winner, ranking, scores, reason)

    @classmethod
    def from_scores(cls, scores: Sequence[int], reason: str) -> Outcome:
        """Higher score ranks first; a tie at the top is a draw."""
        levels = sorted(set(scores), reverse=True)
        ranking = tuple(tuple(s for s, v in enumerate(scores) if v == lv) for lv in levels)
        winner = ranking[0][0] if len(ranking[0]) == 1 else None
        return cls(winner, ranking, tuple(scores), reason)

    @classmethod
    def resigned(cls, seat: int, players: int, scores: Sequence[int]) -> Outcome:
        """A two-seat game ended by ``seat`` resigning: the other seat wins."""
        others = tuple(s for s in range(players) if s != seat)
        return cls(
            winner=others[0] if len(others) == 1 else None,
            ranking=(others, (seat,)),
            scores=tuple(scores),
            reason=f"{{p{seat}}} resigned",
        )


@dataclass(frozen=True, slots=True)
class MoveClock:
    """A seat's move clock now (see :meth:`GameState.clock`).

    ``seconds`` is the length of a full clock; ``timeout_move`` is what the
    table plays for the seat when it runs out (one of its legal moves); the
    clock restarts only when ``turn`` changes, so the steps of one turn share
    one clock and a rule can restart it by changing the key."""

    seconds: float
    timeout_move: Hashable
    turn: Hashable


# The seed a determinized sample carries. A sample knows no seed: the real one
# would let whoever reads the sample deal the whole game again.
SAMPLE_SEED = 0


class GameState(ABC, Generic[M, C]):
    """One game in progress. Subclasses keep their fields cheap to copy."""

    spec: ClassVar[GameSpec[Any, Any]]
    config: C
    seed: int
    # What every seat knows from the play so far that a view does not carry
    # (public facts about hands, the move count), by attribute name:
    # ``state_from_view`` cannot rebuild these, so the contract tests copy them
    # onto a rebuilt position when they check that a sample of a state depends
    # on nothing but what its seat may know.
    public_memory: ClassVar[tuple[str, ...]] = ()

    # --- who acts and what they may do -------------------------------------
    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """Seats that must act now (several at once in a simultaneous phase)."""

    @abstractmethod
    def legal_moves(self, seat: int) -> list[M]:
        """Every legal move of ``seat`` now; empty when it need not act.
        ``resign`` is never listed (see the module's docstring)."""

    def play(self, seat: int, move: M | Resign) -> list[Event]:
        """Apply a move; raise IllegalMove (state unchanged) if it is not legal."""
        if self.is_over:
            raise IllegalMove("the game is over")
        if type(seat) is not int or not 0 <= seat < self.config.players:
            raise IllegalMove(f"there is no seat {seat!r} in this game")
        if type(move) is Resign:
            return self.resign(seat)
        return self.play_move(seat, move)  # type: ignore[arg-type]

    def play_text(self, seat: int, text: str) -> list[Event]:
        """Read ``text`` and play it: NotationError for text that is no move
        (as ``parse_move`` raises), IllegalMove for a move not allowed now.
        Both are ``MoveError``s."""
        return self.play(seat, self.spec.parse_move(text))

    @abstractmethod
    def play_move(self, seat: int, move: M) -> list[Event]:
        """Apply one of the game's own moves (``play`` has already dealt with
        resignations and a game that is over); IllegalMove leaves the state
        unchanged."""

    def advance(self, seat: int, move: M) -> None:
        """Play a legal ``move`` of ``seat`` fast, for search: no checks and no
        narration. The state reached is the one :meth:`play` reaches in all
        that the rules read (who acts, the legal moves, scores, the end: the
        contract tests play games both ways and compare); what only views and
        samples read may go stale, so an advanced state is searched, never
        shown or sampled from. By default :meth:`play`: a game overrides it
        where skipping the narration pays, by passing ``events=None`` down the
        same methods ``play`` uses, never with a second copy of the rules."""
        self.play_move(seat, move)

    @abstractmethod
    def resign(self, seat: int) -> list[Event]:
        """``seat`` gives up. A two-seat game ends with the other seat winning
        (:meth:`Outcome.resigned`); a game of more seats drops the seat, ranks
        it below everyone still playing, and plays on. IllegalMove if the seat
        is no longer in the game."""

    # --- clocks --------------------------------------------------------------
    def clock(self, seat: int) -> MoveClock | None:
        """The move clock of ``seat`` while it must act, or None (no clock now:
        the game or its options have none, or the seat need not act)."""
        return None

    # --- the end -------------------------------------------------------------
    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """The scoreboard now, one whole number per seat (public)."""

    def stopped_by_limit(self) -> str | None:
        """Over, but stopped by a limit of the rules that bounds its length
        (``max_moves``) rather than played to a finish: that limit and how it
        ranked the seats, in words ("the 2,000-play limit (ranked by cards
        left)"). None for a game played out, or not over. Reports over many
        games (the arena's) count these, since such a result says less about
        who played better; a game with no such limit keeps the default."""
        return None

    # --- information ---------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What ``seat`` may know; ``None`` is a spectator.

        This is the only way information leaves a state. Each game declares
        its view as a frozen, typed :class:`rules.views.View` (its spec's
        ``view_type``), JSON-able by ``to_json()``; what every game shares
        (who acts, the legal moves, scores, the end) is not repeated in it: the
        table sends those beside it (``net.client.Update``)."""

    @abstractmethod
    def copy(self) -> Self:
        """An independent copy, cheap enough for search (no deepcopy). A state
        that owns a ``rules.rng.GameRng`` copies it with ``GameRng.copy()``."""

    @abstractmethod
    def determinize(self, seat: int | None, rng: random.Random) -> Self:
        """A copy in which everything ``seat`` cannot see is resampled at random,
        consistently with what it has seen. ``view(seat)`` is unchanged by this;
        bots search such copies, and the contract tests use it to prove that
        views hold nothing hidden.

        The whole sample, every attribute and not only what a view shows,
        depends on nothing but what ``seat`` may know and ``rng``: its seed is
        ``SAMPLE_SEED``, its own RNG is drawn from ``rng``, and nothing hidden
        is carried over (the contract tests compare samples field by field)."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """Everything in the state, hidden parts included, as JSON-able data.

        For tests and bug reports only (replay must reproduce it exactly, in
        any process: give the RNG as ``rules.rng.rng_fingerprint``, not as a
        ``hash()``); never sent to a seat."""

    def position_text(self) -> str:
        """The whole state as a few lines of text (``rules.position``), hidden
        parts and the generator included, which ``spec.parse_position`` reads
        back into the same state: like python-chess's ``fen()``. For tests,
        puzzles and bug reports, like :meth:`snapshot`; never sent to a seat.
        Written by the game's ``position`` module, through its spec."""
        return self.spec.write_position(self)

    def hidden_cards(self, seat: int | None) -> Counter[str]:
        """Card texts that ``seat`` must not be able to see now (tests use it).

        A card the seat has watched go somewhere private (a public stack picked
        up into a hand, a face-down card turned up and taken back) is known to
        it, not hidden: views and events may go on naming it. The contract tests
        check that no view or event shows a seat a card hidden from it."""
        return Counter()

    def all_cards(self) -> Counter[str]:
        """Every card in the game, wherever it is (conservation check); empty if
        the game has no cards to conserve."""
        return Counter()

    @property
    def ply(self) -> int:
        """Number of moves played so far."""
        return self._ply  # type: ignore[attr-defined,no-any-return]


class GameSpec(ABC, Generic[M, C]):
    """A game: its id, title, options and presets, and how to start one."""

    id: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    Config: type[C]
    presets: ClassVar[Mapping[str, Mapping[str, Any]]] = {"default": {}}
    # a preset as a form shows it ("dm12: a DeathMatch, 40 rounds"), if more
    # than its name needs saying; the name stays what saves and the wire hold
    preset_labels: ClassVar[Mapping[str, str]] = {}
    # One state type per game; `state_type.spec` points back here.
    state_type: ClassVar[type[GameState[Any, Any]]]
    # What its states' view() returns, and what a client decodes a view into.
    view_type: ClassVar[type[View]]

    def read_view(self, data: Mapping[str, Any] | View) -> View:
        """A view of this game from its JSON form (a client's boundary):
        rules.views.ViewError, saying what is wrong, for anything else."""
        return self.view_type.read(data)

    # The typed payload (``Event.data``) of each kind of event the game emits,
    # besides the kinds every game shares (``rules.events.COMMON_EVENT_TYPES``:
    # resign, timeout). A private event and its redacted form share a kind and
    # a type: what the redacted form leaves out is an optional field.
    event_types: ClassVar[Mapping[str, type[EventData]]] = {}
    # each computer level's fixed rating (openskill's mu) in this game, from
    # arena runs (docs/stats.md, "Computer ratings"; measured again by
    # tests/perf/bench_calibrate_ratings.py); a level not listed, or a game
    # without any, rates as a newcomer. Easy plays at random: a newcomer's 25.
    computer_ratings: ClassVar[Mapping[str, float]] = {}

    def all_event_types(self) -> dict[str, type[EventData]]:
        """Every kind of event a table of this game may send, with its payload type."""
        return {**COMMON_EVENT_TYPES, **self.event_types}

    def read_event(self, data: object) -> Event:
        """An event of this game from its JSON form (a client's boundary):
        rules.events.EventError, saying what is wrong, for anything else."""
        return Event.read(data, self.all_event_types())

    # Where views and event data hold move texts (dotted paths of keys: every
    # string found there, lists walked, is a move text). Every such text reads
    # back with ``parse_move`` to a move that writes it again, even one a seat
    # sees with part hidden; the contract tests check each one.
    view_move_fields: ClassVar[tuple[str, ...]] = ()
    event_move_fields: ClassVar[tuple[str, ...]] = ()

    def config(self, preset: str | None = None, **overrides: Any) -> C:
        """Build a Config from a named preset plus overrides (ValueError if bad)."""
        name = preset or next(iter(self.presets))
        if name not in self.presets:
            raise ValueError(
                f"{self.id} has no preset {shown_input(name)}; presets: {', '.join(self.presets)}"
            )
        values = dict(self.presets[name])
        values.update(overrides)
        cfg = self.Config.from_dict(values)
        if not self.min_players <= cfg.players <= self.max_players:
            raise ValueError(f"{self.title} takes {self.players_text()}, not {cfg.players}")
        return cfg

    def players_text(self) -> str:
        """``2 players`` or ``2 to 8 players``, for messages and screens."""
        if self.min_players == self.max_players:
            return f"{self.min_players} players"
        return f"{self.min_players} to {self.max_players} players"

    @abstractmethod
    def new(
        self, config: C | None = None, seed: int = 0, deck_order: Sequence[str] | None = None
    ) -> GameState[M, C]:
        """A new game. ``deck_order`` (card texts, top first) fixes the deal for
        tests, puzzles and bug reports; it may name only the cards that matter,
        the rest following in the deck's fixed order (``rules.cards.stack_deck``).
        Otherwise the seed shuffles."""

    def parse_move(self, text: str) -> M | Resign:
        """Read a move's notation; NotationError for anything that is no move
        (text or not). ``resign`` is a move of every game."""
        if not isinstance(text, str):
            raise NotationError(f"a move is text, not {shown_input(text)}")
        if text.strip().lower() == RESIGN_TEXT:
            return RESIGN
        return self.parse_game_move(text)

    @abstractmethod
    def parse_game_move(self, text: str) -> M:
        """Read one of the game's own moves; NotationError for text that is none."""

    def bots(self) -> GameBots | None:
        """The game's computer players and search (``rules.bots.roster``): its
        bot of each level, its search adapter and budget, its judge, scripted
        players. None: the random bot at every level and the generic search.
        A game loads its bots module here, on first use, so that its rules
        load without the search."""
        return None

    def write_position(self, state: Any) -> str:
        """:meth:`GameState.position_text` of one of this game's states (a game's
        ``position`` module writes and reads; the state does not import it)."""
        raise NotImplementedError(f"{self.id} cannot write a position text")

    def parse_position(self, config: C, text: str) -> GameState[M, C]:
        """Read :meth:`GameState.position_text` back: a state whose snapshot,
        views, legal moves and position text are those of the state that wrote
        it. ``rules.position.PositionError`` (a ValueError) for text that is no
        position of this game under ``config``."""
        raise NotImplementedError(f"{self.id} cannot read a position text")

    @abstractmethod
    def max_moves(self, config: C) -> int:
        """A bound: the game ends within this many moves whatever the players do."""

    def rematch_config(self, config: C, outcome: Outcome) -> C:
        """The options of a rematch (e.g. the loser leads); the same by default."""
        return config

    def state_from_view(self, config: C, view: View, scores: Sequence[int]) -> GameState[M, C]:
        """A state that shows ``view`` (one seat's) to that seat, the cards it
        cannot see placed anywhere they could be: what a bot playing over the
        network (which gets views only) samples from with ``determinize``. A
        game that cannot rebuild one raises NotImplementedError."""
        raise NotImplementedError(f"{self.id} cannot rebuild a position from a view")

    def upgrade_config(self, values: dict[str, Any], version: int) -> dict[str, Any]:
        """Options saved by record format ``version``, as this version reads
        them (a game whose options changed meaning migrates them here)."""
        return values

    def move_words(self, config: C, move: str) -> str:
        """A move (its notation) in the words a person reads, for hints,
        analysis, replays, logs and ``cardtable saves show``: "Claim + Block
        (on Block)", "play 5S 5H 5C", "explore 7C left of 4D". Cards stay card
        texts (``5S``): how they are drawn (suit symbols, ``--ascii``) is the
        screen's choice. By default the notation itself."""
        return move

    def words_of_recorded_move(self, config: C, move: str) -> str:
        """``move_words`` for a move read from outside (a saved game, a
        replay): one this game cannot read (a save whose moves belong to
        another game) is named as such, never a crash. Every reader of a
        record's moves in words goes through here."""
        try:
            return self.move_words(config, move)
        except MoveError:
            return f"(not a {self.title} move)"

    def move_words_seen(self, config: C, move: str, view: View) -> str:
        """:meth:`move_words` as the seat whose ``view`` it is reads them
        before the move: a game may name what the view shows (the card a
        move takes, where a card comes from). By default the same words."""
        return self.move_words(config, move)

    def choice_groups(self, config: C, moves: Sequence[str], view: View) -> list[ChoiceGroup]:
        """``moves`` (the legal moves of ``view``'s seat, by notation) in groups
        a person hears one by one (rules/choices.py; line mode's turn,
        docs/lines.md). Every move is in one group, but where several moves
        differ in nothing the rules count (Territory: two cards of one value
        on one cell) one may stand for them all. [] (the default): the moves
        are few enough to hear as a plain list."""
        return []

    def table_lines(self, view: View, names: Sequence[str], you: Collection[int] = ()) -> list[str]:
        """The position as ``view`` shows it, in a few sentences a person can
        hear one by one (line mode's ``table``; docs/lines.md), seats named
        from ``names`` (``you``: addressed in the second person). Cards stay
        card texts, as in :meth:`move_words`. By default the view's fields."""
        lines = []
        for key, value in view.to_json().items():
            if key in ("game", "seat", "hand"):
                continue  # said elsewhere (``hand``: line mode's own command)
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                value = ", ".join(value) or "none"
            lines.append(f"{key.replace('_', ' ').capitalize()}: {value}.")
        return lines

    def score_label(self, config: C) -> str:
        """What a score (``GameState.scores``, ``Outcome.scores``) counts, for
        the column a result or a scoreboard shows it under: "points" by
        default; a game whose scores mean something else, or where fewer is
        better, says so ("cards left (fewer is better)")."""
        return "points"

    def turn_label(self, state: GameState[M, C], ply: int) -> str:
        """The moment at which ``state`` stands, ``ply`` moves into the game
        (before move ``ply + 1``), in the game's own unit, for the analysis:
        "Move 21" by default; a game of rounds says "Round 11" (and where a
        round has several moves, which one: "Round 5, card 3")."""
        return f"Move {ply + 1}"

    def score_target(self, config: C) -> int | None:
        """The score that ends the game, where one does (Domination's target),
        for a chart of the scores to draw the finishing line; None by default."""
        return None

    # The game's own figures on a player's statistics page (rules/figures.py).
    figures: ClassVar[tuple[Figure, ...]] = ()

    def figure_samples(self, seat: int, events: Sequence[Event], outcome: Outcome) -> Samples:
        """The samples of :attr:`figures` in one finished game, from ``seat``'s
        side, read from every event of the game (unredacted). None by default."""
        return {}

    def seat_names(self, config: C) -> list[str]:
        """Default names of the seats, for display."""
        return [f"Player {i + 1}" for i in range(config.players)]

    def replay(
        self,
        config: C,
        seed: int,
        moves: Sequence[tuple[int, str]],
        deck_order: Sequence[str] | None = None,
    ) -> GameState[M, C]:
        """Rebuild a state from its record; MoveError if the record is bad."""
        state = self.new(config, seed, deck_order)
        for i, (seat, text) in enumerate(moves):
            try:
                state.play_text(seat, text)
            except IllegalMove as err:
                raise IllegalMove(f"move {i + 1} ({text} by seat {seat}): {err}") from None
            except NotationError as err:
                raise NotationError(f"move {i + 1} (by seat {seat}): {err}") from None
        return state
