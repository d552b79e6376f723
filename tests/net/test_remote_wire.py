"""The client's end of the wire (net/remote_wire.py, net/remote.py): every
server line decoded once into the protocol's Structs, so that a field the
client reads and the server renamed fails at the boundary (and mypy fails
where the client reads it), never as a lobby gone quietly blank; and no code
above the boundary reads a message by a string key."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import msgspec
import pytest

from net import protocol as p
from net.remote import RemoteClient
from net.remote_wire import UnknownMessage, read_line

ROOT = Path(__file__).resolve().parents[2]
# where messages are read: the client, and every screen and command that
# names what a server sent (the game screens among them)
SPEAKS_WIRE = re.compile(r"RemoteClient|net\.protocol|import protocol|seat_states|\.welcome")
READERS = [
    path
    for path in [*sorted((ROOT / "net").glob("*.py")), *sorted((ROOT / "tui").rglob("*.py"))]
    # (the server builds messages; net/client.py reads an Update's own JSON form)
    if path.name not in ("server.py", "client.py") and SPEAKS_WIRE.search(path.read_text("utf-8"))
] + sorted((ROOT / "tui" / "games").glob("*.py"))
# a message read by a string key: message.get("name"), reply["tables"]...
RECEIVER = r"\b(reply|message|summary|seat|state|welcome|row|data|record|rating|update|line)"
BY_KEY = re.compile(rf"""{RECEIVER}(\.get\(|\[)\s*["']""")

WELCOME = p.Welcome(
    id=1, version=1, server="x", capabilities=["standings"], games=[], levels=[], name="Ada"
)


def test_no_code_above_the_boundary_reads_a_message_by_a_string_key() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in READERS
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if BY_KEY.search(line)
    ]
    assert found == []
    for path in sorted((ROOT / "net").glob("remote*.py")):
        assert "dict[str, Any]" not in path.read_text("utf-8"), path


def test_a_renamed_field_fails_at_the_boundary_and_an_unknown_message_is_passed_over() -> None:
    summary = {
        "table": "a47c3e57",
        "game": "g",
        "preset": "",
        "options": {},
        "status": "waiting",
        "seats": [{"seat": 0, "kind": "open", "name": None, "level": None}],
        "if_gone": "computer",
        "spectators": 0,
    }
    line = msgspec.json.encode(
        {"type": "tables", "id": 3, "tables": [summary], "total": 1, "offset": 0}
    )
    received = read_line(line + b"\n")
    assert isinstance(received.message, p.Tables)
    assert received.message.tables[0].seats[0].kind == "open"
    renamed = {**summary, "seat_list": summary["seats"]}
    del renamed["seats"]
    bad = msgspec.json.encode(
        {"type": "tables", "id": 3, "tables": [renamed], "total": 1, "offset": 0}
    )
    with pytest.raises(msgspec.ValidationError, match="seats"):
        read_line(bad)
    with pytest.raises(UnknownMessage):  # a newer server's message: not an error
        read_line(b'{"type": "fireworks", "colour": "red"}')
    # a field the client does not know is ignored (docs/protocol.md, "Compatibility")
    assert isinstance(read_line(b'{"type": "ping", "new": 1}').message, p.Ping)


async def _fake_server(lines: list[p.ServerMessage]) -> tuple[asyncio.Server, int]:
    """A server that welcomes, says ``lines``, then closes the connection."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()  # the hello
        writer.write(p.encode(WELCOME))
        await writer.drain()
        for line in lines:
            writer.write(p.encode(line))
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


async def test_a_closing_server_s_reason_is_the_client_s_farewell() -> None:
    server, port = await _fake_server([p.Closing(reason="the server is shutting down")])
    try:
        client = await RemoteClient.connect("127.0.0.1", port, "Ada")
        assert client.welcome.name == "Ada" and client.has_standings
        for _ in range(100):
            if client.closed:
                break
            await asyncio.sleep(0)  # the reader's turn (no wall clock)
        assert client.closed
        assert client.farewell == "the server is shutting down"
        await client.close()
    finally:
        server.close()
        await server.wait_closed()
