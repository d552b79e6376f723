"""Event narration read in the second person when a seat is named "You"."""

from __future__ import annotations

from rules.events import visible_events
from rules.registry import get_game
from tui.widgets.event_log import second_person


def test_verbs_and_possessives_agree_with_you() -> None:
    assert second_person("You plays 5H.") == "You play 5H."
    assert second_person("You has submitted.") == "You have submitted."
    assert second_person("You's Steal finds no Claim.") == "Your Steal finds no Claim."
    assert second_person("Computer blocks You's Score.") == "Computer blocks your Score."
    assert second_person("Round 3: You's Claim is blocked.") == "Round 3: Your Claim is blocked."


def test_setna_narrates_raise_not_grow() -> None:
    spec = get_game("trick")
    state = spec.new(spec.config("setna"), seed=1)
    state.play_text(0, "score+raise")
    events = state.play_text(1, "claim+steal")
    texts = [e.render(["You", "Ka"]) for e in visible_events(events, 0)]
    assert any("raises the pot" in t for t in texts), texts
    assert not any("grows" in t for t in texts)
