"""`cardtable stats`: the record on the command line, checked against saves."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

import pytest

from net.server import TableServer
from saves.store import SaveStore
from tests.saves.stats_records import at, computer, person, played_record, you
from tui import cli


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def store(tmp_path: Path) -> SaveStore:
    store = SaveStore(tmp_path)
    for s in range(4):
        store.save(played_record("domination", [you(), computer("hard")], s, when=at(s)))
    store.save(played_record("trick", [person("Ann"), you()], 7, when=at(7)))
    store.games_dir.joinpath("deadbeef.json").write_text("{}")
    return store


def test_stats_prints_the_record_counted_from_the_saves(
    store: SaveStore, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [e.record for e in store.list() if e.record and e.record.game == "domination"]
    wins = sum(1 for r in records if r.result and r.result["winner"] == 0)
    code, out, _ = run(capsys, "stats", "domination", "--data-dir", str(store.root))
    assert code == 0
    assert "From 5 finished games (1 file skipped: unreadable or not a game)." in out
    assert f"Domination: 4 games: {wins} wins, {4 - wins} losses" in out
    assert f"Computer (hard): {wins}-{4 - wins}-0" in out
    assert "Five-Card Trick" not in out  # only the game asked for
    assert "Biggest round:" in out


def test_stats_json_holds_the_same_figures(
    store: SaveStore, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "stats", "--json", "--data-dir", str(store.root))
    assert code == 0
    data = json.loads(out)
    assert data["finished"] == 5 and len(data["skipped"]) == 1
    trick = data["players"]["Ann"]["trick"]
    assert trick["games"] == 1 and trick["by_opponent"]["You"]["games"] == 1
    assert trick["rating"]["sigma"] < 25 / 3  # rated once
    assert set(data["players"]["You"]) == {"domination", "trick"}


def test_an_unknown_player_or_game_is_one_line(
    store: SaveStore, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "stats", "--player", "Zed", "--data-dir", str(store.root))
    assert code == 1 and out == ""
    assert err.strip() == "cardtable: no finished games of a player called 'Zed'; players: You, Ann"
    code, _, err = run(capsys, "stats", "chess", "--data-dir", str(store.root))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "no game called" in err


def test_stats_of_an_empty_folder_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "stats", "--data-dir", str(tmp_path))
    assert code == 0
    assert "No finished games yet: play one, and it counts here." in out


def test_stats_reads_a_record_kept_at_a_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The server's games live in its own folder: here one Bo lost to a computer."""
    server_dir = tmp_path / "server"
    SaveStore(server_dir).save(
        played_record("trick", [person("Bo"), computer("easy")], 4, resign_at=(0, 0))
    )
    loop = asyncio.new_event_loop()
    server = TableServer(SaveStore(server_dir))
    host, port = loop.run_until_complete(server.start("127.0.0.1", 0))
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        code, out, _ = run(capsys, "stats", "--server", f"{host}:{port}", "--player", "Bo")
        assert code == 0
        assert out.splitlines()[:2] == [
            f"Bo at {host}:{port}",
            "  Five-Card Trick: 1 game: 0 wins, 1 loss, 1 resignation (0%)",
        ]
        assert "Computer (easy): 0-1-0 (0%)" in out
        code, out, _ = run(capsys, "stats", "--server", f"{host}:{port}", "--player", "Zed")
        assert (code, out.splitlines()[-1]) == (0, "No finished games there yet.")
    finally:
        asyncio.run_coroutine_threadsafe(server.close(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
