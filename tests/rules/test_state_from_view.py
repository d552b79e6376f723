"""``spec.state_from_view``: a position rebuilt from one seat's view (what a
bot over the network has) shows that seat the same view and the same legal
moves, holds the same cards, and samples from the cards it cannot see."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.registry import get_game


@pytest.mark.parametrize("seed", range(40))
def test_a_domination_position_rebuilt_from_a_view(seed: int) -> None:
    spec = get_game("domination")
    state = spec.new(spec.config(), seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(80)):
        if state.is_over:
            break
        seat = state.to_act()[0]
        state.play(seat, rng.choice(state.legal_moves(seat)))
    for seat in (0, 1):
        rebuilt = spec.state_from_view(state.config, state.view(seat), state.scores())
        assert rebuilt.view(seat) == state.view(seat)
        assert set(rebuilt.legal_moves(seat)) == set(state.legal_moves(seat))
        assert rebuilt.all_cards() == state.all_cards()
        assert rebuilt.scores() == state.scores()
        # what the seat cannot see is exactly what the true state hides from it
        assert rebuilt.hidden_cards(seat) == state.hidden_cards(seat)
        assert rebuilt.determinize(seat, rng).view(seat) == state.view(seat)


def test_a_spectator_view_rebuilds_nothing() -> None:
    spec = get_game("domination")
    state = spec.new(spec.config(), 1)
    with pytest.raises(ValueError, match="spectator"):
        spec.state_from_view(state.config, state.view(None), state.scores())


def _random_position(
    game: str, seed: int, preset: str | None = None, **options: Any
) -> tuple[Any, Any]:
    """A position ``seed`` random moves into a game still in play: a third of
    them in the first dozen moves (a setup phase), the rest anywhere."""
    spec = get_game(game)
    config = spec.config(preset, **options)
    state = spec.new(config, seed)
    rng = random.Random(seed)
    longest = 12 if seed % 3 == 0 else spec.max_moves(config) // 2
    for _ in range(rng.randrange(longest + 1)):
        seat = rng.choice(state.to_act())
        before = state.copy()
        state.play(seat, rng.choice(state.legal_moves(seat)))
        if state.is_over:  # a view cannot say the game is over: stay in play
            return spec, before
    return spec, state


def _check_rebuilt(spec: Any, state: Any, rng: random.Random) -> None:
    for seat in range(state.config.players):
        view = state.view(seat)
        rebuilt = spec.state_from_view(state.config, view, state.scores())
        assert rebuilt.view(seat) == view
        assert set(rebuilt.legal_moves(seat)) == set(state.legal_moves(seat))
        assert rebuilt.to_act() == state.to_act() or seat not in state.to_act()
        assert rebuilt.scores() == state.scores()
        sampled = rebuilt.determinize(seat, rng)
        assert sampled.view(seat) == view
        # a sample plays on like a real position
        for s in sampled.to_act():
            if sampled.legal_moves(s):
                sampled.play(s, rng.choice(sampled.legal_moves(s)))
                break


PRESET_GAMES = [*(("trick", seed) for seed in range(30)), *(("territory", s) for s in range(20))]


@pytest.mark.parametrize(("game", "seed"), PRESET_GAMES)
def test_a_position_rebuilt_from_a_view(game: str, seed: int) -> None:
    """Every preset in turn, a random position into the game."""
    spec = get_game(game)
    preset = list(spec.presets)[seed % len(spec.presets)]
    spec, state = _random_position(game, seed, preset)
    _check_rebuilt(spec, state, random.Random(seed))


@pytest.mark.parametrize("seed", range(24))
def test_a_stress_position_rebuilt_from_a_view(seed: int) -> None:
    spec = get_game("stress")
    preset = list(spec.presets)[seed % len(spec.presets)]
    spec, state = _random_position("stress", seed, preset, players=2 + seed % 4)
    _check_rebuilt(spec, state, random.Random(seed))
    for seat in range(state.config.players):
        rebuilt = spec.state_from_view(state.config, state.view(seat), state.scores())
        assert rebuilt.all_cards() == state.all_cards()
        assert rebuilt.hidden_cards(seat) == state.hidden_cards(seat)
