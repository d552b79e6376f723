"""Following a card room's ``elsewhere`` (docs/protocol.md, "A room of
several servers"): a request answered ``elsewhere`` is sent again, unchanged,
at the server named, on a new connection that says hello again; and a
client whose server is gone reconnects through the room's door (the address
it first connected to), which sends it on to wherever its table went.

Kept out of net/remote.py: the RemoteClient calls these at two places, its
``request`` and its reconnection."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from typing import TYPE_CHECKING

import msgspec

from . import protocol as p
from .remote_wire import RemoteError

if TYPE_CHECKING:
    from .remote import RemoteClient

FOLLOWS = [p.REDIRECT]  # what the client's hello announces
MAX_HOPS = 3  # servers a request is sent on to at most (a room answers in one)


def split_address(address: str) -> tuple[str, int]:
    """``HOST:PORT`` (or ``[v6]:PORT``) as (host, port); RemoteError if not."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise RemoteError(p.BAD_MESSAGE, f"the server sent us to {address[:80]!r}, no HOST:PORT")
    return host.strip("[]"), int(port)


def hello(client: RemoteClient) -> p.Hello:
    """The client's hello: its name, with the secret the server gave for it
    once it has given one (else the one the client came with)."""
    assert client.home is not None
    name, program = client.home[2], client.home[3]
    secret = client.welcome.name_secret or client.name_secret
    said = p.Hello(version=p.VERSION, client=program, name=name, name_secret=secret)
    return msgspec.structs.replace(said, capabilities=FOLLOWS)


def keep_welcome(client: RemoteClient, welcome: p.Welcome) -> None:
    """Keep a server's welcome (at each hello: a reconnection, a move to
    another server of the room). A welcome names the name's secret only when
    it gives one: the secret already known is kept with it, or the next
    hello would claim the name anew and be refused the client's own name."""
    if welcome.name_secret is None and client.welcome.name_secret:
        welcome = msgspec.structs.replace(welcome, name_secret=client.welcome.name_secret)
    client.welcome = welcome


async def request_following(client: RemoteClient, message: p.ClientMessage) -> p.ServerMessage:
    """``message``'s reply, at whichever server of the room holds the table."""
    for _ in range(MAX_HOPS):
        answer = await client.request_here(message)
        if not isinstance(answer, p.Elsewhere):
            return answer
        await move_to(client, *split_address(answer.address))
    raise RemoteError(p.NOT_NOW, "the room's servers sent us round in circles: try again")


async def move_to(client: RemoteClient, host: str, port: int) -> None:
    """Leave the current server for ``host:port`` and say hello there;
    ConnectionError if it cannot be reached or does not answer."""
    assert client.home is not None
    client.door = client.door or (client.home[0], client.home[1])
    client.moving = True  # the old connection's end is no drop (nor a failed try's)
    try:
        await client.link.close()
        # "redirected": a `create` sent here is made here, not sent on again
        said = msgspec.structs.replace(hello(client), capabilities=[*FOLLOWS, p.REDIRECTED])
        if not await hello_at(client, host, port, said):
            raise ConnectionError(f"the room's server at {host}:{port} does not answer")
    finally:
        client.moving = False


async def open_again(client: RemoteClient) -> bool:
    """A new connection for a client whose connection dropped, welcomed: at
    the server last used, else at the room's other servers (the door it
    first connected to, and those its welcome listed), each of which knows
    where the table is now; False if none answers.

    The others are tried in an order given by the table (a hash of its id
    and each address): both players of a table reach the same server first,
    and the table is taken over where both come back, neither sent on. A
    server found silent (net/remote_link.py: the link lost for silence, or
    a connect or hello unanswered) is tried last: a vanished machine's
    address may hang every try."""
    assert client.home is not None
    here = (client.home[0], client.home[1])
    if client.link.silent:
        client.silent_places.add(here)
    others = [client.door or here]
    for address in client.welcome.room:  # the room's other servers, as its welcome said
        with contextlib.suppress(RemoteError):
            others.append(split_address(address))
    table = client.table_id or ""

    def shared_order(place: tuple[str, int]) -> bytes:
        return hashlib.sha256(f"{table} {place[0]}:{place[1]}".encode()).digest()

    places = dict.fromkeys([here, *sorted(dict.fromkeys(others), key=shared_order)])
    for host, port in sorted(places, key=lambda place: place in client.silent_places):
        if await hello_at(client, host, port, hello(client)):
            return True
    return False


async def hello_at(client: RemoteClient, host: str, port: int, said: p.Hello) -> bool:
    """Connect to ``host:port`` and say ``hello``, each within the client's
    patience: True once welcomed (the client is then there); False if the
    address refuses or does not answer (then noted silent). RemoteError if
    the server refuses the hello ``said``."""
    patience = client.patience
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, limit=p.MAX_SERVER_LINE), patience.connect
        )
    except TimeoutError:
        client.silent_places.add((host, port))
        return False
    except OSError:
        return False
    client.relink(reader, writer)
    _now_at(client, host, port)
    try:
        welcome = await asyncio.wait_for(client.request_here(said), patience.hello)
    except TimeoutError:
        client.silent_places.add((host, port))
        client.link.abort()
        return False
    except (OSError, ConnectionError):
        return False
    if isinstance(welcome, p.Welcome):
        keep_welcome(client, welcome)
    client.silent_places.discard((host, port))
    return True


def _now_at(client: RemoteClient, host: str, port: int) -> None:
    assert client.home is not None
    client.home = (host, port, *client.home[2:])
    client.address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
