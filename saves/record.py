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
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from rules.bots import LEVELS
from rules.config import SAVED_INT_LIMIT, SAVED_TEXT_LIMIT, GameConfig
from rules.errors import MoveError, UnknownGame
from rules.events import Event
from rules.game import GameSpec, GameState
from rules.registry import get_game

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
        seat = _object(SEAT_SCHEMA)(data, where)
        return cls(seat["name"], seat["kind"], seat["level"])


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
        then checks every field against :data:`RECORD_SCHEMA` and the fields
        against each other: the game exists, its options are valid, the seats,
        moves and result fit its number of players. Whether the moves replay is
        checked by :meth:`replay` (it costs a replay).
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
        fields = _object(RECORD_SCHEMA)(_upgrade(dict(data), version), "the record")
        spec: GameSpec[Any, Any] = fields["game"]
        config = _game_config(spec, fields["config"])
        players = config.players
        preset = fields["preset"]
        if preset is not None and preset not in spec.presets:
            raise SaveError(
                f"{spec.id} has no preset {_brief(preset)}; presets: {', '.join(spec.presets)}"
            )
        seats: list[SeatInfo] = fields["seats"]
        if len(seats) != players:
            raise SaveError(f"the record has {len(seats)} seats for a {players}-player game")
        moves: list[tuple[int, str]] = fields["moves"]
        for i, (seat, text) in enumerate(moves):
            if seat >= players:
                pair = _brief([seat, text])
                raise SaveError(f"move {i + 1} is not a [seat, notation] pair: {pair}")
        result: dict[str, Any] | None = fields["result"]
        if result is not None:
            _check_result(result, players)
        hints: list[int] = fields["hints"] or []
        if hints and len(hints) != players:
            raise SaveError(f"the record has {len(hints)} hint counts for a {players}-player game")
        if (result is None) != (fields["status"] == "playing"):
            raise SaveError("a finished game needs its result, and a game being played has none")
        return cls(
            id=fields["id"],
            game=spec.id,
            preset=preset,
            config=dict(fields["config"]),
            seed=fields["seed"],
            deck_order=fields["deck_order"],
            seats=seats,
            moves=moves,
            created=fields["created"],
            updated=fields["updated"],
            status=fields["status"],
            result=result,
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


def _check_result(result: dict[str, Any], players: int) -> None:
    """The result's seats are seats of the game, each ranked once, one score each."""
    winner = result["winner"]
    if winner is not None and winner >= players:
        raise SaveError(f"the result's winner is seat {winner + 1} of a {players}-player game")
    ranked = [seat for group in result["ranking"] for seat in group]
    if any(seat >= players for seat in ranked) or len(ranked) != len(set(ranked)):
        raise SaveError(
            f"the result's ranking names a seat twice or one not in the game: "
            f"{_brief(result['ranking'])}"
        )
    if len(result["scores"]) != players:
        raise SaveError(
            f"the result has {len(result['scores'])} scores for a {players}-player game"
        )


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


# ------------------------------------------------------------ the schema
# A check takes a value from the file and where it is ("field 'seed'", "seat 2's
# name"), and returns the value to keep or raises SaveError with a sentence.
Check = Callable[[Any, str], Any]


@dataclass(frozen=True)
class Field:
    check: Check
    required: bool = True  # else a missing key reads as None


Schema = Mapping[str, Field]


def _whole(low: int, high: int) -> Check:
    def check(value: Any, where: str) -> int:
        # bool is an int subclass: a seed of `true` is no seed
        if type(value) is not int:
            raise SaveError(f"{where} must be a whole number, not {_brief(value)}")
        if not low <= value <= high:
            raise SaveError(f"{where} must be from {low} to {high}, not {_brief(value)}")
        return value

    return check


def _text(limit: int, *, empty: bool = False) -> Check:
    def check(value: Any, where: str) -> str:
        if not isinstance(value, str):
            raise SaveError(f"{where} must be text, not {_brief(value)}")
        if not value and not empty:
            raise SaveError(f"{where} must not be empty")
        if len(value) > limit:
            raise SaveError(f"{where} must be at most {limit} characters, not {_brief(value)}")
        if not value.isprintable():
            raise SaveError(f"{where} must be printable text on one line, not {_brief(value)}")
        return value

    return check


def _one_of(choices: tuple[str, ...]) -> Check:
    def check(value: Any, where: str) -> str:
        if not isinstance(value, str) or value not in choices:
            raise SaveError(f"{where} must be one of {', '.join(choices)}, not {_brief(value)}")
        return value

    return check


def _nullable(inner: Check) -> Check:
    def check(value: Any, where: str) -> Any:
        return None if value is None else inner(value, where)

    return check


def _list_of(item: Check, limit: int, name: str | None = None) -> Check:
    """A list of at most ``limit`` items, each named ``<name> <n>`` (counting from
    1, as a person does: "move 3") or else ``field 'x[i]'``."""

    def check(value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise SaveError(f"{where} must be a list, not {_brief(value)}")
        if len(value) > limit:
            raise SaveError(f"{where} has {len(value)} items, more than {limit}")
        if name is not None:
            return [item(v, f"{name} {i + 1}") for i, v in enumerate(value)]
        if where.endswith("'"):  # field 'scores' -> field 'scores[0]'
            return [item(v, f"{where[:-1]}[{i}]'") for i, v in enumerate(value)]
        return [item(v, f"{where}[{i}]") for i, v in enumerate(value)]

    return check


def _object(schema: Schema) -> Check:
    """A JSON object with the schema's fields (others are ignored), as a dict."""

    def check(value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            raise SaveError(f"{where} must be an object, not {_brief(value)}")
        out: dict[str, Any] = {}
        for name, spec in schema.items():
            label = _label(where, name)
            if name not in value:
                if spec.required:
                    top = where == "the record"
                    raise SaveError(f"missing {label}" if top else f"{label} is missing")
                out[name] = None
                continue
            out[name] = spec.check(value[name], label)
        return out

    return check


def _label(where: str, name: str) -> str:
    """How a message names field ``name`` of the object at ``where``."""
    if where == "the record":
        return f"field '{name}'"
    if where.startswith("field '"):  # field 'result' -> field 'result.winner'
        return f"{where[:-1]}.{name}'"
    return f"{where}'s {name}"  # seat 2 -> seat 2's name


def _record_id(value: Any, where: str) -> str:
    if not isinstance(value, str) or not is_record_id(value):
        raise SaveError(f"bad record id {_brief(value)}: expected 6-32 lowercase hex digits")
    return value


def _game(value: Any, where: str) -> GameSpec[Any, Any]:
    if not isinstance(value, str):
        raise SaveError(f"{where} must be text, not {_brief(value)}")
    if len(value) > MAX_WORD or not value.isprintable():
        raise SaveError(f"no game called {_brief(value)}")
    try:
        return get_game(value)
    except UnknownGame as err:
        raise SaveError(_clean(str(err))) from None


def _option_value(value: Any, where: str) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return _whole(-MAX_INT, MAX_INT)(value, where)
    if isinstance(value, float):
        if not math.isfinite(value) or abs(value) > MAX_INT:
            raise SaveError(f"{where} must be a finite number, not {_brief(value)}")
        return value
    if isinstance(value, str):
        return _text(MAX_TEXT, empty=True)(value, where)
    raise SaveError(f"{where} must be yes/no, a number or text, not {_brief(value)}")


def _options(value: Any, where: str) -> dict[str, Any]:
    """The game's options by name; which names and values the game takes is
    checked against the game's Config (:func:`_game_config`)."""
    if not isinstance(value, Mapping):
        raise SaveError(f"{where} must be an object, not {_brief(value)}")
    if len(value) > 100:
        raise SaveError(f"{where} has {len(value)} options: not a game's")
    for name in value:
        if len(name) > MAX_WORD or not name.isprintable():
            raise SaveError(f"{where} has an unknown option {_brief(name)}")
    return {name: _option_value(v, f"option '{name}'") for name, v in value.items()}


def _time(value: Any, where: str) -> str:
    if not isinstance(value, str) or len(value) > 40:
        raise SaveError(f"{where} is not an ISO 8601 time: {_brief(value)}")
    try:
        moment = parse_time(value)
    except ValueError:
        raise SaveError(f"{where} is not an ISO 8601 time: {_brief(value)}") from None
    if not EARLIEST <= moment < LATEST:
        raise SaveError(
            f"{where} is out of range ({EARLIEST.year}-{LATEST.year - 1}): {_brief(value)}"
        )
    return value


def _move(value: Any, where: str) -> tuple[int, str]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or type(value[0]) is not int
        or not 0 <= value[0] < MAX_SEATS
        or not isinstance(value[1], str)
        or not value[1]
        or len(value[1]) > MAX_MOVE
        or not value[1].isprintable()
    ):
        raise SaveError(f"{where} is not a [seat, notation] pair: {_brief(value)}")
    return value[0], value[1]


def _seat(value: Any, where: str) -> SeatInfo:
    return SeatInfo.from_json(value, where)


SEAT = _whole(0, MAX_SEATS - 1)

SEAT_SCHEMA: Schema = {
    "name": Field(_text(MAX_NAME)),
    "kind": Field(_one_of(SEAT_KINDS)),
    "level": Field(_nullable(_one_of(BOT_LEVELS)), required=False),
}

RESULT_SCHEMA: Schema = {
    "winner": Field(_nullable(SEAT)),
    "ranking": Field(_list_of(_list_of(SEAT, MAX_SEATS), MAX_SEATS)),
    "scores": Field(_list_of(_whole(-MAX_INT, MAX_INT), MAX_SEATS)),
    "reason": Field(_text(MAX_TEXT, empty=True)),
}

# Every field of a record (docs/saves.md), after ``format`` and ``version``.
RECORD_SCHEMA: Schema = {
    "id": Field(_record_id),
    "game": Field(_game),
    "preset": Field(_nullable(_text(MAX_WORD))),
    "config": Field(_options),
    "seed": Field(_whole(-MAX_INT - 1, MAX_INT)),
    "deck_order": Field(_nullable(_list_of(_text(MAX_CARD), MAX_CARDS))),
    "seats": Field(_list_of(_seat, MAX_SEATS, "seat")),
    "moves": Field(_list_of(_move, 10**6, "move")),
    "created": Field(_time),
    "updated": Field(_time),
    "status": Field(_one_of(STATUSES)),
    "result": Field(_nullable(_object(RESULT_SCHEMA))),
    # optional: files written before hints existed have none
    "hints": Field(_nullable(_list_of(_whole(0, MAX_INT), MAX_SEATS)), required=False),
}


def check_field(name: str, value: Any, where: str) -> Any:
    """Check one value as the record's field ``name`` would be on reading, so
    that a new game never saves what could not be read back (a seed or an
    option out of range): SaveError naming it ``where`` if not."""
    return RECORD_SCHEMA[name].check(value, where)


def _clean(text: str, limit: int = MAX_TEXT) -> str:
    """A message from elsewhere (the rules) as one printable line, cut short."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[:limit] + "..."


def _brief(value: Any) -> str:
    """A value from a file, for a one-line message: repr (no line breaks), cut short."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        return "a number too long to show"
    return text if len(text) <= 40 else text[:40] + "..."


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
