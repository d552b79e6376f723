"""The server process's heap, settled once before it serves.

Python's cyclic garbage collector now and then scans every object it tracks
(a "full" collection), with the event loop stopped. A fresh `cardtable serve`
tracks about 30,000 objects of its own modules, the games' tables and the
store, none of which ever becomes garbage; on this 2-core machine a full
collection of them took 40-75 ms, a whole move round trip's budget (issue 34's
goal: p99 <= 50 ms), and allocation-heavy traffic (a connection churn from one
address) makes full collections more frequent. ``gc.freeze()`` moves what
exists at that moment out of the collector's sight for good, so later
collections scan only what came after: the tables and connections of the
run. Frozen objects that become cyclic garbage are never freed, which is why
this is done once, before the tables of an earlier run are brought back;
what comes later is frozen as it settles (:class:`PacedCollector`)."""

from __future__ import annotations

import gc
from collections.abc import Awaitable, Callable

# The collector's thresholds while the server serves: a young scan of a
# busy server is bound by memory (each reference into an 80 MB heap is
# likely a cache miss: 8.7% of the loop's time at 1,000 tables, py-spy), so
# a generation-1 scan of ten generation-0 scans' survivors stopped the loop
# for 31-43 ms of CPU. After two, the scans are smaller and more often (and
# what settles is frozen every 2 s, so the oldest generation stays small):
# in three pairs at 1,000 tables, p99 23.0, 24.1, 72.3 -> 17.9, 20.1, 20.5
# ms, the longest generation-1 scan 11-27 ms (docs/store.md)
THRESHOLDS = (700, 2, 10)


def settle_heap() -> int:
    """Collect what start-up left behind, then freeze the rest, and set the
    collector's thresholds for serving. Returns how many objects are frozen."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    return gc.get_freeze_count()


class PacedCollector:
    """The collector's full scans paced by the server, not by the heap's growth.

    Left to itself, the collector scans every live object whenever the objects
    that survived its young scans grow by a quarter: a server opening its
    tables and adding their moves does that every 20 s or so, and at 1,000
    tables a full scan stopped the loop for 0.36 s, the commit thread with it
    (it needs the interpreter): the whole of the benchmark's p99 (docs/store.md,
    the sixth session). So, every ``settle_every`` seconds, the young
    generations are collected (their cyclic garbage freed; a scan of what came
    since, milliseconds) and what is left is frozen: the automatic scans then
    see only what is newer. A frozen object that later becomes part of a
    garbage cycle (a finished table's, say) waits for the ``full_every``
    collection: everything is unfrozen, collected and frozen again, one pause
    an hour instead of several a minute."""

    def __init__(self, settle_every: float = 2.0, full_every: float = 3600.0) -> None:
        self.settle_every = settle_every
        self.full_every = full_every
        self._since_full = 0.0

    def step(self) -> bool:
        """One ``settle_every`` tick; True if this one collected everything."""
        self._since_full += self.settle_every
        if self._since_full >= self.full_every:
            self._since_full = 0.0
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            return True
        gc.collect(1)
        gc.freeze()
        return False

    async def run(self, sleep: Callable[[float], Awaitable[None]]) -> None:
        """Step for ever, ``sleep`` between (the server's own sleep)."""
        while True:
            await sleep(self.settle_every)
            self.step()
