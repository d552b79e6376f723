"""A file's JSON as typed Structs, and what is wrong with it in a person's words.

msgspec checks every field's type and limits as it decodes, but says what is
wrong for a programmer ("Expected `int`, got `str` - at `$.seats[1].level`").
:func:`decode` says it as a player reads it, on one printable line ("seat 2's
level must be one of easy, medium, hard, not 'godlike'"), and refuses what no
type says: text that is not printable on one line. The record's format
(``saves/record.py``) is the one user today; nothing here knows its fields.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

import msgspec

from .errors import SaveError

_AT = re.compile(r"^(?P<what>.*?)(?: - at `(?P<path>[^`]*)`)?$")
_STEP = re.compile(r"\.(\w+)|\[(\d+)\]")
_NOUNS = {"int": "a whole number", "str": "text", "array": "a list", "object": "an object"}


class FieldError(SaveError):
    """A value of a file that is not what its field holds; ``path`` says where
    (``$.seats[1].name``), for a caller that words some fields its own way."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(message)
        self.path = path


class Wording(msgspec.Struct, frozen=True):
    """How messages name the values of one kind of file: ``where`` names the
    whole ("the record"; "--seed" for a value checked alone), ``fields``
    whether its fields are named as such ("field 'result.winner'"; else "the
    seat's kind"), ``items`` the items of its top-level lists (``seats``:
    "seat", so "seat 2's name"),
    ``choices`` the values a text field may take (``level``: easy, medium,
    hard), and ``unchecked`` the top-level fields whose texts the caller
    checks itself (not for printability here)."""

    where: str
    fields: bool = False
    items: Mapping[str, str] = {}
    choices: Mapping[str, Sequence[str]] = {}
    unchecked: Collection[str] = ()


def decode(data: Any, kind: Any, wording: Wording) -> Any:
    """``data`` as the type ``kind``, every text in it printable; FieldError,
    saying which value is wrong and how, if not."""
    try:
        decoded = msgspec.convert(data, kind)
    except msgspec.ValidationError as err:
        match = _AT.match(str(err))
        assert match is not None  # the pattern matches any one line
        path = match["path"] or "$"
        raise FieldError(_explain(match["what"], path, data, wording), path) from None
    builtins = msgspec.to_builtins(decoded)
    if _printable(builtins, wording.unchecked):
        return decoded  # the usual case, paid once per text: no paths built (a long game's moves)
    for path, text in _texts(builtins, "$", wording.unchecked):
        if not text.isprintable():
            said = f"must be printable text on one line, not {brief(text)}"
            raise FieldError(f"{label(path, wording)} {said}", path)
    return decoded


def _printable(value: Any, unchecked: Collection[str] = ()) -> bool:
    """Whether every text in ``value`` is surely printable, the top-level
    fields in ``unchecked`` aside, at C speed (a long game has a million
    moves): JSON escapes every control character with a backslash, so JSON
    text with no backslash that is printable holds printable texts only. A
    False is only "maybe not": :func:`_texts` then finds which."""
    if isinstance(value, dict):
        value = {key: item for key, item in value.items() if key not in unchecked}
    text = msgspec.json.encode(value).decode("utf-8")
    return "\\" not in text and text.isprintable()


def _texts(value: Any, path: str, unchecked: Collection[str]) -> Iterator[tuple[str, str]]:
    """Every text in ``value`` with its path, the unchecked fields aside."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _texts(item, f"{path}[{i}]", unchecked)
    elif isinstance(value, dict):
        for key, item in value.items():
            if path != "$" or key not in unchecked:
                yield from _texts(item, f"{path}.{key}", unchecked)


def _explain(what: str, path: str, data: Any, wording: Wording) -> str:
    """msgspec's reason ``what`` for the value at ``path``, in a person's words."""
    value = value_at(data, path)
    if what.startswith("Object missing required field"):
        name = what.split("`")[1]
        if path == "$" and wording.fields:
            return f"missing {label(f'$.{name}', wording)}"
        return f"{label(f'{path}.{name}', wording)} is missing"
    steps = _STEP.findall(path)
    choices = wording.choices.get(steps[-1][0], ()) if steps else ()
    if choices and (what.startswith("Invalid enum value") or what.startswith("Expected `str")):
        said = f"must be one of {', '.join(choices)}, not {brief(value)}"
    elif match := re.match(r"Expected `(\w+)[^`]*`, got", what):
        said = f"must be {_NOUNS.get(match[1], match[1])}, not {brief(value)}"
    elif match := re.match(r"Expected `int` (>=|<=) (-?\d+)", what):
        bound = "least" if match[1] == ">=" else "most"
        said = f"must be at {bound} {match[2]}, not {brief(value)}"
    elif what == "Expected `str` of length >= 1":
        said = "must not be empty"
    elif match := re.match(r"Expected `str` of length <= (\d+)", what):
        said = f"must be at most {match[1]} characters, not {brief(value)}"
    elif match := re.match(r"Expected `array` of length <= (\d+)", what):
        said = f"has {len(value)} items, more than {match[1]}"
    else:  # a limit no file of ours sets: msgspec's words, and the value
        said = f"is refused ({what}): {brief(value)}"
    return f"{label(path, wording)} {said}"


def label(path: str, wording: Wording) -> str:
    """How a message names the value at ``path``: ``$.seats[1].name`` is
    "seat 2's name", ``$.result.winner`` "field 'result.winner'"; checked
    alone, "--seed" or "the seat's kind"."""
    rest = path[1:]
    if not wording.fields:
        return f"{wording.where}'s {rest[1:]}" if rest.startswith(".") else wording.where + rest
    item = re.fullmatch(r"\.(\w+)\[(\d+)\](?:\.(\w+))?", rest)
    if item and item[1] in wording.items:
        name = f"{wording.items[item[1]]} {int(item[2]) + 1}"
        return name + (f"'s {item[3]}" if item[3] else "")
    return f"field '{rest[1:]}'" if rest else wording.where


def value_at(data: Any, path: str) -> Any:
    """The value at ``path`` in ``data`` (None where there is none)."""
    for key, index in _STEP.findall(path):
        if key and isinstance(data, Mapping):
            data = data.get(key)
        elif index and isinstance(data, list | tuple) and int(index) < len(data):
            data = data[int(index)]
        else:
            return None
    return data


def brief(value: Any) -> str:
    """A value from a file, for a one-line message: repr (no line breaks), cut short."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        return "a number too long to show"
    return text if len(text) <= 40 else text[:40] + "..."
