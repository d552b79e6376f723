"""A connection's lines onto its stream (net/server/connection.py): the
replies of one turn of the event loop in one write, in order, and a client
that does not read cut off."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from net.server.connection import StreamSender


class FakeTransport:
    def __init__(self) -> None:
        self.buffered = 0  # what the kernel did not take
        self.aborted = False

    def get_write_buffer_size(self) -> int:
        return self.buffered

    def abort(self) -> None:
        self.aborted = True


class FakeWriter:
    def __init__(self) -> None:
        self.transport = FakeTransport()
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def close(self) -> None:
        self.closed = True


def _sender(max_unsent: int = 1000) -> tuple[StreamSender, FakeWriter]:
    writer = FakeWriter()
    return StreamSender(cast(Any, writer), max_unsent), writer


async def test_the_lines_of_one_turn_go_out_in_one_write_in_order() -> None:
    sender, writer = _sender()
    assert sender.deliver(b"a\n") and sender.deliver(b"b\n")
    assert writer.writes == []  # not yet: at the end of this turn
    await asyncio.sleep(0)
    assert writer.writes == [b"a\nb\n"]
    sender.deliver(b"c\n")
    await asyncio.sleep(0)
    assert writer.writes == [b"a\nb\n", b"c\n"]


async def test_closing_sends_what_is_queued_first() -> None:
    sender, writer = _sender()
    sender.deliver(b"closing\n")
    sender.close()
    assert writer.writes == [b"closing\n"] and writer.closed


async def test_a_client_that_does_not_read_is_cut_off() -> None:
    sender, writer = _sender(max_unsent=10)
    sender.deliver(b"x" * 50 + b"\n")
    writer.transport.buffered = 51  # the kernel took none of it
    await asyncio.sleep(0)
    assert writer.transport.aborted
    assert not sender.deliver(b"more\n")  # the peer hears it is dropped
    await asyncio.sleep(0)
    assert writer.writes == [b"x" * 50 + b"\n"]
