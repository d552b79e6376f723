"""Game options: a frozen dataclass per game, with defaults, help and presets.

Each game's ``Config`` subclasses :class:`GameConfig` and declares its options
with :func:`option`, so the new-game screen, the CLI, saves and the protocol
can all list, describe, validate and (de)serialize them without knowing the
game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self


def option(
    default: Any,
    help: str,
    *,
    choices: Sequence[Any] | None = None,
    min: int | None = None,
    max: int | None = None,
) -> Any:
    """Declare one option of a game's Config (a dataclass field with metadata)."""
    meta = {"help": help, "choices": tuple(choices) if choices else None, "min": min, "max": max}
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class OptionInfo:
    name: str
    default: Any
    help: str
    kind: type
    choices: tuple[Any, ...] | None
    min: int | None
    max: int | None


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
                )
            )
        return out

    def __post_init__(self) -> None:
        for info in self.options():
            value: Any = getattr(self, info.name)
            # bool is an int subclass: check it strictly both ways
            if type(value) is not info.kind and not (info.kind is float and type(value) is int):
                raise ValueError(
                    f"option '{info.name}' must be {info.kind.__name__}, got {value!r}"
                )
            if info.choices is not None and value not in info.choices:
                allowed = ", ".join(map(str, info.choices))
                raise ValueError(f"option '{info.name}' must be one of {allowed}; got {value!r}")
            number: Any = value  # the type check above narrowed `value` to object
            if info.min is not None and number < info.min:
                raise ValueError(f"option '{info.name}' must be at least {info.min}; got {value}")
            if info.max is not None and number > info.max:
                raise ValueError(f"option '{info.name}' must be at most {info.max}; got {value}")
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
