"""Who sits where: the seat choices of the new-game form and the CLI's ``--vs``.

A seat is "you" (the person at this keyboard), "person" (another person at
the same screen: hot-seat), or "computer:<level>". Every person here is one of
this client's seats; bots are run by the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from net.client import SeatInfo
from rules.bots import LEVELS
from saves.record import numbered_alike

YOU = "you"
PERSON = "person"


def seat_kinds() -> list[tuple[str, str]]:
    """(label, value) pairs for a seat selector, in the order shown."""
    kinds = [("You", YOU), ("Another person here (hot-seat)", PERSON)]
    kinds += [(f"Computer: {lv.label.lower()}", f"computer:{lv.id}") for lv in LEVELS]
    return kinds


def default_kinds(players: int) -> list[str]:
    return [YOU] + ["computer:medium"] * (players - 1)


def kinds_from_vs(vs: str, players: int) -> list[str]:
    """The CLI's ``--vs computer:hard`` or ``--vs human`` as seat kinds (you sit first)."""
    if vs == "human":
        return [YOU] + [PERSON] * (players - 1)
    level = vs.removeprefix("computer:") if vs.startswith("computer") else vs
    levels = [lv.id for lv in LEVELS]
    if level == "computer":
        level = "medium"
    if level not in levels:
        raise ValueError(f"--vs takes human or computer:{'|'.join(levels)}, not '{vs}'")
    return [YOU] + [f"computer:{level}"] * (players - 1)


def build_seats(
    kinds: Sequence[str], default_names: Sequence[str]
) -> tuple[list[SeatInfo], tuple[int, ...]]:
    """Seats and the seats this screen plays; ValueError with a sentence if impossible."""
    people = [i for i, k in enumerate(kinds) if k in (YOU, PERSON)]
    if not people:
        raise ValueError("choose at least one seat for a person here")
    if sum(1 for k in kinds if k == YOU) > 1:
        raise ValueError("only one seat can be 'You'; the other people here are hot-seat players")
    seats: list[SeatInfo] = []
    for i, kind in enumerate(kinds):
        if kind in (YOU, PERSON):
            # with several people at one screen, "You" would be ambiguous at the hand-off
            name = YOU_NAME if len(people) == 1 else default_names[i]
            seats.append(SeatInfo(name, "human"))
        elif kind.startswith("computer:"):
            level = kind.split(":", 1)[1]
            if level not in [lv.id for lv in LEVELS]:
                raise ValueError(f"no computer level '{level}'")
            seats.append(SeatInfo("Computer", "bot", level))
        else:
            raise ValueError(f"unknown seat kind '{kind}'")
    seats = numbered_alike(seats)
    return seats, tuple(people)


def without_clocks(spec: Any, preset: str | None, kinds: Sequence[str]) -> dict[str, Any]:
    """Options for a game of one person against the computer: no move clocks
    (options named ``*timer`` taking 0 for none), unless the preset sets one.
    A first game should not be lost to a clock nobody mentioned; a clock is
    for people waiting on each other (docs/app.md, "Move clocks")."""
    if any(kind != YOU and not kind.startswith("computer:") for kind in kinds):
        return {}
    chosen = spec.presets[preset or next(iter(spec.presets))]
    return {
        info.name: 0
        for info in spec.Config.options()
        if info.name.endswith("timer")
        and info.kind is int
        and not info.min  # 0 is "no clock" (not a swap time that needs a clock)
        and info.name not in chosen
    }


def coerce_options(spec: Any, options: dict[str, Any]) -> dict[str, Any]:
    """Options from the CLI may arrive as text: parse those the Config knows."""
    from rules.config import parse_option_value

    infos = {info.name: info for info in spec.Config.options()}
    out: dict[str, Any] = {}
    for name, value in options.items():
        info = infos.get(name)
        if info is not None and isinstance(value, str) and info.kind is not str:
            value = parse_option_value(info, value)
        out[name] = value
    return out


# the name of the one person at this screen: narration addresses that seat as "you"
YOU_NAME = "You"


def addressed_as_you(names: Sequence[str], people: Sequence[int]) -> frozenset[int]:
    """The seats that sentences address in the second person: this screen's
    person named "You" (never a hot-seat player, nor anyone across the network)."""
    return frozenset(s for s in people if 0 <= s < len(names) and names[s] == YOU_NAME)


def handoff_text(player: str) -> str:
    """The hot-seat hand-off (the app's screen, line mode's line)."""
    return f"Pass the keyboard to {player}.\n(everyone else, look away)"


def handoff_prompt(player: str) -> str:
    return f"{player}: press Enter when you have the keyboard."
