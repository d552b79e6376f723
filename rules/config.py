"""Game options: a frozen dataclass per game, with defaults, help and presets.

Each game's ``Config`` subclasses :class:`GameConfig` and declares its options
with :func:`option`, so the new-game screen, the CLI, saves and the protocol
can all list, describe, validate and (de)serialize them without knowing the
game.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self


def option(
    default: Any,
    help: str,
    *,
    choices: Sequence[Any] | None = None,
    min: int | None = None,
    max: int | None = None,
    title: str | None = None,
    labels: Mapping[Any, str] | None = None,
) -> Any:
    """Declare one option of a game's Config (a dataclass field with metadata).
    ``title`` and ``labels`` are what a form shows for its name and for each of
    its ``choices`` (the values themselves stay the ones saves and the wire hold)."""
    meta = {"help": help, "choices": tuple(choices) if choices else None, "min": min, "max": max}
    return field(default=default, metadata={**meta, "title": title, "labels": labels})


RANDOM_SEAT = "random"
MAX_SEATS = 8

# What a saved game can hold (docs/saves.md), and so what any option may be:
# a game whose options its save could not hold would play, but its save would
# not read back and the game would be lost. Every way options come in (the
# protocol, the command line, the forms, a save) goes through GameConfig.
SAVED_INT_LIMIT = 2**63 - 1  # whole numbers: a signed 64-bit integer (both signs)
SAVED_TEXT_LIMIT = 200  # characters of a text value, printable, on one line


def seat_option(help: str) -> Any:
    """An option naming a seat (who leads, who defends): ``random`` or a seat
    index ``"0"``, ``"1"``... as everywhere in the API; screens show "Player 1".
    Checked against the number of players."""
    choices = (RANDOM_SEAT, *(str(i) for i in range(MAX_SEATS)))
    meta = {"help": help, "choices": choices, "min": None, "max": None, "seat": True}
    return field(default=RANDOM_SEAT, metadata=meta)


def chosen_seat(value: str, draw: Callable[[], int]) -> int:
    """The seat a seat option names; ``draw()`` (from the game's RNG, called
    only then) when it says ``random``."""
    return draw() if value == RANDOM_SEAT else int(value)


@dataclass(frozen=True)
class OptionInfo:
    name: str
    default: Any
    help: str
    kind: type
    choices: tuple[Any, ...] | None
    min: int | None
    max: int | None
    seat: bool = False  # the value is RANDOM_SEAT or a seat index as text
    title: str | None = None  # the name a form shows ("Tie rule"), if not the field's
    labels: Mapping[Any, str] | None = None  # a choice as a form shows it

    def label(self, value: Any) -> str:
        """How a screen shows one of this option's values."""
        if self.labels and value in self.labels:
            return self.labels[value]
        if self.seat and value != RANDOM_SEAT:
            return f"Player {int(value) + 1}"
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)

    def heading(self) -> str:
        """The option's name as a form shows it: its title, else "Round cap"."""
        return self.title or self.name.replace("_", " ").capitalize()


@dataclass(frozen=True)
class GameConfig:
    """Base of every game's options. ``players`` is the number of seats."""

    players: int = option(2, "Number of players")

    @classmethod
    def options(cls) -> list[OptionInfo]:
        out = []
        for f in dataclasses.fields(cls):
            kind = type(f.default)
            out.append(
                OptionInfo(
                    f.name,
                    f.default,
                    f.metadata.get("help", f.name),
                    kind,
                    f.metadata.get("choices"),
                    f.metadata.get("min"),
                    f.metadata.get("max"),
                    f.metadata.get("seat", False),
                    f.metadata.get("title"),
                    f.metadata.get("labels"),
                )
            )
        return out

    def __post_init__(self) -> None:
        for info in self.options():
            value: Any = getattr(self, info.name)
            # bool is an int subclass: check it strictly both ways
            if type(value) is not info.kind and not (info.kind is float and type(value) is int):
                raise ValueError(
                    f"option '{info.name}' must be {info.kind.__name__}, got {_brief(value)}"
                )
            if info.choices is not None and value not in info.choices:
                allowed = ", ".join(map(str, info.choices))
                raise ValueError(
                    f"option '{info.name}' must be one of {allowed}; got {_brief(value)}"
                )
            if isinstance(value, str):
                _check_text(info.name, value)
            elif not isinstance(value, bool):
                _check_number(info, value)
            if info.seat and value != RANDOM_SEAT and int(str(value)) >= self.players:
                raise ValueError(
                    f"option '{info.name}' names seat {value}, but seats are 0-{self.players - 1}"
                )
        self.validate()

    def validate(self) -> None:
        """Cross-option checks; raise ValueError with a sentence. Override per game."""

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(
                f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        return cls(**dict(data))

    def replace(self, **changes: Any) -> Self:
        return dataclasses.replace(self, **changes)


def _check_number(info: OptionInfo, number: Any) -> None:
    """A whole or decimal number within the option's own bounds, and within
    what a save holds."""
    if isinstance(number, float) and not math.isfinite(number):
        raise ValueError(f"option '{info.name}' must be a finite number; got {number}")
    low = -SAVED_INT_LIMIT if info.min is None else max(info.min, -SAVED_INT_LIMIT)
    high = SAVED_INT_LIMIT if info.max is None else min(info.max, SAVED_INT_LIMIT)
    if number < low:
        raise ValueError(f"option '{info.name}' must be at least {low}; got {_brief(number)}")
    if number > high:
        raise ValueError(f"option '{info.name}' must be at most {high}; got {_brief(number)}")


def _check_text(name: str, text: str) -> None:
    if len(text) > SAVED_TEXT_LIMIT or not text.isprintable():
        raise ValueError(
            f"option '{name}' must be printable text of at most {SAVED_TEXT_LIMIT} "
            f"characters; got {_brief(text)}"
        )


def _brief(value: Any) -> str:
    try:
        text = repr(value)
    except ValueError:  # a whole number of thousands of digits
        return "a number too long to show"
    return text if len(text) <= 40 else text[:40] + "..."


def parse_option_value(info: OptionInfo, text: str) -> Any:
    """Turn text from a command line or a form into an option value."""
    if info.kind is bool:
        low = text.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"option '{info.name}' takes yes or no, not '{text}'")
    if info.kind is int:
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"option '{info.name}' takes a whole number, not '{text}'") from None
    if info.kind is float:
        try:
            return float(text)
        except ValueError:
            raise ValueError(f"option '{info.name}' takes a number, not '{text}'") from None
    return text
