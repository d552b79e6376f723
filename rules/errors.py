"""Errors a player, a file or a socket can provoke, each with a readable reason."""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move the rules do not allow now. ``str(error)`` is a sentence for a person."""


class NotationError(ValueError):
    """Text that is not a move of this game at all (as opposed to an illegal one)."""


class UnknownGame(KeyError):
    """No game is registered under that id."""

    def __str__(self) -> str:  # KeyError quotes its argument; we want a sentence
        return str(self.args[0]) if self.args else "unknown game"


def shown_input(text: str, limit: int = 40) -> str:
    """Text someone typed or sent, quoted for a one-line message: control
    characters and line breaks escaped, anything past ``limit`` cut."""
    cut = text[:limit]
    quoted = repr(cut) if not cut.isprintable() else f"'{cut}'"
    return quoted + ("..." if len(text) > limit else "")
