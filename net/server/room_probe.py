"""The room's own check of another server: does its address refuse
connections, answer, or say nothing (issue 36, docs/scaling.md)?

A server whose machine vanished (switched off, its network gone) sends no
reset: its heartbeats stop and its address is silent, a connection to it
hangs (or, for a process stopped on a machine that is up, is taken by its
system and never answered). Waiting for ``DEAD_AFTER`` seconds without a beat
would keep its tables away for all that time. So a server whose beat is
``SUSPECT_AFTER`` seconds late is *probed*: a connection, one line (a
``ping`` before any ``hello``, which every server answers at once with an
error line and no database read: ``not_now``, or ``bad_message`` from one
that does not know a client's ``ping``), and any line back within
``PROBE_WITHIN`` seconds. A server late to beat *and* silent to the probe has
stopped, and its tables are taken over at once (each claim still guarded in
the database by its old owner and its beat at least ``SUSPECT_AFTER`` old).

Why these figures: the beat comes every second, so 3 s late is three beats
missed; a server only slowed down (a loaded machine, its database slow)
answers a line with no database on the way well within 2 s: its event loop
would have to be stuck for that long while its beats are 3 s late. A client
cannot make the room take a live server's tables: what it can do is make a
server probe (a ``rejoin``), and the probe is the room's own, one at a time
for an address, its verdict kept a moment.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import time
from collections.abc import Callable

from ..store.room import RoomServer

log = logging.getLogger("net.server.room")

SUSPECT_AFTER = 3.0  # seconds a server's beat is late before it is probed
PROBE_WITHIN = 2.0  # seconds for the probe's connection and a line back
KEEP_VERDICT = 1.0  # seconds a probe's verdict stands for the next asking
# seconds after a server is found stopped before the sweep claims its share
# of the tables: first the tables its players come back for, each where its
# players are (one claim for all asked), so that fewer are sent on
SWEEP_CLAIMS_AFTER = 1.0
_LINE = b'{"type":"ping","id":1}\n'


class Verdict(enum.Enum):
    REFUSES = "refuses"  # nothing listens there: the process has stopped
    SILENT = "silent"  # no connection, or no line back, within the time
    ANSWERS = "answers"  # alive (or no judgement: the benefit of the doubt)


async def probe(address: str, within: float = PROBE_WITHIN) -> Verdict:
    """Connect to ``address`` (HOST:PORT), send one line, wait for one back."""
    host, _, port = address.rpartition(":")
    deadline = time.monotonic() + within
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host.strip("[]"), int(port)), within
        )
    except (ConnectionRefusedError, ConnectionResetError):
        return Verdict.REFUSES
    except (OSError, TimeoutError):  # (a timeout, or the host unreachable)
        return Verdict.SILENT
    except ValueError:
        return Verdict.ANSWERS  # not an address: no judgement
    try:
        writer.write(_LINE)
        await asyncio.wait_for(reader.readline(), max(0.0, deadline - time.monotonic()))
    except TimeoutError:
        return Verdict.SILENT
    except OSError:
        return Verdict.ANSWERS  # cut off: something is there to cut it
    finally:
        writer.transport.abort()  # (a silent peer would hold a polite close)
    return Verdict.ANSWERS


class Probes:
    """One probe of an address at a time, its verdict kept a moment: a storm
    of rejoins for a silent server's tables costs one probe."""

    def __init__(self, within: float = PROBE_WITHIN) -> None:
        self.within = within
        self._running: dict[str, asyncio.Future[Verdict]] = {}
        self._kept: dict[str, tuple[float, Verdict]] = {}  # address: (when, verdict)

    async def check(self, address: str) -> Verdict:
        kept = self._kept.get(address)
        if kept is not None and time.monotonic() - kept[0] < KEEP_VERDICT:
            return kept[1]
        running = self._running.get(address)
        if running is None:
            running = self._running[address] = asyncio.ensure_future(self._run(address))
        return await asyncio.shield(running)

    async def _run(self, address: str) -> Verdict:
        try:
            verdict = await probe(address, self.within)
        finally:
            with contextlib.suppress(KeyError):
                del self._running[address]
        self._kept[address] = (time.monotonic(), verdict)
        return verdict


class Stopped:
    """The servers of the room found stopped, each with the silence a claim
    of its tables requires in the database: 0 (its address refused a
    connection) or SUSPECT_AFTER (late to beat, and silent to a probe).
    ``age`` tells how long ago a server last beat, as the room knows."""

    def __init__(self, age: Callable[[RoomServer], float]) -> None:
        self.age = age
        self.gone: dict[str, float] = {}
        self.noted: dict[str, float] = {}  # (time.monotonic) when each was found
        self.probes = Probes()

    def __contains__(self, owner: object) -> bool:
        return owner in self.gone

    def silence(self, owner: str | None, otherwise: float) -> float:
        """The silence a claim of ``owner``'s tables requires."""
        return self.gone.get(owner or "", otherwise)

    def refused(self, owner: str) -> None:
        self._note(owner, 0.0)

    def _note(self, owner: str, silent: float) -> None:
        self.gone[owner] = silent
        self.noted.setdefault(owner, time.monotonic())

    def sweep_may_claim(self, owner: str | None) -> bool:
        """Whether the sweep claims its share of ``owner``'s tables now:
        SWEEP_CLAIMS_AFTER after it was found stopped (its players' own
        claims first)."""
        noted = self.noted.get(owner or "")
        return noted is None or time.monotonic() - noted >= SWEEP_CLAIMS_AFTER

    async def check(self, server: RoomServer) -> Verdict:
        """Probe ``server``; note it stopped if its address refuses, or if it
        is silent while its beat is late: late as the probe begins, so that
        the probe's own wait does not count."""
        late = self.age(server) >= SUSPECT_AFTER
        verdict = await self.probes.check(server.address)
        if server.id in self.gone:
            return verdict
        if verdict is Verdict.REFUSES:
            log.warning("server %s refuses connections: taking its tables over", server.id)
            self._note(server.id, 0.0)
        elif verdict is Verdict.SILENT and late:
            log.warning(
                "server %s is silent (no beat for %.1f s, no answer): taking its tables over",
                server.id,
                self.age(server),
            )
            self._note(server.id, SUSPECT_AFTER)
        return verdict

    def back(self, server: RoomServer | None) -> bool:
        """Forget ``server`` if it was found silent and beats again (it was
        only slow: it keeps what was not taken yet); True if it was."""
        if server is None or not self.gone.get(server.id):
            return False
        if self.age(server) >= SUSPECT_AFTER:
            return False
        del self.gone[server.id]
        self.noted.pop(server.id, None)
        return True

    def keep_only(self, holding: set[str], servers: dict[str, RoomServer]) -> None:
        """Noted until its tables are all taken (``holding``: the stopped
        servers that still hold some), or until it beats again."""
        self.gone = {o: s for o, s in self.gone.items() if o in holding}
        self.noted = {o: t for o, t in self.noted.items() if o in self.gone}
        for owner in list(self.gone):
            self.back(servers.get(owner))
