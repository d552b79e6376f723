"""Rounds on a game screen: the line in the log where one ends, its summary
held in view (clocks stopped) until a key or a few seconds, and the scores
round by round (``s``)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.events import Event
from rules.registry import get_game
from tui.games.core import TableScreenCore
from tui.screens.input_guard import GUARD_SECONDS
from tui.screens.round_summary import BY_TIMER, RoundSummaryScreen
from tui.screens.score_history import ScoreHistoryScreen
from tui.widgets.event_log import EventLog, round_marker


class RoundSummaries(TableScreenCore):
    def round_summary(self, event: Event) -> list[str]:
        """The summary of the round ``event`` ended, line by line: who won, how
        much and why, the new scores. By default the event's own narration."""
        return [self.narrate(event)]

    def scores_after(self, event: Event) -> list[int] | None:
        """Every seat's score after the round ``event`` ended, where the
        game's event says (a game of rounds reads its own event's typed data)."""
        return None

    def round_scores(self) -> list[tuple[int, list[int]]]:
        """(round, scores after it) for every round ended so far, from the
        events the seat on screen has seen."""
        rounds = []
        for event in self.client.history(self.seat):
            number = self.round_ended(event)
            scores = self.scores_after(event) if number is not None else None
            if number is not None and scores is not None:
                rounds.append((number, scores))
        return rounds

    def has_rounds(self) -> bool:
        """Whether this game marks its rounds (else there is no score history)."""
        return type(self).round_ended is not TableScreenCore.round_ended

    def score_target(self) -> int | None:
        """The score that ends this game, if one does (``GameSpec.score_target``)."""
        spec = get_game(self.client.game_id)
        return spec.score_target(spec.Config.from_dict(dict(self.client.config)))

    # True for a moment after a summary closed by itself: a key pressed to
    # close it, a moment too late, plays no card (N06); see submit()
    moves_held = False
    _held_round = 0

    def _hold_moves_a_moment(self) -> None:
        self.moves_held = True
        self._held_round += 1
        this_round = self._held_round

        def release() -> None:
            if this_round == self._held_round:
                self.moves_held = False

        schedule = self.summary_schedule or (lambda seconds, then: self.set_timer(seconds, then))
        schedule(GUARD_SECONDS, release)

    def action_score_history(self) -> None:
        history = ScoreHistoryScreen(
            self.round_scores(), self.names, self.score_target(), self.card_style.ascii
        )
        self._push_paused(history)

    def add_to_log(self, events: Sequence[Event]) -> None:
        """Events into the log, with a line where a round ends."""
        log = self.query_one(EventLog)
        for event in events:
            log.add_events([event], self.log_names(), self.card_style, self.you)
            number = self.round_ended(event)
            if number is not None:
                log.add_line(round_marker(number, self.card_style.ascii))

    def _show_round_summary(self, events: Sequence[Event]) -> bool:
        """Hold the end of a round in view (clocks stopped) until a key or a
        few seconds; True if a summary opened."""
        seconds = self.services.settings.round_summary
        ended = [(e, n) for e in events if (n := self.round_ended(e)) is not None]
        if not ended or not seconds or self._summary_open:
            return False
        event, number = ended[-1]
        self._summary_open = True

        def closed(how: str | None = None) -> None:
            self._summary_open = False
            if how == BY_TIMER:
                self._hold_moves_a_moment()
            if not self._closed:
                self._after_update()

        summary = RoundSummaryScreen(
            f"Round {number}", self.round_summary(event), seconds, self.summary_schedule
        )
        self._push_paused(summary, closed)
        return True

    def _after_update(self) -> None:
        """What follows an update once it is drawn (GameScreen's)."""
