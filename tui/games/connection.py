"""A table elsewhere, on a game screen: the state of the link in the
subtitle, who sat down, who is away or played for by the computer (in the
seat rows, the subtitle and the log), why the table closed, and the table's
chat.

Chat lines and the table's notices (who left, came back, is played for) go
to the log, which never covers the hand or the prompt; a toast only when a
dialog hides the log (docs/hosting.md, "What the game screen says")."""

from __future__ import annotations

import asyncio
from pathlib import Path

from net.client import Notice
from rules.events import fill_names
from saves.atomic import write_json_atomically
from tui.clock_words import time_left_text
from tui.games.core import TableScreenCore
from tui.network import connection_text, grace_left, invited_label, presence_label
from tui.plain import plain
from tui.players_title import TITLE_ROOM, players_title
from tui.screens.chat import ChatScreen
from tui.widgets.event_log import EventLog

# the notices of a table elsewhere that say who is at it (net/table.py)
TABLE_NOTICES = frozenset({"left", "back", "computer"})
# what a spectator's keys may do: look, not play (every game's play keys go)
SPECTATOR_ACTIONS = frozenset({"pause", "rules", "score_history", "result", "chat"})
# between the link and who plays, in the subtitle
LINK_GAP = " · "


class TableConnection(TableScreenCore):
    # the keys offered now were chosen while open seats waited for players
    _offered_while_waiting = False

    def seat_labels(self, short: bool = False) -> list[str]:
        """Each seat's name as the rows and the title show it (``short``: as
        the score line does): who is away and for how long, whose seat a
        computer plays, which is not taken yet (the server's seat states,
        counted down on this machine's clock since they came)."""
        client = self.client
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
        return max(0.0, asyncio.get_running_loop().time() - self.client.seat_states_at)

    def waiting_words(self, seat: int) -> str | None:
        """Why a table elsewhere waits for ``seat``, for the status line: the
        player asked to a rematch who has not come yet, or one who is away
        and how long they have to come back; None if neither."""
        states = self.client.seat_states
        if not 0 <= seat < len(states):
            return None
        state = states[seat]
        invited = self.client.invited.get(seat)
        if state.kind == "open" and invited is not None:
            return f"{plain(invited, 40)} to accept the rematch"
        left = grace_left(state, self._since_states())
        if left is not None:
            return f"{self.seat_name(seat)} (away: {time_left_text(left)} left to come back)"
        if state.state == "away":  # a correspondence table: the seat is theirs, the clock runs
            return f"{self.seat_name(seat)} (away: the game waits for their move)"
        return None

    def log_names(self) -> list[str]:
        """A seat the computer plays for its absent person is the computer's
        in the log ("Computer for Bea plays 4♠"): a play is never put in the
        mouth of someone who was not there (a replay names the seats)."""
        states = self.client.seat_states
        names = list(self.names)
        if self.replay is None and len(states) == len(names):
            for seat, state in enumerate(states):
                if state.kind == "computer" and state.stands_in:
                    names[seat] = f"Computer for {names[seat]}"
        return names

    def closed_reason(self) -> str | None:
        """Why the table elsewhere is closed under us, in a few words (None
        while it is open, or for a table here)."""
        if self.client.connection != "closed":
            return None
        return plain(self.client.farewell or "the connection was lost", 60)

    def _tick_presence(self) -> None:
        """Once a second while someone is away: their countdown moves."""
        if self._closed or not self.is_mounted or self.replay is not None:
            return
        away = any(grace_left(state) is not None for state in self.client.seat_states)
        if away and self._rename():
            self.show_view(self.view)
            status = self.query_one("#status")
            if not status.has_class("-problem"):  # a problem said stays until the next move
                self.set_status(self.turn_status())

    def note_from_table(self, notice: Notice) -> None:
        """A notice of the table (Bea has left, is back, is played for): a line
        of the log, where it covers nothing; a toast too only while a dialog
        hides the log. It names the people, not their seats' labels."""
        names = [plain(s.name, 40) for s in self.client.seats]
        text = fill_names(notice.text, names, self.you)
        self.query_one(EventLog).add_line(text)
        if self.app.screen is not self:
            self.notify(text, timeout=5, markup=False)

    def _watch_the_link(self) -> None:
        """At mount: the link's state always in view, and the chat's key where
        the table has a chat (a network table)."""
        if self.client.connection is not None:
            self._unwatch.append(self.client.watch_connection(self._connection_changed))
            self._rename()
            self._show_connection()
            self.set_interval(1.0, self._tick_presence)
        if self.client.can_chat and self.replay is None:
            self._unwatch.append(self.client.watch_chat(self._chat_line))
        if self.client.address and self.replay is None:
            # a rematch asked for while the player looks at another window
            self._unwatch.append(self.client.watch_offers(self._rematch_offered))
        self._offer_only_what_works()

    def waiting_for_seats(self) -> bool:
        """A table elsewhere whose game waits for people to take its open seats."""
        return bool(self.open_seats())

    def open_seats(self) -> frozenset[int]:
        """The seats of a table elsewhere that nobody has taken yet: drawn as
        open, never as a player who swaps or chooses."""
        return frozenset(state.seat for state in self.client.seat_states if state.kind == "open")

    def _offer_only_what_works(self) -> None:
        """Keys that cannot work at this table are not offered, in any game:
        no Hint where the table gives none, no play keys for a spectator, nor
        for anyone while open seats wait for their players (they come back
        when the game starts). Built again from the game's own bindings on
        each change (this screen's copy; the game's class keeps them all)."""
        if self.replay is not None or self.client.connection is None:
            return  # (a table here offers what its game offers)
        self._offered_while_waiting = self.waiting_for_seats()
        merged = type(self)._merged_bindings
        if merged is not None:
            self._bindings = merged.copy()
        if self.client.can_chat:
            self._bindings.bind("ctrl+t", "chat", "Chat", key_display="^t")
        keys = self._bindings.key_to_bindings
        for key, bindings in list(keys.items()):
            kept = [
                binding for binding in bindings if self._may_offer(binding.action.split("(", 1)[0])
            ]
            if kept:
                keys[key] = kept
            else:
                del keys[key]
        self.refresh_bindings()

    def _may_offer(self, action: str) -> bool:
        if action == "hint" and not self.client.gives_hints:
            return False
        playing = bool(self.people) and not self._offered_while_waiting
        if self.client.connection == "closed":
            if action == "chat":
                return False  # nobody would read it: the table is gone
            playing = False  # nothing reaches the table any more
        return playing or action in SPECTATOR_ACTIONS

    def _rename(self) -> bool:
        """Someone sat down at a table elsewhere (their name, not the seat's),
        went away or came back. True if a name or a label changed."""
        names = [plain(s.name, 40) for s in self.client.seats]
        labels = self.seat_labels()
        score_labels = self.seat_labels(short=True)
        if self._offered_while_waiting != self.waiting_for_seats():
            self._offer_only_what_works()  # the game starts: its keys come
        now = (names, labels, score_labels)
        if now != (self.names, self.labels, self.score_labels) and self.replay is None:
            self.names, self.labels, self.score_labels = now
            self._players = self.players_line()
            self._show_connection()
            return True
        return False

    def _show_connection(self) -> None:
        """The subtitle: the link in few words, then who plays, shortened to
        what the link leaves of the header at 80 columns ("Ada vs 3
        computers (medium)"), as at a table here."""
        link = connection_text(self.client.connection, self.client.address, short=True)
        if self.client.connection == "closed" and self.client.farewell is not None:
            # "the host closed the table"; its whole sentence is in the status line and the log
            link = plain(self.client.farewell, 32)
        if not link:
            self.sub_title = self._players
            return
        room = TITLE_ROOM - len(link) - len(LINK_GAP)
        self.sub_title = f"{link}{LINK_GAP}{players_title(self.labels, self.client.seats, room)}"

    def _connection_changed(self, state: str) -> None:
        if self._closed or not self.is_mounted:
            return
        self._show_connection()
        if state == "closed":
            self._offer_only_what_works()
        if state == "reconnecting":
            # a server that said why it went ("the server is shutting down")
            why = plain(self.client.farewell or "the connection dropped", 60)
            self.set_status(
                f"{why[:1].upper()}{why[1:]}: reconnecting… (your seat is held)", problem=True
            )
        elif state == "connected":
            self.set_status(self.turn_status())
        elif self.client.farewell is not None:
            # the server said why before it closed: say it at once, in its words
            why = plain(self.client.farewell, 80)
            kept = self.keep_what_was_seen()
            text = f"{why[:1].upper()}{why[1:]}: the game stops here. Esc, then leave the table."
            self.set_status(text, problem=True)
            self.query_one(EventLog).add_line(text)  # (no toast: it would cover the hand)
            if kept is not None:
                # where, for the curious, is in docs/play/network.md: no path in the log
                self.query_one(EventLog).add_line("What you saw of it is kept in your data folder.")
        elif not self.over:
            self.set_status(
                "The connection to the server is lost: Esc, then leave the table.", problem=True
            )

    def keep_what_was_seen(self) -> Path | None:
        """A table closed under us: what this seat saw of the game (who sat
        where, the scores, every event in words) in the data folder's
        ``network/closed/``, since the server's record is out of reach.
        None if it cannot be written (the screen says the rest anyway)."""
        client = self.client
        table = plain(client.record_id or "table", 32)  # (a remote table: its id)
        path = self.services.store.root / "network" / "closed" / f"{table}.json"
        kept = {
            "server": client.address,
            "table": table,
            "game": client.game_id,
            "names": [plain(s.name, 40) for s in client.seats],
            "seat": self.seat,
            "scores": list(self.update.scores),
            "why": client.farewell,
            "events": [self.narrate(event) for event in client.history(self.seat)],
        }
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_json_atomically(path, kept, indent=1)
        except OSError:
            return None
        return path

    def _chat_line(self, name: str, text: str) -> None:
        if not self._closed and self.is_mounted:
            line = f"{plain(name, 32)}: {plain(text, 200)}"
            self.query_one(EventLog).add_line(line)
            if self.app.screen is not self:
                # a dialog hides the log (the result's, where a rematch is
                # asked for): a toast, which covers no hand there
                self.notify(line, timeout=6, markup=False)

    def _rematch_offered(self, name: str) -> None:
        if not self._closed:
            self._call_if_away(f"{plain(name, 32)} asks for a rematch")

    def action_chat(self) -> None:
        if self.client.connection == "closed":  # (the palette may still ask)
            self.set_status("The table is closed: a chat line would reach nobody.", problem=True)
            return

        async def send(text: str | None) -> None:
            if not text or self._closed:
                return
            try:
                await self.client.say(text)
            except Exception as err:  # the server's refusal, a dropped link: one line
                self.set_status(f"Not sent: {plain(err, 120)}", problem=True)

        self.app.push_screen(ChatScreen(), send)
