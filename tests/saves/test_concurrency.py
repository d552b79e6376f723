"""Several writers at once (threads, then processes): never a torn file.

A reader running alongside must always find a whole record, one of those
written, and no temp file may be left behind.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from saves.errors import SaveError
from saves.store import SaveStore

from .helpers import played_record

REPO = Path(__file__).resolve().parents[2]


def test_threads_saving_the_same_and_different_records(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    full = played_record(moves=40)
    assert len(full.moves) > 30
    # versions of one record that differ in length, so a torn mix would show
    versions = [full.copy() for _ in range(4)]
    for n, version in enumerate(versions):
        version.moves = full.moves[: 10 * (n + 1)]
    store.save(versions[0])
    lengths = {len(v.moves) for v in versions}
    others = [played_record(moves=5, record_id=f"bbbb000{i}") for i in range(4)]
    errors: list[BaseException] = []
    stop = threading.Event()

    def write(i: int) -> None:
        try:
            for _ in range(40):
                store.save(versions[i])
                store.save(others[i])
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    seen: list[int] = []

    def read() -> None:
        while not stop.is_set():
            try:
                seen.append(len(store.load(full.id).moves))
            except BaseException as err:  # pragma: no cover - reported below
                errors.append(err)
                return

    reader = threading.Thread(target=read)
    reader.start()
    writers = [threading.Thread(target=write, args=(i,)) for i in range(4)]
    for t in writers:
        t.start()
    for t in writers:
        t.join()
    stop.set()
    reader.join()
    assert errors == []
    assert seen and set(seen) <= lengths
    assert len(store.load(full.id).moves) in lengths
    for other in others:
        assert store.load(other.id) == other
    assert sorted(os.listdir(store.games_dir)) == sorted(
        [f"{full.id}.json"] + [f"{o.id}.json" for o in others]
    )


WRITER = """
import json, sys
from pathlib import Path
from saves.record import GameRecord
from saves.store import SaveStore
store = SaveStore(Path(sys.argv[1]))
record = GameRecord.from_json(json.loads(Path(sys.argv[2]).read_text("utf-8")))
print("ready", flush=True)
sys.stdin.readline()  # start together
for _ in range(int(sys.argv[3])):
    store.save(record)
"""


def test_processes_saving_the_same_record(tmp_path: Path) -> None:
    store = SaveStore(tmp_path / "data")
    full = played_record(moves=40)
    assert len(full.moves) > 5
    short, long = full.copy(), full.copy()
    short.moves = full.moves[:5]
    store.save(short)
    sources = []
    for name, version in (("short", short), ("long", long)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(version.to_json()), "utf-8")
        sources.append(path)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(store.root), str(src), "60"],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for src in sources
    ]
    for p in procs:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    seen = set()
    failures = []
    while any(p.poll() is None for p in procs):
        try:
            seen.add(len(store.load(full.id).moves))
        except SaveError as err:  # a torn file would land here
            failures.append(str(err))
    for p in procs:
        _, stderr = p.communicate()
        assert p.returncode == 0, stderr
    assert failures == []
    assert seen <= {5, len(full.moves)}
    assert len(store.load(full.id).moves) in {5, len(full.moves)}
    assert os.listdir(store.games_dir) == [f"{full.id}.json"]
