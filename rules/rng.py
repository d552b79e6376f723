"""The random number generator a game state owns, cheap to copy.

All chance in a game comes from its state's own seeded RNG (docs/contract.md),
and search bots copy states thousands of times a second. Copying a
``random.Random`` costs about 15 us (``getstate`` builds a 625-int tuple,
``setstate`` parses it back), which is nearly all of a state's copy. Yet most
copies never draw: a playout deals from the stock it already has.

:class:`GameRng` gives the same numbers as ``random.Random(seed)`` (same
Mersenne Twister, same methods) but copies lazily: a copy holds the parent's
state tuple and builds its generator only when it first draws; the parent
keeps that tuple until it draws again, so many copies between two draws share
one ``getstate``. A copy costs well under a microsecond.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_State = tuple[Any, ...]


class GameRng:
    """``random.Random(seed)`` with a cheap ``copy()``; see the module docstring."""

    __slots__ = ("_live", "_seed", "_state")

    def __init__(self, seed: int = 0) -> None:
        # seeding waits for the first draw: determinize() makes RNGs that
        # a short playout may never use
        self._live: random.Random | None = None
        self._seed: int | None = seed
        self._state: _State | None = None

    # ------------------------------------------------------------ the engine
    def _rng(self) -> random.Random:
        """The live generator, built on first use; drawing ends state sharing."""
        live = self._live
        if live is None:
            if self._seed is not None:
                live = random.Random(self._seed)
                self._seed = None
            else:
                live = random.Random(0)  # seeding from an int is cheaper than from the OS
                live.setstate(self._state)  # type: ignore[arg-type]
            self._live = live
        self._state = None
        return live

    def getstate(self) -> _State:
        """The whole generator state (as ``random.Random.getstate``)."""
        if self._state is None:
            if self._live is None:
                self._rng()
            assert self._live is not None
            self._state = self._live.getstate()
        return self._state

    def setstate(self, state: _State) -> None:
        self._live = None
        self._seed = None
        self._state = state

    def copy(self) -> GameRng:
        """An independent generator that will draw the same numbers as this one."""
        new = object.__new__(GameRng)
        new._live = None
        if self._live is None and self._seed is not None:
            new._seed = self._seed
            new._state = None
        else:
            new._seed = None
            new._state = self.getstate()
        return new

    @property
    def unused_seed(self) -> int | None:
        """The seed, while nothing has been drawn yet (else None): then the
        generator is ``random.Random(unused_seed)`` exactly."""
        return self._seed if self._live is None else None

    def fingerprint(self) -> str:
        """A short digest of the whole state, the same in every process."""
        return rng_fingerprint(self.getstate())

    # ------------------------------------------------- random.Random's draws
    def random(self) -> float:
        return self._rng().random()

    def getrandbits(self, k: int) -> int:
        return self._rng().getrandbits(k)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        return self._rng().randrange(start, stop, step)

    def randint(self, a: int, b: int) -> int:
        return self._rng().randint(a, b)

    def choice(self, seq: Sequence[T]) -> T:
        return self._rng().choice(seq)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        self._rng().shuffle(x)

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        return self._rng().sample(population, k)

    def uniform(self, a: float, b: float) -> float:
        return self._rng().uniform(a, b)


def rng_fingerprint(source: random.Random | GameRng | _State) -> str:
    """A short digest of an RNG's whole state, for ``snapshot()``.

    The same in every process, unlike ``hash(rng.getstate())``: the state tuple
    ends in ``None``, whose hash in Python 3.11 is its memory address, so a
    replay in another process would not match."""
    if isinstance(source, GameRng):
        return source.fingerprint()
    state = source.getstate() if isinstance(source, random.Random) else source
    digest = _digests.get(state)
    if digest is None:
        if len(_digests) >= _DIGESTS_KEPT:
            _digests.clear()
        digest = hashlib.blake2b(repr(state).encode(), digest_size=16).hexdigest()
        _digests[state] = digest
    return digest


# The digests of the last few states: a state's copies share its tuple until
# one draws, and every snapshot of each asks for the digest again. Writing the
# 625 numbers out costs about 70 us, looking the tuple up about 4.
_DIGESTS_KEPT = 64
_digests: dict[_State, str] = {}
