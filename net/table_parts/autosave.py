"""A table's record, kept on disk (or in the server's database) behind the moves.

Saving is behind the move, not in its way: a move is answered once it is
applied and everyone has been told, and the record is saved right after in
the background (fsync takes milliseconds, and a server's many tables would
queue behind each other's). Saves coalesce (one on disk at a time, then one
of the newest record), so a busy server writes less, never out of order.
Whoever must know a move is kept (the server's `ok` to a move) awaits
:meth:`Autosave.kept`, which saves in its own task when no save is in
flight: a background task would start a turn of the event loop later and
wake the mover a turn later again, and on a busy server's loop (a thousand
tables) each turn is milliseconds of every move's round trip. A failed save
is said once, with the next update, until saving works again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

from saves.errors import SaveError
from saves.record import GameRecord
from saves.store import SaveStore

from ..client import Notice

log = logging.getLogger("net.table")


class Autosave:
    """Keeps ``record`` in ``store`` (None: nowhere). ``tell`` sends every
    watcher an update carrying these notices now, ``queue`` one for the next
    update; ``busy`` and ``done`` mark a save in flight for the table's
    :meth:`~net.table.Table.idle`."""

    def __init__(
        self,
        record: GameRecord,
        store: SaveStore | None,
        *,
        tell: Callable[[Sequence[Notice]], None],
        queue: Callable[[Notice], None],
        busy: Callable[[], None],
        done: Callable[[], None],
    ) -> None:
        self.record = record
        self.store = store
        self._tell = tell
        self._queue = queue
        self._busy = busy
        self._done = done
        self._lock = asyncio.Lock()
        self._unsaved = False  # the record has changed since the last save began
        self._saving = False  # a save loop runs (the background saver's or a mover's)
        self._starting = False  # the background saver is to start at the loop's next turn
        self._saver: asyncio.Task[None] | None = None
        self.error: str | None = None  # why the last save failed, if it did
        # moves a save has kept (for those who wait for their move to be kept: `kept`)
        self._kept_moves = len(record.moves)
        self._save_done = asyncio.Event()

    def soon(self) -> None:
        """Save the record in the background, after any save in flight. The
        saver starts at the loop's next turn: a mover that awaits
        :meth:`kept` meanwhile saves in its own task instead."""
        if self.store is None:
            return
        self._unsaved = True
        if not self._saving and not self._starting:
            self._starting = True
            self._busy()  # idle() waits for the disk too
            asyncio.get_running_loop().call_soon(self._start)

    def _start(self) -> None:
        self._starting = False
        if self._saving or not self._unsaved:  # a mover's kept() saves it (or saved it)
            self._done()
            return
        self._saving = True
        self._saver = asyncio.create_task(self._save_while_unsaved())

    async def _save_while_unsaved(self) -> None:
        try:
            while self._unsaved:
                self._unsaved = False
                await self.save()
        finally:
            self._saving = False
            self._done()

    async def _save_here(self) -> None:
        """One save in the caller's task (no save in flight)."""
        self._busy()
        self._saving = True
        self._unsaved = False
        try:
            await self.save()
        except asyncio.CancelledError:
            self._unsaved = True  # (its write may not be kept: the next save sees)
            raise
        finally:
            self._saving = False
            self._done()
            if self._unsaved:  # moves played meanwhile, or a save cut short
                self.soon()

    async def save(self) -> None:
        """Save the record now."""
        if self.store is None:
            return
        snapshot = self.record.copy()  # the table goes on changing the original
        # the lock is FIFO, so saves reach the disk in the order of the moves
        async with self._lock:
            failed_before = self.error
            # a store with a coroutine of its own (the server's database) is
            # awaited; a folder of files is written in a thread
            save_async = getattr(self.store, "save_async", None)
            try:
                if save_async is not None:
                    await save_async(snapshot)
                else:
                    await asyncio.to_thread(self.store.save, snapshot)
            except SaveError as err:
                self.failed(err)
                if self.error != failed_before:
                    self._tell(())
            else:
                self.error = None
                self._kept_moves = max(self._kept_moves, len(snapshot.moves))
                if failed_before is not None:
                    self._tell((Notice("saved", "The game is being saved again."),))
            finally:
                self._save_done.set()

    async def kept(self, moves: int) -> None:
        """Return once a save holds the record's first ``moves`` moves;
        SaveError if the save that should have failed (the move stays
        played: a later save keeps it once saving works again)."""
        if self.store is None:
            return
        while self._kept_moves < moves:
            if not self._saving:
                if not self._unsaved and self.error is not None:
                    raise SaveError(self.error)
                await self._save_here()
                continue
            self._save_done.clear()  # a save is in flight: wait for it, then look again
            await self._save_done.wait()
            if self._kept_moves < moves and self.error is not None:
                raise SaveError(self.error)

    def failed(self, err: SaveError) -> None:
        """Saving failed: say so once (with the next update) until it works again."""
        log.error("autosave failed: %s", err)
        if str(err) != self.error:
            self._queue(Notice("save_failed", f"The game is not being saved: {err}"))
        self.error = str(err)

    async def finish(self) -> None:
        """Return once the last moves are on disk and no save is in flight."""
        while True:
            if self._saver is not None and not self._saver.done():
                await self._saver
            elif self._unsaved and not self._saving:
                await self._save_here()
            else:
                async with self._lock:  # (a mover's save in flight)
                    pass
                if not (self._unsaved or self._saving):
                    return
