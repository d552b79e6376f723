"""The computer players' pool (net/thinkers.py): its queue's fairness, hints
first, cancellation, ceilings under load, and what crosses into a worker.

The executor is a hand-driven fake: a job "runs" until the test finishes it,
so the order and the arguments are checked without any timing."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import replace
from typing import Any

import pytest

from net.local import open_table
from net.table import HURRIED
from net.thinkers import SeatPosition, Thinkers, choose_move, thinkers_for
from rules.bots import RandomBot
from rules.registry import get_game, shipped
from saves.record import SeatInfo

from .helpers import BOT2, HUMAN, Recorder, domination_config


class HandExecutor(Executor):
    """Runs nothing by itself: ``finish`` runs a submitted job and answers it."""

    def __init__(self, workers: int = 1) -> None:
        self._max_workers = workers
        self.jobs: list[tuple[Callable[..., Any], tuple[Any, ...], Future[Any]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.jobs.append((fn, args, future))
        return future

    def started(self) -> list[Any]:
        """The first argument of every job submitted so far (a request's name here)."""
        return [args[0] for _, args, _ in self.jobs]

    async def finish(self, index: int) -> None:
        fn, args, future = self.jobs[index]
        future.set_result(fn(*args))
        for _ in range(5):  # the answer, then the next job's start
            await asyncio.sleep(0)


def name(label: str, *rest: Any) -> str:
    return label


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_the_tables_take_turns() -> None:
    hand = HandExecutor()
    pool = Thinkers(hand, 1)
    busy = [asyncio.ensure_future(pool.think("A", name, f"A{i}")) for i in range(1, 6)]
    await settle()
    late = asyncio.ensure_future(pool.think("B", name, "B1"))
    await settle()
    for i in range(6):
        await hand.finish(i)
    assert hand.started() == ["A1", "A2", "B1", "A3", "A4", "A5"]
    assert await late == "B1"
    assert [await t for t in busy] == ["A1", "A2", "A3", "A4", "A5"]


async def test_a_hint_goes_before_every_queued_search() -> None:
    hand = HandExecutor()
    pool = Thinkers(hand, 1)
    searches = [asyncio.ensure_future(pool.think(t, name, t)) for t in ("A", "B", "C")]
    await settle()
    hint = asyncio.ensure_future(pool.think("C", name, "hint", urgent=True))
    await settle()
    for i in range(4):
        await hand.finish(i)
    assert hand.started() == ["A", "hint", "B", "C"]
    await asyncio.gather(hint, *searches)


async def test_a_closed_tables_queued_search_never_starts() -> None:
    hand = HandExecutor()
    pool = Thinkers(hand, 1)
    first = asyncio.ensure_future(pool.think("A", name, "A1"))
    gone = asyncio.ensure_future(pool.think("B", name, "B1"))
    other = asyncio.ensure_future(pool.think("C", name, "C1"))
    await settle()
    assert pool.waiting == 2
    gone.cancel()
    await settle()
    assert pool.waiting == 1
    await hand.finish(0)
    await hand.finish(1)
    assert hand.started() == ["A1", "C1"]
    assert (await first, await other) == ("A1", "C1")


async def test_a_running_search_whose_table_is_gone_is_dropped_and_frees_its_worker() -> None:
    hand = HandExecutor()
    pool = Thinkers(hand, 1)
    gone = asyncio.ensure_future(pool.think("A", name, "A1"))
    waiting = asyncio.ensure_future(pool.think("B", name, "B1"))
    await settle()
    gone.cancel()
    await settle()
    assert pool.running == 1  # a worker cannot be stopped midway...
    await hand.finish(0)  # ...its answer goes nowhere, and the next one starts
    await hand.finish(1)
    assert await waiting == "B1"
    assert gone.cancelled()


async def test_the_ceiling_shrinks_only_when_more_wait_than_there_are_workers() -> None:
    hand = HandExecutor(workers=2)
    pool = Thinkers(hand, 2, share=1.0, floor=0.05)
    assert pool.ceiling() is None
    position = SeatPosition.of(_domination(), 0, (), "s")
    asks = [
        asyncio.ensure_future(pool.choose(f"T{i}", RandomBot(), position, f"s{i}"))
        for i in range(10)
    ]
    await settle()
    # two start at once with their own ceilings: nothing waited then
    assert [args[-1] for _, args, _ in hand.jobs] == [None, None]
    await hand.finish(0)  # 7 wait behind the next: 1 s shared by 2 workers over 7
    assert hand.jobs[2][1][-1] == pytest.approx(2 / 7)
    for i in range(1, 10):
        await hand.finish(i)
    # the last ones start with fewer waiting than workers: their own again
    assert hand.jobs[-1][1][-1] is None
    assert pool.hurried == 6
    answers = [await a for a in asks]
    assert not any(a.hurried for a in answers)  # the random bot searches nothing


async def test_the_ceiling_never_goes_below_its_floor() -> None:
    pool = Thinkers(HandExecutor(), 1, share=1.0, floor=0.05)
    queued = [asyncio.ensure_future(pool.think(i, name, str(i))) for i in range(100)]
    await settle()
    assert pool.ceiling() == 0.05
    for task in queued:
        task.cancel()
    await asyncio.gather(*queued, return_exceptions=True)


def _domination() -> Any:
    return get_game("domination").new(domination_config(), 3)


@pytest.mark.parametrize("game", shipped())
def test_what_crosses_into_a_worker_depends_only_on_what_the_seat_knows(game: str) -> None:
    spec = get_game(game)
    truth = spec.new(spec.config(), 11)
    play = random.Random(2)
    for _ in range(5):
        acting = truth.to_act()
        if truth.is_over or not acting:
            break
        truth.play(acting[0], play.choice(truth.legal_moves(acting[0])))
    seat = truth.to_act()[0]
    # another deal the seat cannot tell from this one: the other hands differ
    lookalike = truth.determinize(seat, random.Random(99))
    mine = SeatPosition.of(truth, seat, (), "seed")
    theirs = SeatPosition.of(lookalike, seat, (), "seed")
    # the same position; the legal moves are the seat's own, listed in the
    # table's order (a hand's order as dealt, which the sample does not keep)
    assert mine.text is not None
    assert replace(mine, legal=()) == replace(theirs, legal=())
    assert sorted(map(str, mine.legal)) == sorted(map(str, theirs.legal))
    situation = mine.situation()
    assert situation.view == truth.view(seat)
    assert sorted(map(str, situation.legal)) == sorted(map(str, truth.legal_moves(seat)))


def test_a_worker_answers_with_the_bots_move_and_says_whether_it_was_hurried() -> None:
    from rules.domination.bots import HardBot

    position = SeatPosition.of(_domination(), 0, (), "s")
    relaxed = choose_move(HardBot(samples=16), position, "s", None)
    assert relaxed.move in position.situation().legal and not relaxed.hurried
    hurried = choose_move(HardBot(samples=16), position, "s", 0.0)
    assert hurried.move in position.situation().legal and hurried.hurried


async def test_every_table_on_one_executor_shares_one_queue() -> None:
    hand = HandExecutor()
    config = domination_config()
    seats = [HUMAN, BOT2]
    first = open_table(None, "domination", config, seats, (0,), seed=1, executor=hand)
    second = open_table(None, "domination", config, seats, (0,), seed=2, executor=hand)
    assert first.table._pool() is second.table._pool() is thinkers_for(hand)
    assert thinkers_for(None) is not thinkers_for(hand)
    await first.close()
    await second.close()


async def test_closing_a_table_takes_its_computer_out_of_the_queue() -> None:
    hand = HandExecutor()
    config = get_game("domination").config(first_leader="1")  # the computer leads
    seats = [HUMAN, BOT2]
    busy = open_table(None, "domination", config, seats, (0,), seed=1, executor=hand)
    closing = open_table(None, "domination", config, seats, (0,), seed=2, executor=hand)
    await busy.start()
    await closing.start()
    await settle()
    pool = thinkers_for(hand)
    assert (pool.running, pool.waiting) == (1, 1)
    await closing.close()
    assert (pool.running, pool.waiting) == (1, 0)
    await hand.finish(0)
    await busy.idle()
    assert busy.table.state_id == 1  # the busy table's computer played
    assert len(hand.jobs) == 1  # the closed one's never started
    await busy.close()


async def test_a_table_whose_computer_was_hurried_says_so_once() -> None:
    hand = HandExecutor()
    pool = thinkers_for(hand)
    pool.share = pool.floor = 0.0  # any search started while others wait is cut at once
    config = get_game("domination").config(first_leader="1")  # the computer leads
    hard = [HUMAN, SeatInfo("Computer", "bot", "hard")]
    tables = [
        open_table(None, "domination", config, seats, (0,), seed=s, executor=hand)
        for s, seats in ((1, [HUMAN, BOT2]), (2, hard), (3, hard))
    ]
    seen = [Recorder(t) for t in tables]
    for table in tables:
        await table.start()
    await settle()
    await hand.finish(0)  # the first started alone: its own ceiling
    await hand.finish(1)  # the second started with the third waiting: hurried
    await tables[1].idle()
    told = [[n.text for u in r.updates for n in u.notices if n.kind == "hurried"] for r in seen]
    assert told[0] == [] and told[1] == [HURRIED]
    for table in tables:
        await table.close()


async def test_under_the_fallback_ceiling_the_medium_level_plays_instead() -> None:
    hand = HandExecutor()
    pool = Thinkers(hand, 1, share=1.0, floor=0.01, fallback_below=0.1)
    position = SeatPosition.of(_domination(), 0, (), "s")
    hard, medium = RandomBot(), RandomBot()
    asks = [
        asyncio.ensure_future(pool.choose(f"T{i}", hard, position, f"s{i}", medium))
        for i in range(13)
    ]
    await settle()
    for i in range(13):
        await hand.finish(i)
    answers = [await a for a in asks]
    played = [(args[0], args[-1]) for _, args, _ in hand.jobs]
    # alone: its own ceiling; 11 waiting: 1/11 s, under 0.1 s: medium, hurried
    assert played[0] == (hard, None)
    assert played[1] == (medium, None) and answers[1].hurried
    # 9 waiting: 1/9 s, over 0.1 s: a shorter search
    assert played[3] == (hard, pytest.approx(1 / 9)) and not answers[3].hurried
    assert played[-1] == (hard, None) and not answers[-1].hurried
