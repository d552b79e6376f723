"""The machinery of the game-contract suite (tests/rules/test_contract.py).

Everything here works on any registered game through the contract alone
(rules/game.py): no game is named, so a game added to the registry is covered
the moment it is registered. :class:`ContractRun` plays one random game and
checks the contract after every move; the other helpers find the cases to run,
scan views and events for cards, and count moves for the perft table.
"""

from __future__ import annotations

import io
import json
import pickle
import random
import re
import types
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from rules.config import GameConfig
from rules.errors import IllegalMove, MoveError, NotationError
from rules.events import Event, visible_events
from rules.game import RESIGN, GameSpec, GameState, MoveClock
from rules.registry import games
from rules.views import View

AnyState = GameState[Any, Any]
AnySpec = GameSpec[Any, Any]

# Text that no game should take for a move, fed to play_text (a game may still
# parse one of them: then it must be illegal for that seat or legal for real).
# Line breaks are left to test_notation_errors_stay_on_one_line.
GARBAGE_TEXTS = (
    "",
    "   ",
    "\t",
    "xyzzy",
    "0",
    "-1",
    "99Z",
    "1000H",
    "AS AS AS AS AS",
    "{p0}",
    "\x00",
    "\u2660\u2665",
    "pass " * 60,
)


# In a game past its fully checked moves, every SPOT_CHECK-th move is still
# checked in full (see ContractRun).
SPOT_CHECK = 250


# --------------------------------------------------------------------- cases
@dataclass(frozen=True)
class Case:
    """One game, preset and player count to run the contract against."""

    game_id: str
    preset: str
    players: int
    # option changes beyond the preset, needed to seat `players` (e.g. a 2nd deck)
    overrides: tuple[tuple[str, Any], ...] = ()

    @property
    def spec(self) -> AnySpec:
        return games()[self.game_id]

    def config(self) -> GameConfig:
        cfg: GameConfig = self.spec.config(
            self.preset, players=self.players, **dict(self.overrides)
        )
        return cfg

    @property
    def id(self) -> str:
        extra = "".join(f"-{k}={v}" for k, v in self.overrides)
        return f"{self.game_id}-{self.preset}-{self.players}p{extra}"


def _alternatives(config: GameConfig) -> Iterator[tuple[str, Any]]:
    """Single-option changes worth trying when a player count needs other options."""
    for info in config.options():
        if info.name == "players":
            continue
        values: list[Any] = []
        if info.choices:
            values = list(info.choices)
        elif info.kind is bool:
            values = [True, False]
        elif info.kind is int:
            values = [v for v in (info.min, info.max) if v is not None]
        for value in values:
            if value != getattr(config, info.name):
                yield info.name, value


def config_for_players(
    spec: AnySpec, preset: str, players: int
) -> tuple[tuple[str, Any], ...] | None:
    """Overrides that seat ``players`` in ``preset`` (none needed, ideally), or None
    if no single option change makes that count valid."""
    try:
        spec.config(preset, players=players)
        return ()
    except ValueError:
        pass
    base = spec.config(preset)
    for name, value in _alternatives(base):
        try:
            spec.config(preset, players=players, **{name: value})
        except ValueError:
            continue
        return ((name, value),)
    return None


def contract_cases() -> list[Case]:
    """Every preset of every game at its own player count, and at the smallest and
    largest counts the game allows."""
    cases: list[Case] = []
    for game_id, spec in sorted(games().items()):
        for preset in spec.presets:
            default_players = spec.config(preset).players
            counts = sorted({default_players, spec.min_players, spec.max_players})
            for n in counts:
                overrides = config_for_players(spec, preset, n)
                if overrides is not None:
                    cases.append(Case(game_id, preset, n, overrides))
    return cases


def first_preset_cases() -> list[Case]:
    """The default preset of each game at its default player count."""
    out = []
    for game_id, spec in sorted(games().items()):
        preset = next(iter(spec.presets))
        out.append(Case(game_id, preset, spec.config(preset).players))
    return out


# ---------------------------------------------------------------- utilities
def seats(state: AnyState) -> range:
    return range(state.config.players)


def perspectives(state: AnyState) -> list[int | None]:
    return [*seats(state), None]


def json_roundtrip(data: Any, what: str) -> str:
    """``data`` must survive JSON unchanged: only dicts with str keys, lists, str,
    int, float, bool and None (a tuple would come back a list over the wire, and
    a local screen must not be able to tell it from a remote one). Returns
    the JSON text."""
    try:
        text = json.dumps(data, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise AssertionError(f"{what} is not JSON-able: {err}") from None
    assert json.loads(text) == data, f"{what} changes on a JSON round trip: {_non_json(data)}"
    return text


def _non_json(data: Any, path: str = "$") -> str:
    """Where in ``data`` the first non-JSON value sits, for a readable failure."""
    if isinstance(data, dict):
        for k, v in data.items():
            if not isinstance(k, str):
                return f"{path}: key {k!r} is not a str"
            found = _non_json(v, f"{path}.{k}")
            if found:
                return found
        return ""
    if isinstance(data, list):
        for i, v in enumerate(data):
            found = _non_json(v, f"{path}[{i}]")
            if found:
                return found
        return ""
    if data is None or type(data) in (str, int, float, bool):
        return ""
    return f"{path}: {type(data).__name__} {data!r}"


def scramble(data: Any) -> None:
    """Empty every list and dict inside ``data`` in place: a caller that edits a
    view or an event must not reach into the state that made it."""
    if isinstance(data, dict):
        for v in list(data.values()):
            scramble(v)
        data.clear()
    elif isinstance(data, list):
        for v in data:
            scramble(v)
        data.clear()


def card_pattern(card_texts: Iterable[str]) -> re.Pattern[str] | None:
    """A regex that finds this game's card texts as whole words in a string."""
    texts = sorted(set(card_texts), key=len, reverse=True)
    if not texts:
        return None
    alternation = "|".join(re.escape(t) for t in texts)
    return re.compile(rf"(?<![0-9A-Za-z])(?:{alternation})(?![0-9A-Za-z])")


def cards_mentioned(data: Any, pattern: re.Pattern[str] | None) -> set[str]:
    """Card texts anywhere in JSON-like data (strings and dict keys)."""
    found: set[str] = set()
    if pattern is None:
        return found
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.update(pattern.findall(item))
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def visible_cards(state: AnyState, seat: int | None) -> set[str]:
    """Card texts of which at least one copy ``seat`` may see now."""
    return set(+(state.all_cards() - state.hidden_cards(seat)))


def event_json(event: Event) -> dict[str, Any]:
    return {**event.to_json(), "private_to": event.private_to}


def events_for(events: list[Event], seat: int | None) -> list[dict[str, Any]]:
    return [event_json(e) for e in visible_events(events, seat)]


def _field_names(state: AnyState) -> list[str]:
    """The attributes :func:`full_state` reads, in a fixed order."""
    names: list[str] = []
    for cls in type(state).__mro__:
        slots = getattr(cls, "__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    names += list(getattr(state, "__dict__", {}))
    return [name for name in names if not name.startswith("__") and hasattr(state, name)]


def full_state(state: AnyState) -> dict[str, str]:
    """Every attribute of ``state`` by name, hidden ones and those no snapshot
    shows (its seed, its generator), as text: what a reader of the state
    object could learn. A generator is given by its fingerprint."""
    out: dict[str, str] = {}
    for name in _field_names(state):
        value = getattr(state, name)
        fingerprint = getattr(value, "fingerprint", None)
        out[name] = f"rng {fingerprint()}" if callable(fingerprint) else repr(_canonical(value))
    return out


class _CanonicalPickler(pickle.Pickler):
    """Pickles a value as :func:`_canonical` reads it, only stricter: an
    object of the game's own as its type and its fields (slots, then
    ``__dict__``), a subclass of a built-in type as its type and contents or
    its repr. So equal bytes mean equal texts in :func:`full_state` (dict
    order, aliasing and exact types may make equal texts differ in bytes, never
    the other way round). Fast mode: no memo, so aliasing does not matter.
    (Exact built-in types never reach ``reducer_override``: pickle writes them
    itself. One difference: the text writes a set's items by their own repr,
    these bytes an object in a set by its fields; no game keeps objects of its
    own in a set, only cards and texts.)"""

    def reducer_override(self, obj: Any) -> Any:
        kind = type(obj)
        plan = _PLANS.get(kind)
        if plan is None:
            plan = _PLANS[kind] = _plan(kind)
        how, name, slots = plan
        if how == "by reference":
            return NotImplemented
        if how == "dict":
            return _rebuilt, (name, dict(obj))
        if how == "sequence":
            return _rebuilt, (name, list(obj))
        if how == "repr":
            return _rebuilt, (name, repr(obj))
        fields = {slot: getattr(obj, slot) for slot in slots if hasattr(obj, slot)}
        fields.update(getattr(obj, "__dict__", {}))
        return _rebuilt, (name, fields if fields else repr(obj))


_PLANS: dict[type, tuple[str, str, tuple[str, ...]]] = {}


def _plan(kind: type) -> tuple[str, str, tuple[str, ...]]:
    """How :class:`_CanonicalPickler` writes an object of ``kind``."""
    name = f"{kind.__module__}.{kind.__qualname__}"
    if issubclass(kind, type) or kind in (types.FunctionType, types.BuiltinFunctionType):
        # by its name, as pickle does: the same name, the same object (a
        # lambda or a local function cannot be pickled: then the texts decide)
        return "by reference", name, ()
    if issubclass(kind, dict):
        return "dict", name, ()
    if issubclass(kind, (list, tuple)):
        return "sequence", name, ()
    if issubclass(kind, _AS_THEY_ARE_BASES):
        return "repr", name, ()  # as _canonical: the value itself, by its repr
    slots: list[str] = []
    for cls in kind.__mro__:
        declared = getattr(cls, "__slots__", ())
        slots += [declared] if isinstance(declared, str) else list(declared)
    return "fields", name, tuple(slots)


def _rebuilt(name: str, content: Any) -> Any:
    """What :class:`_CanonicalPickler` names as the maker of what it wrote
    (its bytes are compared, never read back)."""
    return (name, content)


def state_bytes(state: AnyState) -> bytes | None:
    """:func:`full_state` as bytes, cheaply: equal bytes for two states mean
    equal :func:`full_state` texts (a generator by its whole state, which its
    fingerprint digests), so a comparison needs the texts only when the bytes
    differ. None if a field cannot be pickled (then compare the texts)."""
    values: list[Any] = []
    for name in _field_names(state):
        value = getattr(state, name)
        if callable(getattr(value, "fingerprint", None)) and callable(
            getattr(value, "getstate", None)
        ):
            value = ("rng", value.getstate())
        values.append((name, value))
    out = io.BytesIO()
    pickler = _CanonicalPickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.fast = True
    try:
        pickler.dump(values)
    except (pickle.PicklingError, TypeError, ValueError, AttributeError, RecursionError):
        return None
    return out.getvalue()


def generators(state: AnyState) -> dict[str, Any]:
    """``state``'s random generators (what has a ``fingerprint``), by attribute."""
    names = list(getattr(state, "__dict__", {}))
    for cls in type(state).__mro__:
        slots = getattr(cls, "__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    found = {}
    for name in names:
        value = getattr(state, name, None)
        if callable(getattr(value, "fingerprint", None)):
            found[name] = value
    return found


# the types _canonical keeps as they are (subclasses, an IntEnum say, take
# the isinstance path below and come out the same)
_AS_THEY_ARE = frozenset({int, float, str, bytes, bool, type(None), frozenset, set})
_AS_THEY_ARE_BASES = (int, float, str, bytes, frozenset, set)


def _canonical(value: Any) -> Any:
    """``value`` with every dict's items in sorted order: the order a dict was
    filled in is the order of play, which every seat saw. (Called for every
    field of three states at every checked position, a tenth of the contract
    suite's time: the common types are looked up first.)"""
    kind = type(value)
    if kind in _AS_THEY_ARE:
        return value
    if kind is list or kind is tuple:
        return [kind.__name__, *map(_canonical, value)]
    if isinstance(value, dict):
        return sorted([(repr(k), _canonical(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return [type(value).__name__, *map(_canonical, value)]
    if isinstance(value, (int, float, str, bytes, bool, type(None), frozenset, set)):
        return value
    # an object of the game's own (a position, a submission): its fields, as
    # its repr may be no more than its address
    fields: dict[str, Any] = {}
    for cls in type(value).__mro__:
        slots = getattr(cls, "__slots__", ())
        for name in [slots] if isinstance(slots, str) else slots:
            if hasattr(value, name):
                fields[name] = getattr(value, name)
    fields.update(getattr(value, "__dict__", {}))
    return [type(value).__name__, _canonical(fields)] if fields else repr(value)


def move_texts_at(data: Any, path: str) -> Iterator[str]:
    """The strings at ``path`` (dotted keys) in ``data``, lists walked; nothing
    if a key on the way is missing or None."""
    found = [data]
    for key in path.split("."):
        found = [item.get(key) for item in _flatten(found) if isinstance(item, dict)]
    for item in _flatten(found):
        if isinstance(item, str):
            yield item


def _flatten(items: list[Any]) -> Iterator[Any]:
    for item in items:
        if isinstance(item, list):
            yield from _flatten(item)
        elif item is not None:
            yield item


def check_move_text(spec: AnySpec, text: str, where: str) -> None:
    """``text``, found in ``where``, must read back to a move that writes it again."""
    try:
        move = spec.parse_move(text)
    except NotationError as err:
        raise AssertionError(f"{where} holds {text!r}, which does not read back: {err}") from None
    assert str(move) == text, f"{where} holds {text!r}, which reads back as {str(move)!r}"


def first_difference(expected: str, got: str) -> str:
    """Where two texts part, by line: for a readable failure."""
    a, b = expected.splitlines(), got.splitlines()
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"line {i + 1} is {y!r}, not {x!r}"
    if len(a) != len(b):
        return f"{len(b)} lines, not {len(a)}"
    return "the texts are equal"


def _differing_fields(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    return sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))


def differing(a: dict[str, str], b: dict[str, str]) -> list[str]:
    return sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))


def rebuilt_from_view(state: AnyState, seat: int) -> AnyState | None:
    """A position with ``state``'s view for ``seat`` and nothing else of it but
    its public memory (``GameState.public_memory``): the twin a sample of
    ``state`` must not be told apart from. None if the game cannot rebuild one."""
    spec = state.spec
    if type(spec).state_from_view is GameSpec.state_from_view:
        return None
    twin = spec.state_from_view(state.config, state.view(seat), state.scores())
    for name in type(state).public_memory:
        value = getattr(state, name)
        setattr(twin, name, value[:] if isinstance(value, list) else value)
    return twin


def ints_in(data: Any) -> set[int]:
    out: set[int] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if type(item) is int:
            out.add(item)
        elif isinstance(item, str):
            out.update(int(d) for d in re.findall(r"\d{7,}", item))
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return out


def assert_illegal(
    state: AnyState,
    seat: int,
    attempt: Any,
    *,
    text: bool = False,
    before: dict[str, Any] | None = None,
) -> None:
    """Playing ``attempt`` must raise IllegalMove with a one-line sentence and
    change nothing (``before``: the state's snapshot, if already known)."""
    if before is None:
        before = state.snapshot()
    try:
        if text:
            state.play_text(seat, attempt)
        else:
            state.play(seat, attempt)
    except MoveError as err:
        message = str(err)
        assert message.strip(), f"MoveError for {attempt!r} by seat {seat} has no message"
        assert len(message.splitlines()) == 1, f"IllegalMove message is not one line: {message!r}"
    else:
        raise AssertionError(
            f"seat {seat} was allowed to play {attempt!r} (to_act {state.to_act()})"
        )
    assert state.snapshot() == before, f"the illegal {attempt!r} by seat {seat} changed the state"


# ------------------------------------------------------------- the main run
class ContractRun:
    """Play one game with random legal moves, checking the contract after each.

    ``seed`` seeds the game, ``chooser_seed`` the choice of moves (and of the
    checks' own random picks), so a failure is reproduced by the pair.
    ``full_checks`` limits the moves checked in full (random players may take
    thousands of moves to finish a shedding game, and a full check of a
    position costs milliseconds): after that many, the game is played to its
    end checking only the turns at each move and everything at every
    ``SPOT_CHECK``-th move; the end and the replay are checked as ever.
    """

    def __init__(
        self, case: Case, seed: int, chooser_seed: int, full_checks: int | None = None
    ) -> None:
        self.case = case
        self.full_checks = full_checks
        self.fully_checked = 0  # moves checked in full, for the caller's budget
        self.spec = case.spec
        self.config = case.config()
        self.seed = seed
        self.chooser_seed = chooser_seed
        self.rng = random.Random(chooser_seed)
        self.state: AnyState = self.spec.new(self.config, seed)
        self.bound = self.spec.max_moves(self.config)
        self.names = self.spec.seat_names(self.config)
        self.record: list[tuple[int, str]] = []
        self.snapshots: list[dict[str, Any]] = [self.state.snapshot()]
        self.initial_cards = self.state.all_cards()
        self.pattern = card_pattern(self.initial_cards)
        # every move met in this game, by notation: the pool for illegal attempts
        self.pool: dict[str, Hashable] = {}
        self.determinized_with_hidden = 0
        self.determinized_differently = 0
        self.views: dict[int | None, View] = {}  # this position's views
        # this position's visible cards by seat (see visible), for the
        # position after ``len(record)`` moves
        self._visible: dict[int | None, set[str]] = {}
        self._visible_at = 0

    def visible(self, seat: int | None) -> set[str]:
        """:func:`visible_cards` of the game's state now, worked out once a
        position: the views, the move's events before and after it ask for
        the same position's (the state changes only by a move, and every
        check asserts that it did not change it)."""
        if self._visible_at != len(self.record):
            self._visible, self._visible_at = {}, len(self.record)
        found = self._visible.get(seat)
        if found is None:
            found = self._visible[seat] = visible_cards(self.state, seat)
        return found

    # the game loop -----------------------------------------------------------
    def run(self) -> AnyState:
        try:
            assert self.bound > 0, "max_moves must be a positive bound"
            self.check_setup()
            self.check_position()
            # resignations come on top of the game's own bound: each one ends
            # the game or drops a seat
            bound = self.bound + self.config.players
            while not self.state.is_over:
                assert len(self.record) < bound, (
                    f"the game passed its stated bound of {self.bound} moves"
                )
                seat, move = self.choose()
                moves = len(self.record) + 1
                if self.full_checks is None or moves <= self.full_checks:
                    self.step(seat, move)
                    self.check_position()
                    self.fully_checked += 1
                elif moves % SPOT_CHECK == 0:
                    self.step(seat, move)
                    self.check_position()
                else:
                    self.light_step(seat, move)
                    self.check_turns()
            self.check_end()
            self.check_replay()
        except AssertionError as err:
            # the record reproduces the position: spec.replay(config, seed, record)
            raise AssertionError(
                f"{err}\n[{self.case.id}, seed {self.seed}, chooser {self.chooser_seed}, "
                f"after {len(self.record)} moves; last moves {self.record[-6:]}]"
            ) from err
        return self.state

    def choose(self) -> tuple[int, Hashable]:
        state = self.state
        if self.rng.random() < 0.004:
            # anyone still in the game may resign, whether or not it must act
            seat = self.rng.randrange(self.config.players)
            try:
                state.copy().play(seat, RESIGN)
            except IllegalMove:
                pass
            else:
                return seat, RESIGN
        seat = self.rng.choice(state.to_act())
        clock = state.clock(seat)
        if clock is not None and self.rng.random() < 0.1:
            return seat, clock.timeout_move
        return seat, self.rng.choice(state.legal_moves(seat))

    # checks at the start -----------------------------------------------------
    def check_setup(self) -> None:
        state, spec = self.state, self.spec
        assert state.spec is spec, "state.spec is not the spec that made it"
        assert state.config == self.config and state.seed == self.seed
        assert state.ply == 0
        assert len(self.names) == self.config.players
        again = spec.new(self.config, self.seed)
        assert again.snapshot() == self.snapshots[0], "the same seed dealt a different game"
        json_roundtrip(self.snapshots[0], "snapshot()")

    # checks at every position -----------------------------------------------
    def check_position(self) -> None:
        self.check_turns()
        self.check_notation()
        self.check_cards()
        self.check_views()
        self.check_determinize()
        self.check_position_text()
        self.check_illegal_moves()
        assert self.state.snapshot() == self.snapshots[-1], "checking the state changed it"

    def check_turns(self) -> None:
        state = self.state
        scores = state.scores()
        assert isinstance(scores, tuple) and len(scores) == state.config.players, (
            "scores() must give one number per seat"
        )
        assert all(type(s) is int for s in scores), "scores are whole numbers"
        to_act = state.to_act()
        assert isinstance(to_act, tuple), "to_act() must return a tuple"
        assert len(set(to_act)) == len(to_act), f"a seat is twice in to_act {to_act}"
        assert all(s in seats(state) for s in to_act), f"to_act {to_act} names no such seat"
        outcome = state.outcome()
        if state.is_over:
            assert outcome is not None, "the game is over but has no outcome"
            assert to_act == (), f"the game is over but {to_act} must still act"
        else:
            assert outcome is None, "the game is not over but already has an outcome"
            assert to_act, "the game is not over yet nobody must act"
        for seat in seats(state):
            moves = state.legal_moves(seat)
            assert isinstance(moves, list)
            if seat in to_act:
                assert moves, f"seat {seat} must act but has no legal move"
                # bots may shuffle the list they are given: that must not reach the state
                kept = list(moves)
                moves.clear()
                assert state.legal_moves(seat) == kept, "legal_moves() shares a list with the state"
                assert RESIGN not in kept, "resign is never listed among the legal moves"
                clock = state.clock(seat)
                if clock is not None:
                    assert isinstance(clock, MoveClock) and clock.seconds > 0
                    assert clock.timeout_move in kept, (
                        f"timeout move {clock.timeout_move} of seat {seat} is not legal"
                    )
                    hash(clock.turn)
            else:
                assert moves == [], f"seat {seat} need not act but has legal moves {moves}"
                assert state.clock(seat) is None, f"seat {seat} need not act but has a clock"

    def check_notation(self) -> None:
        state, spec = self.state, self.spec
        assert spec.parse_move(str(RESIGN)) == RESIGN, "resign is a move of every game"
        for seat in state.to_act():
            texts = []
            for move in state.legal_moves(seat):
                text = str(move)
                texts.append(text)
                assert text.strip() and "\n" not in text, f"bad notation {text!r} for {move!r}"
                parsed = spec.parse_move(text)
                assert parsed == move and hash(parsed) == hash(move), (
                    f"notation does not round-trip: {text!r} reads as {parsed!r}, not {move!r}"
                )
                self.pool.setdefault(text, move)
            assert len(set(texts)) == len(texts), f"seat {seat} has duplicate moves {texts}"

    def check_cards(self) -> None:
        state = self.state
        assert state.all_cards() == self.initial_cards, (
            f"cards not conserved: gained {dict(state.all_cards() - self.initial_cards)}, "
            f"lost {dict(self.initial_cards - state.all_cards())}"
        )
        spectator_hidden = state.hidden_cards(None)
        for seat in seats(state):
            hidden = state.hidden_cards(seat)
            assert not hidden - self.initial_cards, "hidden_cards() names cards not in the game"
            assert not hidden - spectator_hidden, (
                f"a spectator sees {dict(hidden - spectator_hidden)}, hidden from seat {seat}"
            )

    def check_views(self) -> None:
        state = self.state
        self.views = {}
        for seat in perspectives(state):
            view = state.view(seat)
            assert isinstance(view, self.spec.view_type), f"view({seat}) is not the game's view"
            data = view.to_json()
            as_json = json_roundtrip(data, f"view({seat})")
            assert self.spec.read_view(json.loads(as_json)) == view, (
                f"view({seat}) does not read back from its JSON"
            )
            # the table sends these beside the view: a game does not repeat them
            shared = {"legal_moves", "to_act", "over", "outcome", "scores"} & set(data)
            assert not shared, f"view({seat}) repeats the envelope's {sorted(shared)}"
            leaks = cards_mentioned(data, self.pattern) - self.visible(seat)
            assert not leaks, f"view({seat}) shows hidden cards {sorted(leaks)}"
            if self.seed >= 10**6:
                assert self.seed not in ints_in(data), f"view({seat}) holds the seed"
            for path in self.spec.view_move_fields:
                assert path.split(".")[0] in data, (
                    f"view_move_fields names {path!r}, which view({seat}) does not have"
                )
                for text in move_texts_at(data, path):
                    check_move_text(self.spec, text, f"view({seat})[{path!r}]")
            # a screen that edits what its view holds must not edit the game
            kept = json.loads(as_json)
            for name in view.__struct_fields__:
                scramble(getattr(view, name))
            self.views[seat] = state.view(seat)
            assert self.views[seat].to_json() == kept, f"editing view({seat}) changed the next view"
        assert state.snapshot() == self.snapshots[-1], "editing a view changed the state"

    def check_determinize(self) -> None:
        state = self.state
        original = self.snapshots[-1]
        for seat in perspectives(state):
            det = state.determinize(seat, random.Random(self.rng.getrandbits(32)))
            assert type(det) is type(state)
            assert det is not state
            assert state.snapshot() == original, f"determinize({seat}) changed the original"
            assert det.view(seat) == self.views[seat], (
                f"determinize({seat}) changed what seat {seat} sees: its view shows something "
                "it should not know, or determinize resampled something it can see"
            )
            assert det.all_cards() == state.all_cards(), f"determinize({seat}) lost or made cards"
            assert det.hidden_cards(seat) == state.hidden_cards(seat), (
                f"determinize({seat}) changed which cards seat {seat} cannot see"
            )
            assert det.to_act() == state.to_act() and det.is_over == state.is_over
            if seat is not None:  # the same moves, listed in any order
                assert sorted(map(str, det.legal_moves(seat))) == sorted(
                    map(str, state.legal_moves(seat))
                ), f"determinize({seat}) changed the moves seat {seat} has"
            if state.hidden_cards(seat):
                self.determinized_with_hidden += 1
                if det.snapshot() != original:
                    self.determinized_differently += 1
            self.check_sample_knows_only_the_view(seat)

    def check_sample_knows_only_the_view(self, seat: int | None) -> None:
        """A sample depends on nothing but what ``seat`` may know and the rng,
        field by field: sampling another state ``seat`` cannot tell from this
        one, with the same rng, gives the very same sample. The other states:
        a sample (which must not carry anything of its source it should not),
        and, where the game can rebuild one, the position rebuilt from the
        seat's view alone."""
        state = self.state
        k = self.rng.getrandbits(32)
        drawn = state.determinize(seat, random.Random(k))
        # the game's generator would carry the deal, and a twin sampled from
        # this state (below) would carry it too: so, said apart
        for name, own in generators(state).items():
            assert generators(drawn)[name].getstate() != own.getstate(), (
                f"determinize({seat}) keeps the game's generator ({name}): a sample "
                "draws its own from the rng it is given"
            )
        sample = full_state(drawn)
        if self.seed >= 10**6:
            assert str(self.seed) not in "".join(sample.values()), (
                f"determinize({seat}) carries the real seed"
            )
        sample_bytes = state_bytes(drawn)
        twins = {"a sample": state.determinize(seat, random.Random(self.rng.getrandbits(32)))}
        if seat is not None and not state.is_over:  # the envelope tells the end
            rebuilt = rebuilt_from_view(state, seat)
            if rebuilt is not None:
                twins["the position rebuilt from its view"] = rebuilt
        for what, twin in twins.items():
            resampled = twin.determinize(seat, random.Random(k))
            # equal bytes are equal texts (state_bytes); else the texts decide
            if sample_bytes is not None and state_bytes(resampled) == sample_bytes:
                continue
            again = full_state(resampled)
            fields = differing(sample, again)
            assert not fields, (
                f"determinize({seat}) read something seat {seat} cannot know: sampled with "
                f"the same rng, this state and {what} differ in "
                + "; ".join(f"{f} ({sample.get(f)} / {again.get(f)})" for f in fields)[:600]
            )

    def check_position_text(self) -> None:
        """The position text reads back into the same state: the same text, the
        same snapshot (its generator included), views, moves and end, and the
        same state after a move on each."""
        state, spec = self.state, self.spec
        text = state.position_text()
        assert isinstance(text, str) and text.strip(), "position_text() is empty"
        parsed = spec.parse_position(self.config, text)
        assert type(parsed) is type(state)
        again = parsed.position_text()
        assert again == text, (
            f"the position text does not read back: {first_difference(text, again)}"
        )
        assert state.snapshot() == self.snapshots[-1], "position_text() changed the state"
        fields = _differing_fields(parsed.snapshot(), self.snapshots[-1])
        assert not fields, f"the state read from its position text differs in {fields}"
        for seat in perspectives(state):
            assert parsed.view(seat) == self.views[seat], (
                f"the state read from its position text shows seat {seat} another view"
            )
        assert parsed.to_act() == state.to_act() and parsed.is_over == state.is_over
        assert parsed.scores() == state.scores()
        assert parsed.outcome() == state.outcome()
        for seat in seats(state):
            assert parsed.legal_moves(seat) == state.legal_moves(seat), (
                f"the state read from its position text gives seat {seat} other moves"
            )
        if not state.is_over:
            seat = state.to_act()[0]
            move = state.legal_moves(seat)[0]
            ahead = state.copy()
            ahead.play(seat, move)
            parsed.play(seat, move)
            fields = _differing_fields(parsed.snapshot(), ahead.snapshot())
            assert not fields, (
                f"after {move} the state read from its position text differs in {fields}"
            )

    def check_illegal_moves(self) -> None:
        state, rng = self.state, self.rng
        to_act = state.to_act()
        before = self.snapshots[-1]
        pool = list(self.pool.values())
        for seat in seats(state):
            legal = set(state.legal_moves(seat))
            # moves met elsewhere in this game, or legal for another seat now
            offered = [m for m in pool if m not in legal]
            for other in to_act:
                if other != seat:
                    offered += [m for m in state.legal_moves(other) if m not in legal]
            for move in rng.sample(offered, min(3, len(offered))):
                assert_illegal(state, seat, move, before=before)
            if seat in to_act:
                for text in rng.sample(GARBAGE_TEXTS, 3):
                    try:
                        parsed = self.spec.parse_move(text)
                    except NotationError as err:
                        assert len(str(err).splitlines()) == 1, f"{text!r} gives {err}"
                    else:
                        if parsed in legal:
                            continue
                    assert_illegal(state, seat, text, text=True, before=before)
        for s, view in self.views.items():
            assert state.view(s) == view, f"an illegal move changed view({s})"

    # a move --------------------------------------------------------------------
    def step(self, seat: int, move: Hashable) -> None:
        state, rng = self.state, self.rng
        before = self.snapshots[-1]
        to_act_before = state.to_act()
        seen_before = {s: self.visible(s) for s in perspectives(state)}
        legal = state.legal_moves(seat)
        twin = state.copy()
        assert twin.snapshot() == before, "copy() is not equal to the original"
        # other moves on copies must leave the original alone (in a simultaneous
        # round they also show what the others could learn of this seat's choice)
        alternatives = [m for m in legal if m != move] or [move]
        tries = 3 if len(to_act_before) > 1 else 1
        others = []
        for alt in rng.sample(alternatives, min(tries, len(alternatives))):
            other = state.copy()
            others.append((other, other.play(seat, alt)))
        assert state.snapshot() == before, "playing on a copy changed the original"

        events = state.play(seat, move)
        after = state.snapshot()
        self.record.append((seat, str(move)))
        self.snapshots.append(after)

        assert isinstance(events, list) and all(isinstance(e, Event) for e in events)
        assert state.ply == len(self.record), f"ply is {state.ply} after {len(self.record)} moves"
        json_roundtrip(after, "snapshot()")
        assert twin.snapshot() == before, "playing on the original changed its copy"
        twin_events = twin.play(seat, move)
        assert twin.snapshot() == after, "the same move on a copy gave another state"
        assert [event_json(e) for e in twin_events] == [event_json(e) for e in events]

        to_act_after = state.to_act()
        if len(to_act_before) > 1 and move != RESIGN:
            # a simultaneous round: the others still owe their moves (the seat
            # itself may be done, as in trick, or go on, as with swaps before a
            # ready), and must not learn what it chose; that it is done may show
            waiting = set(to_act_before) - {seat}
            assert waiting <= set(to_act_after) <= set(to_act_before), (
                f"after seat {seat} moved in a simultaneous round, to_act went from "
                f"{to_act_before} to {to_act_after}"
            )
            for other, other_events in others:
                if other.to_act() != to_act_after:
                    continue
                for s in [*sorted(waiting), None]:
                    assert other.view(s) == state.view(s), (
                        f"view({s}) tells which move seat {seat} submitted"
                    )
                    assert events_for(other_events, s) == events_for(events, s), (
                        f"the events seat {s} sees tell which move seat {seat} submitted"
                    )
        self.check_events(events, seen_before, cards_mentioned(str(move), self.pattern))

    def light_step(self, seat: int, move: Hashable) -> None:
        """A move past the full checks: recorded for the replay, nothing else."""
        self.state.play(seat, move)
        self.record.append((seat, str(move)))
        self.snapshots.append(self.state.snapshot())
        assert self.state.ply == len(self.record), f"ply is {self.state.ply}"

    def check_events(
        self, events: list[Event], seen_before: dict[int | None, set[str]], played: set[str]
    ) -> None:
        """Events must be JSON-able, render, redact properly, and show a seat only
        cards it could see before or after the move, or that the move itself named
        (a move played is public; a round that ends in a reshuffle hides its cards
        again within the same move). A game whose move reveals a hidden card that
        ends hidden again (a face-down card turned up and picked up) must count
        that card as no longer hidden from those who saw it (hidden_cards)."""
        state = self.state
        players = self.config.players
        for event in events:
            assert event.kind and isinstance(event.kind, str)
            assert event.private_to is None or 0 <= event.private_to < players
            forms = [event] if event.redacted is None else [event, event.redacted]
            if event.redacted is not None:
                assert event.private_to is not None, "a redacted form on a public event"
                assert event.redacted.private_to is None, "a redacted form must be public"
            declared = self.spec.all_event_types()
            for form in forms:
                json_roundtrip(form.to_json(), f"event {form.kind}")
                # typed: the kind is declared, its data of the declared type,
                # and a client decodes the wire form back to the same event
                assert form.kind in declared, f"event kind {form.kind!r} is not in event_types"
                assert type(form.data) is declared[form.kind], (
                    f"event {form.kind} carries a {type(form.data).__name__}, "
                    f"not its declared {declared[form.kind].__name__}"
                )
                read = self.spec.read_event(json.loads(json.dumps(form.to_json())))
                assert (read.kind, read.text, read.data) == (form.kind, form.text, form.data), (
                    f"event {form.kind} does not decode to itself"
                )
                for path in self.spec.event_move_fields:
                    for text in move_texts_at(form.data.to_json(), path):
                        check_move_text(self.spec, text, f"event {form.kind} [{path!r}]")
                try:
                    form.render(self.names)
                except (KeyError, IndexError, ValueError) as err:
                    raise AssertionError(
                        f"event text {form.text!r} does not render: {err}"
                    ) from None
        for seat in perspectives(state):
            allowed = seen_before[seat] | self.visible(seat) | played
            for seen in visible_events(events, seat):
                leaks = cards_mentioned(seen.to_json(), self.pattern) - allowed
                assert not leaks, (
                    f"event {seen.text!r} shows seat {seat} cards {sorted(leaks)} it cannot see"
                )
        # a listener that edits an event's data must not edit the game
        for event in events:
            for edited in (event, event.redacted):
                if edited is not None:
                    scramble(edited.to_json())
        assert state.snapshot() == self.snapshots[-1], "editing event data changed the state"

    # the end -----------------------------------------------------------------------
    def check_end(self) -> None:
        state, spec = self.state, self.spec
        outcome = state.outcome()
        assert outcome is not None
        players = self.config.players
        assert outcome.winner is None or 0 <= outcome.winner < players
        ranked = [s for group in outcome.ranking for s in group]
        assert sorted(ranked) == list(range(players)), (
            f"the ranking {outcome.ranking} must name every seat once"
        )
        assert all(outcome.ranking), "an empty group in the ranking"
        if outcome.winner is not None:
            assert outcome.ranking[0] == (outcome.winner,), "the winner does not rank first alone"
        else:
            assert len(outcome.ranking[0]) > 1, "no winner, yet one seat ranks first alone"
        assert len(outcome.scores) == players
        assert isinstance(outcome.reason, str) and outcome.reason.strip()
        json_roundtrip(outcome.to_json(), "outcome.to_json()")
        for seat in seats(state):
            assert state.legal_moves(seat) == []
            for move in [*list(self.pool.values())[:3], RESIGN]:
                assert_illegal(state, seat, move)
        rematch = spec.rematch_config(self.config, outcome)
        assert type(rematch) is type(self.config)
        spec.new(rematch, self.seed + 1)
        assert self.determinized_differently or not self.determinized_with_hidden, (
            "determinize() never changed anything although cards were hidden"
        )

    def check_replay(self) -> None:
        spec = self.spec
        for i, (_, text) in enumerate(self.record):
            check_move_text(spec, text, f"the record's move {i + 1}")
        replayed = spec.replay(self.config, self.seed, self.record)
        assert replayed.snapshot() == self.snapshots[-1], "replay did not reproduce the game"
        step = spec.new(self.config, self.seed)
        for i, (seat, text) in enumerate(self.record):
            step.play_text(seat, text)
            assert step.snapshot() == self.snapshots[i + 1], (
                f"replay diverged at move {i + 1} ({text} by seat {seat})"
            )


# ------------------------------------------------------ determinized play
def check_determinized_playouts(
    case: Case, seed: int, chooser_seed: int, positions: int, playout_moves: int | None = None
) -> None:
    """Bots search determinized states: at ``positions`` random positions of a
    random game, every perspective's determinization must be a state the rules
    could reach (every seat to act has a legal move) and play out to the end
    within the bound, conserving cards (or, with ``playout_moves``, for that
    many moves, as a search's playouts are often cut)."""
    spec = case.spec
    config = case.config()
    bound = spec.max_moves(config)
    rng = random.Random(chooser_seed)
    state = spec.new(config, seed)
    checked = 0
    while not state.is_over and checked < positions:
        if rng.random() < 0.2:
            checked += 1
            for seat in perspectives(state):
                det = state.determinize(seat, random.Random(rng.getrandbits(32)))
                _playout(det, rng, bound, f"determinize({seat}) at move {state.ply}", playout_moves)
        mover = rng.choice(state.to_act())
        state.play(mover, rng.choice(state.legal_moves(mover)))


def check_advance_matches_play(case: Case, seed: int, chooser_seed: int) -> int:
    """``advance`` (the bots' fast path) reaches the states ``play`` reaches, in
    all that the rules read: one random game played both ways, compared after
    every move (who acts, every seat's legal moves, the scores, the end).
    Returns the moves compared."""
    spec = case.spec
    played = spec.new(case.config(), seed)
    advanced = played.copy()
    rng = random.Random(chooser_seed)
    bound = spec.max_moves(played.config)
    moves = 0
    while not played.is_over:
        assert moves <= bound, f"{case.id}: the game passed its stated bound"
        seat = rng.choice(played.to_act())
        move = rng.choice(played.legal_moves(seat))
        played.play(seat, move)
        advanced.advance(seat, move)
        moves += 1
        where = f"{case.id}, seed {seed}, chooser {chooser_seed}, after {move} (move {moves})"
        assert advanced.to_act() == played.to_act(), f"{where}: other seats act"
        for s in seats(played):
            assert advanced.legal_moves(s) == played.legal_moves(s), (
                f"{where}: seat {s} has other moves"
            )
        assert advanced.scores() == played.scores(), f"{where}: other scores"
        assert advanced.is_over == played.is_over, f"{where}: one ended, the other did not"
    assert advanced.outcome() == played.outcome(), f"{case.id}, seed {seed}: another outcome"
    return moves


def _playout(
    state: AnyState, rng: random.Random, bound: int, where: str, moves: int | None
) -> None:
    cards = state.all_cards()
    start = state.ply
    while not state.is_over:
        if moves is not None and state.ply - start >= moves:
            return
        assert state.ply < bound, f"{where}: a playout passed the move bound"
        for seat in state.to_act():
            assert state.legal_moves(seat), (
                f"{where}, ply {state.ply}: seat {seat} must act but has no legal move "
                f"(view {state.view(seat)})"
            )
        seat = rng.choice(state.to_act())
        state.play(seat, rng.choice(state.legal_moves(seat)))
        assert state.all_cards() == cards, f"{where}: cards not conserved in a playout"
    assert state.outcome() is not None


# -------------------------------------------------------------------- perft
def perft(state: AnyState, depth: int) -> int:
    """Leaf count of the move tree to ``depth`` plies: at each node the first seat
    in to_act moves (in a simultaneous round the other seat moves next)."""
    if depth == 0 or state.is_over:
        return 1
    seat = state.to_act()[0]
    moves = state.legal_moves(seat)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = state.copy()
        child.play(seat, move)
        total += perft(child, depth - 1)
    return total


def scripted_game(
    case: Case, seed: int, chooser_seed: int, max_moves: int | None = None
) -> tuple[list[tuple[int, str]], dict[str, Any]]:
    """Random legal moves from ``chooser_seed`` (all of a game, or ``max_moves``):
    the record, as (seat, notation), and the final snapshot."""
    spec = case.spec
    state = spec.new(case.config(), seed)
    rng = random.Random(chooser_seed)
    record: list[tuple[int, str]] = []
    while not state.is_over and (max_moves is None or len(record) < max_moves):
        seat = rng.choice(state.to_act())
        move = rng.choice(state.legal_moves(seat))
        state.play(seat, move)
        record.append((seat, str(move)))
    return record, state.snapshot()
