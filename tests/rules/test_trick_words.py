"""Five-Card Trick in words (rules/trick/words.py): the one place a move, a
reason and a revealed round are said; the reveal event's lines and the
screen's panel are made from it."""

from __future__ import annotations

from typing import Any

from rules.events import Event, fill_names
from rules.registry import get_game
from rules.trick import SPEC, TrickState, make_submission, parse_move
from rules.trick.core import NO_BLOCK_TARGET, REPEATED_PAIR, THREE_IN_A_ROW
from rules.trick.notation import Submission
from rules.trick.view import RoundReveal
from rules.trick.words import (
    REASONS,
    Words,
    action_outcome,
    disregard_warning,
    move_words,
    round_lines,
    submission_words,
)

TRICK = Words.of("trick")
SETNA = Words.of("setna")


def new(preset: str = "standard", **overrides: Any) -> TrickState:
    return SPEC.new(SPEC.config(preset, **overrides), 1)


def play_round(state: TrickState, a: str, b: str) -> Event:
    events = state.play_text(0, a) + state.play_text(1, b)
    (reveal,) = [e for e in events if e.kind == "reveal"]
    return reveal


def sub(text: str) -> Submission:
    move = parse_move(text)
    assert isinstance(move, Submission)
    return move


def test_move_words_is_the_games_move_words() -> None:
    config = SPEC.config("standard")
    assert get_game("trick").move_words(config, "claim+block:block") == "Claim + Block (on Block)"
    assert SPEC.move_words(config, "-") == "nothing"
    assert SPEC.move_words(config, "score+grow") == "Score + Grow"
    assert SPEC.move_words(config, "grow+block:?") == "Grow + Block (target hidden)"
    assert SPEC.move_words(config, "steal+block") == "Steal + Block (no target)"
    assert SPEC.move_words(config, "missed") == "nothing (out of time)"
    assert SPEC.move_words(config, "priority") == "Claim Priority"
    assert SPEC.move_words(SPEC.config("setna"), "grow+claim") == "Raise + Claim"
    assert move_words("score+score+reset", TRICK, times="x") == "Score x2 with Limit Reset"
    assert move_words("no such move", TRICK) == "no such move"


def test_submission_words_counts_copies_and_items() -> None:
    final = sub("score+score+grow+overload")
    assert submission_words(final, TRICK) == "Score ×2 + Grow with Overload"
    assert submission_words(final, TRICK, times="x") == "Score x2 + Grow with Overload"
    both = make_submission([0, 4], 2, overload=False, reset=True)
    assert submission_words(both, SETNA) == "Score + Block (on Claim) with Limit Reset"
    assert submission_words(both, TRICK, show_target=False) == (
        "Score + Block (target hidden) with Limit Reset"
    )


def test_one_table_of_reasons() -> None:
    assert REASONS[THREE_IN_A_ROW] == "played the last two rounds"
    assert REASONS[REPEATED_PAIR] == "last round's pair"
    assert REASONS[NO_BLOCK_TARGET] == "the Block named nothing"


def test_disregard_warning_says_the_pair_plainly() -> None:
    pair = {"score": REPEATED_PAIR, "claim": REPEATED_PAIR}
    assert disregard_warning(pair, sub("score+claim"), TRICK) == (
        "Score + Claim is last round's pair, so both would be thrown out."
    )
    one = {"score": THREE_IN_A_ROW}
    assert disregard_warning(one, sub("score+grow"), TRICK) == (
        "Score would be thrown out (played the last two rounds)."
    )
    assert disregard_warning(one, sub("score"), TRICK) == (
        "Score would be thrown out (played the last two rounds). "
        "Nothing of this choice would count."
    )


def test_the_reveal_events_lines_are_round_lines_of_the_view() -> None:
    """The seed's write-up, round 2: the event's text is made from the same
    revealed round every seat's view holds."""
    st = new()
    play_round(st, "score+grow", "score+steal")
    event = play_round(st, "score+steal", "claim+block:claim")
    last = st.view(None).last_round
    assert isinstance(last, RoundReveal)
    assert event.data.lines == round_lines(last, TRICK)
    names = ["Black", "White"]
    assert [fill_names(line, names) for line in event.data.lines] == [
        "Round 2: Black plays Score + Steal; White plays Claim + Block (on Claim).",
        "Black scores 1 chip.",
        "White claims, but Black steals the pot: 2 chips.",
        "White blocks Black's Claim for next round.",
        "The pot is refilled to 1 chip.",
        "Chips: Black 3, White 0; pot 1.",
    ]


def test_round_lines_name_what_was_disregarded_blocked_and_lit() -> None:
    st = new()
    play_round(st, "score+grow", "score+steal")
    play_round(st, "score+steal", "claim+block:claim")
    event = play_round(st, "score+claim", "grow+claim")
    text = fill_names(event.text, ["Black", "White"])
    assert "Black's Score is disregarded (played the last two rounds)." in text
    assert "Black's Claim was blocked, and still cancels." in text
    assert "Both play Claim: they cancel." in text
    assert "White grows the pot to 2 chips." in text
    assert "White has all five lights on: +1 chip, lights off." in text


def test_a_hidden_block_target_stays_hidden_in_words() -> None:
    st = new()
    event = play_round(st, "grow+block:score", "score+block:claim")  # the Blocks collide
    assert "Block (target hidden)" in event.text and "on Claim" not in event.text
    mine = st.view(1).last_round
    assert mine is not None
    assert round_lines(mine, TRICK)[0].endswith("{p1 plays|play} Score + Block (on Claim).")


def test_action_outcomes_in_words() -> None:
    st = new()
    play_round(st, "score+grow", "score+steal")
    play_round(st, "score+steal", "claim+block:claim")
    last = st.view(0).last_round
    assert last is not None
    said = {
        (seat, e.action): action_outcome(e, seat, last, TRICK)
        for seat in (0, 1)
        for e in last.actions[seat]
    }
    assert said[0, "score"] == ("live", "+1 chip", "live")
    assert said[0, "steal"] == ("live", "stole the pot (2 chips)", "live")
    assert said[1, "claim"] == ("stolen", "{p0} took the pot (2 chips)", "cancel")
    assert said[1, "block"] == ("live", "blocks {p0's} Claim next round", "live")


def test_last_round_keeps_its_wire_form() -> None:
    """A typed Struct now, with the same JSON as the dict it replaced."""
    st = new()
    play_round(st, "score+grow", "steal+block")
    wire = st.view(0).to_json()["last_round"]
    assert list(wire) == [
        "round", "moves", "target_hidden", "overload", "reset", "actions", "pot_before",
        "scored", "grew", "taker", "taken", "taken_by", "failed_steal", "blocks_next", "bonus",
        "refilled", "chips", "pot", "lights", "claims_tied", "missed", "block_targets",
    ]  # fmt: skip
    assert wire["taker"] is None and wire["taken_by"] is None  # written, as before
    assert wire["actions"][1] == [
        {"action": "steal", "copies": 1, "status": "live", "blocked": False},
        {"action": "block", "copies": 1, "status": "disregarded",
         "reason": "no_block_target", "blocked": False},
    ]  # fmt: skip
    assert SPEC.view_type.read(st.view(0).to_json()) == st.view(0)


def test_the_clock_is_said_as_the_rules_play_a_time_out() -> None:
    from rules.trick.words import clock_words

    assert clock_words(0, 0) == ""  # no clock: nothing to say
    assert clock_words(60, 0) == (
        "Each round has a 60 s clock: a player who has not locked in when it runs out "
        "plays nothing."
    )
    # original: the table plays `missed`, and a round both seats miss is replayed
    original = SPEC.config("original")
    text = clock_words(original.timer, original.missed_replays)
    assert text.startswith("Each round has a 90 s clock")
    assert text.endswith("If both players run out, the round is replayed (at most 3 times).")
    # what the clock plays when it runs out, as the sentence says: nothing, or `missed`
    for preset, move in (("dm12", "-"), ("original", "missed")):
        state = new(preset)
        clock = state.clock(0)
        assert clock is not None and str(clock.timeout_move) == move


def test_the_options_are_said_in_a_new_players_words() -> None:
    """The new-game form shows each option's title, its help and each choice's
    label (rules/config.py): plain words, none of the source's jargon, and no
    choice shown as its stored value (``last_taker``)."""
    from rules.trick import TrickSpec
    from rules.trick.options import TrickConfig

    for info in TrickConfig.options():
        words = f"{info.heading()} {info.help}".lower()
        for jargon in ("seed", "dmo", "submit"):
            assert jargon not in words, (info.name, info.help)
        if info.choices and not info.seat:
            for value in info.choices:
                shown = info.label(value)
                # a form's list shows about 34 columns
                assert "_" not in shown and len(shown) <= 34, (info.name, value, shown)
                assert shown != value or value == "none", (info.name, value)
    for preset in TrickSpec.presets:
        shown = TrickSpec.preset_labels[preset]
        assert shown.startswith(f"{preset}: ") and len(shown) <= 34, shown
