"""Hot-seat play: several people at one screen, taking turns at the keyboard.

A game screen shows one seat's eyes at a time, and changes seat only behind the
hand-off screen (:class:`tui.screens.handoff.HandoffScreen`), which is put up
from here and nowhere else in a game screen: before anything is drawn (a new
game, a resumed one, a rematch) and whenever the next person to act is not the
one at the keyboard. The hand-off refuses keys typed for the screen before it,
so the person who just moved cannot wave it away and see the next hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.screen import Screen

    from net.client import Update

# push_paused(screen, then): show ``screen`` with the clocks stopped; ``then``
# gets its result once it closes
PushPaused = Callable[["Screen[Any]", Callable[[Any], Any]], None]


class HotSeat:
    """Who has the keyboard at a screen shared by ``people`` (seats), and
    handing it over."""

    def __init__(
        self,
        people: tuple[int, ...],
        seat_name: Callable[[int], str],
        push_paused: PushPaused,
        sit_down: Callable[[int], None],
    ) -> None:
        """``sit_down(seat)`` shows ``seat``'s eyes once its person has the keyboard."""
        self.people = people
        self.seat_name = seat_name
        self.push_paused = push_paused
        self.sit_down = sit_down
        # the hand-off is up: nothing of the next seat may be drawn meanwhile
        self.handing_off = False

    @property
    def shared(self) -> bool:
        return len(self.people) > 1

    def person_to_act(self, update: Update) -> int | None:
        """The first of this screen's people who must act now, if any."""
        return next((seat for seat in update.to_act if seat in self.people), None)

    def opening_seat(self, update: Update) -> int | None:
        """Whose keyboard it is before anything is drawn: the person to act;
        if a computer acts first (or a resumed game waits on one), the first
        person all the same, so no hand shows before its owner sits down.
        None: no hand-off (one person, a spectator, a game that is over)."""
        if not self.shared or update.over:
            return None
        first = self.person_to_act(update)
        return first if first is not None else self.people[0]

    def pass_on(self, update: Update, seat_on_screen: int | None) -> None:
        """After an update: the keyboard to the next person to act, if that
        is someone else than the one at it."""
        if not self.shared or self.handing_off:
            return
        nxt = self.person_to_act(update)
        if nxt is not None and nxt != seat_on_screen:
            self.hand_to(nxt)

    def hand_to(self, seat: int) -> None:
        """The hand-off screen for ``seat``; its eyes once its person is ready."""
        from tui.screens.handoff import HandoffScreen

        self.handing_off = True

        def ready(_: object = None) -> None:
            self.handing_off = False
            self.sit_down(seat)

        # nobody's clock runs while the keyboard changes hands
        self.push_paused(HandoffScreen(self.seat_name(seat)), ready)
