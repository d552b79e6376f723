"""Join and Host: the two ways into network play from the home screen.

Join connects to a table server (host:port, and the name the others see)
and opens its lobby; an ssh-host visitor's app reaches only the servers
the host grants (net/grants.py), and :func:`connect` is where that holds.
Host starts a server in this process (net/server.py: on 127.0.0.1, or
every address if the player lets other machines join), shows the addresses
to give a friend, and opens its own lobby; the app stops the server when it
closes. A visitor's app has no Host.
"""

from __future__ import annotations

import errno
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Header, Input, Label, Select, Static

from tui.network import DEFAULT_PORT, default_address, parse_address
from tui.network_connect import (
    CONNECT_SECONDS,
    connect,
    default_name,
    unreachable,
    visitor_name,
)

__all__ = ["CONNECT_SECONDS", "HostScreen", "JoinScreen", "connect", "default_name", "unreachable"]
from tui.plain import plain, plain_text
from tui.services import SERVICES
from tui.styles import FORMS
from tui.widgets.footer import FittingFooter

if TYPE_CHECKING:
    from tui.textual_seams import CSSPathType

__all__ = ["CONNECT_SECONDS", "HostScreen", "JoinScreen", "connect", "default_name", "unreachable"]


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first, a full stop unless it ends
    with its own mark."""
    text = text.strip()
    if not text:
        return text
    end = "" if text[-1] in ".?!" else "."
    return f"{text[0].upper()}{text[1:]}{end}"


class _ServerForm(Screen[None]):
    CSS_PATH: ClassVar[CSSPathType | None] = [FORMS]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "go", "Go", id="net.go"),
        Binding("escape", "close", "Back", id="net.back"),
    ]
    TITLE_TEXT = ""
    BUTTON = "Go"

    services = SERVICES  # the app, typed (tui/services.py)

    def fields(self) -> ComposeResult:
        yield from ()

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(classes="form", id="net-form"):
            yield from self.fields()
            with Horizontal(classes="row"):
                yield Label("Your name", classes="name")
                # an ssh-host visitor's name starts as their login name, and
                # another follows the same rules (net/grants.py, guest_name)
                visitor = self.services.grants.visitor
                name = (
                    visitor_name() if visitor else default_name(self.services.settings.player_name)
                )
                yield Input(name, id="name", max_length=32, compact=True)
        yield Static("", id="form-error")
        with Horizontal(classes="buttons"):
            yield Button(f"{self.BUTTON} (Ctrl+S)", id="go", variant="primary", compact=True)
            yield Button("Back (Esc)", id="back", compact=True)
        yield FittingFooter()

    def on_mount(self) -> None:
        self.sub_title = self.TITLE_TEXT
        for field in self.query("Input"):
            field.focus()
            break

    def error(self, text: str) -> None:
        self.query_one("#form-error", Static).update(plain_text(text, None))

    def player_name(self) -> str | None:
        """The name the others will see; None (and why, in the form) if a
        visitor's is not a name by the host's rules."""
        if self.services.grants.visitor:
            from net.grants import guest_name

            try:
                return guest_name(self.query_one("#name", Input).value.strip())
            except ValueError as err:
                self.error(f"Your name here: {err}.")
                return None
        name = plain(self.query_one("#name", Input).value, 32).strip()
        if name and name != self.services.settings.player_name:
            self.services.update_settings(player_name=name)
        return name or "Player"

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        await self.action_go()

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "go":
            await self.action_go()
        else:
            self.action_close()

    def action_close(self) -> None:
        self.dismiss()

    async def action_go(self) -> None:
        raise NotImplementedError

    # the table the lobby opens at once (`cardtable join HOST:PORT --table ID`)
    open_table: str | None = None

    async def open_lobby(self, host: str, port: int, banner: str = "") -> bool:
        """Connect and show the server's lobby; False (and why, in the form) if not."""
        from .lobby import LobbyScreen

        name = self.player_name()
        if name is None:
            return False
        self.error(f"Connecting to {host}:{port}…")
        try:
            client = await connect(
                host, port, name, grants=self.services.grants, config_dir=self.services.config_dir
            )
        except ConnectionError as err:
            self.error(sentence(str(err)))
            return False
        self.error("")
        await self.app.switch_screen(LobbyScreen(client, banner, open_table=self.open_table))
        return True


class JoinScreen(_ServerForm):
    # the footer names the key as the button does
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "go", "Connect", id="net.go"),
    ]
    TITLE_TEXT = "join a table server"
    BUTTON = "Connect"

    def __init__(self, address: str | None = None, table: str | None = None) -> None:
        """With ``address`` (`cardtable join`), the form connects at once,
        and stays, with what went wrong, only if that fails; with ``table``,
        the lobby then sits at that table."""
        super().__init__()
        self.given_address = address
        self.open_table = table

    def on_mount(self) -> None:
        super().on_mount()
        if self.given_address:
            self.query_one("#address", Input).value = self.given_address
            # as Ctrl+S would, from the app's messages: the lobby replaces
            # this screen, which cannot wait for its own end
            self.app.call_later(self.action_go)

    def fields(self) -> ComposeResult:
        hint = "Play at a table server: a friend's (Host) or `cardtable serve`."
        if self.services.grants.visitor:
            hint = "Play the other visitors at the table server this host offers."
        yield Static(hint, classes="hint")
        with Horizontal(classes="row"):
            yield Label("Server (host:port)", classes="name")
            last = self.services.settings.last_server
            yield Input(default_address(last), id="address", compact=True)

    async def action_go(self) -> None:
        try:
            host, port = parse_address(self.query_one("#address", Input).value)
        except ValueError as err:
            self.error(sentence(str(err)))
            return
        if await self.open_lobby(host, port):
            address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
            if address != self.services.settings.last_server:
                self.services.update_settings(last_server=address)


class HostScreen(_ServerForm):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "go", "Start hosting", id="net.go"),
    ]
    TITLE_TEXT = "host a table server"
    BUTTON = "Start hosting"

    def fields(self) -> ComposeResult:
        yield Static(
            "Start a table server in this app: friends join it with Join, "
            "bots with `cardtable bot`. It stops when you quit.",
            classes="hint",
        )
        with Horizontal(classes="row"):
            yield Label("Port", classes="name")
            yield Input(str(DEFAULT_PORT), id="port", type="integer", compact=True)
        with Horizontal(classes="row"):
            yield Label("Other machines", classes="name")
            yield Select(
                [("this machine only (127.0.0.1)", False), ("let other machines join", True)],
                value=False,
                allow_blank=False,
                id="everyone",
                compact=True,
            )

    async def action_go(self) -> None:
        from tui.network import host_banner, machine_addresses

        text = self.query_one("#port", Input).value.strip()
        if not text.isdigit() or not 0 < int(text) < 65536:
            self.error(f"The port is a number from 1 to 65535, not '{plain(text, 12)}'.")
            return
        port = int(text)
        everyone = self.query_one("#everyone", Select).value is True
        try:
            bound = await self.services.host_server(port, everyone)
        except OSError as err:
            if err.errno == errno.EADDRINUSE:
                self.error(
                    f"Port {port} is in use (another server?): try another, like {port + 1}."
                )
            else:
                self.error(f"Cannot listen on port {port}: {err.strerror or err}.")
            return
        everyone = self.services.hosted_everyone  # (a server hosted already stays as it is)
        banner = host_banner(machine_addresses(bound, everyone), everyone)
        await self.open_lobby("127.0.0.1", bound, banner)
