"""What one client may cost the table server (docs/protocol.md, "Limits"),
and the one token bucket every rate limit of the server is made of."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Clock = Callable[[], float]


@dataclass(frozen=True)
class Limits:
    messages_per_second: float = 20.0
    burst: int = 40  # messages at once before the rate applies
    # no line at all (a blank one counts) for this long in the lobby: closed (at
    # a table the server's pings and TCP's own timeouts find a vanished peer)
    idle_seconds: float = 300.0
    hello_seconds: float = 10.0
    grace_seconds: float = 60.0  # a seat is held this long for its player to come back
    max_unsent: int = 512 * 1024  # bytes queued for a client that is not reading: dropped
    errors_in_a_row: int = 10
    per_address: int = 16  # connections at once from one address
    connections: int = 1000  # connections at once in all (each is a file descriptor)
    # new connections from one address, per second and at once: a client
    # that connects and closes in a loop is refused beyond this
    connects_per_second: float = 10.0
    connects_burst: int = 40
    tables: int = 1000  # tables held at once (finished ones nobody is at make room)
    # unfinished tables created from one address, and by one name from one
    # address (so that one member of a club behind one address cannot take
    # the whole address's share)
    tables_per_address: int = 16
    tables_per_name: int = 8
    empty_table_seconds: float = 300.0  # a waiting table nobody sits at closes after this
    # a finished table leaves the lobby this long after its end (once nobody is at it)
    finished_table_seconds: float = 600.0
    list_page: int = 50  # tables in a `tables` reply unless the client asks for another limit
    # the bytes one connection is sent, as a token bucket: every message
    # counts (a game's updates, a watch's history, a list), and a request
    # whose answer is large (`list`, `watch`, `join`, `rejoin`, standings) is
    # refused while the bucket is empty, so that what one client costs the
    # server is bounded whatever it asks for
    bytes_per_second: float = 64 * 1024
    bytes_burst: int = 256 * 1024
    # and what all the connections of one address are sent together (so that
    # 16 connections from one address get four connections' worth, not 16)
    address_bytes_per_second: float = 256 * 1024
    address_bytes_burst: int = 1024 * 1024
    # chat lines: from one address (all its connections together), and into
    # one table (from everyone), per second and at once
    chat_per_address_per_second: float = 2.0
    chat_per_address_burst: int = 10
    chat_per_table_per_second: float = 5.0
    chat_per_table_burst: int = 20
    # watches started from one address (all its connections together), per
    # second and at once: a watch is answered with the table's history, and a
    # loop of `watch` + `leave` is the cheapest way to ask for it again and
    # again. A person who watches one table after another, or a club of 16
    # behind one address starting to watch together, stays within it
    watches_per_address_per_second: float = 2.0
    watches_per_address_burst: int = 20
    # a connection not seated at a game, refused `too_fast` for a request
    # whose answer is large (the byte budgets, the watch rate), is not read
    # for this long, or for the wait its refusal names if longer, up to the
    # most: what it sends meanwhile waits in its socket and is answered after
    # (it was told to wait; a loop of refused requests costs the server one
    # line a pause, not every line it sends)
    refused_pause_seconds: float = 1.0
    refused_pause_most_seconds: float = 5.0
    # names claimed from one address, per second and at once
    name_claims_per_second: float = 0.2
    name_claims_burst: int = 20
    ping_seconds: float = 10.0  # the server sends `ping` this often
    # a seated client (or one that has answered a ping) that leaves two pings
    # unanswered, the older this long, is gone (a seat goes to its grace
    # period); also the TCP user timeout: data unacknowledged this long ends
    # the connection
    dead_seconds: float = 20.0
    accept_retry_seconds: float = 1.0  # out of descriptors: try again after this at most
    # seconds at least between the moves of a table where only computers play
    # (created so, or every person gone for good): it costs the server a move
    # a second, not as many as the computers can make, and people can watch
    computers_only_pace: float = 1.0
    # a client that does not read is given this long to take its last lines
    # when the server closes, then its connection is cut
    closing_grace_seconds: float = 0.5


class TokenBucket:
    """``rate`` units a second, up to ``burst`` at once. ``take`` spends only
    what is there; ``charge`` spends regardless (the allowance may go below
    zero, and then nothing is taken until it is back above)."""

    def __init__(self, rate: float, burst: float, clock: Clock) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.allowance = float(burst)
        self._clock = clock
        self._refilled = clock()

    def _refill(self) -> float:
        now = self._clock()
        self.allowance = min(self.burst, self.allowance + (now - self._refilled) * self.rate)
        self._refilled = now
        return self.allowance

    def take(self, cost: float = 1.0) -> bool:
        """Spend ``cost`` if that much is left; False (nothing spent) if not."""
        if self._refill() < cost:
            return False
        self.allowance -= cost
        return True

    def charge(self, cost: float) -> None:
        self._refill()
        self.allowance -= cost

    def until(self, cost: float = 1.0) -> float:
        """Seconds until ``cost`` can be taken (0: it can now)."""
        missing = cost - self._refill()
        if missing <= 0:
            return 0.0
        return missing / self.rate if self.rate > 0 else float("inf")

    def wait(self) -> float:
        """Seconds until the allowance is above zero again (0: it is)."""
        allowance = self._refill()
        if allowance > 0:
            return 0.0
        return -allowance / self.rate + 1e-3 if self.rate > 0 else float("inf")

    def full(self) -> bool:
        return self._refill() >= self.burst


class AddressBuckets:
    """One :class:`TokenBucket` per address (its connections share it);
    buckets that are full again are forgotten, so that the map stays small."""

    def __init__(self, rate: float, burst: float, clock: Clock, keep: int = 10_000) -> None:
        self.rate, self.burst, self._clock, self._keep = rate, burst, clock, keep
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, address: str, cost: float = 1.0) -> bool:
        return self.bucket(address).take(cost)

    def bucket(self, address: str) -> TokenBucket:
        """The address's bucket (made full for an address not seen lately)."""
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= self._keep:
                for key in [k for k, b in self._buckets.items() if b.full()]:
                    del self._buckets[key]
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst, self._clock)
        return bucket
