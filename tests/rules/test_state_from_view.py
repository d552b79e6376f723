"""``spec.state_from_view``: a position rebuilt from one seat's view (what a
bot over the network has) shows that seat the same view and the same legal
moves, holds the same cards, and samples from the cards it cannot see."""

from __future__ import annotations

import random

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
