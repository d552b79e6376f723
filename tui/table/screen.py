"""The table screen every game's screen is: :class:`TableScreen`, the update
loop (a new update drawn, the seat on screen changed, a move submitted) and
the parts it owns (tui/table/__init__.py lists them). Textual calls a
screen's ``action_*`` methods: those here are one line each, handing the key
to its part.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events
from textual.binding import ActiveBinding, Binding, BindingsMap, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from net.client import LinkDown, StaleMove, Update
from rules.config import GameConfig
from rules.errors import MoveError
from rules.events import Event
from rules.registry import get_game
from rules.views import View
from tui.plain import plain
from tui.players_title import players_title
from tui.seating import addressed_as_you
from tui.services import SERVICES
from tui.styles import TABLE
from tui.table.clocks import Clocks
from tui.table.ending import Ending
from tui.table.hot_seat import HotSeat
from tui.table.keys import offered_bindings, with_number_keys
from tui.table.link import Link
from tui.table.paused import push_paused
from tui.table.refusals import refusal_text, sentences
from tui.table.replay_keys import REPLAY_BINDINGS, ReplayKeys
from tui.table.rounds import Rounds
from tui.table.turn_words import turn_text
from tui.textual_seams import bindings_built_with, replace_bindings
from tui.widgets.cards import CardStyle
from tui.widgets.event_log import EventLog, display_text

if TYPE_CHECKING:
    from net.client import TableClient
    from tui.table.coach import Coach
    from tui.textual_seams import CSSPathType


class TableUpdated(Message):
    def __init__(self, update: Update) -> None:
        super().__init__()
        self.update = update


class TableScreen(Screen[None]):
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
    services = SERVICES  # the app, typed (tui/services.py)

    def __init__(self, client: TableClient) -> None:
        super().__init__()
        self.client = client
        # names come from outside (a save, the network): plain, whatever they hold
        self.names = [plain(s.name, 40) for s in client.seats]
        # each seat as the rows and title show it, and the score line (shorter):
        # at a table elsewhere, who is away or not there yet (tui/table/link.py)
        self.labels = list(self.names)
        self.score_labels = list(self.names)
        self.people = tuple(client.my_seats)
        # the seats the narration addresses as "you" (the one person named You)
        self.you = addressed_as_you(self.names, self.people)
        # the seat whose eyes the screen shows; None for a spectator
        self.seat: int | None = self.people[0] if self.people else None
        # the latest update for that seat: its view, legal moves, scores, result
        self.update = Update(state_id=0, seat=self.seat, view=View(game="", seat=self.seat))
        self._updates: dict[int | None, Update] = {}
        self._unsubscribe: Callable[[], None] | None = None
        self.closed = False
        self.new_game = False  # opened in this sitting, not resumed (Ending asks)
        # a lesson's guide or a real game's tips (tui/table/coach.py), if any
        self.coach: Coach | None = None
        self._hurried = False
        # the parts
        self.keyboard = HotSeat(self.people, self.seat_name, self.push_paused, self._sit_down)
        self.clocks = Clocks(self)
        self.rounds = Rounds(self)
        self.link = Link(self)
        self.ending = Ending(self, self.link, self.rounds)
        # the seats of the people at this screen: its client's, or in a
        # replay those this computer's people played ("Your hand")
        self.people_here = self.people
        self.replay_keys = ReplayKeys.of(self, client)
        if self.replay_keys is not None:  # its own keys, nothing to play
            replace_bindings(self, BindingsMap(REPLAY_BINDINGS))
            self.people_here = self.replay_keys.replay.people
            self.you = addressed_as_you(self.names, self.people_here)

    # ------------------------------------------------------------ the table
    @property
    def logs_notices(self) -> bool:
        """Notices go to this screen's log (CardTableApp.notify): while its
        table is open; a screen that is leaving lets the next one show them."""
        return not self.closed and self.is_mounted

    @property
    def in_front(self) -> bool:
        return self.app.screen is self

    @property
    def interactive(self) -> bool:
        """A person may play at this table: every table but a replay."""
        return self.client.interactive

    def can_act(self) -> bool:
        """A person may play now: the table takes moves, the game is on, and
        the seat on screen must act."""
        return self.interactive and self.my_turn and not self.over

    @property
    def card_style(self) -> CardStyle:
        return self.services.card_style

    @property
    def hot_seat(self) -> bool:
        return len(self.people) > 1

    @property
    def game_config(self) -> GameConfig:
        """The table's options, typed: its game's own Config (the client
        carries them as the JSON the table was opened with)."""
        spec = get_game(self.client.game_id)
        config: GameConfig = spec.Config.from_dict(dict(self.client.config))
        return config

    @property
    def view(self) -> View:
        """The game's own view for the seat on screen."""
        return self.update.view

    @property
    def legal(self) -> tuple[str, ...]:
        """The legal moves of the seat on screen, if it must act now."""
        return self.update.legal

    @property
    def my_turn(self) -> bool:
        return self.update.must_act(self.seat)

    @property
    def over(self) -> bool:
        return self.update.over

    @property
    def event_log(self) -> EventLog:
        return self.query_one(EventLog)

    def seat_name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return "?"
        return self.names[seat]

    def narrate(self, event: Event) -> str:
        """``event`` in words for the person at the screen."""
        return display_text(event.render(self.log_names(), self.you), self.card_style)

    def log_names(self) -> list[str]:
        """The seats' names as the log tells what they did (a computer playing
        for an absent person is named so: tui/table/link.py)."""
        return self.link.log_names()

    # ------------------------------------------------------------ the game's hooks
    def show_view(self, view: View) -> None:
        """Draw ``view`` (the game's view for ``self.seat``; the rest of the
        update, such as scores and legal moves, is ``self.update``)."""
        raise NotImplementedError

    def note_events(self, events: list[Event]) -> None:
        """New events for the seat on screen (already in the log); a game may keep
        some in view, e.g. how the last round ended."""

    def round_ended(self, event: Event) -> int | None:
        """The number of the round ``event`` ends, if it ends one: the log marks
        the boundary and the player gets a summary. A game without rounds: None."""
        return None

    def round_summary(self, event: Event) -> list[str]:
        """The summary of the round ``event`` ended, line by line: who won, how
        much and why, the new scores. By default the event's own narration."""
        return [self.narrate(event)]

    def scores_after(self, event: Event) -> list[int] | None:
        """Every seat's score after the round ``event`` ended, where the
        game's event says (a game of rounds reads its own event's typed data)."""
        return None

    def has_rounds(self) -> bool:
        """Whether this game marks its rounds (else there is no score history)."""
        return type(self).round_ended is not TableScreen.round_ended

    def hint_words(self) -> Callable[[str], str]:
        """The words the hint gives a move in: the game's (``GameSpec.move_words``);
        a screen that knows more of the table (the grid around a cell) may say more."""
        spec = get_game(self.client.game_id)
        return functools.partial(spec.move_words, self.game_config)

    def seat_in_play(self) -> bool:
        """Whether the seat on screen is still in the game (a game where a
        seat leaves before the end, as Stress's finishers, says otherwise)."""
        return True

    def number_keys(self) -> int | None:
        """How many of the screen's number keys mean something now (the cards
        held), or None for all it binds: the footer, the keys panel and the
        palette then name "1-4", not the "1-5" of the largest hand."""
        return None

    def show_clock(self) -> None:
        """Draw the countdown (every second, and with each update): a game
        whose rules have move clocks draws its own; here, the status line's."""
        self.clocks.show_in_status()

    @property
    def draws_own_clock(self) -> bool:
        return type(self).show_clock is not TableScreen.show_clock

    def turn_text(self) -> str:
        """The status line when nothing else needs saying."""
        if self.replay_keys is not None:
            return self.replay_keys.caption()
        return turn_text(self, self.link.waiting_words)

    def turn_status(self) -> str:
        """:meth:`turn_text` with a running clock's time left where the
        screen draws none of its own."""
        text, words = self.turn_text(), self.clocks.words()
        return f"{text} ({words})" if words else text

    def players_line(self) -> str:
        """Who plays, for the title: shortened to fit (tui/players_title.py)."""
        return players_title(self.labels, self.client.seats)

    def add_to_log(self, events: Sequence[Event]) -> None:
        """Events into the log (a game may say something before them)."""
        self.rounds.log(events)

    # ------------------------------------------------------------ lifecycle
    async def on_mount(self) -> None:
        # the countdown ticks on the wall clock; the time left comes from the table
        self.set_interval(1.0, self.clocks.tick)
        self.sub_title = self.players_line()
        if not self.interactive:
            self.sub_title = f"replay · {self.sub_title}"
        self.link.watch()
        self._fit(self.size.width, self.size.height)

        def deliver(update: Update) -> None:
            # any thread may call this: post_message is thread-safe
            self.post_message(TableUpdated(update))

        self._unsubscribe = self.client.subscribe(deliver)
        for seat in self.people or (None,):
            self._updates[seat] = self.client.snapshot(seat)
            # the clocks from the start: a table elsewhere may have begun (and
            # started them) before this screen came up
            self.clocks.keep(self._updates[seat])
        first = self.keyboard.opening_seat(self._updates[self.seat])
        if first is not None:
            # nobody may see a hand before its owner sits down
            self.seat = first
            self.keyboard.hand_to(first)
        else:
            self.show_seat(self.seat)
        if self.client.connection is not None and self.interactive:
            # (after the log is drawn) a table elsewhere may have said something
            # as this screen came up: "while you were away it made 2 moves for you"
            self.link.tell(self._updates[self.seat])
        if self.coach is not None:
            self.coach.attach(self)
        self.run_worker(self.client.start(), group="table", exit_on_error=False)

    async def on_unmount(self) -> None:
        await self.ending.close_table()

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        self.set_class(width >= self.ROOMY[0] and height >= self.ROOMY[1], "-roomy")

    def stop_watching(self) -> None:
        self.link.stop_watching()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    # ------------------------------------------------------------ the update loop
    def show_seat(self, seat: int | None) -> None:
        """Show ``seat``'s eyes: its log from the start, its latest view."""
        self.seat = seat
        self.event_log.clear()
        history = self.client.history(seat)
        self.add_to_log(history)
        self.note_events(history)
        self.update = self._updates.get(seat) or self.client.snapshot(seat)
        self.show_view(self.view)
        self.set_status(self.turn_status())

    def on_table_updated(self, message: TableUpdated) -> None:
        update = message.update
        self._updates[update.seat] = update
        self.clocks.keep(update)
        if update.seat != self.seat:
            return
        if not self.interactive:
            # a replay may jump back: the log is what was seen up to the position
            self.show_seat(self.seat)
            return
        self.link.tell(update)
        self.link.rename()
        was_my_turn = self.my_turn
        self.update = update
        if self.my_turn and not was_my_turn:
            self.call_if_away("your turn")
        if self.coach is not None:
            self.coach.after_update(update)
        if not self.keyboard.handing_off:
            self.add_to_log(update.events)
            self.note_events(list(update.events))
            self.show_view(update.view)
            self.set_status(self.turn_status())
            if not update.over and self.rounds.show_summary(update.events):
                return  # the hand-off (or whatever comes next) waits for the summary
        if not self.rounds.summary_open:
            self.after_update()

    def after_update(self) -> None:
        if self.over:
            self.ending.show_once()
            return
        self.keyboard.pass_on(self.update, self.seat)

    def _sit_down(self, seat: int) -> None:
        """``seat``'s person has the keyboard (behind the hand-off): their eyes."""
        self.show_seat(seat)
        self.after_update()

    def redraw(self) -> None:  # (the names or labels changed)
        self.show_view(self.view)

    def call_if_away(self, what: str) -> None:
        """Tell a player in another window that this table wants them (a table
        elsewhere only: here, the computers answer before anyone looks away)."""
        if self.client.address and self.interactive:
            title = get_game(self.client.game_id).title
            # the first letter only: a name inside keeps its capitals
            said = what[:1].upper() + what[1:]
            self.services.call_away_player(f"{said} at {title}: {self.players_line()}")

    # ------------------------------------------------------------ the status line, dialogs
    def set_status(self, text: str, problem: bool = False) -> None:
        if self.replay_keys is not None:
            # what a live table would say (waiting, your move) is not so here
            text, problem = self.replay_keys.caption(), False
        status = self.query_one("#status", Static)
        status.update(Text(display_text(text, self.card_style)))  # never markup
        status.set_class(problem, "-problem")

    def status_is_problem(self) -> bool:
        return self.query_one("#status").has_class("-problem")

    def push_paused(
        self,
        screen: Screen[Any],
        then: Callable[[Any], Any] | None = None,
        still_wanted: Callable[[], bool] | None = None,
    ) -> None:
        """Show ``screen`` with every clock stopped (tui/table/paused.py)."""
        push_paused(self, screen, then, still_wanted)

    # ------------------------------------------------------------ keys
    def offer_only(self, keep: Callable[[str], bool], chat: bool) -> None:
        """Offer only the keys whose action ``keep`` allows, and the chat's
        key where ``chat`` (tui/table/keys.py)."""
        replace_bindings(self, offered_bindings(bindings_built_with(self), keep, chat))
        self.refresh_bindings()

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return with_number_keys(super().active_bindings, self.number_keys())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "replay":
            return self.replay_keys is not None
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

    # each key to its part
    def action_pause(self) -> None:
        self.ending.menu()

    def action_rules(self) -> None:
        self.ending.rules()

    def action_hint(self) -> None:
        self.ending.hint()

    def action_score_history(self) -> None:
        self.push_paused(self.rounds.history_screen())

    def action_chat(self) -> None:
        self.link.chat()

    def action_finish(self) -> None:
        self._hurried = True
        self.client.hurry()
        self.set_status("The computers play the rest at once.")
        self.refresh_bindings()

    def action_replay(self, key: str, step: int = 0) -> None:
        if self.replay_keys is not None:
            self.replay_keys.press(key, step)

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
        if self.rounds.moves_held:  # the round's summary closed by itself just now
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
