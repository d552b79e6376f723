"""What every game screen shares: the table client, whose eyes the screen shows
(hot-seat hand-offs), the event log, the status line, pause, rules, game over.

A game's screen subclasses :class:`GameScreen`, composes its widgets and
implements :meth:`GameScreen.show_view`; it plays with :meth:`submit`. The
screen never knows whether the table is local or across the network: it only
has a :class:`net.client.TableClient`, and every change arrives as an
:class:`net.client.Update` (posted as a message, so a transport may call from
any thread).

This module is the update loop: a new update drawn, the seat on screen
changed, a move submitted. Each other concern lives in its own module, as a
mixin on :class:`tui.games.core.TableScreenCore`:

- ``clocks``: move clocks and their countdown;
- ``rounds``: the log's round marks, round summaries, the score history;
- ``connection``: a table elsewhere (the link, new names, the chat);
- ``ending``: the menu, hints, the result, rematch, analysis, leaving;
- ``replay_keys``: a saved game played back on the game's own screen;
- ``hot_seat``: who has the keyboard at a hot seat.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.binding import ActiveBinding, Binding, BindingType
from textual.message import Message

from net.client import LinkDown, StaleMove, Update
from rules.errors import MoveError
from rules.events import fill_names
from tui.games.clocks import URGENT_SECONDS, MoveClocks, clock_text
from tui.games.connection import TABLE_NOTICES
from tui.games.core import TableScreenCore
from tui.games.ending import TableEnding
from tui.games.refusals import refusal_text, sentences
from tui.games.replay_keys import REPLAY_BINDINGS, ReplayNavigation
from tui.players_title import players_title
from tui.styles import TABLE
from tui.widgets.event_log import EventLog

if TYPE_CHECKING:
    from tui.textual_seams import CSSPathType

__all__ = [
    "REPLAY_BINDINGS",
    "URGENT_SECONDS",
    "GameScreen",
    "TableUpdated",
    "clock_text",
]


class TableUpdated(Message):
    def __init__(self, update: Update) -> None:
        super().__init__()
        self.update = update


class GameScreen(ReplayNavigation, TableEnding, MoveClocks, TableScreenCore):
    CSS_PATH: ClassVar[CSSPathType | None] = [TABLE]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "pause", "Menu", id="game.pause"),
        Binding("question_mark,f1", "rules", "Rules", key_display="?", id="game.rules"),
        Binding("h", "hint", "Hint", id="game.hint"),
        Binding("s", "score_history", "Scores", id="game.scores"),
        # for a player out of the game (finished, resigned) while computers play on
        Binding("f", "finish", "Finish at once", id="game.finish"),
    ]
    # Keys that leave a footer too narrow for them (tui/widgets/footer.py),
    # least needed first; they still work, and the ^p palette lists them.
    # Subclasses add their own. "? Rules" is never among them: the README
    # names it for every game, so every game's footer keeps it (N25).
    FOOTER_SPARE: ClassVar[tuple[str, ...]] = ("score_history", "hint")
    # a terminal at least this large draws the table roomier (large cards, centred)
    ROOMY = (120, 40)

    def turn_text(self) -> str:
        """The status line when nothing else needs saying."""
        if self.replay is not None:
            return self.replay_caption()
        if self.over:
            return "The game is over."
        if self.thinking:
            names = ", ".join(self.seat_name(s) for s in self.thinking)
            return f"{names} {'is' if len(self.thinking) == 1 else 'are'} thinking…"
        connected = self.update.connected
        empty = [s for s in range(len(self.names)) if connected and s not in connected]
        if empty and self.update.state_id == 0:
            # a table elsewhere starts once every seat is taken
            invited = [self.waiting_words(s) for s in empty]
            if all(invited):
                return f"Waiting for {', '.join(filter(None, invited))}."
            who = ", ".join(self.seat_name(s) for s in empty)
            return f"Waiting for {who} to sit down: the game starts when every seat is taken."
        if self.my_turn:
            return f"{self.seat_name(self.seat)}: your move."
        acting = self.update.to_act
        away = [s for s in acting if connected and s not in connected]
        if away:
            # a table elsewhere: a player away (for how long), or a seat nobody has
            # taken yet, or whose player dropped
            words = [self.waiting_words(s) for s in away]
            if all(words):
                return f"Waiting for {', '.join(filter(None, words))}."
            who = ", ".join(self.seat_name(s) for s in away)
            return f"Waiting for {who}: nobody is at that seat yet (or they dropped)."
        if acting:
            return f"Waiting for {', '.join(self.seat_name(s) for s in acting)}."
        return ""

    def players_line(self) -> str:
        """Who plays, for the title: shortened to fit (tui/games/players_title.py)."""
        return players_title(self.labels, self.client.seats)

    # ------------------------------------------------------------ lifecycle
    async def on_mount(self) -> None:
        # the countdown ticks on the wall clock; the time left comes from the table
        self.set_interval(1.0, self._tick_clock)
        self._players = self.players_line()
        self.sub_title = self._players
        if self.replay is not None:
            self.sub_title = f"replay · {self.sub_title}"
        self._watch_the_link()
        self._fit(self.size.width, self.size.height)

        def deliver(update: Update) -> None:
            # any thread may call this: post_message is thread-safe
            self.post_message(TableUpdated(update))

        self._unsubscribe = self.client.subscribe(deliver)
        for seat in self.people or (None,):
            self._updates[seat] = self.client.snapshot(seat)
            # the clocks from the start: a table elsewhere may have begun (and
            # started them) before this screen came up
            self._keep_time_left(self._updates[seat])
        first = self.keyboard.opening_seat(self._updates[self.seat])
        if first is not None:
            # nobody may see a hand before its owner sits down
            self.seat = first
            self.keyboard.hand_to(first)
        else:
            self._show_seat(self.seat)
        if self.client.connection is not None and self.replay is None:
            # (after the log is drawn) a table elsewhere may have said something
            # as this screen came up: "while you were away it made 2 moves for you"
            self._tell(self._updates[self.seat])
        if self.coach is not None:
            self.coach.attach(self)
        self.run_worker(self.client.start(), group="table", exit_on_error=False)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        self.set_class(width >= self.ROOMY[0] and height >= self.ROOMY[1], "-roomy")

    # ------------------------------------------------------------ the update loop
    def _show_seat(self, seat: int | None) -> None:
        self.seat = seat
        self.query_one(EventLog).clear()
        history = self.client.history(seat)
        self.add_to_log(history)
        self.note_events(history)
        self.update = self._updates.get(seat) or self.client.snapshot(seat)
        self.show_view(self.view)
        self.set_status(self.turn_status())

    def on_table_updated(self, message: TableUpdated) -> None:
        update = message.update
        self._updates[update.seat] = update
        self._keep_time_left(update)
        if update.seat != self.seat:
            return
        if self.replay is not None:
            # a replay may jump back: the log is what was seen up to the position
            self._show_seat(self.seat)
            return
        self._tell(update)
        self._rename()
        was_my_turn = self.my_turn
        self.update = update
        if self.my_turn and not was_my_turn:
            self._call_if_away("your turn")
        if self.coach is not None:
            self.coach.after_update(update)
        if not self.keyboard.handing_off:
            self.add_to_log(update.events)
            self.note_events(list(update.events))
            self.show_view(update.view)
            self.set_status(self.turn_status())
            if not update.over and self._show_round_summary(update.events):
                return  # the hand-off (or whatever comes next) waits for the summary
        if not self._summary_open:
            self._after_update()

    def _tell(self, update: Update) -> None:
        """Notices (a save failed, someone left) as notifications, once each:
        every seat's update carries them, and the screen shows one seat."""
        for notice in update.notices:
            if notice.kind in TABLE_NOTICES:  # who left, came back, is played for
                self.note_from_table(notice)
                continue
            problem = notice.kind == "save_failed"
            self.notify(
                fill_names(notice.text, self.names, self.you),
                severity="error" if problem else "information",
                timeout=15 if problem else 5,
                markup=False,
            )

    def _tick_clock(self) -> None:
        self.show_clock()
        # once per turn, when a quarter of the time given is left (at least the
        # urgent seconds): a player in another window still has time to come
        left, seat = self.seconds_left(), self.seat
        given = self.time_left_given.get(seat) if seat is not None else None
        deadline = self.deadlines.get(seat) if seat is not None else None
        if left is None or given is None or deadline is None or not self.my_turn:
            return
        if left <= max(URGENT_SECONDS, given / 4) and self._warned_for != deadline:
            self._warned_for = deadline
            self._call_if_away(f"{clock_text(left)} to move")

    def _after_update(self) -> None:
        if self.over:
            if not self._over_shown:
                self._over_shown = True
                self._show_game_over()
            return
        self.keyboard.pass_on(self.update, self.seat)

    def _sit_down(self, seat: int) -> None:
        """``seat``'s person has the keyboard (behind the hand-off): their eyes."""
        self._show_seat(seat)
        self._after_update()

    def number_keys(self) -> int | None:
        """How many of the screen's number keys mean something now (the cards
        held), or None for all it binds: the footer, the keys panel and the
        palette then name "1-4", not the "1-5" of the largest hand."""
        return None

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        bindings = super().active_bindings
        live = self.number_keys()
        first = bindings.get("1")
        if live is None or first is None:
            return bindings
        if re.fullmatch(r"1-\d", first.binding.key_display or ""):  # the family's label
            labelled = replace(first.binding, key_display=f"1-{live}" if live > 1 else "1")
            bindings["1"] = first._replace(binding=labelled)
        for key in [k for k in bindings if k.isdigit() and int(k) > max(live, 1)]:
            del bindings[key]  # still bound (a press is answered), no longer offered
        return bindings

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action.startswith("replay_"):
            return self.replay is not None
        if action == "hint":
            # hidden once the game is over, for a spectator, and where the
            # table gives none (a network table)
            hinted = bool(self.people) and self.client.gives_hints and self.seat_in_play()
            return hinted and not self.over
        if action == "finish":
            playing_on = not self.over and bool(self.people) and not self.seat_in_play()
            return playing_on and self.client.can_hurry and not self._hurried
        if action == "score_history":
            # only where the game marks its rounds: elsewhere there is no history
            return self.has_rounds()
        return True

    _hurried = False

    def action_finish(self) -> None:
        self._hurried = True
        self.client.hurry()
        self.set_status("The computers play the rest at once.")
        self.refresh_bindings()

    # ------------------------------------------------------------ playing
    async def submit(self, move: str) -> bool:
        """Play ``move`` for the seat on screen; an illegal one is explained. True if played."""
        if self.over:
            self.set_status("The game is over.", problem=True)
            return False
        if self.seat is None:
            self.set_status("You are watching: there is no seat to play.", problem=True)
            return False
        if not self.my_turn:
            self.set_status(f"It is not your turn. {self.turn_text()}", problem=True)
            return False
        if self.moves_held:  # the round's summary closed by itself just now
            self.set_status("The round's summary had just closed: nothing played.", problem=True)
            return False
        objection = self.coach.before_move(move) if self.coach is not None else None
        if objection is not None:
            self.set_status(objection, problem=True)
            return False
        try:
            await self.client.play(self.seat, move, self.update.state_id)
        except StaleMove:
            self.set_status(
                "The game moved on while you chose: look again and choose anew.", problem=True
            )
            return False
        except LinkDown as err:  # not about the move: say so without naming it
            self.set_status(f"Not played: {sentences(str(err))}", problem=True)
            return False
        except MoveError as err:
            self.set_status(refusal_text(move, str(err)), problem=True)
            return False
        if self.coach is not None:
            self.coach.moved(move)
        return True
