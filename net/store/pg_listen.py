"""Hearing the room's lobby change: a PostgreSQL connection that LISTENs on
the room's channel (net/store/lobby.py) and hands each notice to a
callback as it comes (psycopg 3's ``notifies()``: no polling). A connection
that breaks is opened again, a second later at most; ``on_connect`` is told
each time it is (again) listening, so that its owner reads what it may have
missed meanwhile."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg
from psycopg import sql

log = logging.getLogger(__name__)


class LobbyListener:
    def __init__(
        self,
        url: str,
        channel: str,
        on_notice: Callable[[str], None],
        on_connect: Callable[[], Awaitable[None]],
        *,
        retry_every: float = 1.0,
    ) -> None:
        self.url = url
        self.channel = channel
        self.on_notice = on_notice
        self.on_connect = on_connect
        self.retry_every = retry_every
        self.listening = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._conn: psycopg.AsyncConnection[Any] | None = None

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, connect_timeout=5
                ) as conn:
                    self._conn = conn
                    await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    await self.on_connect()
                    self.listening.set()
                    async for notice in conn.notifies():
                        try:
                            self.on_notice(notice.payload)
                        except Exception:  # one bad notice must not deafen the server
                            log.exception("a lobby notice failed")
            except psycopg.Error as err:
                log.warning("the room's lobby is not heard (%s): listening again", err)
            self.listening.clear()
            self._conn = None
            await asyncio.sleep(self.retry_every)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, psycopg.Error):
                await self._task
            self._task = None
