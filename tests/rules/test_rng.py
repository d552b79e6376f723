"""rules.rng.GameRng: random.Random's numbers with a copy that costs nothing."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from rules.position import parse_rng_text, rng_text
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


def test_rng_text_reads_back_a_generator_where_it_stands() -> None:
    """Position texts carry the generator as seed+draws (or whole, when it did
    not come from the seed): read back, it draws what the original would."""
    fresh = GameRng(11)
    assert rng_text(fresh, 11) == "11+0"
    drawn = GameRng(11)
    drawn.shuffle(list(range(52)))
    drawn.randrange(7)
    drawn.random()  # two words
    cycles = []  # the generator's state turns over every 624 words
    for words in (623, 624, 625, 1248, 1300):
        rng = GameRng(11)
        rng.getrandbits(32 * words)
        assert rng_text(rng, 11) == f"11+{words}"
        cycles.append((rng, 11))
    for rng, seed in ((fresh, 11), (drawn, 11), (GameRng(5), 11), (drawn, 12), *cycles):
        text = rng_text(rng, seed)
        again = parse_rng_text(text)
        assert rng_text(again, seed) == text
        assert again.fingerprint() == rng.fingerprint()
        assert again.copy().random() == rng.copy().random()
    assert rng_text(drawn, 11).startswith("11+")
    assert rng_text(drawn, 12).startswith("mt:")
