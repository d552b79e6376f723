"""What a player at a line-mode table can ask for at any prompt: the hand,
the table, the scores, a hint, the log, the rules, help, chat, resigning
(tui/lines/table.py's TableSession is the table itself), and the words
every line is written in."""

from __future__ import annotations

from collections import deque
from typing import Any

from net.client import NoHints, TableClient, Update
from rules.errors import MoveError
from rules.events import Event, fill_names
from rules.game import GameSpec
from rules.plain import plain
from tui.hint_words import hint_text
from tui.ruledocs import rules_markdown
from tui.seating import addressed_as_you
from tui.table.refusals import sentences

from .cards import name_cards
from .io import LineIO

# how many lines of what happened `log` repeats
TRANSCRIPT = 30
COMMANDS = "list, hand, table, scores, hint, log, rules, help, quit"
HELP = (
    "At your turn, type the number of a choice, or the move itself as the rules write it,"
    " or words of it (9 at 1,-1; block claim).",
    "list: every choice of your turn; list and a group's name (list explore): that group; "
    "list and words (list 9): the choices they fit.",
    "hand: the cards you hold.",
    "table: the whole position, in a few lines.",
    "scores: everyone's score.",
    "hint: the engine's view of your moves (counted with the result).",
    "log: the last lines of what happened, again.",
    "rules: the rules of this game.",
    "say TEXT: a line to everyone at the table (network tables).",
    "resign: give up this game (asks first).",
    "quit: leave the table; the game is saved and `cardtable resume --lines` goes on with it.",
)


class TableCommands:
    """The commands and words of a :class:`~tui.lines.table.TableSession`."""

    client: TableClient
    io: LineIO
    cards: str
    spec: GameSpec[Any, Any]
    config: Any
    people: tuple[int, ...]
    eyes: int | None
    updates: dict[int | None, Update]
    transcript: deque[str]

    # ------------------------------------------------------------ words
    @property
    def names(self) -> list[str]:
        return [plain(s.name, 40) for s in self.client.seats]

    @property
    def you(self) -> frozenset[int]:
        return addressed_as_you(self.names, self.people)

    def show(self, text: str) -> str:
        return name_cards(text, self.cards)

    def say(self, *texts: str) -> None:
        self.io.say(*(self.show(t) for t in texts))

    def narrate(self, event: Event) -> None:
        line = self.show(event.render(self.names, self.you)).rstrip()
        if line and line[-1] not in ".!?:)":
            line += "."  # one sentence a line, heard as one
        self.transcript.append(line)
        self.io.say(line)

    def move_words(self, move: str, seat: int | None = None) -> str:
        """A move in words, as ``seat`` (the eyes by default) sees the table."""
        update = self.updates.get(self.eyes if seat is None else seat)
        if update is None:
            return self.show(self.spec.move_words(self.config, move))
        return self.show(self.spec.move_words_seen(self.config, move, update.view))

    @property
    def update(self) -> Update:
        """The latest update for the eyes' seat (before anyone sits: any)."""
        if self.eyes in self.updates:
            return self.updates[self.eyes]
        if self.updates:
            return next(iter(self.updates.values()))
        return self.client.snapshot(self.eyes if self.eyes is not None else self._any_seat())

    def _any_seat(self) -> int | None:
        return self.people[0] if self.people else None

    # ------------------------------------------------------------ commands
    def _hand(self) -> None:
        hand = getattr(self.update.view, "hand", None)
        if self.eyes is None:
            self.io.say("Nobody's hand is shown until a player has the keyboard.")
        elif isinstance(hand, list):
            whose = fill_names(f"{{p{self.eyes}'s}} hand", self.names, self.you)
            self.say(f"{whose}: {', '.join(hand) or 'empty'}.")
        else:
            self._table()

    def _table(self) -> None:
        if self.eyes is None and self.people:
            self.io.say("Nothing of the table is shown until a player has the keyboard.")
            return
        self.say(*self.spec.table_lines(self.update.view, self.names, self.you))

    def _scores(self) -> None:
        scores = self.update.scores
        label = self.spec.score_label(self.config)
        shown = ", ".join(f"{n} {s}" for n, s in zip(self.names, scores, strict=False))
        self.io.say(f"Scores ({label}): {shown or 'none yet'}.")

    def _log(self) -> None:
        self.io.say(*(self.transcript or ["Nothing has happened yet."]))

    def _rules(self) -> None:
        try:
            self.io.say(rules_markdown(self.spec.id).rstrip("\n"))
        except FileNotFoundError:
            self.io.say(f"{self.spec.title} has no rules page yet.")

    def _help(self) -> None:
        self.io.say(*HELP)

    async def _hint(self, acting: int | None) -> None:
        if acting is None or acting != self.eyes:
            self.io.say("A hint is for your own turn.")
            return
        self.io.say("Weighing your moves...")
        try:
            hint = await self.client.hint(acting)
        except NoHints as err:
            self.io.say(f"No hint: {plain(err, 200)}.")
            return
        self.io.say(*hint_text(hint, self.show, self.move_words_raw))

    def move_words_raw(self, move: str, seat: int | None = None) -> str:
        """A move's words as ``seat`` (the eyes by default) reads them, cards
        as card texts."""
        update = self.updates.get(seat) if seat is not None else None
        view = (update or self.update).view
        return self.spec.move_words_seen(self.config, move, view)

    def show_filled(self, text: str) -> str:
        """A text of the rules with seats named (``{p0}``) and cards in the
        player's card words."""
        return self.show(fill_names(text, self.names, self.you))

    async def _chat(self, text: str) -> None:
        if not self.client.can_chat:
            self.io.say("This table has no chat: it is a table here, not across the network.")
            return
        if not text.strip():
            self.io.say("Type say and then your line, like: say good game")
            return
        try:
            await self.client.say(text)
        except Exception as err:  # the server's refusal (too fast, too long) in its words
            self.io.say(f"Not sent: {plain(err, 200)}.")

    async def _resign(self) -> str | None:
        seat = self.eyes
        if seat is None or self.update.over:
            self.io.say("There is no game of yours to resign.")
            return None
        self.io.say("Resign this game? Type yes to resign, anything else to play on:")
        if (await self.io.line()).lower() not in ("y", "yes"):
            self.io.say("Playing on.")
            return None
        try:
            await self.client.resign(seat)
        except MoveError as err:
            self.say(sentences(str(err)))
        return None
