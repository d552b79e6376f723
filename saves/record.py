"""A game record: everything needed to rebuild a game, plus who played it.

A game is fully described by (game id, config, seed, deck order, list of
(seat, move)) (docs/contract.md); the record adds the seats, timestamps and
how the game stands. Saving a game is writing its record; resuming is
replaying it. The file format is documented in docs/saves.md.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import secrets
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

import msgspec

from rules.bots import LEVELS
from rules.config import SAVED_INT_LIMIT, SAVED_TEXT_LIMIT, GameConfig
from rules.errors import MoveError, UnknownGame
from rules.events import Event
from rules.game import GameSpec, GameState
from rules.registry import get_game

from .decode import FieldError, Wording, decode, value_at
from .decode import brief as _brief
from .errors import SaveError

FORMAT = "cardtable-game"
FORMAT_VERSION = 2
SEAT_KINDS = ("human", "bot", "remote")
STATUSES = ("playing", "finished")
BOT_LEVELS = tuple(level.id for level in LEVELS)

# Limits of a record's values (docs/saves.md). Whatever a file holds, what is
# read stays small, printable and in range, so no screen or command trips on it.
# every whole number fits a signed 64-bit integer; the games' options are held
# to the same limits when they are made (rules/config.py), so any game can be saved
MAX_INT = SAVED_INT_LIMIT
MAX_NAME = 40  # a seat's name
MAX_TEXT = SAVED_TEXT_LIMIT  # a result's reason, an option's text value
MAX_WORD = 40  # a game id, a preset, an option's name
MAX_MOVE = 100  # a move's notation
MAX_CARD = 8  # a card's text in a deck order
MAX_CARDS = 1000  # cards in a deck order
MAX_SEATS = 16
MAX_MOVES = 100_000  # moves in a record: the longest game has a few thousand
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)  # the range of `created` and `updated`
LATEST = datetime(3000, 1, 1, tzinfo=UTC)


def utc_now() -> str:
    """Now as ISO 8601 UTC with milliseconds, e.g. ``2025-03-01T18:04:05.120Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_time(text: str) -> datetime:
    """Read a timestamp written by :func:`utc_now` (ValueError if it is none)."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError(f"'{text}' has no time zone")
    return moment


def new_record_id() -> str:
    """A short random hex id: 8 digits, 4 billion values, checked against the store."""
    return secrets.token_hex(4)


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in a seat: a person here, a bot with a level, or a remote person."""

    name: str
    kind: str  # "human" | "bot" | "remote"
    level: str | None = None  # bot level: easy | medium | hard

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "level": self.level}

    @classmethod
    def from_json(cls, data: Any, where: str = "the seat") -> SeatInfo:
        """Read a seat; SaveError (a sentence) if ``data`` is not one."""
        seat: SeatFile = decode(data, SeatFile, Wording(where, choices=RECORD_WORDING.choices))
        return cls(seat.name, seat.kind, seat.level)


def numbered_alike(seats: Sequence[SeatInfo]) -> list[SeatInfo]:
    """The seats with any name that several share numbered among its holders,
    from 1 ("Computer 1", "Computer 2"); a name held once stays plain
    ("Computer"). Not by seat number: "Computer 2" beside no Computer 1
    puzzles a newcomer. Local and network tables name their seats alike."""
    counts = Counter(s.name for s in seats)
    seen: Counter[str] = Counter()
    out = []
    for s in seats:
        if counts[s.name] > 1:
            seen[s.name] += 1
            s = SeatInfo(f"{s.name} {seen[s.name]}", s.kind, s.level)
        out.append(s)
    return out


@dataclass
class GameRecord:
    """One saved game. ``moves`` are (seat, notation) in the order played."""

    id: str
    game: str
    preset: str | None
    config: dict[str, Any]
    seed: int
    deck_order: list[str] | None
    seats: list[SeatInfo]
    moves: list[tuple[int, str]] = field(default_factory=list)
    created: str = field(default_factory=utc_now)
    updated: str = ""
    status: str = "playing"  # playing | finished
    result: dict[str, Any] | None = None  # Outcome.to_json() once the game has ended
    hints: list[int] = field(default_factory=list)  # hints each seat took; [] if none

    FORMAT_VERSION = FORMAT_VERSION

    def __post_init__(self) -> None:
        if not self.updated:
            self.updated = self.created

    @classmethod
    def new(
        cls,
        game: str,
        config: GameConfig,
        seed: int,
        seats: list[SeatInfo],
        preset: str | None = None,
        deck_order: list[str] | None = None,
        record_id: str | None = None,
    ) -> GameRecord:
        """The record of a game about to start (no moves yet)."""
        return cls(
            id=record_id or new_record_id(),
            game=game,
            preset=preset,
            config=config.to_dict(),
            seed=seed,
            deck_order=list(deck_order) if deck_order is not None else None,
            seats=list(seats),
        )

    def copy(self) -> GameRecord:
        """An independent copy (the table saves a copy from a worker thread)."""
        return dataclasses.replace(
            self,
            config=dict(self.config),
            deck_order=list(self.deck_order) if self.deck_order is not None else None,
            seats=list(self.seats),
            moves=list(self.moves),
            result=dict(self.result) if self.result is not None else None,
            hints=list(self.hints),
        )

    def touch(self) -> None:
        """Mark the record as played now."""
        self.updated = utc_now()

    # ------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "id": self.id,
            "game": self.game,
            "preset": self.preset,
            "config": dict(self.config),
            "seed": self.seed,
            "deck_order": list(self.deck_order) if self.deck_order is not None else None,
            "seats": [s.to_json() for s in self.seats],
            "moves": [[seat, text] for seat, text in self.moves],
            "created": self.created,
            "updated": self.updated,
            "status": self.status,
            "result": self.result,
            "hints": list(self.hints),
        }

    def to_text(self) -> str:
        """The file text: JSON with one field, seat and move per line, so that
        a record reads (and diffs) well in an editor."""
        data = self.to_json()
        lines = []
        for key, value in data.items():
            if key in ("seats", "moves") and value:
                inner = ",\n".join(f"  {_compact(item)}" for item in value)
                text = f"[\n{inner}\n ]"
            else:
                text = _compact(value)
            lines.append(f" {json.dumps(key)}: {text}")
        return "{\n" + ",\n".join(lines) + "\n}\n"

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a record; SaveError with a readable reason on anything malformed.

        Checks the format, brings an older version up to date (:func:`_upgrade`),
        then decodes it as a :class:`RecordFile` (every field's type and
        limits) and checks the fields against each other: the game exists, its
        options are valid, the seats, moves and result fit its number of
        players. Whether the moves replay is checked by :meth:`replay` (it
        costs a replay).
        """
        if not isinstance(data, Mapping):
            raise SaveError(f"not a saved game: the file holds a JSON {_json_kind(data)}")
        if data.get("format") != FORMAT:
            raise SaveError("not a cardtable saved game (no 'format': 'cardtable-game')")
        version = data.get("version")
        if type(version) is not int:
            raise SaveError(
                f"unknown format version {_brief(version)} (this cardtable reads {FORMAT_VERSION})"
            )
        file = _decode_record(_upgrade(dict(data), version))
        spec = _game(file.game)
        config = _game_config(spec, _options(file.config, "field 'config'"))
        players = config.players
        if file.preset is not None and file.preset not in spec.presets:
            raise SaveError(
                f"{spec.id} has no preset {_brief(file.preset)}; presets: {', '.join(spec.presets)}"
            )
        if len(file.seats) != players:
            raise SaveError(f"the record has {len(file.seats)} seats for a {players}-player game")
        for i, (seat, text) in enumerate(file.moves):
            if seat >= players:
                raise SaveError(f"move {i + 1} is not a [seat, notation] pair: {[seat, text]!r}")
        if file.result is not None:
            _check_result(file.result, players)
        hints = file.hints or []
        if hints and len(hints) != players:
            raise SaveError(f"the record has {len(hints)} hint counts for a {players}-player game")
        if (file.result is None) != (file.status == "playing"):
            raise SaveError("a finished game needs its result, and a game being played has none")
        return cls(
            id=file.id,
            game=spec.id,
            preset=file.preset,
            config=dict(file.config),
            seed=file.seed,
            deck_order=file.deck_order,
            seats=[SeatInfo(s.name, s.kind, s.level) for s in file.seats],
            moves=list(file.moves),
            created=_time(file.created, "field 'created'"),
            updated=_time(file.updated, "field 'updated'"),
            status=file.status,
            result=msgspec.to_builtins(file.result),
            hints=hints,
        )

    # ------------------------------------------------------------ replay
    def spec(self) -> GameSpec[Any, Any]:
        try:
            return get_game(self.game)
        except UnknownGame as err:
            raise SaveError(str(err)) from None

    def game_config(self) -> GameConfig:
        """The record's options as the game's Config (SaveError if invalid)."""
        return _game_config(self.spec(), self.config)

    def replay_with_events(self) -> tuple[GameState[Any, Any], list[Event]]:
        """The state after every recorded move, and every event on the way
        (unredacted: pass them through ``visible_events`` before showing them)."""
        spec = self.spec()
        config = self.game_config()
        try:
            state = spec.new(config, self.seed, self.deck_order)
        except ValueError as err:
            raise SaveError(f"cannot deal game {self.id}: {err}") from None
        events: list[Event] = []
        for i, (seat, text) in enumerate(self.moves):
            try:
                events.extend(state.play_text(seat, text))
            except MoveError as err:
                raise SaveError(
                    f"game {self.id} does not replay: move {i + 1} ({text} by seat {seat + 1}): "
                    f"{err}"
                ) from None
        return state, events

    def replay(self) -> GameState[Any, Any]:
        """The rules state after every recorded move; SaveError if it does not replay."""
        return self.replay_with_events()[0]


def is_record_id(text: str) -> bool:
    return 6 <= len(text) <= 32 and all(c in "0123456789abcdef" for c in text)


def _game_config(spec: GameSpec[Any, Any], values: Mapping[str, Any]) -> GameConfig:
    known = {info.name for info in spec.Config.options()}
    unknown = sorted(name for name in values if name not in known)
    if unknown:
        raise SaveError(
            f"bad {spec.id} options: unknown option(s) {', '.join(map(_brief, unknown[:3]))}"
            + ("..." if len(unknown) > 3 else "")
            + f"; known: {', '.join(sorted(known))}"
        )
    try:
        config: GameConfig = spec.Config.from_dict(values)
    except (ValueError, TypeError) as err:
        raise SaveError(f"bad {spec.id} options: {_clean(str(err))}") from None
    if not spec.min_players <= config.players <= spec.max_players:
        raise SaveError(
            f"{spec.title} takes {spec.min_players}-{spec.max_players} players, "
            f"not {config.players}"
        )
    return config


def _check_result(result: ResultFile, players: int) -> None:
    """The result's seats are seats of the game, each ranked once, one score each."""
    winner = result.winner
    if winner is not None and winner >= players:
        raise SaveError(f"the result's winner is seat {winner + 1} of a {players}-player game")
    ranked = [seat for group in result.ranking for seat in group]
    if any(seat >= players for seat in ranked) or len(ranked) != len(set(ranked)):
        raise SaveError(
            f"the result's ranking names a seat twice or one not in the game: "
            f"{_brief(result.ranking)}"
        )
    if len(result.scores) != players:
        raise SaveError(f"the result has {len(result.scores)} scores for a {players}-player game")


# ------------------------------------------------------------ versions
# version -> the function that turns a record of that version into one of the next.
# Every change of the format adds one step here (and bumps FORMAT_VERSION).
def _from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 to 2. Seat options count from 0 ("Player 1" was "1"): each game
    renumbers its own (``GameSpec.upgrade_config``). A resignation is a move: a
    game saved with status ``resigned`` gets the ``resign`` move of the seat it
    ranked last, and is ``finished``, so that it replays to its result."""
    game, config = data.get("game"), data.get("config")
    if isinstance(game, str) and isinstance(config, dict):
        try:
            spec = get_game(game)
        except UnknownGame:
            pass  # the schema says so, in its words
        else:
            data["config"] = spec.upgrade_config(dict(config), 1)
    if data.get("status") == "resigned":
        result, moves = data.get("result"), data.get("moves")
        ranking = result.get("ranking") if isinstance(result, dict) else None
        last = ranking[-1] if isinstance(ranking, list) and ranking else None
        if not (
            isinstance(result, dict)
            and isinstance(last, list)
            and len(last) == 1
            and type(last[0]) is int
        ):
            raise SaveError("a resigned game's result must rank the seat that resigned last")
        if not isinstance(moves, list):
            raise SaveError(f"field 'moves' must be a list, not {_brief(moves)}")
        quitter = last[0]
        data["moves"] = [*moves, [quitter, "resign"]]
        data["status"] = "finished"
        data["result"] = {**result, "reason": f"{{p{quitter}}} resigned"}
    return data


_UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _from_version_1}


def _upgrade(data: dict[str, Any], version: int) -> dict[str, Any]:
    """A record of format ``version`` as one of :data:`FORMAT_VERSION`, before its
    fields are checked: the one place where older formats are migrated."""
    if version > FORMAT_VERSION:
        raise SaveError(
            f"saved by a newer cardtable (format version {version}; "
            f"this one reads version {FORMAT_VERSION})"
        )
    if version < 1 or any(v not in _UPGRADES for v in range(version, FORMAT_VERSION)):
        raise SaveError(
            f"unknown format version {_brief(version)} (this cardtable reads {FORMAT_VERSION})"
        )
    for step in range(version, FORMAT_VERSION):
        data = _UPGRADES[step](data)
    return data


# ------------------------------------------------------------ the file's types
# What a record file holds (docs/saves.md), typed: msgspec checks every field's
# type and limits as it decodes (saves/decode.py); what no type says (printable
# text, a real time, a game's own options, fields that must agree) is checked
# after it, by hand.
if TYPE_CHECKING:
    SeatKind: TypeAlias = str
    BotLevel: TypeAlias = str
    Status: TypeAlias = str
else:  # the choices, from the one place each is listed
    SeatKind, BotLevel, Status = Literal[SEAT_KINDS], Literal[BOT_LEVELS], Literal[STATUSES]
Whole = Annotated[int, msgspec.Meta(ge=-MAX_INT - 1, le=MAX_INT)]
Score = Annotated[int, msgspec.Meta(ge=-MAX_INT, le=MAX_INT)]
Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_INT)]
Seat = Annotated[int, msgspec.Meta(ge=0, le=MAX_SEATS - 1)]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME)]
Word = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_WORD)]
Reason = Annotated[str, msgspec.Meta(max_length=MAX_TEXT)]
CardText = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_CARD)]
MoveText = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_MOVE)]
RecordId = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{6,32}$")]
PerSeat = msgspec.Meta(max_length=MAX_SEATS)


class SeatFile(msgspec.Struct, frozen=True):
    """A seat as the file holds it (a missing level reads as None)."""

    name: Name
    kind: SeatKind
    level: BotLevel | None = None


class ResultFile(msgspec.Struct, frozen=True):
    """How a finished game ended: ``Outcome.to_json()``."""

    winner: Seat | None
    ranking: Annotated[list[Annotated[list[Seat], PerSeat]], PerSeat]
    scores: Annotated[list[Score], PerSeat]
    reason: Reason


class RecordFile(msgspec.Struct, frozen=True):
    """Every field of a record after ``format`` and ``version`` (docs/saves.md)."""

    id: RecordId
    game: str  # looked up in the registry: "no game called ..." says more than a type
    preset: Word | None
    config: dict[str, Any]  # each game's own: checked by _options and its Config
    seed: Whole
    deck_order: Annotated[list[CardText], msgspec.Meta(max_length=MAX_CARDS)] | None
    seats: Annotated[list[SeatFile], PerSeat]
    moves: Annotated[list[tuple[Seat, MoveText]], msgspec.Meta(max_length=MAX_MOVES)]
    created: str  # ISO 8601 times, checked by _time
    updated: str
    status: Status
    result: ResultFile | None
    hints: Annotated[list[Count], PerSeat] | None = None  # files from before hints have none


# How messages name the record's values: "seat 2's level", "field 'result.scores'"
RECORD_WORDING = Wording(
    "the record",
    fields=True,
    items={"seats": "seat", "moves": "move"},
    choices={"kind": SEAT_KINDS, "level": BOT_LEVELS, "status": STATUSES},
    unchecked=("config", "game"),  # checked by _options and _game
)


def _decode_record(data: dict[str, Any]) -> RecordFile:
    """The record's fields typed; SaveError naming the one that is wrong."""
    try:
        file: RecordFile = decode(data, RecordFile, RECORD_WORDING)
    except FieldError as err:
        if move := re.match(r"\$\.moves\[(\d+)\]", err.path):
            pair = _brief(value_at(data, move[0]))
            raise SaveError(
                f"move {int(move[1]) + 1} is not a [seat, notation] pair: {pair}"
            ) from None
        if err.path == "$.id":
            raise SaveError(
                f"bad record id {_brief(data.get('id'))}: expected 6-32 lowercase hex digits"
            ) from None
        raise
    return file


def _game(value: str) -> GameSpec[Any, Any]:
    if len(value) > MAX_WORD or not value.isprintable():
        raise SaveError(f"no game called {_brief(value)}")
    try:
        return get_game(value)
    except UnknownGame as err:
        raise SaveError(_clean(str(err))) from None


def _options(value: Any, where: str) -> dict[str, Any]:
    """The game's options by name, each yes/no, a number or text within the
    limits; which names and values the game takes is checked against the
    game's Config (:func:`_game_config`)."""
    if not isinstance(value, Mapping):
        raise SaveError(f"{where} must be an object, not {_brief(value)}")
    if len(value) > 100:
        raise SaveError(f"{where} has {len(value)} options: not a game's")
    for name, option in value.items():
        said = f"option '{name}'"
        if len(name) > MAX_WORD or not name.isprintable():
            raise SaveError(f"{where} has an unknown option {_brief(name)}")
        if type(option) is int and not -MAX_INT <= option <= MAX_INT:
            raise SaveError(f"{said} must be from {-MAX_INT} to {MAX_INT}, not {_brief(option)}")
        if type(option) is float and not (math.isfinite(option) and abs(option) <= MAX_INT):
            raise SaveError(f"{said} must be a finite number, not {_brief(option)}")
        if isinstance(option, str) and (len(option) > MAX_TEXT or not option.isprintable()):
            raise SaveError(
                f"{said} must be printable text on one line of at most {MAX_TEXT} characters, "
                f"not {_brief(option)}"
            )
        if not isinstance(option, bool | int | float | str):
            raise SaveError(f"{said} must be yes/no, a number or text, not {_brief(option)}")
    return dict(value)


def _time(value: str, where: str) -> str:
    try:
        moment = parse_time(value) if len(value) <= 40 else None
    except ValueError:
        moment = None
    if moment is None:
        raise SaveError(f"{where} is not an ISO 8601 time: {_brief(value)}")
    if not EARLIEST <= moment < LATEST:
        raise SaveError(
            f"{where} is out of range ({EARLIEST.year}-{LATEST.year - 1}): {_brief(value)}"
        )
    return value


def check_field(name: str, value: Any, where: str) -> Any:
    """Check one value as the record's field ``name`` would be on reading, so
    that a new game never saves what could not be read back (a seed or an
    option out of range): SaveError naming it ``where`` if not."""
    if name == "config":
        return _options(value, where)
    types = {field.name: field.type for field in msgspec.structs.fields(RecordFile)}
    decode(value, types[name], Wording(where))
    return value


def _clean(text: str, limit: int = MAX_TEXT) -> str:
    """A message from elsewhere (the rules) as one printable line, cut short."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[:limit] + "..."


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "list"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return "number"
