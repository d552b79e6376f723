"""What a seat may know, typed: the base of every game's view.

``GameState.view(seat)`` returns an instance of the game's own :class:`View`
subclass (``GameSpec.view_type``): frozen, typed, and the single description of
what that seat may know. It is what the table hands a local screen, what the
wire carries (:meth:`View.to_json`; a field left at its default, such as a
spectator's absent ``hand``, is left out), and what a client decodes once at
its boundary (:meth:`GameSpec.read_view`), so that a malformed view fails
there, loudly, and a screen reads attributes.

msgspec is the wire's own library (``net/protocol.py``): one library for typed
data, and it writes the JSON Schema of each view for the protocol document.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

import msgspec


class ViewError(ValueError):
    """A view that is not what its game declares (a client's boundary check)."""


class Record(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A typed, frozen part of a view (a cell, a region, a round's reveal),
    read by its attributes. A field left at its default (None) is left out
    of the JSON, as a spectator's ``hand`` is."""

    def to_json(self) -> dict[str, Any]:
        """The JSON-able form the wire and the saves carry."""
        data: dict[str, Any] = msgspec.to_builtins(self)
        return data


class View(Record, frozen=True, kw_only=True, omit_defaults=True):
    """One seat's view of a game (``seat`` None: a spectator's)."""

    game: str
    seat: int | None

    @classmethod
    def read(cls, data: Mapping[str, Any] | View) -> Self:
        """``data`` (a view's JSON form) as this view; ViewError, with what is
        wrong, for anything else."""
        if isinstance(data, cls):
            return data
        if isinstance(data, View):
            raise ViewError(f"a {data.game} view is not a {cls.__name__}")
        try:
            return msgspec.convert(data, cls)
        except msgspec.ValidationError as err:
            raise ViewError(f"not a {cls.__name__}: {err}") from None
