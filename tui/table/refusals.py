"""Why something the player asked for was refused, in sentences with one
colon to a line (D41): "You cannot play A♥: it is lower than 7♦. Play a card
of rank 7 or higher.", "Not played: the connection to the server is down.
Wait until it is back."."""

from __future__ import annotations


def sentences(reason: str) -> str:
    """ "the link is down: wait until it is back" -> "the link is down. Wait
    until it is back." (one colon to a line: D41)."""
    first, colon, rest = reason.strip().rstrip(".").partition(": ")
    if colon and rest:
        return f"{first}. {rest[:1].upper()}{rest[1:]}."
    return f"{first}."


def refusal_text(move: str, reason: str) -> str:
    """Why a move is refused, in sentences with one colon: "You cannot play
    A♥: it is lower than 7♦. Play a card of rank 7 or higher." (the rules say
    "A♥ is lower than 7♦: play a card of rank 7 or higher")."""
    reason = reason.strip().rstrip(".")
    if reason.startswith(f"{move} "):
        reason = "it " + reason[len(move) + 1 :]
    first, colon, rest = reason.partition(": ")
    if colon and rest:
        return f"You cannot play {move}: {first}. {rest[:1].upper()}{rest[1:]}."
    return f"You cannot play {move}: {reason}."
