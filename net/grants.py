"""What this cardtable may do on the machine it runs on: the one policy the app
asks before it opens a listening socket or connects somewhere.

A player's own cardtable may do everything: host a table server, join any
address. A cardtable that ``cardtable ssh-host`` starts for a visitor runs on
someone else's machine, so it gets only what the host granted: no table
server of its own, and connections only to the table server ssh-host offers
and the addresses its operator allowed (``--allow-join``).

ssh-host hands the grants to the visitor's process in its environment
(:meth:`Grants.environ`), which it builds from scratch: a visitor sets no
variable of their own. The app reads them once (:meth:`Grants.from_environ`).
A visitor marker with an allow-list that cannot be read grants nothing more:
the policy fails closed.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

VISITOR_ENV = "CARDTABLE_VISITOR"  # "1": this app serves an ssh-host visitor
SERVER_ENV = "CARDTABLE_SERVER"  # the table server ssh-host offers (host:port)
ALLOW_JOIN_ENV = "CARDTABLE_ALLOW_JOIN"  # more addresses a visitor may join, comma-separated

# one answer for every address a visitor may not join, whether something
# listens there or not: the form must not become a port scanner
NOT_ALLOWED = "this host lets visitors join only the table servers it offers"


def split_host_port(text: str) -> tuple[str, int] | None:
    """``HOST:PORT`` (an IPv6 host in brackets) split and checked; None if not one."""
    host, sep, port = text.strip().rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        return None
    return host, int(port)


def same_host(host: str) -> str:
    """A host as compared against the allowed ones: IP literals in their one
    canonical spelling (``::1``, ``127.0.0.1``), names in lower case. Names
    are compared as written, never resolved: the operator allowed a name,
    the visitor gets that name."""
    import ipaddress  # here: the app reads no address at start-up

    host = host.strip().strip("[]").rstrip(".").lower()
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return host


@dataclass(frozen=True)
class Grants:
    """What this app may do. The default is a player's own app: everything."""

    visitor: bool = False
    # a table server in this app (Host on the home screen)
    may_host: bool = True
    # the addresses Join may reach; None: any
    join_only: frozenset[tuple[str, int]] | None = None

    @classmethod
    def for_visitor(cls, addresses: Iterable[str]) -> Grants:
        """A visitor's grants: no hosting, and Join only to ``addresses``."""
        allowed = set()
        for text in addresses:
            address = split_host_port(text)
            if address is not None:
                allowed.add((same_host(address[0]), address[1]))
        return cls(visitor=True, may_host=False, join_only=frozenset(allowed))

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> Grants:
        env = os.environ if environ is None else environ
        if env.get(VISITOR_ENV, "") == "":
            return cls()
        offered = [env.get(SERVER_ENV, ""), *env.get(ALLOW_JOIN_ENV, "").split(",")]
        return cls.for_visitor(a for a in offered if a.strip())

    def environ(self, server: str | None = None) -> dict[str, str]:
        """The environment that hands these grants to a visitor's process, with
        ``server`` as the table server its Join form offers first."""
        if not self.visitor:
            return {SERVER_ENV: server} if server else {}
        env = {VISITOR_ENV: "1"}
        if server:
            env[SERVER_ENV] = server
        others = sorted(
            f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
            for host, port in self.join_only or ()
        )
        if others:
            env[ALLOW_JOIN_ENV] = ",".join(others)
        return env

    def may_join(self, host: str, port: int) -> bool:
        if self.join_only is None:
            return True
        return (same_host(host), port) in self.join_only


# a visitor's name, at login (net/ssh_host.py) and at a table (the Join form)
GUEST_NAME_RULE = (
    "a guest name is 1 to 32 letters a-z and digits, with single - _ or . between them"
)
GUEST_NAME = re.compile(r"[a-z0-9]+(?:[-_.][a-z0-9]+)*")


def guest_name(username: str) -> str:
    """A guest's name from the login name, in its one canonical spelling
    (NFKC, casefolded); ValueError (the rule, as a sentence) if it is not a
    name: control, zero-width, combining and non-Latin characters make no
    look-alikes of another name, they are refused."""
    name = unicodedata.normalize("NFKC", username).casefold()
    if len(name) > 32 or not GUEST_NAME.fullmatch(name):
        raise ValueError(GUEST_NAME_RULE)
    return name
