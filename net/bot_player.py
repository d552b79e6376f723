"""A built-in bot playing at a table server as any third-party client would:
over the protocol (docs/protocol.md), from the views it is sent, never the
state (``cardtable bot --connect HOST:PORT``).

The bots choose from a :class:`rules.bots.Situation`: the seat's view, its
legal moves, the events it saw, and ``sample()``, a state the seat cannot
tell from the real one. Here the first three come straight from the
server's update; for ``sample()`` the bot rebuilds a position from the view
with the game's own rules (``spec.state_from_view``) and resamples what the
seat cannot see. The server is never asked for anything hidden. A game that
cannot rebuild a position gets a bot of the next level down that needs no
samples (said once, in a sentence).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.bots import LEVELS, Bot, Situation, make_bot
from rules.errors import MoveError
from rules.events import Event
from rules.game import GameSpec, GameState, Outcome
from rules.registry import games, get_game

from . import protocol as p
from .client import StaleMove, Update
from .remote import RemoteClient, RemoteError, TooFast

log = logging.getLogger(__name__)

# Seconds to wait before sending again a move the server refused as too_fast
# (over its message rate: nothing changed at the table), longer each time; the
# last one repeats. The server's rate (20 a second) refills one message in
# 0.05 s, so the first pause is normally enough.
TOO_FAST_DELAYS = (0.1, 0.2, 0.5, 1.0, 2.0)


class BotError(Exception):
    """Why the bot cannot play, in one sentence (the command prints it)."""


class CannotSample(Exception):
    """The game cannot rebuild a position from a view, so there is nothing to sample."""


class RemoteSituation(Situation):
    """A Situation built from an update alone (what the server sent the seat)."""

    def __init__(
        self, spec: GameSpec[Any, Any], config: Any, update: Update, history: Sequence[Event]
    ) -> None:
        # deliberately not Situation.__init__: there is no true state here
        assert update.seat is not None
        self.seat = update.seat
        self.spec = spec
        self.view = update.view
        self.history = tuple(history)
        self.legal = [spec.parse_move(text) for text in update.legal]
        self.config = config  # the rules in force (Situation.config)
        self._config = config
        self._scores = update.scores
        self._rebuilt: GameState[Any, Any] | None = None

    def sample(self, rng: random.Random) -> GameState[Any, Any]:
        if self._rebuilt is None:
            try:
                self._rebuilt = self.spec.state_from_view(self._config, self.view, self._scores)
            except NotImplementedError as err:
                raise CannotSample(str(err)) from None
        return self._rebuilt.determinize(self.seat, rng)


@dataclass
class RemoteBot:
    """Chooses for one seat; falls back a level when its bot needs samples the
    game cannot give (``say`` hears why, once)."""

    game: str
    level: str
    say: Callable[[str], None]

    def __post_init__(self) -> None:
        self.bot: Bot = make_bot(self.game, self.level)

    def choose(self, situation: RemoteSituation, rng: random.Random) -> Hashable:
        while True:
            try:
                return self.bot.choose(situation, rng)
            except CannotSample as err:
                lower = _lower_level(self.level)
                if lower is None:
                    return rng.choice(situation.legal)
                self.say(f"the {self.level} bot needs to sample positions ({err}): playing {lower}")
                self.level = lower
                self.bot = make_bot(self.game, lower)


def _lower_level(level: str) -> str | None:
    ids = [lv.id for lv in LEVELS]
    i = ids.index(level) if level in ids else 0
    return ids[i - 1] if i > 0 else None


def default_game() -> str:
    """The game of a table the bot creates when none is named: the first
    registered whose positions it can rebuild from its views (it plays that one
    at full strength), else the first registered."""
    specs = list(games().values())
    rebuilt = [s for s in specs if type(s).state_from_view is not GameSpec.state_from_view]
    return (rebuilt or specs)[0].id


def table_seats(
    game: str | None, preset: str | None = None, options: Mapping[str, Any] | None = None
) -> tuple[GameSpec[Any, Any], dict[str, Any]]:
    """The game of a table the bot creates and the options to create it with,
    ``players`` among them: as given, else the preset's or the game's own
    number of seats (its Config's default). BotError if the rules refuse them."""
    spec = get_game(game or default_game())
    try:
        config = spec.config(preset, **dict(options or {}))
    except (ValueError, TypeError) as err:
        raise BotError(f"cannot create a table of {spec.id}: {err}") from None
    return spec, {**dict(options or {}), "players": config.players}


async def sit_down(
    client: RemoteClient,
    table: str | None,
    game: str | None,
    say: Callable[[str], None],
    *,
    preset: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> None:
    """Take the first open seat of ``table``, or create a table of ``game``
    (with ``preset`` and ``options``; as many seats as its players, every one
    open: the bot takes the first, people the others); BotError with a
    sentence if that cannot be."""
    if table is None:
        spec, chosen = table_seats(game, preset, options)
        seats = ["open"] * int(chosen["players"])
        try:
            summary = await client.create(spec.id, seats, preset=preset, options=chosen)
        except RemoteError as err:
            raise BotError(f"cannot create a table of {spec.id}: {err}") from None
        table = summary.table
        others = len(seats) - 1
        open_seats = f"{others} more seat{'s' if others != 1 else ''} open"
        say(f"created table {table} ({spec.id}, {open_seats}): join it to play the bot")
    try:
        await client.join(table)
    except RemoteError as err:
        if err.code == p.NO_TABLE:
            raise BotError(f"there is no table {table} on that server") from None
        if err.code == p.SEAT_TAKEN:
            raise BotError(f"table {table} has no open seat") from None
        raise BotError(f"cannot join table {table}: {err}") from None


async def play_game(
    client: RemoteClient,
    level: str,
    say: Callable[[str], None],
    *,
    rng: random.Random | None = None,
    think: Callable[..., Any] = asyncio.to_thread,
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
) -> Outcome | None:
    """Play the client's seat until the game ends; its result. ``think`` runs
    a bot's choice (a thread by default: the hard bots take a while);
    ``sleep`` waits before a move refused as too fast is sent again."""
    rng = rng or random.Random()
    seat = client.my_seats[0]
    spec = get_game(client.game_id)
    config = spec.config(client.preset, **client.config)
    bot = RemoteBot(spec.id, level, say)

    def ready(update: Update) -> bool:
        if update.over:
            return True
        # a table starts once every seat is taken: until then nobody may move
        started = update.state_id > 0 or len(update.connected) >= len(client.seats)
        return started and seat in update.to_act and bool(update.legal)

    while True:
        try:
            update = await client.wait_for(ready)
        except ConnectionError:
            raise BotError("the connection to the server was lost") from None
        if update.over:
            return update.result
        situation = RemoteSituation(spec, config, update, client.history(seat))
        move = await think(bot.choose, situation, rng)
        try:
            await _send(client, seat, str(move), update.state_id, sleep)
        except StaleMove:
            # the table moved on while the bot thought (a clock, a simultaneous phase)
            await _wait_for(client, _after(update, moved=True))
        except MoveError as err:
            # refused for another reason (the link is down, the game has not
            # started): say so, and choose again from the next update
            say(f"the server refused {move}: {err}")
            await _wait_for(client, _after(update, moved=False))


async def _send(
    client: RemoteClient,
    seat: int,
    move: str,
    state_id: int,
    sleep: Callable[[float], Awaitable[Any]],
) -> None:
    """Send a move until the server takes or refuses it. A refusal for the
    message rate (too_fast) is no answer: the server did not look at the
    move, so no update will follow it; the same move goes again after a pause
    (TOO_FAST_DELAYS). If the table has moved on meanwhile it is refused as
    stale, as any move would be."""
    delays = itertools.chain(TOO_FAST_DELAYS, itertools.repeat(TOO_FAST_DELAYS[-1]))
    while True:
        try:
            await client.play(seat, move, state_id)
            return
        except TooFast:
            await sleep(next(delays))


def _after(update: Update, *, moved: bool) -> Callable[[Update], bool]:
    """A later update than ``update`` (``moved``: one at a later state)."""
    if moved:
        return lambda later: later.state_id != update.state_id
    return lambda later: later is not update


async def _wait_for(client: RemoteClient, condition: Callable[[Update], bool]) -> None:
    try:
        await client.wait_for(condition)
    except ConnectionError:
        raise BotError("the connection to the server was lost") from None


def result_line(outcome: Outcome | None, seat: int, names: Sequence[str]) -> str:
    """The end of the game in one line, from the bot's side."""
    if outcome is None:
        return "the game ended"
    scores = " to ".join(str(s) for s in outcome.scores)
    # the app's renderer: "{p1 has|have}" agrees with the seat, not only "{p1}"
    reason = outcome.render(names)
    if outcome.winner is None:
        return f"the game is over ({scores}, {reason})"
    verdict = "the bot won" if outcome.winner == seat else f"{names[outcome.winner]} won"
    return f"{verdict} ({scores}, {reason})"
