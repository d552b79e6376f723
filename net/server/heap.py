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
this is done once, before the tables of an earlier run are brought back."""

from __future__ import annotations

import gc


def settle_heap() -> int:
    """Collect what start-up left behind, then freeze the rest. Returns how
    many objects are frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
