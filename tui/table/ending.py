"""How a table screen is left, paused and ended (:class:`Ending`): the menu
(resign, rules, settings, leave), hints, the result dialog and what it leads
to (a rematch, the analysis, the scores), and closing the table.

Whether a game left before any move is kept is the client's to know
(``TableClient.unplayed``): the screen only says it opened the game in this
sitting (``new_game``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from net.client import NoHints
from rules.errors import MoveError
from rules.events import SeatEvent
from rules.game import Outcome
from rules.registry import get_game
from tui.screens.analysis import analyse
from tui.screens.confirm import ConfirmScreen
from tui.screens.game_over import GameOverScreen
from tui.screens.hint import HintScreen
from tui.screens.pause import PauseScreen
from tui.screens.rules import RulesScreen
from tui.screens.settings import SettingsScreen
from tui.stats_text import rating_change_lines
from tui.table.refusals import sentences

if TYPE_CHECKING:
    from tui.table.link import Link
    from tui.table.rounds import Rounds
    from tui.table.side import EndingSide


class Ending:
    """``link``: whether the table waits for players, why it closed;
    ``rounds``: the scores round by round, offered beside the result."""

    def __init__(self, screen: EndingSide, link: Link, rounds: Rounds) -> None:
        self.screen = screen
        self.link = link
        self.rounds = rounds
        self.forgotten = False  # a game left before any move: its record was removed
        self._over_shown = False

    # ------------------------------------------------------------ hints
    def hint(self) -> None:
        screen = self.screen
        seat = screen.seat
        if seat is None or not screen.my_turn or screen.over:
            screen.set_status("A hint is for your own turn.", problem=True)
            return
        screen.set_status("Weighing your moves…")
        screen.run_worker(self._ask_hint(seat), group="hint", exclusive=True, exit_on_error=False)

    async def _ask_hint(self, seat: int) -> None:
        screen = self.screen
        asked_at = screen.update.state_id

        def same_position() -> bool:
            # at a hot seat, another person may be at the keyboard by now
            return (
                not screen.closed
                and screen.seat == seat
                and screen.update.state_id == asked_at
                and not screen.keyboard.handing_off
            )

        try:
            hint = await screen.client.hint(seat)
        except NoHints as err:
            screen.set_status(f"No hint: {err}.", problem=True)
            return
        if not same_position():
            return  # the game moved on meanwhile: that hint is about another position
        screen.set_status(screen.turn_status())
        screen.push_paused(
            HintScreen(hint, screen.card_style, screen.hint_words()), still_wanted=same_position
        )

    # ------------------------------------------------------------ the result
    def show_once(self) -> None:
        """The result, the first time the game is seen over."""
        if not self._over_shown:
            self._over_shown = True
            self.show_result()

    def show_result(self) -> None:
        """The result dialog, and what the player chooses there."""
        screen, client = self.screen, self.screen.client
        spec = get_game(client.game_id)
        screen.app.push_screen(
            GameOverScreen(
                client.game_id,
                self.result(),
                screen.names,
                hints=screen.update.hints,
                you=screen.you,
                back="Lobby" if client.connection is not None else "Home",
                score_label=spec.score_label(screen.game_config),
                resigned=[
                    e.data.seat
                    for e in client.history(screen.seat)
                    if e.kind == "resign" and isinstance(e.data, SeatEvent)
                ],
                rating_change=self._rating_change,
                can_rematch=bool(screen.people),
            ),
            self._after_result,
        )

    async def _rating_change(self) -> list[str]:
        """What the game did to the ratings (docs/stats.md): the client's to
        know (the saved games here, a server's standings there)."""
        screen, client = self.screen, self.screen.client
        changes = await client.rating_change()
        if screen.closed and client.connection is None:
            return []  # a table here left meanwhile: its dialog is gone
        return rating_change_lines(changes, at_server=client.connection is not None)

    def result(self) -> Outcome:
        """How the game ended, as the rules decided (the update carries it)."""
        update = self.screen.update
        if update.result is not None:
            return update.result
        return Outcome(None, (), update.scores, "the game is over")

    async def _after_result(self, choice: str | None) -> None:
        screen = self.screen
        if choice == "rematch":
            await self.rematch()
        elif choice == "home":
            await self.leave()
        elif choice == "analyse":
            await analyse(screen)
        elif choice == "scores":
            # the scores, then the result again: the player has not chosen yet
            screen.app.push_screen(self.rounds.history_screen(), lambda _: self.show_result())
        else:
            screen.set_status("The game is over: Esc for the menu, g for the result.")

    async def rematch(self) -> None:
        """The same seats again, through the client: the table decides the
        options (the rules say who starts) and opens the new game."""
        screen = self.screen
        try:
            client = await screen.client.rematch()
        except MoveError as err:
            screen.set_status(f"No rematch: {err}.", problem=True)
            return
        screen.closed = True  # the client closed itself (or moved to the new table)
        screen.stop_watching()
        screen.app.call_later(screen.services.show_table, client, replace=True, new=True)

    # ------------------------------------------------------------ leaving
    def quitting_keeps_nothing(self) -> bool:
        """A game opened in this sitting and left before anyone moved is not
        kept: there is nothing to resume, and the saved-games list would fill
        with empty games. A resumed record never goes this way, moves or not (a
        puzzle, a bug report, a game that stopped before its first move)."""
        return self.screen.new_game and self.screen.client.unplayed()

    async def close_table(self) -> None:
        screen = self.screen
        if screen.closed:
            return
        screen.closed = True
        screen.stop_watching()
        forget = self.quitting_keeps_nothing()  # asked before closing: after, it is gone
        await screen.client.close()
        if forget and screen.client.forget_unplayed():
            self.forgotten = True

    async def leave(self) -> None:
        await self.close_table()
        # the app pops this screen: awaiting our own removal here would deadlock
        self.screen.app.call_later(self.screen.services.back_from_table)

    # ------------------------------------------------------------ the menu
    def menu(self) -> None:
        screen, client = self.screen, self.screen.client
        menu = PauseScreen(
            # a spectator has no seat to resign, and a game over nothing to lose
            # nor a table still waiting for its players
            # nor a seat already out of the game, nor a table whose link is gone
            can_resign=not screen.over
            and bool(screen.people)
            and not self.link.waiting_for_seats()
            and screen.seat_in_play()
            and client.connection != "closed",
            can_pause=client.can_pause,
            keeps_game=not self.quitting_keeps_nothing(),
            saves=client.keeps_record,
            seated=bool(screen.people),
            over=screen.over,
            closed=self.link.closed_reason(),
            kept_all_game=client.per_move is not None,
        )
        screen.push_paused(menu, self._after_menu)

    async def _after_menu(self, choice: str | None) -> None:
        screen, client = self.screen, self.screen.client
        if choice == "quit":
            link = client.connection  # before leaving closes it
            await self.leave()
            if link == "closed":
                screen.notify("You left the table (its connection was lost).")
            elif link is not None and not screen.people:
                screen.notify("You stopped watching that table.")
            elif link is not None and screen.over:
                screen.notify("You left the table: its game is over.")
            elif link is not None and client.per_move is not None:
                # a correspondence table: home and `cardtable tables` say when it is your turn
                screen.notify("You left the table: your seat is yours until the game ends.")
            elif link is not None:
                screen.notify(
                    # one line of the title bar (77 columns at 80)
                    "You left the table: your seat is held a while; the lobby gives it back."
                )
            elif screen.over:
                screen.notify("The game is over: Resume lists it, to replay or analyse.")
            elif not self.forgotten and client.keeps_record:
                # a forgotten game: the menu said so; a lesson is never kept
                screen.notify("Game saved: pick it up again from Resume.")
        elif choice == "resign":

            async def confirmed(yes: bool | None) -> None:
                if yes:
                    await self.resign()

            screen.app.push_screen(
                ConfirmScreen("Resign this game? It counts as a loss.", yes="Resign"), confirmed
            )
        elif choice == "rules":
            self.rules()
        elif choice == "settings":
            screen.push_paused(SettingsScreen())

    async def resign(self) -> None:
        screen = self.screen
        seat = screen.seat if screen.seat is not None else (screen.people or (None,))[0]
        if seat is None or screen.over:
            return
        try:
            await screen.client.resign(seat)
        except MoveError as err:  # the link is down, the table closed: say so, stay
            screen.set_status(f"Not resigned: {sentences(str(err))}", problem=True)

    def rules(self) -> None:
        self.screen.push_paused(RulesScreen(self.screen.client.game_id))
