"""A game at a table, in lines: line mode's game screen (docs/lines.md).

It holds a :class:`net.client.TableClient` and nothing else, as the app's
game screens do: a table here, a lesson's, or one across the network. Each
event is one line in the rules' words (``Event.render``), cards named in the
player's card words; at the player's turn a prompt lists every choice by
number with what it does (``GameSpec.move_words``) and takes a number, the
move's notation or a command (``help`` lists them).

Hot-seat: the seat whose eyes the lines are written for changes only through
the hand-off line and an Enter, and what that seat missed meanwhile is then
read from ``client.history(seat)``: nothing of one hand is written while
another person may be at the keyboard.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from net.client import Notice, TableClient, Update
from rules.errors import IllegalMove, MoveError
from rules.events import SeatEvent, fill_names
from rules.game import GameSpec
from rules.plain import plain
from rules.registry import get_game
from tui.network import connection_text
from tui.players_title import players_title
from tui.result_words import result_text
from tui.seating import handoff_prompt, handoff_text
from tui.table.refusals import refusal_text, sentences

from .choices import TurnChoices
from .commands import COMMANDS, TRANSCRIPT, TableCommands
from .io import LineIO


class Coach(Protocol):
    """A lesson's coach at the table (tui/lines/lesson.py)."""

    def objection(self, move: str) -> str | None: ...
    def moved(self) -> None: ...
    def after_update(self, update: Update) -> bool:
        """Says what the lesson says now; True once the lesson is over."""
        ...


class TableSession(TableCommands):
    """One table, played in lines until the game ends or the player quits."""

    def __init__(
        self,
        client: TableClient,
        io: LineIO,
        cards: str,
        *,
        new: bool = False,
        coach: Coach | None = None,
    ) -> None:
        self.client = client
        self.io = io
        self.cards = cards
        self.new = new  # opened in this sitting: left before any move, it is not kept
        self.coach = coach
        self.spec: GameSpec[Any, Any] = get_game(client.game_id)
        self.config = self.spec.Config.from_dict(dict(client.config))
        self.people = client.my_seats
        self.hot_seat = len(self.people) > 1
        # whose eyes the lines are for: set by the hand-off at a hot seat
        self.eyes: int | None = None if self.hot_seat or not self.people else self.people[0]
        self.updates: dict[int | None, Update] = {}
        self.told: dict[int | None, int] = {}  # events of each seat written so far
        self.seated: set[int | None] = set()  # seats whose eyes the lines have been for
        self.transcript: deque[str] = deque(maxlen=TRANSCRIPT)
        # (seat, choices) last prompted for, until that turn is over
        self.prompted: tuple[int, tuple[str, ...]] | None = None
        # what was last said to be waited on: (state id, the seats connected)
        self.waited: tuple[int, tuple[int, ...]] | None = None
        self.changed = asyncio.Event()
        self.lesson_over = False
        self._input: asyncio.Task[str] | None = None
        # the choices last worked out, by (seat, state id, legal moves)
        self._turn: tuple[tuple[int, int, tuple[str, ...]], TurnChoices] | None = None

    # ------------------------------------------------------------ updates
    def _on_update(self, update: Update) -> None:
        self.updates[update.seat] = update
        if update.seat == self.eyes:
            for event in update.events:
                self.narrate(event)
            self.told[update.seat] = self.told.get(update.seat, 0) + len(update.events)
            for notice in update.notices:
                self._notice(notice)
        elif self.eyes is None and update.seat == self._any_seat():
            for notice in update.notices:  # (nobody's hand in a notice)
                self._notice(notice)
        if self.coach is not None and update.seat == self.eyes:
            self.lesson_over = self.coach.after_update(update) or self.lesson_over
        self.changed.set()

    def _notice(self, notice: Notice) -> None:
        self.say("Notice: " + fill_names(notice.text, self.names, self.you))

    def _on_chat(self, name: str, text: str) -> None:
        line = f"{plain(name, 40)} says: {plain(text, 500)}"
        self.transcript.append(line)
        self.io.say(line)

    def _on_connection(self, state: str) -> None:
        text = connection_text(state, self.client.address)
        if state == "closed" and self.client.farewell:
            text += f" ({plain(self.client.farewell, 200)})"
        self.io.say(text[:1].upper() + text[1:] + ".")
        self.changed.set()

    # ------------------------------------------------------------ the loop
    async def run(self) -> str:
        """Play until the game is over ("over"), the player quits ("quit"),
        the lesson is done ("lesson") or the table is gone ("closed")."""
        client = self.client
        stops: list[Callable[[], None]] = [
            client.subscribe(self._on_update),
            client.watch_chat(self._on_chat),
            client.watch_connection(self._on_connection),
        ]
        try:
            await client.start()
            self._introduce()
            return await self._loop()
        finally:
            for stop in stops:
                stop()
            if self._input is not None:
                self._input.cancel()

    def _introduce(self) -> None:
        title = players_title(self.names, self.client.seats, room=200)
        where = f" at {self.client.address}" if self.client.address else ""
        self.say(f"{self.spec.title}{where}: {title}.")
        if self.eyes is not None or not self.people:
            self._sit(self.eyes)
        if not self.people:
            self.say("You are watching: type quit to leave.")
        if self.coach is not None:
            self.lesson_over = self.coach.after_update(self.update)

    def _sit(self, seat: int | None) -> None:
        """``seat``'s eyes from now: what it missed, then where things stand."""
        self.eyes = seat
        history = self.client.history(seat)
        missed = history[self.told.get(seat, 0) :]
        if self.told.get(seat) is None and not self.new and len(missed) > 10:
            self.say(f"(The last 10 of {len(missed)} events so far; log repeats them.)")
            missed = missed[-10:]
        first = seat not in self.seated
        self.seated.add(seat)
        for event in missed:
            self.narrate(event)
        self.told[seat] = len(history)
        self.updates[seat] = self.client.snapshot(seat)
        if first:  # where things stand, once: `table` says it again
            self.say(*self.spec.table_lines(self.update.view, self.names, self.you))

    def _acting(self) -> int | None:
        """The seat of ours that must act now (the eyes' own first)."""
        to_act = self.update.to_act if self.eyes is not None else self._to_act_any()
        if self.eyes is not None and self.eyes in to_act:
            return self.eyes
        return next((s for s in self.people if s in to_act), None)

    def _to_act_any(self) -> tuple[int, ...]:
        seat = self._any_seat()
        update = self.updates.get(seat) or self.client.snapshot(seat)
        return update.to_act

    async def _loop(self) -> str:
        while True:
            self.changed.clear()
            update = self.update
            if self.lesson_over:
                return "lesson"
            if update.over:
                self._finish(update)
                return "over"
            if self.client.connection == "closed":
                return "closed"
            acting = self._acting()
            if acting is not None and acting != self.eyes:
                if not await self._hand_off(acting):
                    return await self._quit()
                continue
            if acting is None:
                self.prompted = None
                if self.waited != (update.state_id, update.connected) and self.people:
                    self._say_waiting(update)
            elif self.prompted != (acting, tuple(self.choices(acting))):
                # a new turn, or new choices: not a change elsewhere that
                # leaves this turn as it was (the other seat's hidden submission)
                self.prompted = (acting, tuple(self.choices(acting)))
                self._prompt(acting)
            line = await self._next_line()
            if line is None:
                continue
            state = self.update.state_id
            done = await self._handle(line, acting)
            if done is not None:
                return done
            if acting is not None and line and self.update.state_id == state and self.prompted:
                self._remind(acting)

    async def _next_line(self) -> str | None:
        """A line typed, or None when the table changed first."""
        if self._input is None:
            self._input = asyncio.ensure_future(self.io.line())
        changed = asyncio.ensure_future(self.changed.wait())
        try:
            await asyncio.wait({self._input, changed}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            changed.cancel()
        if not self._input.done():
            return None
        task, self._input = self._input, None
        return task.result()  # EndOfInput goes up: the caller saves and leaves

    def _say_waiting(self, update: Update) -> None:
        self.waited = (update.state_id, update.connected)
        connected = update.connected
        empty = [s for s in range(len(self.names)) if connected and s not in connected]
        if empty and update.state_id == 0:  # a table elsewhere starts when it is full
            who = " and ".join(self.names[s] for s in empty)
            where = self.client.record_id  # (a table elsewhere: its id)
            table = f" (table {plain(where, 32)})" if where else ""
            self.say(
                f"Waiting for {who} to sit down{table}: the game starts when every seat"
                " is taken. Meanwhile: say, rules, help or quit."
            )
            return
        others = [s for s in update.to_act if s not in self.people]
        if not others or (self.client.connection is None and update.thinking):
            return  # a computer here answers at once: its move is the next line
        who = " and ".join(self.names[s] for s in others if s < len(self.names))
        self.say(f"Waiting for {who}.")

    # ------------------------------------------------------------ hot seat
    async def _hand_off(self, seat: int) -> bool:
        """The keyboard goes to ``seat``'s player: a line, then Enter. False
        if they type quit instead."""
        self.eyes = None
        player = self.names[seat]
        self.io.say(*handoff_text(player).split("\n"), handoff_prompt(player))
        while True:
            line = await self.io.line()
            if line == "":
                break
            if line.lower() == "quit":
                return False
            self.io.say(
                f"Press Enter (an empty line) when {player} has the keyboard, or type quit."
            )
        self._sit(seat)
        return True

    # ------------------------------------------------------------ your turn
    def choices(self, seat: int) -> list[str]:
        """The numbered choices: the legal moves but resigning (a command,
        asked first: a wrong number must not give the game away), in the
        order their groups give them."""
        return self.turn(seat).moves

    def turn(self, seat: int) -> TurnChoices:
        """``seat``'s choices now, numbered and grouped (tui/lines/choices.py)."""
        update = self.updates.get(seat)
        if update is None:
            return TurnChoices([], [], str, self.show)
        key = (seat, update.state_id, update.legal)
        if self._turn is None or self._turn[0] != key:
            legal = [m for m in update.legal if m.lower() != "resign"]
            groups = self.spec.choice_groups(self.config, legal, update.view) if legal else []
            turn = TurnChoices(
                legal, groups, lambda m: self.move_words_raw(m, seat), self.show_filled
            )
            self._turn = (key, turn)
        return self._turn[1]

    def _prompt(self, seat: int) -> None:
        turn = self.turn(seat)
        choices = turn.moves
        who = "Your turn" if seat in self.you else f"{self.names[seat]}, your turn"
        hand = getattr(self.updates[seat].view, "hand", None)
        listed = " ".join(choices).upper()
        if isinstance(hand, list) and (
            turn.grouped or any(card.upper() not in listed for card in hand)
        ):
            # the choices do not name every card held: the hand first
            hand_line = fill_names(f"{{p{seat}'s}} hand: ", self.names, self.you) + ", ".join(hand)
            self.say(hand_line + ".")
        if turn.grouped:
            example = self._example(turn)
            self.io.say(
                f"{who}. Choose 1 to {turn.listed}, by group; "
                f"type a number, or a move such as {example}:"  # as typed: no card words
            )
        else:
            span = f"1 to {len(choices)}" if len(choices) > 1 else "1"
            self.say(f"{who}. Choose {span}, or type a move:")
        self.io.say(*turn.prompt_lines())
        self.io.say(f"Or: {COMMANDS}.")

    def _example(self, turn: TurnChoices) -> str:
        """A move as a player may type it (its notation, as typed): one from
        the middle of the list (the first is often "nothing" or a dull one)."""
        return turn.moves[len(turn.moves) // 2] if turn.moves else "help"

    def _remind(self, seat: int) -> None:
        """Still this seat's turn after a command or a refused line: where it stands."""
        who = "Your turn" if seat in self.you else f"{self.names[seat]}, your turn"
        n = self.turn(seat).listed
        self.io.say(f"{who}: choose 1 to {n} (Enter lists the choices again).")

    def _list(self, acting: int | None, what: str) -> None:
        """``list``: every choice; ``list NAME``: a group; ``list WORDS``:
        the choices those words fit."""
        if acting is None:
            self.io.say(f"Nothing to choose now. Commands: {COMMANDS}.")
            return
        turn = self.turn(acting)
        if not what:
            self.io.say(*turn.all_lines())
            return
        group = turn.group_named(what)
        if group is not None:
            self.io.say(*turn.group_lines(group))
            return
        fits = turn.matching(what)
        if not fits:
            names = ", ".join(g.name for g in turn.groups)
            self.io.say(
                f"No choice fits {plain(what, 40)!r}."
                + (f" Groups: {names}." if names else "")
                + " Type list for every choice."
            )
            return
        self.io.say(*(self.show(f"{turn.number[m]}: {turn.words(m)}") for m in fits))

    async def _handle(self, line: str, acting: int | None) -> str | None:
        word, _, rest = line.partition(" ")
        command = word.lower()
        if line == "":
            if acting is not None:
                self.prompted = None  # the choices again
            else:
                self.io.say(f"Nothing to choose now. Commands: {COMMANDS}.")
            return None
        handler = {
            "hand": self._hand,
            "table": self._table,
            "scores": self._scores,
            "log": self._log,
            "rules": self._rules,
            "help": self._help,
        }.get(command)
        if handler is not None and not rest:
            handler()
            return None
        if command == "list":
            self._list(acting, rest.strip())
            return None
        if command == "hint" and not rest:
            await self._hint(acting)
            return None
        if command in ("say", "chat"):
            await self._chat(rest)
            return None
        if command == "quit" and not rest:
            return await self._quit()
        if command == "resign" and not rest:
            return await self._resign()
        if acting is None:
            self.io.say(f"It is not your turn. Commands: {COMMANDS}.")
            return None
        await self._choose(line, acting)
        return None

    async def _choose(self, text: str, seat: int) -> None:
        turn = self.turn(seat)
        choices = turn.moves
        accepted = (
            f"Type a number from 1 to {turn.listed}, a move such as "
            f"{self._example(turn)}, list, or help."
            if choices
            else "Type help."
        )
        if text.isdigit():
            number = int(text)
            if not 1 <= number <= len(choices):
                self.io.say(f"There is no choice {plain(text, 10)}. {accepted}")
                return
            move = choices[number - 1]
        else:
            try:
                parsed = self.spec.parse_move(text)
            except ValueError:
                fits = turn.matching(text)
                if len(fits) == 1:
                    move = fits[0]
                elif fits:
                    self.io.say(f"{len(fits)} choices fit {plain(text, 40)!r}; type its number:")
                    self.io.say(*(self.show(f"{turn.number[m]}: {turn.words(m)}") for m in fits))
                    return
                else:
                    self.io.say(f"Not a move or a command: {plain(text, 40)!r}. {accepted}")
                    return
            else:
                move = next((m for m in choices if self.spec.parse_move(m) == parsed), text)
        await self._play(seat, move)

    async def _play(self, seat: int, move: str) -> None:
        if self.coach is not None:
            objection = self.coach.objection(move)
            if objection is not None:
                self.say(objection)
                self.prompted = None  # the choices again, after the reason
                return
        update = self.updates[seat]
        try:
            await self.client.play(seat, move, update.state_id)
        except IllegalMove as err:
            self.say(refusal_text(move, str(err)))
            self.prompted = None
            return
        except MoveError as err:
            self.say(sentences(str(err)))
            self.prompted = None
            return
        self.prompted = None  # moved: whatever comes next is asked afresh
        if self.coach is not None:
            self.coach.moved()

    async def _quit(self) -> str:
        await self.close()
        return "quit"

    async def close(self) -> None:
        """Leave the table: saved (a game left before any move is not kept)."""
        forget = self.new and self.client.unplayed()
        over = self.update.over
        with contextlib.suppress(Exception):  # a link already down: nothing to close
            await self.client.close()
        if forget and self.client.forget_unplayed():
            self.io.say("Left before any move: nothing was kept.")
        elif self.client.keeps_record and self.client.connection is None and not over:
            self.io.say(
                f"The game is saved. To go on: cardtable resume {self.client.record_id} --lines"
            )

    # ------------------------------------------------------------ the end
    def _finish(self, update: Update) -> None:
        if update.result is None:
            self.io.say("The game is over.")
            return
        resigned = [
            e.data.seat
            for e in self.client.history(self.eyes)
            if e.kind == "resign" and isinstance(e.data, SeatEvent)
        ]
        text = result_text(
            update.result,
            self.names,
            update.hints,
            self.you,
            self.spec.score_label(self.config),
            resigned,
        )
        self.say("The game is over.", *(line for line in text.split("\n") if line.strip()))
