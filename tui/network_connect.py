"""Connecting to a table server, the part that is not a screen: the name
the others see, and :func:`connect`, through which every connection the app
(or line mode) makes goes, so a visitor's grants hold on every path."""

from __future__ import annotations

import asyncio
import errno
import getpass
import os
import socket
from pathlib import Path
from typing import TYPE_CHECKING

from tui.name_secrets import keep_secret, secret_for
from tui.plain import plain

if TYPE_CHECKING:
    from net.grants import Grants
    from net.remote import RemoteClient

__all__ = ["CONNECT_SECONDS", "connect", "default_name", "unreachable"]

CONNECT_SECONDS = 10.0  # a server that does not answer within this is unreachable


# logins that name an account, not a person: the name field offers "Player"
SYSTEM_LOGINS = frozenset({"root", "admin", "administrator", "user", "nobody", "ubuntu", "pi"})


def default_name(saved: str) -> str:
    """The name the others see: the one saved in the settings, else the login
    name if it is a person's, else a neutral "Player"."""
    if saved.strip():
        return saved.strip()
    try:
        login = getpass.getuser()
    except (OSError, KeyError):
        return "Player"
    return login if login and login.lower() not in SYSTEM_LOGINS else "Player"


def visitor_name() -> str:
    """An ssh-host visitor's login name, as the host checked it and handed it
    to this process (``USER``): the name their Join form offers."""
    return plain(os.environ.get("USER", ""), 32).strip() or "Player"


async def connect(
    host: str, port: int, name: str, *, grants: Grants, config_dir: Path | None = None
) -> RemoteClient:
    """A lobby connection; ConnectionError with a one-line sentence if not.

    Every connection the app makes comes through here, so the grants are
    checked here: an address a visitor may not join is refused before any
    packet leaves, in the same words whether something listens there or not."""
    from net.grants import NOT_ALLOWED, same_host
    from net.remote import RemoteClient, RemoteError

    # the host the grants are checked for is the one connected to: one
    # spelling ("127.0.0.1." and "127.0.0.1 " are 127.0.0.1, never a name lookup)
    host = same_host(host)
    if not grants.may_join(host, port):
        raise ConnectionError(NOT_ALLOWED)
    where = f"{host}:{port}"
    # the name is claimed at the server, and kept with its secret (tui/name_secrets.py)
    secret = secret_for(config_dir, where, name) if config_dir is not None else None
    try:
        client = await asyncio.wait_for(
            RemoteClient.connect(host, port, name, name_secret=secret), timeout=CONNECT_SECONDS
        )
    except TimeoutError:
        raise ConnectionError(f"no answer from {where} within {CONNECT_SECONDS:g} s") from None
    except RemoteError as err:
        raise ConnectionError(f"{where} refused us: {err}") from None
    except OSError as err:
        raise ConnectionError(unreachable(host, port, err)) from None
    given = client.welcome.name_secret
    if config_dir is not None and given:
        # under the name sent, and the name the server made of it (the lobby
        # reconnects with that one)
        for kept_as in {name, client.welcome.name or name}:
            keep_secret(config_dir, where, kept_as, given)
    return client


def unreachable(host: str, port: int, err: OSError) -> str:
    """Why a server cannot be reached, in words (never Python's own text)."""
    where = f"{plain(host, 60)}:{port}"
    text = str(err)
    if isinstance(err, ConnectionRefusedError) or "Connect call failed" in text:
        return f"nothing is listening at {where}: is the server running, on that port?"
    if isinstance(err, socket.gaierror):
        return f"no machine called {plain(host, 60)} can be found: check the address"
    if err.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
        return f"{where} cannot be reached from this machine's network"
    return f"cannot connect to {where}: {plain(err.strerror or text, 80)}"
