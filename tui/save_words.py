"""A saved game's result in words, for the Resume list and ``cardtable saves``.

A record keeps its result as the game gave it (``Outcome.to_json()``): the
reason is a template that names seats as ``{p0}``, ``{p1}``..., filled here
with the seats' names as the screens fill it (:func:`rules.events.fill_names`).
The short form (:func:`result_words`) says the result from the side of this
screen's player where there is one (the one person named "You"), else who
won, in a few words that fit a column. Headless: the command line uses it.
"""

from __future__ import annotations

import re

from rules.events import fill_names
from rules.figures import place_of
from saves.record import GameRecord
from tui.plain import plain
from tui.seating import addressed_as_you

# the Resume list's Status column at 80 columns ("lost (resigned)")
STATUS_ROOM = 15
NAME_LIMIT = 40
# a reason that starts with a seat: "{p0} resigned"
_FIRST_SEAT = re.compile(r"\{p(\d+)[ }']")


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th… (11th, 12th, 13th)."""
    if 10 <= place % 100 <= 20:
        return f"{place}th"
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th') }"


def seat_names(record: GameRecord) -> list[str]:
    """The seats' names, plain (a name is outside text)."""
    return [plain(seat.name, NAME_LIMIT) for seat in record.seats]


def you_seats(record: GameRecord) -> frozenset[int]:
    """The seats a text addresses as "you": this screen's person named "You"."""
    people = [i for i, seat in enumerate(record.seats) if seat.kind == "human"]
    return addressed_as_you([seat.name for seat in record.seats], people)


def reason_text(record: GameRecord) -> str:
    """The result's reason with the seats' names filled in ("you finished
    first; Computer 3 is left holding cards"), and who resigned where it does
    not say so; plain, for the middle of a sentence; "" if there is none."""
    result = record.result or {}
    reason = result.get("reason")
    reasons = [reason] if isinstance(reason, str) and reason else []
    reasons += [
        f"{{p{seat}}} resigned"
        for seat in range(len(record.seats))
        if _resigned(record, seat) and f"{{p{seat}}} resigned" not in reasons
    ]
    names, you = seat_names(record), you_seats(record)
    texts = [fill_names(text, names, you) for text in reasons]
    for i, text in enumerate(texts):
        # "You resigned" starts its template, not the sentence it is put in
        start = _FIRST_SEAT.match(reasons[i])
        if start is not None and int(start.group(1)) in you:
            texts[i] = text[:1].lower() + text[1:]
    return plain("; ".join(texts))


def winner_text(record: GameRecord) -> str:
    """Who won, in a sentence's words: "You won", "Computer 1 won", "no winner"."""
    winner = (record.result or {}).get("winner")
    if type(winner) is not int or not 0 <= winner < len(record.seats):
        return "a draw" if _is_draw(record) else "no winner"
    return fill_names(f"{{p{winner}}} won", seat_names(record), you_seats(record))


def result_sentence(record: GameRecord) -> str:
    """Who won and why, with no full stop: "Computer won (you resigned)"; a
    reason that is a sentence of its own follows one ("You won. The stock is
    empty and you have no cards left: …")."""
    won = winner_text(record)
    won = won[:1].upper() + won[1:]
    reason = reason_text(record)
    template = (record.result or {}).get("reason")
    if isinstance(template, str) and template[:1].isupper():
        return f"{won}. {reason}"
    return f"{won} ({reason})" if reason else won


def result_words(record: GameRecord, room: int = STATUS_ROOM) -> str:
    """The record's state in at most ``room`` characters: "playing", and once
    finished "won 33-12", "lost (resigned)", "won by forfeit", "2nd of 4",
    "won, 1st of 4", "4th (resigned)" for this screen's
    player, else "Computer 1 won" (a long name cut, never the verb)."""
    if record.status == "playing":
        return "playing"
    result = record.result or {}
    ranking = result.get("ranking")
    if not isinstance(ranking, list):
        return plain(record.status, room)
    you = sorted(you_seats(record))
    words = _yours(record, you[0]) if len(you) == 1 else _theirs(record, room)
    return plain(words, room)


def _resigned(record: GameRecord, seat: int) -> bool:
    """Whether ``seat`` resigned: its resign move, or the reason a version 1 save kept."""
    reason = (record.result or {}).get("reason")
    return reason == f"{{p{seat}}} resigned" or (seat, "resign") in (
        (s, text.strip().lower()) for s, text in record.moves
    )


def _is_draw(record: GameRecord) -> bool:
    ranking = (record.result or {}).get("ranking")
    return isinstance(ranking, list) and len(ranking) == 1 and len(record.seats) > 1


def _scores(record: GameRecord, first: int, second: int) -> str:
    """ " 33-12": two seats' scores, ``first``'s first; "" where they do not
    read as a result (fewer is better, as Stress's cards left, or no scores)."""
    scores = (record.result or {}).get("scores")
    if not isinstance(scores, list) or len(scores) != len(record.seats):
        return ""
    a, b = scores[first], scores[second]
    if type(a) is not int or type(b) is not int:
        return ""
    ranking = (record.result or {}).get("ranking") or []
    first_place, second_place = place_of(first, ranking), place_of(second, ranking)
    if first_place is None or second_place is None:
        return ""
    # the better placed seat must have the higher score, else "won 0-12" misleads
    if (first_place - second_place) * (a - b) > 0:
        return ""
    return f" {a}-{b}"


def _yours(record: GameRecord, me: int) -> str:
    players = len(record.seats)
    ranking = (record.result or {}).get("ranking") or []
    place = place_of(me, ranking)
    if place is None:
        return "finished"
    if players == 2:
        other = 1 - me
        if _resigned(record, me):
            return "lost (resigned)"
        if _resigned(record, other):
            return "won by forfeit"  # the other resigned
        verdict = "drew" if _is_draw(record) else "won" if place == 1 else "lost"
        return verdict + _scores(record, me, other)
    tied = any(me in group and len(group) > 1 for group in ranking)
    shown = ("=" if tied else "") + ordinal(place)
    if _resigned(record, me):
        return f"{shown} (resigned)"
    if place == 1 and not tied:
        return f"won, 1st of {players}"
    return f"{shown} of {players}"


def _theirs(record: GameRecord, room: int) -> str:
    names = seat_names(record)
    winner = (record.result or {}).get("winner")
    if type(winner) is not int or not 0 <= winner < len(names):
        if not _is_draw(record):
            return "finished"
        scores = _scores(record, 0, 1) if len(names) == 2 else ""
        return "draw" + scores
    others = [s for s in range(len(names)) if s != winner]
    scores = _scores(record, winner, others[0]) if len(others) == 1 else ""
    name = names[winner]
    if (len(others) == 1 and _resigned(record, others[0])) or len(f"{name} won{scores}") > room:
        scores = ""  # the score gives way first, then the name; the verb stays
    name = plain(name, max(room - len(" won"), 1))
    return f"{name} won{scores}"
