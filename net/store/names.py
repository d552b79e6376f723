"""Claimed names: the SHA-256 of each one's secret, one indexed row a name.

The rules are those of the server's names (docs/protocol.md, "Standings"):
the first client to use a name with ``name_secret`` gets a secret and keeps
the name; later a ``hello`` with that name must carry it. A claim is one row
read and, for a new name, one insert: its cost does not grow with the names
kept (the file it replaces was rewritten whole at every claim). A name may
be claimed for a time only (``keep_for``): each use moves its end further,
and :meth:`NameClaims.expire` removes the names whose time has run out.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable

from .engine import Engine, Stmt

MAX_NAMES = 100_000  # names a server keeps secrets for


class NameKept(Exception):
    """The name is another client's (a sentence for the error reply)."""


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


class NameClaims:
    def __init__(
        self, engine: Engine, *, cap: int = MAX_NAMES, clock: Callable[[], float] = time.time
    ) -> None:
        self.engine = engine
        self.cap = cap
        self.clock = clock

    async def _kept(self, key: str) -> tuple[str, float | None] | None:
        found = await self.engine.read(
            [Stmt("SELECT digest, expires FROM name_claims WHERE name_key = ?", (key,), rows=True)]
        )
        if not found[0]:
            return None
        kept, expires = found[0][0]
        if expires is not None and float(expires) <= self.clock():
            return None  # its time ran out: free (expire() removes the row)
        return str(kept), None if expires is None else float(expires)

    async def check(
        self,
        name: str,
        secret: str | None,
        *,
        keep_for: float | None = None,
        may_claim: bool = True,
    ) -> str | None:
        """Let ``name`` in with ``secret`` (None: a client that does not claim
        names; "": one that has no secret for it yet). Returns a new secret
        for a client that claims a free name; NameKept if the name is
        another's. ``keep_for``: seconds the claim lasts after its last use
        (None: for good). ``may_claim`` False: a free name is played under,
        not claimed (the client's address has claimed its share)."""
        key = name.casefold()
        for _ in range(2):  # a second look if another server claimed it meanwhile
            kept = await self._kept(key)
            if kept is not None:
                if secret and hmac.compare_digest(kept[0], digest(secret)):
                    if kept[1] is not None and keep_for is not None:
                        await self.engine.write(
                            [
                                Stmt(
                                    "UPDATE name_claims SET used = ?, expires = ? "
                                    "WHERE name_key = ?",
                                    (self.clock(), self.clock() + keep_for, key),
                                )
                            ]
                        )
                    return None
                raise NameKept(
                    f"the name {name!r} is kept by another player here: choose another "
                    "name, or play from the computer that holds its secret"
                )
            if secret is None or not may_claim:
                return None  # played under, not claimed
            # a secret the client brings (this server lost its names) is kept as it is
            given = secret or secrets.token_hex(16)
            now = self.clock()
            claimed = await self.engine.write(
                [
                    Stmt("DELETE FROM name_claims WHERE name_key = ? AND expires <= ?", (key, now)),
                    Stmt(
                        "INSERT INTO name_claims (name_key, digest, claimed, used, expires) "
                        "SELECT ?, ?, ?, ?, ? WHERE (SELECT amount FROM counters WHERE "
                        "counter = 'names') < ? ON CONFLICT (name_key) DO NOTHING "
                        "RETURNING name_key",
                        (
                            key,
                            digest(given),
                            now,
                            now,
                            None if keep_for is None else now + keep_for,
                            self.cap,
                        ),
                        rows=True,
                    ),
                ]
            )
            if claimed[0]:
                return None if secret else given
            if await self._kept(key) is None:
                return None  # the cap is reached: played under, not claimed
        raise NameKept(f"the name {name!r} was just claimed by another player: choose another")

    async def played(self, name: str, keep_for: float | None = None) -> None:
        """``name`` was used: a claim kept for a time lasts ``keep_for`` more
        seconds, or (None) is kept for good from now on."""
        now = self.clock()
        expires = None if keep_for is None else now + keep_for
        await self.engine.write(
            [
                Stmt(
                    "UPDATE name_claims SET used = ?, expires = CASE WHEN expires IS NULL "
                    "THEN NULL ELSE CAST(? AS DOUBLE PRECISION) END WHERE name_key = ?",
                    (now, expires, name.casefold()),
                )
            ]
        )

    async def claimed(self) -> set[str]:
        """Every name claimed now (casefolded)."""
        found = await self.engine.read(
            [
                Stmt(
                    "SELECT name_key FROM name_claims WHERE expires IS NULL OR expires > ?",
                    (self.clock(),),
                    rows=True,
                )
            ]
        )
        return {str(row[0]) for row in found[0]}

    async def is_claimed(self, name: str) -> bool:
        return await self._kept(name.casefold()) is not None

    async def count(self) -> int:
        found = await self.engine.read(
            [Stmt("SELECT amount FROM counters WHERE counter = 'names'", rows=True)]
        )
        return int(found[0][0][0])

    async def expire(self) -> int:
        """Remove the claims whose time has run out; returns how many."""
        gone = await self.engine.write(
            [
                Stmt(
                    "DELETE FROM name_claims WHERE expires IS NOT NULL AND expires <= ? "
                    "RETURNING name_key",
                    (self.clock(),),
                    rows=True,
                )
            ]
        )
        return len(gone[0])

    async def keep_digests(self, digests: dict[str, str]) -> int:
        """Claims carried over as they are (name key -> SHA-256 hex, kept for
        good), as an upgrade brings them; returns how many were new."""
        now = self.clock()
        rows = [(key.casefold(), kept, now, now) for key, kept in digests.items()]
        before = await self.count()
        await self.engine.write(
            [
                Stmt(
                    "INSERT INTO name_claims (name_key, digest, claimed, used) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (name_key) DO NOTHING",
                    many=rows,
                )
            ]
        )
        return await self.count() - before
