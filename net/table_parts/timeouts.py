"""What a table does when a move clock runs out: it plays the clock's
timeout move (the rules give it, one of the seat's legal moves) after a
``timeout`` event, which only the seat sees while others still choose at the
same time. At a correspondence table whose late seats get a move from the
computer (``COMPUTER_PLAYS``), the computer chooses that one move for the
seat, as it would its own."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from rules.errors import IllegalMove
from rules.events import Event, SeatEvent

from ..client import PLAYING
from .clocks import COMPUTER_PLAYS

if TYPE_CHECKING:
    from ..table import Table

log = logging.getLogger("net.table")

# the computer that plays a late correspondence seat's move (as for a seat
# left for good: net/server/hall.py, GONE_LEVEL)
LATE_LEVEL = "medium"


async def play_timeouts(table: Table) -> None:
    """Play the timeout move of every seat of ``table`` whose clock has run out."""
    for seat, turn, end in table.clocks.run_out():
        if table.status != PLAYING or not table.clocks.take(seat, turn, end):
            continue  # the game ended or the seat moved meanwhile
        clock = table.clocks.rule(seat, table.state.clock)
        if clock is None or clock.turn != turn:
            continue
        text = f"{{p{seat}}} ran out of time."
        table.in_flight.enter()
        try:
            move = clock.timeout_move
            if move is COMPUTER_PLAYS:
                text = (
                    f"{{p{seat}}} ran out of time: the computer made this move "
                    f"for {{p{seat}:them|you}}."
                )
                move = await table.computers.one_move_for(seat, LATE_LEVEL)
                if table.status != PLAYING or move not in table.state.legal_moves(seat):
                    continue  # the seat moved (or the game ended) while it chose
            notice = Event("timeout", text, SeatEvent(seat=seat))
            if any(other != seat for other in table.state.to_act()):
                # others still choose at the same time: that this seat chose
                # nothing is its secret until the rules reveal the round
                notice = Event("timeout", text, SeatEvent(seat=seat), private_to=seat)
            await table.apply_move(seat, str(move), before=[notice])
        except IllegalMove as err:
            log.error("the timeout move of seat %d is illegal: %s", seat, err)
        finally:
            table.in_flight.leave()
