"""A table elsewhere, on a table screen (:class:`Link`): the state of the
link in the subtitle, who sat down, who is away or played for by the
computer (in the seat rows, the subtitle and the log), why the table closed,
and the table's chat.

Chat lines and the table's notices (who left, came back, is played for) go
to the log, which never covers the hand or the prompt; a toast only when a
dialog hides the log (docs/hosting.md, "What the game screen says")."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rules.events import fill_names
from saves.atomic import write_json_atomically
from tui.clock_words import per_move_text, time_left_text
from tui.network import connection_text, grace_left, invited_label, presence_label
from tui.plain import plain
from tui.players_title import TITLE_ROOM, players_title
from tui.screens.chat import ChatScreen

if TYPE_CHECKING:
    from net.client import Notice, Update
    from tui.table.side import LinkSide

# the notices of a table elsewhere that say who is at it (net/table.py)
TABLE_NOTICES = frozenset({"left", "back", "computer"})
# what a spectator's keys may do: look, not play (every game's play keys go)
SPECTATOR_ACTIONS = frozenset({"pause", "rules", "score_history", "result", "chat"})
# between the link and who plays, in the subtitle
LINK_GAP = " · "


class Link:
    def __init__(self, screen: LinkSide) -> None:
        self.screen = screen
        self.players = ""  # who plays, for the subtitle
        # the keys offered now were chosen while open seats waited for players
        self._offered_while_waiting = False
        self._unwatch: list[Callable[[], None]] = []  # connection and chat listeners

    # ------------------------------------------------------------ the seats
    def seat_labels(self, short: bool = False) -> list[str]:
        """Each seat's name as the rows and the title show it (``short``: as
        the score line does): who is away and for how long, whose seat a
        computer plays, which is not taken yet (the server's seat states,
        counted down on this machine's clock since they came). The log, and
        anything kept, says only the name: a countdown frozen in a line is
        wrong a second later."""
        client = self.screen.client
        names = [plain(s.name, 40) for s in client.seats]
        states = client.seat_states
        if len(states) != len(names):
            return names
        elapsed = self._since_states()
        return [
            invited_label(plain(client.invited[seat], 40), short)
            if state.kind == "open" and seat in client.invited
            else presence_label(name, state, elapsed, short)
            for seat, (name, state) in enumerate(zip(names, states, strict=True))
        ]

    def _since_states(self) -> float:
        """Seconds since the server last described the seats (its countdowns
        run on from there on this machine's clock)."""
        return max(0.0, asyncio.get_running_loop().time() - self.screen.client.seat_states_at)

    def waiting_words(self, seat: int) -> str | None:
        """Why a table elsewhere waits for ``seat``, for the status line: the
        player asked to a rematch who has not come yet, or one who is away
        and how long they have to come back; None if neither."""
        client = self.screen.client
        states = client.seat_states
        if not 0 <= seat < len(states):
            return None
        state = states[seat]
        invited = client.invited.get(seat)
        if state.kind == "open" and invited is not None:
            return f"{plain(invited, 40)} to accept the rematch"
        left = grace_left(state, self._since_states())
        name = self.screen.seat_name(seat)
        if left is not None:
            return f"{name} (away: {time_left_text(left)} left to come back)"
        if state.state == "away":  # a correspondence table: the seat is theirs, the clock runs
            return f"{name} (away: the game waits for their move)"
        return None

    def log_names(self) -> list[str]:
        """A seat the computer plays for its absent person is the computer's
        in the log ("Computer for Bea plays 4♠"): a play is never put in the
        mouth of someone who was not there (a replay names the seats)."""
        screen = self.screen
        states = screen.client.seat_states
        names = list(screen.names)
        if screen.interactive and len(states) == len(names):
            for seat, state in enumerate(states):
                if state.kind == "computer" and state.stands_in:
                    names[seat] = f"Computer for {names[seat]}"
        return names

    def open_seats(self) -> frozenset[int]:
        """The seats of a table elsewhere that nobody has taken yet: drawn as
        open, never as a player who swaps or chooses."""
        states = self.screen.client.seat_states
        return frozenset(state.seat for state in states if state.kind == "open")

    def waiting_for_seats(self) -> bool:
        """A table elsewhere whose game waits for people to take its open seats."""
        return bool(self.open_seats())

    def closed_reason(self) -> str | None:
        """Why the table elsewhere is closed under us, in a few words (None
        while it is open, or for a table here)."""
        client = self.screen.client
        if client.connection != "closed":
            return None
        return plain(client.farewell or "the connection was lost", 60)

    # ------------------------------------------------------------ watching
    def watch(self) -> None:
        """At mount: the link's state always in view, and the chat's key where
        the table has a chat (a network table)."""
        screen, client = self.screen, self.screen.client
        self.players = screen.players_line()
        if client.connection is not None:
            self._unwatch.append(client.watch_connection(self._connection_changed))
            self.rename()
            self._show_connection()
            screen.set_interval(1.0, self._tick_presence)
        if client.can_chat and screen.interactive:
            self._unwatch.append(client.watch_chat(self._chat_line))
        if client.address and screen.interactive:
            # a rematch asked for while the player looks at another window
            self._unwatch.append(client.watch_offers(self._rematch_offered))
        self._offer_only_what_works()

    def stop_watching(self) -> None:
        for stop in self._unwatch:
            stop()
        self._unwatch.clear()

    def _tick_presence(self) -> None:
        """Once a second while someone is away: their countdown moves."""
        screen = self.screen
        if screen.closed or not screen.is_mounted or not screen.interactive:
            return
        away = any(grace_left(state) is not None for state in screen.client.seat_states)
        if away and self.rename():
            screen.redraw()
            if not screen.status_is_problem():  # a problem said stays until the next move
                screen.set_status(screen.turn_status())

    def rename(self) -> bool:
        """Someone sat down at a table elsewhere (their name, not the seat's),
        went away or came back. True if a name or a label changed."""
        screen = self.screen
        names = [plain(s.name, 40) for s in screen.client.seats]
        labels = self.seat_labels()
        score_labels = self.seat_labels(short=True)
        if self._offered_while_waiting != self.waiting_for_seats():
            self._offer_only_what_works()  # the game starts: its keys come
        now = (names, labels, score_labels)
        if now != (screen.names, screen.labels, screen.score_labels) and screen.interactive:
            screen.names, screen.labels, screen.score_labels = now
            self.players = screen.players_line()
            self._show_connection()
            return True
        return False

    def _offer_only_what_works(self) -> None:
        """Keys that cannot work at this table are not offered, in any game:
        no Hint where the table gives none, no play keys for a spectator, nor
        for anyone while open seats wait for their players (they come back
        when the game starts)."""
        screen, client = self.screen, self.screen.client
        if not screen.interactive or client.connection is None:
            return  # (a table here offers what its game offers)
        self._offered_while_waiting = self.waiting_for_seats()
        screen.offer_only(self._may_offer, chat=client.can_chat)

    def _may_offer(self, action: str) -> bool:
        client = self.screen.client
        if action == "hint" and not client.gives_hints:
            return False
        playing = bool(self.screen.people) and not self._offered_while_waiting
        if client.connection == "closed":
            if action == "chat":
                return False  # nobody would read it: the table is gone
            playing = False  # nothing reaches the table any more
        return playing or action in SPECTATOR_ACTIONS

    def _show_connection(self) -> None:
        """The subtitle: the link in few words, then who plays, shortened to
        what the link leaves of the header at 80 columns ("Ada vs 3
        computers (medium)"), as at a table here."""
        screen, client = self.screen, self.screen.client
        link = connection_text(client.connection, client.address, short=True)
        if client.connection == "closed" and client.farewell is not None:
            # "the host closed the table"; its whole sentence is in the status line and the log
            link = plain(client.farewell, 32)
        # a correspondence table says its pace where a player looks first; in
        # the address's place while connected (the lobby names the server), so
        # that who plays still fits at 80 columns
        pace = per_move_text(client.per_move) if client.per_move is not None else ""
        if pace and client.connection == "connected":
            link = ""
        head = LINK_GAP.join(words for words in (link, pace) if words)
        if not head:
            screen.sub_title = self.players
            return
        room = TITLE_ROOM - len(head) - len(LINK_GAP)
        screen.sub_title = f"{head}{LINK_GAP}{players_title(screen.labels, client.seats, room)}"

    def _connection_changed(self, state: str) -> None:
        screen, client = self.screen, self.screen.client
        if screen.closed or not screen.is_mounted:
            return
        self._show_connection()
        if state == "closed":
            self._offer_only_what_works()
        if state == "reconnecting":
            # a server that said why it went ("the server is shutting down")
            why = plain(client.farewell or "the connection dropped", 60)
            screen.set_status(
                f"{why[:1].upper()}{why[1:]}: reconnecting… (your seat is held)", problem=True
            )
        elif state == "connected":
            screen.set_status(screen.turn_status())
        elif client.farewell is not None:
            # the server said why before it closed: say it at once, in its words
            why = plain(client.farewell, 80)
            kept = self.keep_what_was_seen()
            text = f"{why[:1].upper()}{why[1:]}: the game stops here. Esc, then leave the table."
            screen.set_status(text, problem=True)
            screen.event_log.add_line(text)  # (no toast: it would cover the hand)
            if kept is not None:
                # where, for the curious, is in docs/play/network.md: no path in the log
                screen.event_log.add_line("What you saw of it is kept in your data folder.")
        elif not screen.over:
            screen.set_status(
                "The connection to the server is lost: Esc, then leave the table.", problem=True
            )

    def keep_what_was_seen(self) -> Path | None:
        """A table closed under us: what this seat saw of the game (who sat
        where, the scores, every event in words) in the data folder's
        ``network/closed/``, since the server's record is out of reach.
        None if it cannot be written (the screen says the rest anyway)."""
        screen, client = self.screen, self.screen.client
        table = plain(client.record_id or "table", 32)  # (a remote table: its id)
        path = screen.services.store.root / "network" / "closed" / f"{table}.json"
        kept = {
            "server": client.address,
            "table": table,
            "game": client.game_id,
            "names": [plain(s.name, 40) for s in client.seats],
            "seat": screen.seat,
            "scores": list(screen.update.scores),
            "why": client.farewell,
            "events": [screen.narrate(event) for event in client.history(screen.seat)],
        }
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_json_atomically(path, kept, indent=1)
        except OSError:
            return None
        return path

    # ------------------------------------------------------------ what the table says
    def tell(self, update: Update) -> None:
        """Notices (a save failed, someone left) as notifications, once each:
        every seat's update carries them, and the screen shows one seat."""
        screen = self.screen
        for notice in update.notices:
            if notice.kind in TABLE_NOTICES:  # who left, came back, is played for
                self.note_from_table(notice)
                continue
            problem = notice.kind == "save_failed"
            screen.notify(
                fill_names(notice.text, screen.names, screen.you),
                severity="error" if problem else "information",
                timeout=15 if problem else 5,
                markup=False,
            )

    def note_from_table(self, notice: Notice) -> None:
        """A notice of the table (Bea has left, is back, is played for): a line
        of the log, where it covers nothing; a toast too only while a dialog
        hides the log. It names the people, not their seats' labels."""
        screen = self.screen
        names = [plain(s.name, 40) for s in screen.client.seats]
        text = fill_names(notice.text, names, screen.you)
        screen.event_log.add_line(text)
        if not screen.in_front:
            screen.notify(text, timeout=5, markup=False)

    def _chat_line(self, name: str, text: str) -> None:
        screen = self.screen
        if not screen.closed and screen.is_mounted:
            line = f"{plain(name, 32)}: {plain(text, 200)}"
            screen.event_log.add_line(line)
            if not screen.in_front:
                # a dialog hides the log (the result's, where a rematch is
                # asked for): a toast, which covers no hand there
                screen.notify(line, timeout=6, markup=False)

    def _rematch_offered(self, name: str) -> None:
        if not self.screen.closed:
            self.screen.call_if_away(f"{plain(name, 32)} asks for a rematch")

    def chat(self) -> None:
        """A line for the table's chat, asked for in a dialog."""
        screen = self.screen
        if screen.client.connection == "closed":  # (the palette may still ask)
            screen.set_status("The table is closed: a chat line would reach nobody.", problem=True)
            return

        async def send(text: str | None) -> None:
            if not text or screen.closed:
                return
            try:
                await screen.client.say(text)
            except Exception as err:  # the server's refusal, a dropped link: one line
                screen.set_status(f"Not sent: {plain(err, 120)}", problem=True)

        screen.app.push_screen(ChatScreen(), send)
