"""A data dir written by the file-based server (tests/net/store/legacy_data,
made by make_legacy_data.py on that server) upgrades into the store once,
with everything in it, on both engines."""

from __future__ import annotations

import hashlib
import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

from net.store import NameKept, Store
from net.store.legacy import upgrade
from saves.store import SaveStore
from tests.saves.helpers import played_record

LEGACY = Path(__file__).parent / "legacy_data"


async def test_an_old_data_dir_arrives_whole(store: Store, tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(LEGACY, data)
    expected = json.loads((data / "expected.json").read_text())
    mine = played_record(4, record_id="0000a11c")  # a person's own game: stays a file
    mine.seats[1] = mine.seats[0]
    SaveStore(data).save(mine)
    # the names log of the server built from parts (a claim, then a torn line)
    cy = hashlib.sha256(b"cy's secret").hexdigest()
    (data / "server" / "names.log").write_text(
        json.dumps({"name": "cy", "digest": cy, "at": 1.0}) + "\n" + '{"name": "d'
    )
    line = await upgrade(store, data, today=datetime(2026, 11, 28, tzinfo=UTC))
    assert line is not None and "\n" not in line
    assert "3 games (2 tables held with their seats), 3 names" in line
    aside = data / "server" / "legacy-20261128"
    assert str(aside) in line
    assert sorted(p.name for p in (aside / "games").iterdir()) == sorted(
        f"{t}.json" for t in [*expected["tokens"], expected["finished"]]
    )
    assert (aside / "server" / "tables.json").exists()
    assert not (data / "server" / "tables.json").exists()
    assert [p.name for p in (data / "games").iterdir()] == ["0000a11c.json"]
    # the game under way: every move, and each seat's token
    kept = await store.seats.kept()
    for table, tokens in expected["tokens"].items():
        for seat, token in tokens.items():
            digest = hashlib.sha256(token.encode()).digest()
            assert kept[table].tokens[int(seat)] == digest
            assert await store.seats.seat_of_token(digest) == (table, int(seat))
    for table, moves in expected["moves"].items():
        record = await store.tables.load_record(table)
        assert len(record.moves) == moves and record.replay()
        assert kept[table].started
    assert not kept[expected["waiting"]].started
    finished = await store.tables.load_record(expected["finished"])
    assert finished.status == "finished"
    # names keep their secrets
    for name, secret in expected["secrets"].items():
        assert await store.names.check(name.upper(), secret) is None
        try:
            await store.names.check(name, "not the secret")
        except NameKept:
            pass
        else:
            raise AssertionError(f"{name} let in without its secret")
    assert await store.names.check("Cy", "cy's secret") is None
    assert not (data / "server" / "names.log").exists()
    board = await store.standings.leaderboard(finished.game)
    assert [(p["name"], p["games"], p["claimed"]) for p in board["players"]] == [("Ada", 1, True)]
    # once only: the next start finds nothing to read
    assert await upgrade(store, data) is None
