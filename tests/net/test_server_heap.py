"""The server's heap is settled before it serves (net/server/heap.py): what
start-up left is frozen out of the cyclic collector's full scans, and what
comes after is still collected. Run in a process of its own: a freeze is for
the whole process, and the test run's heap is not the server's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_CHECK = """
import gc
from net.server.heap import settle_heap
from rules.registry import games

games()
frozen = settle_heap()
assert frozen > 10_000, frozen  # the modules and the games' tables
assert gc.get_freeze_count() == frozen
assert gc.get_threshold() == (700, 2, 10)  # young scans small and often while it serves

class Node:
    pass

a, b = Node(), Node()
a.other, b.other = b, a  # a cycle made after the freeze is still garbage
del a, b
assert gc.collect() >= 2
print("ok", frozen)
"""


def test_start_up_is_frozen_and_later_garbage_is_still_collected() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _CHECK], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok ")


def test_serve_settles_its_heap_before_it_brings_back_tables() -> None:
    source = (ROOT / "tui" / "serve_cli.py").read_text()
    settle = source.index("settle_heap()")
    assert settle < source.index("await server.start(")  # (start brings the tables back)


_PACED = """
import gc
import weakref
from net.server.heap import PacedCollector

class Node:
    pass

def cycle():
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a

pacer = PacedCollector(settle_every=10.0, full_every=30.0)
young = cycle()
del young  # garbage before the step: collected by it, not frozen
kept = [Node() for _ in range(1000)]
before = gc.get_freeze_count()
assert pacer.step() is False  # 10 s: the young collected, the rest frozen
assert gc.get_freeze_count() >= before + 1000
assert not any(type(o) is Node for o in gc.get_objects())  # frozen: out of the scans
old = cycle()
probe = weakref.ref(old)
assert pacer.step() is False  # 20 s
del old  # garbage among frozen objects: waits for the full collection
gc.collect()
assert probe() is not None
assert pacer.step() is True  # 30 s: unfrozen, collected, frozen again
assert probe() is None and gc.get_freeze_count() > 0
print("ok")
"""


def test_the_collector_is_paced_frozen_objects_freed_at_the_full_collection() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PACED], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok")
