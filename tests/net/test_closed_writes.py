"""What the server writes to a connection that has closed is dropped, on
either loop it runs on (net/server/event_loop.py): uvloop raises where the
standard loop passes over a write to a closed transport, and a close that
raised would skip what follows it (the address's count of connections given
back: net/server/table_server.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from net.server.connection import StreamSender


async def _write_after_close() -> bytes:
    accepted: asyncio.Future[asyncio.StreamWriter] = asyncio.get_running_loop().create_future()

    async def took(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.set_result(writer)

    server = await asyncio.start_server(took, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    reader, client = await asyncio.open_connection("127.0.0.1", port)
    writer = await accepted
    sender = StreamSender(writer, 1 << 20)
    sender.deliver(b"first\n")
    sender.close()  # the line goes, then the connection closes
    await writer.wait_closed()
    sender.deliver(b"after the close\n")  # a listener's update, a turn late
    sender.flush()
    sender.close()  # (the connection's own end closes it again)
    await asyncio.sleep(0)
    got = await reader.read()
    client.close()
    server.close()
    await server.wait_closed()
    return got


def _loops() -> list[Callable[[Coroutine[Any, Any, bytes]], bytes]]:
    loops: list[Callable[[Coroutine[Any, Any, bytes]], bytes]] = [asyncio.run]
    try:
        import uvloop
    except ImportError:
        pass
    else:
        loops.append(uvloop.run)
    return loops


@pytest.mark.parametrize("run", _loops(), ids=lambda run: run.__module__.split(".")[0])
def test_lines_for_a_closed_connection_are_dropped(
    run: Callable[[Coroutine[Any, Any, bytes]], bytes],
) -> None:
    assert run(_write_after_close()) == b"first\n"
