"""How a game screen is left, paused and ended: the menu (resign, rules,
settings, leave), hints, the result dialog and what it leads to (a rematch,
the analysis, the scores), and closing the table.

Whether a game left before any move is kept is the client's to know
(``TableClient.unplayed``): the screen only says it opened the game in this
sitting (``new_game``)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from net.client import NoHints
from rules.errors import MoveError
from rules.events import SeatEvent
from rules.game import Outcome
from rules.registry import get_game
from tui.games.connection import TableConnection
from tui.games.refusals import sentences
from tui.games.rounds import RoundSummaries
from tui.screens.analysis import analyse
from tui.screens.confirm import ConfirmScreen
from tui.screens.game_over import GameOverScreen
from tui.screens.hint import HintScreen
from tui.screens.pause import PauseScreen
from tui.screens.rules import RulesScreen
from tui.screens.score_history import ScoreHistoryScreen
from tui.screens.settings import SettingsScreen
from tui.stats_text import rating_change_lines


class TableEnding(RoundSummaries, TableConnection):
    # ------------------------------------------------------------ hints
    def action_hint(self) -> None:
        seat = self.seat
        if seat is None or not self.my_turn or self.over:
            self.set_status("A hint is for your own turn.", problem=True)
            return
        self.set_status("Weighing your moves…")
        self.run_worker(self._ask_hint(seat), group="hint", exclusive=True, exit_on_error=False)

    async def _ask_hint(self, seat: int) -> None:
        asked_at = self.update.state_id

        def same_position() -> bool:
            # at a hot seat, another person may be at the keyboard by now
            return (
                not self._closed
                and self.seat == seat
                and self.update.state_id == asked_at
                and not self.keyboard.handing_off
            )

        try:
            hint = await self.client.hint(seat)
        except NoHints as err:
            self.set_status(f"No hint: {err}.", problem=True)
            return
        if not same_position():
            return  # the game moved on meanwhile: that hint is about another position
        self.set_status(self.turn_status())
        self._push_paused(
            HintScreen(hint, self.card_style, self.hint_words()), still_wanted=same_position
        )

    def hint_words(self) -> Callable[[str], str]:
        """The words the hint gives a move in: the game's (``GameSpec.move_words``);
        a screen that knows more of the table (the grid around a cell) may say more."""
        spec = get_game(self.client.game_id)
        return functools.partial(spec.move_words, self.game_config)

    # ------------------------------------------------------------ the result
    def _show_game_over(self) -> None:
        spec = get_game(self.client.game_id)
        self.app.push_screen(
            GameOverScreen(
                self.client.game_id,
                self.result(),
                self.names,
                hints=self.update.hints,
                you=self.you,
                back="Lobby" if self.client.connection is not None else "Home",
                score_label=spec.score_label(self.game_config),
                resigned=[
                    e.data.seat
                    for e in self.client.history(self.seat)
                    if e.kind == "resign" and isinstance(e.data, SeatEvent)
                ],
                rating_change=self._rating_change,
                can_rematch=bool(self.people),
            ),
            self._after_game_over,
        )

    async def _rating_change(self) -> list[str]:
        """What the game did to the ratings (docs/stats.md): the client's to
        know (the saved games here, a server's standings there)."""
        changes = await self.client.rating_change()
        if self._closed and self.client.connection is None:
            return []  # a table here left meanwhile: its dialog is gone
        return rating_change_lines(changes, at_server=self.client.connection is not None)

    def result(self) -> Outcome:
        """How the game ended, as the rules decided (the update carries it)."""
        if self.update.result is not None:
            return self.update.result
        return Outcome(None, (), self.update.scores, "the game is over")

    async def _after_game_over(self, choice: str | None) -> None:
        if choice == "rematch":
            await self.rematch()
        elif choice == "home":
            await self.leave()
        elif choice == "analyse":
            await self._analyse()
        elif choice == "scores":
            # the scores, then the result again: the player has not chosen yet
            self.app.push_screen(
                ScoreHistoryScreen(
                    self.round_scores(), self.names, self.score_target(), self.card_style.ascii
                ),
                lambda _: self._show_game_over(),
            )
        else:
            self.set_status("The game is over: Esc for the menu, g for the result.")

    async def _analyse(self) -> None:
        await analyse(self)

    async def rematch(self) -> None:
        """The same seats again, through the client: the table decides the
        options (the rules say who starts) and opens the new game."""
        try:
            client = await self.client.rematch()
        except MoveError as err:
            self.set_status(f"No rematch: {err}.", problem=True)
            return
        self._closed = True  # the client closed itself (or moved to the new table)
        self._stop_watching()
        self.app.call_later(self.services.show_table, client, replace=True, new=True)

    # ------------------------------------------------------------ leaving
    def quitting_keeps_nothing(self) -> bool:
        """A game opened in this sitting and left before anyone moved is not
        kept: there is nothing to resume, and the saved-games list would fill
        with empty games. A resumed record never goes this way, moves or not (a
        puzzle, a bug report, a game that stopped before its first move)."""
        return self.new_game and self.client.unplayed()

    async def _close_table(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._stop_watching()
        forget = self.quitting_keeps_nothing()  # asked before closing: after, it is gone
        await self.client.close()
        if forget and self.client.forget_unplayed():
            self.forgotten = True

    async def on_unmount(self) -> None:
        await self._close_table()

    async def leave(self) -> None:
        await self._close_table()
        # the app pops this screen: awaiting our own removal here would deadlock
        self.app.call_later(self.services.back_from_table)

    # ------------------------------------------------------------ the menu
    def action_pause(self) -> None:
        menu = PauseScreen(
            # a spectator has no seat to resign, and a game over nothing to lose
            # nor a table still waiting for its players
            # nor a seat already out of the game, nor a table whose link is gone
            can_resign=not self.over
            and bool(self.people)
            and not self.waiting_for_seats()
            and self.seat_in_play()
            and self.client.connection != "closed",
            can_pause=self.client.can_pause,
            keeps_game=not self.quitting_keeps_nothing(),
            saves=self.client.keeps_record,
            seated=bool(self.people),
            over=self.over,
            closed=self.closed_reason(),
            kept_all_game=self.client.per_move is not None,
        )
        self._push_paused(menu, self._after_pause)

    async def _after_pause(self, choice: str | None) -> None:
        if choice == "quit":
            link = self.client.connection  # before leaving closes it
            await self.leave()
            if link == "closed":
                self.notify("You left the table (its connection was lost).")
            elif link is not None and not self.people:
                self.notify("You stopped watching that table.")
            elif link is not None and self.over:
                self.notify("You left the table: its game is over.")
            elif link is not None and self.client.per_move is not None:
                # a correspondence table: home and `cardtable tables` say when it is your turn
                self.notify("You left the table: your seat is yours until the game ends.")
            elif link is not None:
                self.notify(
                    # one line of the title bar (77 columns at 80)
                    "You left the table: your seat is held a while; the lobby gives it back."
                )
            elif self.over:
                self.notify("The game is over: Resume lists it, to replay or analyse.")
            elif not self.forgotten and self.client.keeps_record:
                # a forgotten game: the menu said so; a lesson is never kept
                self.notify("Game saved: pick it up again from Resume.")
        elif choice == "resign":

            async def confirmed(yes: bool | None) -> None:
                if yes:
                    await self._resign()

            self.app.push_screen(
                ConfirmScreen("Resign this game? It counts as a loss.", yes="Resign"), confirmed
            )
        elif choice == "rules":
            self.action_rules()
        elif choice == "settings":
            self._push_paused(SettingsScreen())

    def seat_in_play(self) -> bool:
        """Whether the seat on screen is still in the game (a game where a
        seat leaves before the end, as Stress's finishers, says otherwise)."""
        return True

    async def _resign(self) -> None:
        seat = self.seat if self.seat is not None else (self.people[0] if self.people else None)
        if seat is None or self.over:
            return
        try:
            await self.client.resign(seat)
        except MoveError as err:  # the link is down, the table closed: say so, stay
            self.set_status(f"Not resigned: {sentences(str(err))}", problem=True)

    def action_rules(self) -> None:
        self._push_paused(RulesScreen(self.client.game_id))
