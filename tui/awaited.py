"""Where you are awaited: the tables this app holds a seat at, at every server
it has played at, asked of each server at once (a ``list`` by table ids) and
told in words, for `cardtable tables` and the home screen's "Your turn at 2
tables" (docs/app.md, "Your tables").

Headless: no Textual here (the command line uses it without the app)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tui.clock_words import time_left_text
from tui.network import HeldSeats, parse_address
from tui.plain import plain

if TYPE_CHECKING:
    from pathlib import Path

    from net.grants import Grants
    from net.protocol import TableSummary

# a server that does not answer in this long is "not answering"; the others
# are not kept waiting for it (every server is asked at once)
ASK_SECONDS = 5.0
# the tables asked of one server at most (the protocol's page)
MOST_ASKED = 200


@dataclass(frozen=True)
class SeatAt:
    """A seat this app holds at a table elsewhere, as its server told it."""

    address: str
    table: str
    game: str
    status: str  # waiting | playing | finished
    seat: int | None  # None: an app of before the seat numbers kept it
    names: tuple[str, ...]
    acting: tuple[int, ...]  # the seats the game waits for
    clocks: Mapping[int, int]  # seat -> whole seconds left, where a clock runs

    @property
    def your_turn(self) -> bool:
        return self.status == "playing" and self.seat is not None and self.seat in self.acting

    @property
    def your_clock(self) -> int | None:
        return None if self.seat is None else self.clocks.get(self.seat)


@dataclass
class ServerAnswer:
    """What one server said of our tables there: the seats, the tables it no
    longer has, or why it could not be asked."""

    address: str
    seats: list[SeatAt] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)
    problem: str | None = None


def seat_at(address: str, summary: TableSummary, seat: int | None) -> SeatAt:
    return SeatAt(
        address=address,
        table=summary.table,
        game=summary.game,
        status=summary.status,
        seat=seat,
        names=tuple(plain(s.name or "open", 32) for s in summary.seats),
        acting=tuple(s.seat for s in summary.seats if s.acts),
        clocks={s.seat: s.clock for s in summary.seats if s.clock is not None},
    )


async def ask_server(
    address: str,
    tables: Mapping[str, int | None],
    name: str,
    *,
    grants: Grants,
    config_dir: Path | None,
    timeout: float = ASK_SECONDS,
) -> ServerAnswer:
    """Our ``tables`` (id -> the seat held) at the server at ``address``."""
    from net.remote import RemoteError
    from tui.network_connect import connect

    answer = ServerAnswer(address)
    try:
        host, port = parse_address(address)
    except ValueError as err:
        answer.problem = str(err)
        return answer
    wanted = list(tables)[:MOST_ASKED]
    try:
        async with asyncio.timeout(timeout):
            client = await connect(host, port, name, grants=grants, config_dir=config_dir)
            try:
                found = await client.tables(wanted)
            finally:
                await client.close()
    except TimeoutError:
        answer.problem = f"no answer within {timeout:g} s"
        return answer
    except (ConnectionError, RemoteError) as err:
        answer.problem = plain(str(err), 120)
        return answer
    by_id = {summary.table: summary for summary in found}
    for table in wanted:
        summary = by_id.get(table)
        if summary is None:
            answer.gone.append(table)
        else:
            answer.seats.append(seat_at(address, summary, tables[table]))
    return answer


async def ask_everywhere(
    held: HeldSeats, name: str, *, grants: Grants, config_dir: Path | None
) -> list[ServerAnswer]:
    """Every server where this app holds a seat, asked at once; a table the
    server no longer has, or whose game is over, is forgotten (there is no
    seat there to take back)."""
    servers = held.everywhere()
    answers = await asyncio.gather(
        *(
            ask_server(address, tables, name, grants=grants, config_dir=config_dir)
            for address, tables in sorted(servers.items())
        )
    )
    for answer in answers:
        for table in answer.gone:
            held.forget(answer.address, table)
        for seat in answer.seats:
            if seat.status == "finished":
                held.forget(answer.address, seat.table)
    return list(answers)


def seat_line(seat: SeatAt, titles: Mapping[str, str]) -> str:
    """One table in a sentence: the game, the players, and who it waits for."""
    title = titles.get(seat.game, seat.game)
    players = " vs ".join(
        "you" if index == seat.seat else name for index, name in enumerate(seat.names)
    )
    if seat.status == "waiting":
        state = "waiting for players"
    elif seat.status == "finished":
        state = "over"
    elif seat.your_turn:
        state = "your turn"
        left = seat.your_clock
        if left is not None:
            state += f", {time_left_text(left)} left"
    elif seat.acting:
        waited = [seat.names[s] for s in seat.acting if s < len(seat.names)]
        state = f"waiting for {', '.join(waited)}"
    else:
        state = "playing"
    return f"{title}, {players}: {state}"


def report_lines(answers: Sequence[ServerAnswer], titles: Mapping[str, str]) -> list[str]:
    """`cardtable tables`: each server with its tables, your turns first."""
    if not answers:
        return ["You hold no seat at a table elsewhere (Join on the home screen finds one)."]
    lines: list[str] = []
    for answer in answers:
        where = plain(answer.address, 60)
        if answer.problem is not None:
            lines.append(f"{where}: cannot ask ({answer.problem})")
            continue
        if not answer.seats:
            lines.append(f"{where}: no table of yours is left there")
            continue
        lines.append(f"{where}:")
        for seat in sorted(answer.seats, key=lambda s: (not s.your_turn, s.table)):
            lines.append(f"  {seat.table}  {seat_line(seat, titles)}")
    waiting = your_turns(answers)
    if waiting:
        lines.append(f"Your turn at {len(waiting)} table{'s' if len(waiting) != 1 else ''}.")
    return lines


def your_turns(answers: Sequence[ServerAnswer]) -> list[SeatAt]:
    """The tables waiting for you, the nearest clock first."""
    seats = [seat for answer in answers for seat in answer.seats if seat.your_turn]
    return sorted(seats, key=lambda s: (s.your_clock is None, s.your_clock or 0, s.address))
