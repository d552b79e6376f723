"""The message schema: every client message is decoded against its declared
shape, and anything else is refused with a code and a sentence that names
what was wrong (and the request id, where it can be read)."""

from __future__ import annotations

import pytest

from net import protocol as p


def refused(line: bytes) -> p.ProtocolError:
    with pytest.raises(p.ProtocolError) as caught:
        p.decode_client(line)
    return caught.value


def test_each_message_decodes_to_its_type() -> None:
    assert p.decode_client(
        b'{"type":"hello","version":1,"client":"x","name":"Ada","id":1}'
    ) == p.Hello(version=1, client="x", name="Ada", id=1)
    create = p.decode_client(
        b'{"type":"create","game":"trick","seats":["open","computer:hard"],'
        b'"options":{"rounds":5,"doubles":true},"if_gone":"resign"}'
    )
    assert isinstance(create, p.Create)
    assert create.options == {"rounds": 5, "doubles": True} and create.if_gone == "resign"
    assert p.decode_client(b'{"type":"move","move":"AS","state_id":3}') == p.Move("AS", 3)
    assert p.decode_client(b'{"type":"join","table":"abcdef12"}') == p.Join("abcdef12")


@pytest.mark.parametrize(
    ("line", "code", "words"),
    [
        (b"not json", p.BAD_JSON, "malformed"),
        (b"[1, 2]", p.BAD_MESSAGE, "JSON object"),
        (b'"hello"', p.BAD_MESSAGE, "JSON object"),
        (b'{"type":"dance","id":4}', p.BAD_MESSAGE, "$.type"),
        (b'{"version":1}', p.BAD_MESSAGE, "type"),
        (b'{"type":"move","move":7,"state_id":1,"id":5}', p.BAD_MESSAGE, "$.move"),
        (b'{"type":"move","move":"7","state_id":1e400}', p.BAD_MESSAGE, "state_id"),
        (b'{"type":"move","move":"7","state_id":' + b"9" * 4000 + b"}", p.BAD_MESSAGE, "<="),
        (b'{"type":"move","move":"7","state_id":-1}', p.BAD_MESSAGE, ">= 0"),
        (b'{"type":"move","move":"7","state_id":1,"sneaky":1}', p.BAD_MESSAGE, "sneaky"),
        (b'{"type":"join","table":"../../etc"}', p.BAD_MESSAGE, "$.table"),
        (b'{"type":"create","game":"x","seats":["robot"]}', p.BAD_MESSAGE, "seats"),
        (b'{"type":"create","game":"x","seats":["open"],"options":{"a":[[1]]}}', p.BAD_MESSAGE, ""),
        (b'{"a":' + b"[" * 100_000, p.BAD_JSON, ""),
        (b'{"type":"chat","text":"' + b"x" * (p.MAX_LINE) + b'"}', p.BAD_JSON, "16384"),
        (b"\xff\xfe{}", p.BAD_JSON, ""),
    ],
)
def test_anything_else_is_refused_with_a_reason(line: bytes, code: str, words: str) -> None:
    err = refused(line)
    assert err.code == code, err.message
    assert words in err.message


def test_the_error_echoes_the_request_id_when_it_can_be_read() -> None:
    assert refused(b'{"type":"move","move":7,"state_id":1,"id":5}').request_id == 5
    assert refused(b'{"type":"nope","id":9}').request_id == 9
    assert refused(b"[]").request_id is None


def test_server_messages_are_single_lines() -> None:
    line = p.encode({"type": "chat", "text": "two\nlines"})
    assert line.endswith(b"\n") and line.count(b"\n") == 1
