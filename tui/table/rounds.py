"""Rounds on a table screen (:class:`Rounds`): the line in the log where one
ends, its summary held in view (clocks stopped) until a key or a few
seconds, and the scores round by round (``s``). Where a round ends, and what
its summary says, is the game's to know (the screen's ``round_ended``,
``round_summary`` and ``scores_after``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules.registry import get_game
from tui.screens.input_guard import GUARD_SECONDS
from tui.screens.round_summary import BY_TIMER, RoundSummaryScreen
from tui.screens.score_history import ScoreHistoryScreen
from tui.widgets.event_log import round_marker

if TYPE_CHECKING:
    from rules.events import Event
    from tui.screens.round_summary import Schedule
    from tui.table.side import RoundsSide


class Rounds:
    def __init__(self, screen: RoundsSide) -> None:
        self.screen = screen
        # a round's summary is on screen: the hand-off or game over waits for it
        self.summary_open = False
        # how the summary's timer is started (None: the summary's own set_timer)
        self.summary_schedule: Schedule | None = None
        # True for a moment after a summary closed by itself: a key pressed to
        # close it, a moment too late, plays no card (N06); see TableScreen.submit
        self.moves_held = False
        self._held_round = 0

    def scores(self) -> list[tuple[int, list[int]]]:
        """(round, scores after it) for every round ended so far, from the
        events the seat on screen has seen."""
        screen = self.screen
        rounds = []
        for event in screen.client.history(screen.seat):
            number = screen.round_ended(event)
            scores = screen.scores_after(event) if number is not None else None
            if number is not None and scores is not None:
                rounds.append((number, scores))
        return rounds

    def score_target(self) -> int | None:
        """The score that ends this game, if one does (``GameSpec.score_target``)."""
        client = self.screen.client
        spec = get_game(client.game_id)
        return spec.score_target(spec.Config.from_dict(dict(client.config)))

    def history_screen(self) -> ScoreHistoryScreen:
        """The scores round by round, as a dialog."""
        screen = self.screen
        return ScoreHistoryScreen(
            self.scores(), screen.names, self.score_target(), screen.card_style.ascii
        )

    def log(self, events: Sequence[Event]) -> None:
        """Events into the log, with a line where a round ends."""
        screen = self.screen
        log, style = screen.event_log, screen.card_style
        for event in events:
            log.add_events([event], screen.log_names(), style, screen.you)
            number = screen.round_ended(event)
            if number is not None:
                log.add_line(round_marker(number, style.ascii))

    def show_summary(self, events: Sequence[Event]) -> bool:
        """Hold the end of a round in view (clocks stopped) until a key or a
        few seconds; True if a summary opened (what follows the update waits
        for it to close)."""
        screen = self.screen
        seconds = screen.services.settings.round_summary
        ended = [(e, n) for e in events if (n := screen.round_ended(e)) is not None]
        if not ended or not seconds or self.summary_open:
            return False
        event, number = ended[-1]
        self.summary_open = True

        def closed(how: str | None = None) -> None:
            self.summary_open = False
            if how == BY_TIMER:
                self._hold_moves_a_moment()
            if not screen.closed:
                screen.after_update()

        summary = RoundSummaryScreen(
            f"Round {number}", screen.round_summary(event), seconds, self.summary_schedule
        )
        screen.push_paused(summary, closed)
        return True

    def _hold_moves_a_moment(self) -> None:
        self.moves_held = True
        self._held_round += 1
        this_round = self._held_round

        def release() -> None:
            if this_round == self._held_round:
                self.moves_held = False

        schedule = self.summary_schedule or self.screen.set_timer
        schedule(GUARD_SECONDS, release)
