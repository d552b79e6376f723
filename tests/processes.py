"""Whether a process the tests started (or left behind) is still running:
shared by the SSH host's tests and the tests' own PostgreSQL, which must
not import the network tests' kit to know it."""

from __future__ import annotations

from pathlib import Path


def process_ended(pid: int) -> bool:
    """Whether process ``pid`` has ended, reaped or not: one that has ended
    but is not reaped yet (a zombie, left to whoever inherits it, when it gets
    round to it) holds no socket and runs no code."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:  # reaped
        return True
    # "pid (comm) state ...": comm may hold spaces and parentheses
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")
