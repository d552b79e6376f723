"""A link's watch of the server's silence naps while the client waits on
nothing, and a request ends the nap at once (net/remote_link.py): the
request's own silence is then watched, however long the nap was to be."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from net import protocol as p
from net.remote_link import PATIENCE, Patience, ServerLink

from .netkit import HANG

# the watch naps for ever while nothing is asked, and takes a server that
# says nothing for a twentieth of a second after a request for gone
NAPPING = Patience(
    quiet=1e9, answer=1e9, answer_alone=1e9, quiet_alone=1e9, unpinged=0.05, busy=0.05
)


@dataclass
class Client:
    patience: Patience = NAPPING
    table_id: str | None = None  # at no table: only a pending request is watched
    welcome: p.Welcome = field(
        default_factory=lambda: p.Welcome(
            id=None, version=0, server="", capabilities=[], games=[], levels=[], name=""
        )
    )
    closed: bool = True


async def test_a_request_wakes_the_napping_watch_which_then_finds_the_server_silent() -> None:
    heard: list[bytes] = []

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        heard.append(await reader.readline())  # reads the request, answers nothing
        await reader.read()  # (until the client drops the connection)
        writer.close()

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    ended = asyncio.Event()
    link = ServerLink(
        reader,
        writer,
        iter(range(1, 1000)),
        received=lambda message: None,
        ended=ended.set,
        watcher=Client(),
    )
    await asyncio.sleep(0)  # the watch starts its nap (nothing asked yet)
    asked = asyncio.ensure_future(link.request(p.ListTables(id=None)))
    # woken by the request, the watch sees 0.05 s of silence and drops the link
    await asyncio.wait_for(ended.wait(), HANG)
    assert link.silent
    assert heard and b"list" in heard[0]
    try:
        await asyncio.wait_for(asked, HANG)
    except ConnectionError:
        pass
    else:
        raise AssertionError("a request to a silent server must fail")
    await link.close()
    server.close()
    await server.wait_closed()
    assert PATIENCE.quiet < NAPPING.quiet  # (the nap here is longer than any real one)
