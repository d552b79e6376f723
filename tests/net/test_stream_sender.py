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
        self.closing = False

    def is_closing(self) -> bool:
        return self.closing or self.aborted

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
        self.transport.closing = True


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


async def test_a_hold_keeps_the_lines_back_until_released_then_one_write() -> None:
    """A move's update waits for its `ok` (net/server/seats.py): both in one write."""
    sender, writer = _sender()
    sender.hold()
    sender.deliver(b"update\n")
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert writer.writes == []  # held over the turns the commit takes
    sender.deliver(b"ok\n")
    sender.release()
    assert writer.writes == [b"update\nok\n"]


async def test_a_hold_lapses_so_a_slow_commit_keeps_nothing_back_for_long() -> None:
    sender, writer = _sender()
    sender.hold()
    sender.deliver(b"update\n")
    await asyncio.sleep(0)
    assert writer.writes == []
    sender.HOLD_MOST = -1.0  # the hold's time is over (no clock to wait for)
    sender.deliver(b"pong\n")  # a line after the hold's time: both go
    await asyncio.sleep(0)
    assert writer.writes == [b"update\npong\n"]
    sender.release()
    sender.deliver(b"ok\n")
    await asyncio.sleep(0)
    assert writer.writes == [b"update\npong\n", b"ok\n"]


async def test_closing_while_held_sends_what_is_held() -> None:
    sender, writer = _sender()
    sender.hold()
    sender.deliver(b"last\n")
    sender.close()
    assert writer.writes == [b"last\n"] and writer.closed
