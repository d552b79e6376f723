"""Network play in the app, the parts that are not screens: the words for a
connection's state and a lobby's tables, the addresses to give a friend,
and the seats this app holds at tables elsewhere (so that a restarted app
takes its seat back).

Everything a server sends (names, table ids) is outside text: the screens
show these strings as plain text, never markup.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from net.grants import SERVER_ENV, split_host_port
from saves.atomic import write_json_atomically
from saves.data_root import held_seats_file
from tui.clock_words import per_move_text, time_left_text
from tui.plain import plain

if TYPE_CHECKING:
    from net.protocol import SeatSummary, TableSummary

DEFAULT_PORT = 7420
DEFAULT_ADDRESS = f"127.0.0.1:{DEFAULT_PORT}"


def default_address(last: str = "") -> str:
    """The server Join offers: the one `cardtable ssh-host` tells its
    visitors' apps to meet at (net/grants.py), else the last one joined
    (kept in the settings), else this machine's."""
    return os.environ.get(SERVER_ENV) or last.strip() or DEFAULT_ADDRESS


split_address = split_host_port


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (or a bare host: the default port); ValueError with a sentence."""
    text = text.strip()
    address = split_address(text if ":" in text else f"{text}:{DEFAULT_PORT}")
    if address is None:
        shown = plain(text, 40)
        raise ValueError(f"the address is HOST:PORT, like {DEFAULT_ADDRESS}, not '{shown}'")
    return address


def connection_text(state: str | None, address: str, short: bool = False) -> str:
    """The link to a table elsewhere, in a few words ("" for a local table).
    ``short``: for a game screen's title, which must leave room for who plays
    at 80 columns (the lobby, and the status line on a change, name the server)."""
    if state is None:
        return ""
    where = plain(address, 60)
    if state == "connected":
        return f"at {where}" if short else f"connected to {where}"
    if state == "reconnecting":
        return "reconnecting…" if short else f"reconnecting to {where}…"
    return "connection lost" if short else f"connection to {where} lost"


def grace_left(seat: SeatSummary, elapsed: float = 0.0) -> float | None:
    """The seconds of grace an away seat has left, ``elapsed`` seconds after
    the server said so (None: the seat is not away)."""
    if seat.kind != "person" or seat.state != "reconnecting" or seat.grace is None:
        return None
    return max(0.0, seat.grace - elapsed)


def presence_label(
    name: str, seat: SeatSummary | None, elapsed: float = 0.0, short: bool = False
) -> str:
    """A seat's name as the seat rows and the title show it (docs/hosting.md,
    "Absent players"): "Bea (away, 0:42)" while the grace runs, "Computer for
    Bea" once a computer plays the seat for her, "Player 2 (open seat)" for a
    seat nobody has taken yet, else the name. ``short``: for a score line,
    which holds every seat and more at 80 columns ("Player 2 (open)")."""
    if seat is None:
        return name
    if seat.kind == "open":  # nobody's yet: not a player who is "choosing"
        return f"{name} (open)" if short else f"{name} (open seat)"
    if seat.kind == "computer" and seat.stands_in:
        return f"Computer for {name}"
    left = grace_left(seat, elapsed)
    if left is not None:
        return f"{name} (away, {time_left_text(left)})"
    if seat.kind == "person" and seat.state == "away":  # a correspondence seat: still theirs
        return f"{name} (away)"
    return name


def invited_label(name: str, short: bool = False) -> str:
    """A seat of a rematch kept for the player who sat there last game, who
    has not accepted yet: theirs, not an open seat (the status line says
    "Waiting for Bea to accept the rematch"; short enough for the title)."""
    return f"{name} (invited)"


def _seat_text(seat: SeatSummary, elapsed: float = 0.0) -> str:
    if seat.kind == "open":
        return "(open seat)"
    name = plain(seat.name or "?", 24)
    if seat.kind == "computer" and seat.stands_in:
        return presence_label(name, seat)
    if seat.kind == "computer":
        return f"{name} ({plain(seat.level or '?', 10)})"
    if seat.state == "reconnecting":
        return presence_label(name, seat, elapsed) if seat.grace is not None else f"{name} (away)"
    if seat.state == "gone":  # resigned or not back in time: nobody may sit there
        return f"{name} (gone)"
    if seat.state == "away":  # a correspondence table's player, back when they like
        return f"{name} (away)"
    return name


def table_line(
    summary: TableSummary, titles: Mapping[str, str] | None = None, elapsed: float = 0.0
) -> str:
    """One table of the lobby in a line: its id, game, who sits where, its
    state; an away player's countdown ``elapsed`` seconds after the list came."""
    title = (titles or {}).get(summary.game, plain(summary.game, 24))
    open_seats = sum(1 for s in summary.seats if s.kind == "open")
    if summary.status == "waiting":
        state = f"waiting: {open_seats} open seat{'s' if open_seats != 1 else ''}"
    else:
        state = summary.status  # playing, finished
    acting = [plain(s.name or "?", 24) for s in summary.seats if s.acts]
    if summary.status == "playing" and acting:  # whose turn it is, when the list came
        state += f", {' and '.join(acting)} to move"
    if summary.spectators:
        state += f", {summary.spectators} watching"
    if summary.per_move is not None:  # a correspondence table: its pace first
        state = f"{per_move_text(summary.per_move)}, {state}"
    preset = summary.preset
    kind = f"{title} ({plain(preset, 16)})" if preset else title
    who = " vs ".join(_seat_text(s, elapsed) for s in summary.seats)
    # the id is what `cardtable bot --table ID` takes
    return f"{plain(summary.table, 32)}  {kind} · {who} · {state}"


def seat_choices(summary: TableSummary) -> list[tuple[int, str, bool]]:
    """The seats of a table for the lobby's seat chooser, in order: the seat
    (from 0), a line saying who sits there, and whether it may be taken."""
    choices = []
    for seat in summary.seats:
        is_open = seat.kind == "open"
        # in words, not only a dimmer colour: plain text and NO_COLOR too
        who = "open" if is_open else f"taken by {_seat_text(seat)}"
        choices.append((seat.seat, f"Player {seat.seat + 1} · {who}", is_open))
    return choices


def seat_taken_back(summary: TableSummary) -> bool:
    """Whether a seat of ours at this table may still be taken back with its
    token (docs/protocol.md, "Absent players"): the game is not over, and
    either the computer plays an absent player's seat until they return, or
    a seat is still held in its grace period. The lobby promises nothing more.
    Before the game begins, a seat its player leaves is open again and its
    token is dead: only a table where a person still has a seat may hold ours
    (a table of open seats only holds nobody's)."""
    if summary.status == "finished":
        return False
    if summary.per_move is not None:  # a correspondence seat is its player's to the end
        return True
    seats = summary.seats
    if summary.status == "waiting":
        return any(s.kind == "person" and s.state != "gone" for s in seats)
    held = any(s.state == "reconnecting" for s in seats)
    return summary.if_gone == "computer" or held


def named_seat(summary: TableSummary, name: str) -> int | None:
    """The seat ``name`` (ours, claimed at this server) sat at and may take
    back by that name, without its token (docs/protocol.md); None if none."""
    if summary.status == "finished" or not name:
        return None
    mine = name.casefold()
    for seat in summary.seats:
        if seat.named and (seat.name or "").casefold() == mine:
            return seat.seat
    return None


def joinable(summary: TableSummary | None) -> bool:
    return summary is not None and any(s.kind == "open" for s in summary.seats)


def machine_addresses(port: int, everyone: bool) -> list[str]:
    """Where a friend can reach a server of ours: loopback only, or this
    machine's addresses (found without sending anything)."""
    if not everyone:
        return [f"127.0.0.1:{port}"]
    found: list[str] = []
    try:
        # the address outgoing traffic would leave from (a UDP "connect" sends nothing)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed for real
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    addresses = [a for a in dict.fromkeys(found) if not a.startswith("127.")]
    return [f"{a}:{port}" for a in addresses] + [f"127.0.0.1:{port}"]


def host_banner(addresses: Sequence[str], everyone: bool) -> str:
    """What the lobby of a server this app hosts says about reaching it: the
    addresses a friend on another machine can use, or plainly that only this
    machine can (``addresses`` as :func:`machine_addresses` gives them)."""
    here = next((a for a in addresses if a.startswith("127.")), addresses[-1])
    others = [a for a in addresses if not a.startswith("127.")]
    if everyone and others:
        return f"Hosting: give a friend {' or '.join(others)} (on this machine: {here})."
    if everyone:
        return (
            f"Hosting on {here}: this machine has no network address now, "
            "so only this machine can reach it."
        )
    return (
        f"Hosting on {here}: only this machine can reach it. For a friend "
        "elsewhere, quit and Host with 'let other machines join'."
    )


class HeldSeats:
    """Tokens of the seats this app holds at tables elsewhere, by server and
    table, with the seat's number, kept in the data folder: an app that was
    closed (or crashed) takes its seat back from the lobby, and `cardtable
    tables` and the home screen say where it is awaited. A token is a secret:
    the file is the user's own (mode 600). (A file of before the seat
    numbers holds the token alone for each seat; it is read as such.)"""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def of(cls, data_root: Path) -> HeldSeats:
        """The seats held by the app whose data folder is ``data_root``."""
        return cls(held_seats_file(data_root))

    def _load(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        seats: dict[str, dict[str, Any]] = {}
        for key, value in data.items():
            if isinstance(value, str):
                seats[str(key)] = {"token": value}
            elif isinstance(value, dict) and isinstance(value.get("token"), str):
                seat = value.get("seat")
                kept: dict[str, Any] = {"token": value["token"]}
                if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < 64:
                    kept["seat"] = seat
                seats[str(key)] = kept
        return seats

    def _save(self, seats: Mapping[str, Mapping[str, Any]]) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_json_atomically(self.path, {k: dict(v) for k, v in seats.items()})
        except OSError:
            pass  # a seat not kept is lost only if the app closes mid-game

    @staticmethod
    def key(address: str, table: str) -> str:
        return f"{address}/{table}"

    def get(self, address: str, table: str) -> str | None:
        held = self._load().get(self.key(address, table))
        return None if held is None else str(held["token"])

    def keep(self, address: str, table: str, token: str, seat: int | None = None) -> None:
        seats = self._load()
        kept: dict[str, Any] = {"token": token}
        if seat is not None:
            kept["seat"] = seat
        seats[self.key(address, table)] = kept
        self._save(seats)

    def forget(self, address: str, table: str) -> None:
        seats = self._load()
        if seats.pop(self.key(address, table), None) is not None:
            self._save(seats)

    def tables_here(self, address: str) -> list[str]:
        """The tables at ``address`` where this app holds a seat."""
        prefix = self.key(address, "")
        return [key[len(prefix) :] for key in self._load() if key.startswith(prefix)]

    def everywhere(self) -> dict[str, dict[str, int | None]]:
        """Every server where this app holds a seat: its tables, each with the
        seat held there (None: kept by an app of before the seat numbers)."""
        found: dict[str, dict[str, int | None]] = {}
        for key, held in self._load().items():
            address, _, table = key.rpartition("/")
            if address and table:
                found.setdefault(address, {})[table] = held.get("seat")
        return found

    def tables_at(self, address: str, tables: Sequence[str]) -> set[str]:
        seats = self._load()
        return {t for t in tables if self.key(address, t) in seats}
