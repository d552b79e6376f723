"""The table server: tables (net/table.py) hosted over TCP for players anywhere.

One asyncio server, many :class:`~net.table.Table` objects: the same
authority as local play. A connection says hello, then uses the lobby (list
tables, create one, join a seat, watch one) and plays at one table at a time.
Everything a client learns about a game is an :class:`~net.client.Update`
built by the table for that client's seat (a spectator's: seat None), so a
connection can send nothing the table would not show that seat.

The parts, each tested on its own where it can be:

- net/listen.py: the listening sockets and the accept loop (shared with
  ``ssh-host``): connections counted in all and per address, new ones
  bounded per address, a pause when out of descriptors, refusal lines;
- connection.py: one connection's stream and timers (hello, idle, pings);
- peer.py: a client as the parts see it (its place, its budgets), with its
  lines going to a :class:`~net.server.peer.Sender`: the stream, or a list;
- lobby.py: the list, subscriptions, watching, chat;
- seats.py: join, rejoin, tokens, leaving, the grace period, moves;
- registry.py: creating tables (quotas), expiring and closing them;
- restarts.py: tables brought back after a restart, and rematches;
- store.py: what is kept (records, seats, names, statistics) behind one
  interface, :class:`~net.server.store.ServerStore`; names.py: the names;
- table_server.py: :class:`TableServer`, the parts wired together.

Limits, each per connection unless said: the line length, messages per
second and bytes sent per second (token buckets), an idle timeout, 10 s for
the hello, a cap on the output not yet taken by the client, connections at
once and new connections per second per address, chat per address and per
table, name claims per address, and errors in a row. Names and chat lines
are cleaned of control characters and escapes (:func:`rules.plain.plain`).
A bad message changes nothing and affects only its own connection.

Time (the hello and idle timeouts, the grace period, the tables' move clocks)
comes from an injected ``clock`` and ``sleep``, so tests move it by hand.
Deals are seeded from :mod:`secrets`; the seed is in no message.
"""

from __future__ import annotations

from .connection import Connection
from .hosted import Hosted
from .limits import Limits
from .store import FileStore, KeptTable, ServerStore, kept_tables
from .table_server import SHUTTING_DOWN, TableServer

__all__ = [
    "SHUTTING_DOWN",
    "Connection",
    "FileStore",
    "Hosted",
    "KeptTable",
    "Limits",
    "ServerStore",
    "TableServer",
    "kept_tables",
]
