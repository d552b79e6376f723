"""`cardtable serve`: a headless server on loopback that a client can use."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import pytest

from net.remote import RemoteClient
from net.store import open_store
from tui.cli import main

from .netkit import HANG


def test_a_bad_port_or_grace_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["serve", "--port", "70000", "--data-dir", str(tmp_path)]) == 2
    assert "--port" in capsys.readouterr().err
    assert main(["serve", "--grace", "0", "--data-dir", str(tmp_path)]) == 2
    assert "--grace" in capsys.readouterr().err
    assert main(["serve", "--finished-table-expiry", "0", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "--finished-table-expiry must be more than 0" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
async def test_serve_listens_on_loopback_and_hosts_a_table(
    tmp_path: Path, stop: signal.Signals
) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "from tui.cli import main; raise SystemExit(main())",
        "serve",
        "--port",
        "0",
        "--data-dir",
        str(tmp_path),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2],
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    try:
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), HANG)).decode()
        assert "serving tables on 127.0.0.1:" in line
        port = int(line.split("127.0.0.1:")[1].split(";")[0])
        client = await RemoteClient.connect("127.0.0.1", port, "Ada")
        table = await client.create(
            "domination", ["open", "computer:easy"], options={"first_leader": "0"}
        )
        await client.join(table.table)
        update = await client.wait_for(lambda u: bool(u.legal))
        await client.play(0, update.legal[0], update.state_id)
        await client.close()
        # it serves on uvloop (net/server/event_loop.py), its library loaded
        maps = Path(f"/proc/{process.pid}/maps")
        if maps.exists():
            assert "uvloop" in maps.read_text()
        # a client still there hears why its connection ends
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b'{"type": "hello", "version": 1, "client": "t", "name": "Bo"}\n')
        assert json.loads(await asyncio.wait_for(reader.readline(), HANG))["type"] == "welcome"
    finally:
        # at once: the move's save may still be on its way to the disk
        process.send_signal(stop)
        code = await asyncio.wait_for(process.wait(), HANG)
    last = json.loads((await asyncio.wait_for(reader.read(), HANG)).splitlines()[-1])
    assert last == {"type": "closing", "reason": "the server is shutting down"}
    writer.close()
    assert code == 0  # an orderly stop, for a service manager's SIGTERM too
    # the server keeps its games in its database (docs/store.md)
    store = await open_store(None, tmp_path)
    saved = await store.tables.load_record(table.table)
    await store.close()
    assert saved.moves[0] == (0, update.legal[0])
