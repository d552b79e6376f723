"""rules.rng.GameRng: random.Random's numbers with a copy that costs nothing."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from rules.rng import GameRng, rng_fingerprint

REPO = Path(__file__).resolve().parents[2]


def draws(rng: Any) -> list[Any]:
    """One of each kind of draw, in a fixed order."""
    cards = list(range(52))
    rng.shuffle(cards)
    return [
        cards,
        rng.randrange(2),
        rng.randrange(3, 90, 7),
        rng.randint(1, 6),
        rng.random(),
        rng.getrandbits(64),
        rng.choice("SHDC"),
        rng.sample(range(40), 5),
        rng.uniform(0.5, 2.5),
    ]


def test_the_same_numbers_as_random_random() -> None:
    for seed in (0, 1, 2**40 + 3):
        assert draws(GameRng(seed)) == draws(random.Random(seed))


def test_a_copy_draws_what_the_original_would_have_drawn() -> None:
    rng = GameRng(7)
    draws(rng)
    first = rng.copy()
    second = rng.copy()  # two copies between the same draws share one state
    expected = draws(rng)
    assert draws(first) == expected
    assert draws(second) == expected


def test_a_copy_made_before_any_draw_starts_from_the_seed() -> None:
    rng = GameRng(11)
    early = rng.copy()
    later_copy_of_copy = early.copy()
    expected = draws(random.Random(11))
    assert draws(rng) == expected
    assert draws(early) == expected
    assert draws(later_copy_of_copy) == expected


def test_drawing_on_a_copy_leaves_the_original_alone() -> None:
    rng = GameRng(5)
    rng.random()
    before = rng.fingerprint()
    twin = rng.copy()
    draws(twin)
    assert rng.fingerprint() == before
    assert twin.fingerprint() != before


def test_getstate_and_setstate_speak_random_randoms_state() -> None:
    reference = random.Random(3)
    reference.random()
    rng = GameRng(99)
    rng.setstate(reference.getstate())
    assert draws(rng) == draws(reference)
    assert rng.getstate() == reference.getstate()


def test_fingerprint_follows_the_state_not_how_it_was_reached() -> None:
    lazy, drawn = GameRng(4), GameRng(4)
    drawn.getstate()  # builds the generator without drawing
    assert lazy.fingerprint() == drawn.fingerprint() == rng_fingerprint(random.Random(4))
    drawn.random()
    assert lazy.fingerprint() != drawn.fingerprint()


def test_fingerprint_is_the_same_in_another_process() -> None:
    code = "from rules.rng import GameRng; r = GameRng(8); r.random(); print(r.fingerprint())"
    out = []
    for hash_seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", code],
            cwd=REPO,
            env={"PYTHONHASHSEED": hash_seed, "PATH": ""},
            capture_output=True,
            text=True,
            check=True,
        )
        out.append(done.stdout.strip())
    here = GameRng(8)
    here.random()
    assert out == [here.fingerprint()] * 2
    assert json.loads(json.dumps(here.fingerprint())) == here.fingerprint()
