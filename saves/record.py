"""A game record: everything needed to rebuild a game, plus who played it.

A game is fully described by (game id, config, seed, deck order, list of
(seat, move)) (docs/contract.md); the record adds the seats, timestamps and
how the game stands. Saving a game is writing its record; resuming is
replaying it. The file format is documented in docs/saves.md.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from rules.config import GameConfig
from rules.errors import MoveError, UnknownGame, shown_input
from rules.events import Event
from rules.game import GameSpec, GameState
from rules.registry import get_game

from .errors import SaveError

FORMAT = "cardtable-game"
FORMAT_VERSION = 1
SEAT_KINDS = ("human", "bot", "remote")
STATUSES = ("playing", "finished", "resigned")


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
    def from_json(cls, data: Any) -> SeatInfo:
        """Read a seat; SaveError (a sentence) if ``data`` is not one."""
        if not isinstance(data, Mapping):
            raise SaveError("a seat must be a JSON object")
        name, kind, level = data.get("name"), data.get("kind"), data.get("level")
        if not isinstance(name, str) or not name:
            raise SaveError("a seat needs a name (text)")
        if kind not in SEAT_KINDS:
            raise SaveError(f"seat kind must be one of {', '.join(SEAT_KINDS)}, not {_brief(kind)}")
        if level is not None and not isinstance(level, str):
            raise SaveError(f"a bot level must be text, not {_brief(level)}")
        return cls(name, kind, level)


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
    status: str = "playing"  # playing | finished | resigned
    result: dict[str, Any] | None = None  # Outcome.to_json() once the game has ended

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

        Checks the format and version, every field's type, that the game exists
        and that its options are valid. Whether the moves replay is checked by
        :meth:`replay` (it costs a replay).
        """
        if not isinstance(data, Mapping):
            raise SaveError(f"not a saved game: the file holds a JSON {_json_kind(data)}")
        if data.get("format") != FORMAT:
            raise SaveError("not a cardtable saved game (no 'format': 'cardtable-game')")
        version = data.get("version")
        if version != FORMAT_VERSION:
            if type(version) is int and version > FORMAT_VERSION:
                raise SaveError(
                    f"saved by a newer cardtable (format version {version}; "
                    f"this one reads version {FORMAT_VERSION})"
                )
            raise SaveError(
                f"unknown format version {_brief(version)} (this cardtable reads {FORMAT_VERSION})"
            )
        record_id = _field(data, "id", str)
        if not is_record_id(record_id):
            raise SaveError(
                f"bad record id {_brief(record_id)}: expected 6-32 lowercase hex digits"
            )
        game = _field(data, "game", str)
        if len(game) > 40 or not game.isprintable():
            raise SaveError(f"no game called {shown_input(game)}")
        try:
            spec = get_game(game)
        except UnknownGame as err:
            raise SaveError(str(err)) from None
        preset = _field(data, "preset", str, optional=True)
        config = _field(data, "config", dict)
        players = _game_config(spec, config).players
        seed = _field(data, "seed", int)
        deck_order = _field(data, "deck_order", list, optional=True)
        if deck_order is not None and not all(isinstance(c, str) for c in deck_order):
            raise SaveError("field 'deck_order' must be a list of card texts")
        seats_json = _field(data, "seats", list)
        seats = [SeatInfo.from_json(s) for s in seats_json]
        if len(seats) != players:
            raise SaveError(f"the record has {len(seats)} seats for a {players}-player game")
        moves: list[tuple[int, str]] = []
        for i, item in enumerate(_field(data, "moves", list)):
            if (
                not isinstance(item, list)
                or len(item) != 2
                or type(item[0]) is not int
                or not isinstance(item[1], str)
                or not 0 <= item[0] < len(seats)
            ):
                raise SaveError(f"move {i + 1} is not a [seat, notation] pair: {_brief(item)}")
            moves.append((item[0], item[1]))
        created = _timestamp(data, "created")
        updated = _timestamp(data, "updated")
        status = _field(data, "status", str)
        if status not in STATUSES:
            raise SaveError(f"status must be one of {', '.join(STATUSES)}, not {_brief(status)}")
        result = _field(data, "result", dict, optional=True)
        return cls(
            id=record_id,
            game=game,
            preset=preset,
            config=dict(config),
            seed=seed,
            deck_order=list(deck_order) if deck_order is not None else None,
            seats=seats,
            moves=moves,
            created=created,
            updated=updated,
            status=status,
            result=dict(result) if result is not None else None,
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
    try:
        config: GameConfig = spec.Config.from_dict(values)
    except (ValueError, TypeError) as err:
        raise SaveError(f"bad {spec.id} options: {err}") from None
    if not spec.min_players <= config.players <= spec.max_players:
        raise SaveError(
            f"{spec.title} takes {spec.min_players}-{spec.max_players} players, "
            f"not {config.players}"
        )
    return config


_KIND_NAMES = {str: "text", int: "a whole number", dict: "an object", list: "a list"}


def _field(data: Mapping[str, Any], name: str, kind: type, optional: bool = False) -> Any:
    if name not in data:
        raise SaveError(f"missing field '{name}'")
    value = data[name]
    if value is None and optional:
        return None
    # bool is an int subclass; a seed of `true` is no seed
    if not isinstance(value, kind) or (kind is int and type(value) is bool):
        raise SaveError(f"field '{name}' must be {_KIND_NAMES[kind]}, not {_brief(value)}")
    return value


def _timestamp(data: Mapping[str, Any], name: str) -> str:
    text: str = _field(data, name, str)
    try:
        parse_time(text)
    except ValueError:
        raise SaveError(f"field '{name}' is not an ISO 8601 time: {_brief(text)}") from None
    return text


def _brief(value: Any) -> str:
    """A value from a file, for a one-line message: repr (no line breaks), cut short."""
    text = repr(value)
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
