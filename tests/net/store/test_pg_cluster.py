"""The tests' own PostgreSQL (tests/net/store/postgres.py): a run killed
outright leaves its server running, and the next run that starts one stops
it first, so killed runs do not pile servers up on a machine."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

from tests.processes import process_ended

from . import postgres

ROOT = Path(__file__).resolve().parents[3]

# a run that starts the server and is then killed (it never lets go)
KILLED_RUN = """
import sys, time
from tests.net.store import postgres
held = postgres.shared_cluster(sys.argv[1])  # (kept: a dropped one would let go)
held.__enter__()
print("up", flush=True)
time.sleep(600)
"""


@pytest.mark.slow
def test_the_server_of_a_killed_run_is_stopped_by_the_next_run() -> None:
    if postgres.binaries() is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI needs PostgreSQL: {postgres.HOW_TO_GET}")
        pytest.skip(postgres.HOW_TO_GET)
    run = f"killed-{uuid.uuid4().hex[:8]}"
    folder = Path(tempfile.gettempdir()) / f"cardtable-pg-{run}"
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_RUN, run],
        stdout=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == b"up\n"
    finally:
        child.kill()
        child.wait()
    server = int((folder / "data" / "postmaster.pid").read_text().split()[0])
    assert not process_ended(server)  # abandoned: nobody will stop it

    with postgres.shared_cluster(None) as cluster:  # the next run starts its own
        assert cluster.folder != folder
        assert not folder.exists()
    assert process_ended(server)
