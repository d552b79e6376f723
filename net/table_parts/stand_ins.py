"""The computer playing for an absent person, and what that person is told.

A network player who has gone for good may have their seat played by a
computer (``if_gone``: computer) until they come back. Nobody must find plays
they never made: the moves the computer made for them are counted, and said
to them, with everyone else, when they are back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from saves.record import SeatInfo

from ..client import PLAYING, Notice

if TYPE_CHECKING:
    from ..table import Table


class StandIns:
    """The seats of ``table`` a computer plays for their person, and the
    words of a person's return."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._seats: set[int] = set()  # a computer plays for their person now
        self._handed_back: set[int] = set()  # just given back: the return says so
        # moves a computer made for each such seat since its person left
        self._played_for: dict[int, int] = {}
        self._told_on_return: dict[int, Notice] = {}  # for the seat's next snapshot

    def __contains__(self, seat: int) -> bool:
        return seat in self._seats

    def stood_in(self, seat: int) -> None:
        """A table brought back from its record: its computer at ``seat``
        played it for a person."""
        if seat in self.table.computers:
            self._seats.add(seat)

    def hand_to_computer(self, seat: int, level: str) -> None:
        """A computer player of ``level`` takes over a person's seat (see
        :meth:`~net.table.Table.hand_to_computer`)."""
        table = self.table
        if seat in table.computers:
            return
        old = table.record.seats[seat]
        table.record.seats[seat] = SeatInfo(old.name, "bot", level)
        table.computers.bots[seat] = table.computers.make(table.record.game, level)
        self._seats.add(seat)
        table.audience.forget(seat)
        if not table.started or table.closed or table.status != PLAYING:
            return
        table.arm_clocks()
        table.computers.kick()
        notice = Notice("computer", f"The computer plays for {{p{seat}}} now.", seat)
        table.audience.tell([], (notice,))

    def hand_back(self, seat: int) -> None:
        """The person plays ``seat`` again (see :meth:`~net.table.Table.hand_back`);
        their return will say what the computer did meanwhile."""
        table = self.table
        if seat not in table.computers or seat not in self._seats:
            return
        old = table.record.seats[seat]
        table.record.seats[seat] = SeatInfo(old.name, "remote")
        del table.computers.bots[seat]
        self._seats.discard(seat)
        self._handed_back.add(seat)
        table.computers.drop(seat)
        if table.started and not table.closed and table.status == PLAYING:
            table.arm_clocks()

    def moved(self, seat: int) -> None:
        """A move was played at ``seat`` (counted if a computer played it for
        the person)."""
        if seat in self._seats:
            self._played_for[seat] = self._played_for.get(seat, 0) + 1

    def back_notice(self, seat: int) -> Notice:
        """What everyone hears of ``seat``'s person coming back; also kept for
        that person's next snapshot (:meth:`told_on_return`)."""
        text = f"{{p{seat} is|are}} back."
        if seat in self._handed_back:
            self._handed_back.discard(seat)
            text = f"{{p{seat} is|are}} back and {{p{seat}:plays|play}} again: the computer stops."
            played = self._played_for.pop(seat, 0)
            if played:
                moves = "a move" if played == 1 else f"{played} moves"
                who = f"{{p{seat}}}"
                text += f" While {who} {{p{seat}:was|were}} away it made {moves} for {who}."
        notice = Notice("back", text, seat)
        self._told_on_return[seat] = notice
        return notice

    def told_on_return(self, seat: int) -> Notice | None:
        """The notice of ``seat``'s return, once: its person watches the table
        only from their snapshot on, so the snapshot carries it."""
        return self._told_on_return.pop(seat, None)
