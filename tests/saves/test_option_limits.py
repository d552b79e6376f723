"""Every game's options are held, when they are made, to what a saved game
can hold: a game that plays can always be saved and read back."""

from __future__ import annotations

import math

import pytest

from rules.config import SAVED_INT_LIMIT, SAVED_TEXT_LIMIT, GameConfig, OptionInfo
from rules.registry import games
from saves import record as record_module
from saves.errors import SaveError
from saves.record import check_field


def test_the_rules_and_the_saves_agree_on_the_limits() -> None:
    assert record_module.MAX_INT == SAVED_INT_LIMIT == 2**63 - 1
    assert record_module.MAX_TEXT == SAVED_TEXT_LIMIT


@pytest.mark.parametrize("game_id", sorted(games()))
def test_no_game_takes_a_whole_number_a_save_cannot_hold(game_id: str) -> None:
    config_type: type[GameConfig] = games()[game_id].Config
    numbers = [info for info in config_type.options() if info.kind is int]
    assert any(info.name == "players" for info in numbers)
    for info in numbers:
        for value in (SAVED_INT_LIMIT + 1, -SAVED_INT_LIMIT - 1, 2**64, 10**5000):
            with pytest.raises(ValueError, match=f"^option '{info.name}' must be at (most|least)"):
                config_type.from_dict({info.name: value})
        with pytest.raises(SaveError):  # and the saves would have refused it too
            check_field("config", {info.name: SAVED_INT_LIMIT + 1}, "option")


@pytest.mark.parametrize("game_id", sorted(games()))
def test_every_accepted_extreme_is_saved_and_read_back(game_id: str) -> None:
    """The bounds each option accepts, at the save's edge where it has none."""
    spec = games()[game_id]
    for info in spec.Config.options():
        if info.kind is not int or info.name == "players":
            continue
        for value in _edges(info):
            try:
                config = spec.config(**{info.name: value})
            except ValueError:
                continue  # another rule of the game's refuses it (e.g. rounds and a cap)
            assert check_field("config", config.to_dict(), "option") == config.to_dict()


def _edges(info: OptionInfo) -> list[int]:
    low = -SAVED_INT_LIMIT if info.min is None else info.min
    high = SAVED_INT_LIMIT if info.max is None else info.max
    return [low, high]


def test_a_number_option_must_be_finite_and_text_must_fit() -> None:
    from dataclasses import dataclass

    from rules.config import option

    @dataclass(frozen=True)
    class Config(GameConfig):
        speed: float = option(1.0, "how fast")
        label: str = option("x", "a free text")

    for bad in (math.inf, -math.inf, math.nan):
        with pytest.raises(ValueError, match="option 'speed' must be a finite number"):
            Config(speed=bad)
    with pytest.raises(ValueError, match="option 'speed' must be at most"):
        Config(speed=1e300)
    with pytest.raises(ValueError, match="option 'label' must be printable text of at most 200"):
        Config(label="y" * (SAVED_TEXT_LIMIT + 1))
    with pytest.raises(ValueError, match="option 'label' must be printable"):
        Config(label="two\nlines")
    fine = Config(speed=2.5, label="y" * SAVED_TEXT_LIMIT)
    assert check_field("config", fine.to_dict(), "option") == fine.to_dict()
