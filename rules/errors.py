"""Errors a player, a file or a socket can provoke, each with a readable reason.

A caller that reads a move from outside (a person, a file, a socket) catches
:class:`MoveError`: it is raised both for text that is no move of the game
(:class:`NotationError`) and for a move the rules refuse now
(:class:`IllegalMove`), and ``str(error)`` is a sentence for a person.
"""

from __future__ import annotations


class MoveError(ValueError):
    """A move that cannot be played: not a move at all, or not now."""


class IllegalMove(MoveError):
    """A move the rules do not allow now. ``str(error)`` is a sentence for a person."""


class NotationError(MoveError):
    """Text that is not a move of this game at all (as opposed to an illegal one)."""


class UnknownGame(KeyError):
    """No game is registered under that id."""

    def __str__(self) -> str:  # KeyError quotes its argument; we want a sentence
        return str(self.args[0]) if self.args else "unknown game"


def shown_input(text: object, limit: int = 40) -> str:
    """Text someone typed or sent, quoted for a one-line message: control
    characters and line breaks escaped, anything past ``limit`` cut. A value
    that is not text at all is named by its type."""
    if not isinstance(text, str):
        return f"a {type(text).__name__}"
    cut = text[:limit]
    quoted = repr(cut) if not cut.isprintable() else f"'{cut}'"
    return quoted + ("..." if len(text) > limit else "")
