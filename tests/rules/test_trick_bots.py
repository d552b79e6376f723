"""Five-Card Trick bots: legal answers, determinism, the matrix-game solver, and
small win-rate checks (the 1,000-game tables are in tests/perf/bench_trick.py)."""

from __future__ import annotations

import random

import pytest

from rules.bots import make_bot
from rules.bots.base import Situation
from rules.bots.matrix_game import solve
from rules.trick import PRIORITY_MOVE, SPEC, Position
from rules.trick.bots import EasyBot, HardBot, MediumBot
from rules.trick.scripts import SCRIPTS, ScriptBot, play_game, pool
from rules.trick.solver import OpponentModel, evaluate

PRESETS = ("standard", "original", "dm12", "setna", "final")


def test_levels_are_registered() -> None:
    assert isinstance(make_bot("trick", "easy"), EasyBot)
    assert isinstance(make_bot("trick", "medium"), MediumBot)
    assert isinstance(make_bot("trick", "hard"), HardBot)


def _check_value(payoff: list[list[float]], x: list[float], y: list[float], v: float) -> None:
    m, n = len(payoff), len(payoff[0])
    assert abs(sum(x) - 1) < 1e-9 and abs(sum(y) - 1) < 1e-9
    assert min(x) >= 0 and min(y) >= 0
    # x guarantees v against every column, y holds every row to v
    worst = min(sum(x[i] * payoff[i][j] for i in range(m)) for j in range(n))
    best = max(sum(payoff[i][j] * y[j] for j in range(n)) for i in range(m))
    assert abs(worst - v) < 1e-7 and abs(best - v) < 1e-7


def test_matrix_game_known_solutions() -> None:
    x, y, v = solve([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])  # rock, paper, scissors
    assert all(abs(p - 1 / 3) < 1e-9 for p in x + y) and abs(v) < 1e-9
    x, y, v = solve([[3, -1], [-2, 1]])
    assert abs(v - 1 / 7) < 1e-9 and abs(x[0] - 3 / 7) < 1e-9 and abs(y[0] - 2 / 7) < 1e-9
    x, y, v = solve([[2, 5], [1, 0]])  # a saddle point
    assert x == [1.0, 0.0] and y == [1.0, 0.0] and v == 2


def test_matrix_game_random_games_are_solved_exactly() -> None:
    rng = random.Random(7)
    for _ in range(30):
        m, n = rng.randint(1, 35), rng.randint(1, 35)
        payoff = [[rng.uniform(-1, 1) for _ in range(n)] for _ in range(m)]
        _check_value(payoff, *solve(payoff))


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_bots_play_whole_games_legally(preset: str, level: str) -> None:
    cfg = SPEC.config(preset)
    bots = (make_bot("trick", level), make_bot("trick", "easy"))
    _, state = play_game(cfg, bots, seed=3)  # play() raises on anything illegal
    assert state.is_over and state.view(None).round >= 25


def test_hard_is_deterministic_given_its_rng() -> None:
    st = SPEC.new(SPEC.config(), 5)
    st.play_text(0, "score+grow")
    st.play_text(1, "claim+steal")
    picks = {str(HardBot().choose(Situation(st, 0), random.Random(11))) for _ in range(3)}
    assert len(picks) == 1
    # and it mixes: different rngs give different submissions
    many = {str(HardBot().choose(Situation(st, 0), random.Random(s))) for s in range(30)}
    assert len(many) > 2


def test_hard_cannot_see_the_opponents_pending_move() -> None:
    # whatever seat 1 has submitted, seat 0's hard bot answers the same with the same rng
    answers = set()
    for move in ("score+grow", "claim+steal", "steal+block:score"):
        st = SPEC.new(SPEC.config(), 5)
        st.play_text(1, move)
        answers.add(str(HardBot().choose(Situation(st, 0), random.Random(2))))
    assert len(answers) == 1


def test_evaluate_knows_the_end() -> None:
    cfg = SPEC.config()
    pos = Position(25)
    pos.round_no = 26  # 25 rounds played
    pos.chips = [5, 4]
    assert evaluate(pos, 0, cfg, 1) == 1.0 and evaluate(pos, 1, cfg, 1) == -1.0
    pos.chips = [4, 4]
    pos.end_round = 50
    pos.round_no = 51
    pos.last_taker = 1
    assert evaluate(pos, 1, cfg, 0) == 1.0  # standard: the last taker wins a tie
    pos.round_no = 10
    pos.end_round = 25
    assert -1 < evaluate(pos, 0, cfg, 0) < 1


def test_hard_uses_claim_priority_on_a_big_pot() -> None:
    st = SPEC.new(SPEC.config("final"), 1)
    st.play_text(0, "grow+score")
    st.play_text(1, "steal+block:block")
    st.play_text(0, "grow+steal")
    st.play_text(1, "score+block:score")
    st.play_text(0, "claim+block:grow")
    st.play_text(1, "claim+grow")
    assert st.pos.pot == 4 and PRIORITY_MOVE in st.legal_moves(0)
    assert HardBot().choose(Situation(st, 0), random.Random(1)) == PRIORITY_MOVE


def test_opponent_model_reads_a_copycat() -> None:
    history = [
        ["score+grow", "-"],
        ["claim+steal", "score+grow"],
        ["grow+block:score", "claim+steal"],
    ]
    history += [["score+claim", "grow+block:score"], ["grow+steal", "score+claim"]]
    counts, score = OpponentModel(history, 0).best()
    assert counts == {"grow+steal": 1} and score > 0.9


def test_pool_holds_the_scripts_and_random() -> None:
    assert set(pool()) == {*SCRIPTS, "random"}
    assert len(SCRIPTS) >= 8


def _wins(preset: str, hard_level: str, other: str, games: int) -> int:
    cfg = SPEC.config(preset)
    factories = pool()
    wins = 0
    for g in range(games):
        seat = g % 2
        opponent = factories[other]() if other in factories else make_bot("trick", other)
        bots = [opponent, opponent]
        bots[seat] = make_bot("trick", hard_level)
        winner, _ = play_game(cfg, (bots[0], bots[1]), seed=1000 + g)
        wins += winner == seat
    return wins


@pytest.mark.slow
def test_hard_beats_medium() -> None:
    # about 70% over 1,000 games (bench_trick.py); 60 seeded games, asserted with slack
    assert _wins("standard", "hard", "medium", 60) >= 33


@pytest.mark.slow
@pytest.mark.parametrize("script", ["always_claim", "copy_opponent", "random"])
def test_hard_beats_scripts(script: str) -> None:
    assert _wins("standard", "hard", script, 16) >= 12


@pytest.mark.slow
def test_medium_beats_easy() -> None:
    assert _wins("standard", "medium", "easy", 40) >= 26


def test_script_bots_play_only_clean_submissions() -> None:
    bot = ScriptBot("always_claim")
    st = SPEC.new(SPEC.config(), 2)
    for _ in range(6):
        for seat in (0, 1):
            move = bot.choose(Situation(st, seat), random.Random(0))
            st.play(seat, move)  # type: ignore[arg-type]
    last = st.view(None).last_round
    assert all(a.status != "disregarded" for row in last.actions for a in row)
