"""Options a save cannot hold are refused when a table is created: a table
whose save could not be read back would play, then be lost at a restart
(real sockets on 127.0.0.1; the exact `create` line a client would send)."""

from __future__ import annotations

from pathlib import Path

import pytest

from net import protocol as p
from rules.config import SAVED_INT_LIMIT
from saves.store import SaveStore

from .netkit import serving

CREATE = (
    b'{"type": "create", "id": 7, "game": "domination", "seats": ["open", "open"], '
    b'"options": {"target_score": %s}}\n'
)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (b"9223372036854775808", "9223372036854775808"),  # 2^63
        (b"18446744073709551616", "18446744073709551616"),  # 2^64
        (b"1" + b"0" * 400, "1000000000000000000000000000000000000000..."),
    ],
)
async def test_a_create_with_an_option_no_save_holds_is_refused(
    tmp_path: Path, value: bytes, shown: str
) -> None:
    async with serving(tmp_path) as served:
        raw = await served.raw()
        await raw.hello()
        reply = await raw.reply(CREATE % value)
        assert reply == {
            "type": "error",
            "id": 7,
            "code": p.BAD_OPTIONS,
            "message": f"option 'target_score' must be at most {SAVED_INT_LIMIT}; got {shown}",
        }
        assert (await raw.reply({"type": "list", "id": 8}))["tables"] == []
        assert served.server.tables == {}
        raw.close()
    assert SaveStore(tmp_path).list() == []  # no game was saved, so none is lost


async def test_the_largest_option_a_save_holds_plays_and_comes_back_after_a_restart(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        raw = await served.raw()
        await raw.hello()
        reply = await raw.reply(CREATE % str(SAVED_INT_LIMIT).encode())
        assert reply["type"] == "created", reply
        table_id = reply["table"]["table"]
        assert reply["table"]["options"]["target_score"] == SAVED_INT_LIMIT
        joined = await raw.reply({"type": "join", "id": 9, "table": table_id})
        assert joined["type"] == "joined"
        raw.close()
        await served.server.tables[table_id].table.idle()
    [entry] = SaveStore(tmp_path).list()
    assert entry.error is None and entry.record is not None
    assert entry.record.config["target_score"] == SAVED_INT_LIMIT
    async with serving(tmp_path) as again:  # the restarted server brings it back
        assert table_id in again.server.tables
