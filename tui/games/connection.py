"""A table elsewhere, on a game screen: the state of the link in the
subtitle, who sat down, and the table's chat."""

from __future__ import annotations

from tui.games.core import TableScreenCore
from tui.network import connection_text
from tui.plain import plain
from tui.screens.chat import ChatScreen
from tui.widgets.event_log import EventLog


class TableConnection(TableScreenCore):
    def players_line(self) -> str:
        """Who plays, for the subtitle: "Ada vs Computer (hard)"."""
        return " vs ".join(
            f"{name} ({s.level})" if s.kind == "bot" and s.level else name
            for name, s in zip(self.names, self.client.seats, strict=True)
        )

    def _watch_the_link(self) -> None:
        """At mount: the link's state always in view, and the chat's key where
        the table has a chat (a network table)."""
        if self.client.connection is not None:
            self._unwatch.append(self.client.watch_connection(self._connection_changed))
            self._show_connection()
        if self.client.can_chat and self.replay is None:
            self._unwatch.append(self.client.watch_chat(self._chat_line))
            self._bindings.bind("ctrl+t", "chat", "Chat", key_display="^t")
            self.refresh_bindings()

    def _rename(self) -> None:
        """Someone sat down at a table elsewhere: their name, not the seat's."""
        names = [plain(s.name, 40) for s in self.client.seats]
        if names != self.names and self.replay is None:
            self.names = names
            self._players = self.players_line()
            self._show_connection()

    def _show_connection(self) -> None:
        link = connection_text(self.client.connection, self.client.address)
        self.sub_title = f"{link} · {self._players}" if link else self._players

    def _connection_changed(self, state: str) -> None:
        if self._closed or not self.is_mounted:
            return
        self._show_connection()
        if state == "reconnecting":
            self.set_status(
                "The connection dropped: reconnecting… (your seat is held)", problem=True
            )
        elif state == "connected":
            self.set_status(self.turn_text())
        elif not self.over:
            self.set_status(
                "The connection to the server is lost: Esc, then leave the table.", problem=True
            )

    def _chat_line(self, name: str, text: str) -> None:
        if not self._closed and self.is_mounted:
            line = f"{plain(name, 32)}: {plain(text, 200)}"
            self.query_one(EventLog).add_line(line)
            # also above a dialog (the result's, where a rematch is asked for)
            self.notify(line, timeout=6, markup=False)

    def action_chat(self) -> None:
        async def send(text: str | None) -> None:
            if not text or self._closed:
                return
            try:
                await self.client.say(text)
            except Exception as err:  # the server's refusal, a dropped link: one line
                self.set_status(f"Not sent: {plain(err, 120)}", problem=True)

        self.app.push_screen(ChatScreen(), send)
