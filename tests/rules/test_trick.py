"""Five-Card Trick: the seed's worked examples, every ruling, the presets, hidden information."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.errors import IllegalMove, NotationError
from rules.events import Event, visible_events
from rules.registry import get_game
from rules.trick import (
    EMPTY,
    MISSED,
    PRIORITY_MOVE,
    SPEC,
    Submission,
    TrickState,
    parse_move,
    submissions_for,
)
from rules.trick.notation import HIDDEN_TARGET
from rules.trick.state import disregarded_in_view

PRESETS = ("standard", "original", "dm12", "setna", "final")


def new(preset: str = "standard", seed: int = 1, **overrides: Any) -> TrickState:
    return SPEC.new(SPEC.config(preset, **overrides), seed)


def play_round(state: TrickState, a: str, b: str) -> list[Event]:
    events = state.play_text(0, a)
    return events + state.play_text(1, b)


def reveal(events: list[Event]) -> dict[str, Any]:
    (r,) = [e for e in events if e.kind == "reveal"]
    return r.data.to_json()


def statuses(data: dict[str, Any], seat: int) -> dict[str, str]:
    return {a["action"]: a["status"] for a in data["actions"][seat]}


# --------------------------------------------------------------------------
# The seed's worked examples
# --------------------------------------------------------------------------


def test_write_up_example_black_and_white() -> None:
    """The full write-up's four rounds (Black = seat 0, White = seat 1)."""
    st = new("standard")
    # Round 1: Scores cancel, Black grows the pot to 2, White's Steal fails.
    r = reveal(play_round(st, "score+grow", "score+steal"))
    assert statuses(r, 0) == {"score": "collided", "grow": "live"}
    assert statuses(r, 1) == {"score": "collided", "steal": "live"}
    assert st.pos.chips == [0, 0] and st.pos.pot == 2
    assert st.view(None).lights == [["score", "grow"], ["score", "steal"]]
    assert st.pos.blocked == [-1, -1] and r["taker"] is None

    # Round 2: Black scores and steals White's Claim (2 chips); White blocks Claim.
    r = reveal(play_round(st, "score+steal", "claim+block:claim"))
    assert r["scored"] == [0] and r["taker"] == 0 and r["taken"] == 2
    assert r["taken_by"] == "steal"
    assert st.pos.chips == [3, 0] and st.pos.pot == 1  # emptied, refilled to 1
    assert st.view(None).blocked == ["claim", None]  # in force next round, for Black
    assert r["blocks_next"] == ["claim", None]
    assert st.view(None).lights == [
        ["score", "grow", "steal"],
        ["score", "claim", "steal", "block"],
    ]

    # Round 3: Black's Score (third in a row) is disregarded; Black's blocked
    # Claim still cancels White's; White grows to 2 and its five lights pay 1.
    v = st.view(0)
    assert v.restrictions[0] == {"score": "three_in_a_row"}
    assert disregarded_in_view(v, 0, _sub("score+claim")) == {"score": "three_in_a_row"}
    r = reveal(play_round(st, "score+claim", "grow+claim"))
    assert r["actions"][0] == [
        {"action": "score", "copies": 1, "status": "disregarded", "reason": "three_in_a_row",
         "blocked": False},
        {"action": "claim", "copies": 1, "status": "collided", "blocked": True},
    ]  # fmt: skip
    assert statuses(r, 1) == {"grow": "live", "claim": "collided"}
    assert r["bonus"] == [1]
    assert st.pos.chips == [3, 1] and st.pos.pot == 2
    # the disregarded Score lit nothing new (it was lit already) and White's lights went off
    assert st.view(None).lights == [["score", "grow", "claim", "steal"], []]
    assert st.view(None).blocked == [None, None]  # a block lasts one round only

    # Round 4: the disregarded Score does not count, so Score is allowed again and
    # Score+Claim does not repeat a pair. Grow first (3), then Black claims 3.
    assert st.view(0).restrictions[0] == {}
    assert st.view(0).repeat_pair[0] is None  # last round had one effective card
    r = reveal(play_round(st, "score+claim", "grow+block:score"))
    assert statuses(r, 0) == {"score": "live", "claim": "live"}
    assert r["pot_before"] == 2 and r["grew"] == 1 and r["taken"] == 3 and r["taker"] == 0
    assert st.pos.chips == [7, 1] and st.pos.pot == 1
    assert st.view(None).blocked == ["score", None]  # next round, not this one
    assert st.view(None).lights == [["score", "grow", "claim", "steal"], ["grow", "block"]]


def test_first_version_three_rounds() -> None:
    """The first version's example (original preset): EC = seat 0, DMO = seat 1."""
    st = new("original", defender="1")
    r = reveal(play_round(st, "score+grow", "score+block:block"))
    assert statuses(r, 0) == {"score": "collided", "grow": "live"}
    assert statuses(r, 1) == {"score": "collided", "block": "live"}
    assert st.pos.pot == 2 and st.pos.chips == [0, 0]
    assert st.view(None).blocked == ["block", None]

    # Both Block (EC's is blocked too, and still collides); DMO steals EC's Claim.
    r = reveal(play_round(st, "claim+block:steal", "steal+block:claim"))
    assert r["actions"][0][1] == {
        "action": "block",
        "copies": 1,
        "status": "collided",
        "blocked": True,
    }
    assert r["taker"] == 1 and r["taken"] == 2 and r["taken_by"] == "steal"
    assert st.pos.chips == [0, 2] and st.pos.pot == 1
    assert st.view(None).blocked == [None, None]

    # DMO scores; the Steals collide, so EC's Claim takes the pot of 1; EC's
    # five lights pay a chip.
    r = reveal(play_round(st, "claim+steal", "score+steal"))
    assert statuses(r, 0) == {"claim": "live", "steal": "collided"}
    assert statuses(r, 1) == {"score": "live", "steal": "collided"}
    assert r["taker"] == 0 and r["taken"] == 1 and r["bonus"] == [0]
    assert st.pos.chips == [2, 3] and st.pos.pot == 1
    assert st.view(None).lights == [[], ["score", "steal", "block"]]
    assert st.view(None).defender == 1


def test_claim_and_steal_against_steal_and_block() -> None:
    """The rule change: the Steals collide, so my Claim is successful."""
    st = new("standard")
    play_round(st, "grow", "-")
    assert st.pos.pot == 2
    r = reveal(play_round(st, "claim+steal", "steal+block:grow"))
    assert statuses(r, 0) == {"claim": "live", "steal": "collided"}
    assert statuses(r, 1) == {"steal": "collided", "block": "live"}
    assert r["taker"] == 0 and r["taken"] == 2 and r["taken_by"] == "claim"
    assert st.pos.chips == [2, 0] and st.pos.pot == 1
    assert st.view(None).blocked == ["grow", None]
    assert st.view(None).lights == [["grow", "claim", "steal"], ["steal", "block"]]


def test_setna_reads_raise_and_shows_its_own_names() -> None:
    st = new("setna")
    events = play_round(st, "score+raise", "score+steal")
    r = next(e for e in events if e.kind == "reveal")
    assert "Raise" in r.text and "Gems" in r.text and "Grow" not in r.text
    assert st.pos.pot == 2
    v = st.view(0)
    assert v.action_names[1] == "Raise" and v.words["chips"] == "Gems"
    # the notation is shared by every preset: `raise` reads as, and is written, grow
    assert str(parse_move("raise+score")) == "score+grow"
    assert v.history == [["score+grow", "score+steal"]]


# --------------------------------------------------------------------------
# Notation
# --------------------------------------------------------------------------


def _sub(text: str) -> Submission:
    m = parse_move(text)
    assert isinstance(m, Submission)
    return m


@pytest.mark.parametrize("preset", PRESETS)
def test_notation_round_trips_every_legal_move(preset: str) -> None:
    st = new(preset)
    moves = st.legal_moves(0)
    assert len(set(moves)) == len(moves)
    for m in [*moves, MISSED, PRIORITY_MOVE]:  # missed: legal in original only
        assert SPEC.parse_move(str(m)) == m


def test_notation_canonical_forms() -> None:
    assert str(_sub("GROW + Score")) == "score+grow"
    assert str(_sub("block:steal+claim")) == "claim+block:steal"
    assert str(_sub("score+score")) == "score+score"
    assert str(_sub("overload+claim+grow+score")) == "score+grow+claim+overload"
    assert str(_sub("reset+steal+block:claim")) == "steal+block:claim+reset"
    assert parse_move("-") == EMPTY and str(EMPTY) == "-"
    assert str(_sub("block")) == "block"  # no target: accepted, then disregarded
    assert str(parse_move("missed")) == "missed"
    assert str(parse_move("priority")) == "priority"
    assert _sub("block:claim+block:claim").counts == (0, 0, 0, 0, 2)


@pytest.mark.parametrize(
    "text",
    ["jump", "score+fly", "score:claim", "block:jump", "score+score+score",
     "score+grow+claim+steal", "block:claim+block:steal", "overload+overload"],
)  # fmt: skip
def test_notation_errors_are_sentences(text: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_move(text)
    assert "\n" not in str(err.value) and len(str(err.value)) > 10
    st = new()
    with pytest.raises(NotationError):
        st.play_text(0, text)


def test_perft_legal_move_counts() -> None:
    # standard: none, 4 single non-Blocks, Block with 5 targets or none, 6 pairs
    # without Block, 4 pairs with Block x 6 = 1 + 4 + 6 + 6 + 24
    assert len(new("standard").legal_moves(0)) == 41
    # original: exactly two or none: 1 + 6 + 24, and `missed` (the timer's move)
    assert len(new("original").legal_moves(0)) == 32
    # final, two cards with doubles: 10 non-Block multisets + 4 x 6 + BB x 6, and
    # none; Limit Reset doubles them; Overload adds 3-card multisets (not all one)
    final = new("final").legal_moves(0)
    base = 1 + 10 + 24 + 6
    overload = 16 + 14 * 6
    assert len(final) == 2 * (base + overload)
    assert len(new("final", items="none").legal_moves(0)) == base


# --------------------------------------------------------------------------
# Rulings: restrictions, collisions, blocks, lights, pot
# --------------------------------------------------------------------------


def test_same_pair_twice_is_disregarded_only_after_exactly_two() -> None:
    st = new()
    play_round(st, "score+grow", "-")
    assert st.view(0).repeat_pair[0] == ["score", "grow"]
    r = reveal(play_round(st, "grow+score", "-"))
    assert statuses(r, 0) == {"score": "disregarded", "grow": "disregarded"}
    assert st.pos.chips[0] == 1 and st.pos.pot == 2  # only round 1 scored and grew
    # the disregarded pair counts as never played: it may be played again now
    r = reveal(play_round(st, "score+grow", "-"))
    assert statuses(r, 0) == {"score": "live", "grow": "live"}
    # one card last round: no pair rule
    st = new()
    play_round(st, "score", "-")
    assert st.view(0).repeat_pair[0] is None
    r = reveal(play_round(st, "score", "-"))
    assert statuses(r, 0) == {"score": "live"}
    r = reveal(play_round(st, "score+grow", "-"))
    assert statuses(r, 0) == {"score": "disregarded", "grow": "live"}


def test_empty_round_breaks_three_in_a_row() -> None:
    st = new()
    play_round(st, "score", "-")
    play_round(st, "-", "-")
    play_round(st, "score", "-")
    r = reveal(play_round(st, "score+grow", "-"))
    assert statuses(r, 0)["score"] == "live"


def test_block_without_target_is_disregarded_and_lights_nothing() -> None:
    st = new()
    r = reveal(play_round(st, "score+block", "-"))
    assert r["actions"][0][1]["status"] == "disregarded"
    assert r["actions"][0][1]["reason"] == "no_block_target"
    assert st.view(None).lights[0] == ["score"]
    assert st.view(None).repeat_pair[0] is None  # one effective action


def test_blocked_action_is_negated_next_round_only_and_still_lights() -> None:
    st = new()
    play_round(st, "grow", "block:score")
    r = reveal(play_round(st, "score", "-"))
    assert statuses(r, 0) == {"score": "blocked"}
    assert st.pos.chips == [0, 0]
    assert "score" in st.view(None).lights[0]
    r = reveal(play_round(st, "-", "-"))
    r = reveal(play_round(st, "score", "-"))
    assert statuses(r, 0) == {"score": "live"} and st.pos.chips == [1, 0]


def test_claim_against_steal_and_failed_steal() -> None:
    st = new()
    play_round(st, "grow", "-")
    r = reveal(play_round(st, "claim", "steal"))  # stolen
    assert r["taker"] == 1 and r["taken"] == 2 and st.pos.pot == 1
    r = reveal(play_round(st, "steal", "score"))  # nothing to steal from
    assert r["taker"] is None and r["failed_steal"] == [0]
    assert st.pos.pot == 1 and st.pos.chips == [0, 3]
    # a blocked Steal cannot take a Claim: the Claim succeeds
    st = new()
    play_round(st, "block:steal", "-")
    r = reveal(play_round(st, "claim", "steal"))
    assert statuses(r, 1) == {"steal": "blocked"}
    assert r["taker"] == 0 and st.pos.chips == [1, 0]


def test_five_lights_pay_one_chip_then_turn_off() -> None:
    st = new()
    play_round(st, "score+grow", "score")
    play_round(st, "claim+steal", "score")
    assert st.view(None).lights[0] == ["score", "grow", "claim", "steal"]
    chips = st.pos.chips[0]
    r = reveal(play_round(st, "block:claim", "-"))
    assert r["bonus"] == [0] and st.pos.chips[0] == chips + 1
    assert st.view(None).lights[0] == []


# --------------------------------------------------------------------------
# Game length and tie rules
# --------------------------------------------------------------------------


def _play_quiet(st: TrickState, rounds: int) -> None:
    for _ in range(rounds):
        play_round(st, "-", "-")


def test_game_ends_after_25_rounds_when_not_tied() -> None:
    st = new()
    play_round(st, "score", "-")
    _play_quiet(st, 23)
    assert not st.is_over and st.view(None).round == 25
    events = play_round(st, "-", "-")
    assert st.is_over and st.to_act() == ()
    o = st.outcome()
    assert o is not None and o.winner == 0 and o.scores == (1, 0)
    assert events[-1].kind == "game_over"
    with pytest.raises(IllegalMove):
        st.play_text(0, "-")


def test_tie_extends_by_five_up_to_the_cap_then_last_taker_wins() -> None:
    st = new()
    play_round(st, "claim", "-")  # seat 0 takes 1
    play_round(st, "-", "score")  # 1 - 1
    _play_quiet(st, 22)
    events = play_round(st, "-", "-")  # round 25: tied
    assert not st.is_over and events[-1].kind == "extension"
    v = st.view(None)
    assert (v.end_round, v.extension, v.round_cap) == (30, 1, 50)
    _play_quiet(st, 24)
    assert not st.is_over and st.pos.end_round == 50 and st.view(None).round == 50
    play_round(st, "-", "-")
    o = st.outcome()
    assert o is not None and o.winner == 0 and "last to take the pot" in o.reason


def test_standard_tie_is_a_draw_when_nobody_took_the_pot() -> None:
    st = new()
    _play_quiet(st, 50)
    o = st.outcome()
    assert o is not None and o.is_draw and o.winner is None


@pytest.mark.parametrize("preset", ["original", "dm12", "setna"])
def test_tie_at_40_goes_to_the_defender(preset: str) -> None:
    st = new(preset, defender="1", missed_replays=0)
    _play_quiet(st, 39)
    assert not st.is_over
    play_round(st, "-", "-")
    o = st.outcome()
    assert o is not None and o.winner == 1 and "defender" in o.reason


def test_final_tie_goes_to_more_unused_items_else_the_defender() -> None:
    st = new("final", defender="0")
    play_round(st, "score+grow+reset", "-")
    play_round(st, "-", "score+grow")
    _play_quiet(st, 48)
    o = st.outcome()
    assert o is not None and o.winner == 1 and "unused items" in o.reason
    st = new("final", defender="1")
    _play_quiet(st, 50)
    o = st.outcome()
    assert o is not None and o.winner == 1 and "defender" in o.reason


def test_defender_is_random_by_seed_and_shown() -> None:
    seen = {new(seed=s).view(0).defender for s in range(20)}
    assert seen == {0, 1}
    assert new(seed=5).defender == new(seed=5).defender
    assert new(defender="0").view(None).defender == 0


# --------------------------------------------------------------------------
# Presets
# --------------------------------------------------------------------------


def test_presets_match_rulings() -> None:
    cfgs = {p: SPEC.config(p) for p in PRESETS}
    assert next(iter(SPEC.presets)) == "standard"
    assert [(cfgs[p].round_cap, cfgs[p].tie_rule, cfgs[p].timer) for p in PRESETS] == [
        (50, "last_taker", 60),
        (40, "defender", 90),
        (40, "defender", 60),
        (40, "defender", 60),
        (50, "items", 90),
    ]
    assert cfgs["original"].exact_two and cfgs["original"].missed_replays == 3
    assert cfgs["final"].doubles and cfgs["final"].items == "each"
    assert cfgs["setna"].names == "setna"
    assert all(cfgs[p].rounds == 25 for p in PRESETS)
    assert get_game("trick") is SPEC


def test_config_validation() -> None:
    with pytest.raises(ValueError, match="multiple of 5"):
        SPEC.config(round_cap=42)
    with pytest.raises(ValueError, match="at least"):
        SPEC.config(rounds=30, round_cap=25)
    with pytest.raises(ValueError, match="preset"):
        SPEC.config("nope")
    with pytest.raises(ValueError):
        SPEC.new(SPEC.config(), 0, deck_order=["AS"])


def test_original_needs_exactly_two_or_none() -> None:
    st = new("original")
    with pytest.raises(IllegalMove, match="exactly two"):
        st.play_text(0, "score")
    assert st.to_act() == (0, 1)  # unchanged
    st.play_text(0, "-")
    with pytest.raises(IllegalMove, match="already submitted"):
        st.play_text(0, "score+grow")


def test_standard_rejects_doubles_and_three_cards() -> None:
    st = new()
    with pytest.raises(IllegalMove, match="twice"):
        st.play_text(0, "score+score")
    with pytest.raises(IllegalMove, match="Overload"):
        st.play_text(0, "score+grow+claim")
    with pytest.raises(IllegalMove, match="Overload"):
        st.play_text(0, "score+grow+claim+overload")


def test_clocks_per_preset() -> None:
    standard = new("standard").clock(0)
    assert standard is not None
    assert standard.timeout_move == EMPTY and standard.seconds == 60
    original = new("original").clock(1)
    assert original is not None and original.timeout_move == MISSED and original.seconds == 90
    assert new("standard", timer=0).clock(0) is None
    assert new("final").view(0).timer == 90


def test_the_clock_runs_per_round_not_per_submission() -> None:
    st = new("standard")
    before = st.clock(1)
    st.play_text(0, "score+grow")
    assert st.clock(0) is None  # submitted: nothing more to do this round
    after = st.clock(1)
    assert before is not None and after is not None and after.turn == before.turn
    st.play_text(1, "-")
    nxt = st.clock(0)
    assert nxt is not None and nxt.turn != before.turn


def test_original_replays_a_round_both_missed_at_most_three_times() -> None:
    st = new("original")
    for n in (1, 2, 3):
        events = play_round(st, "missed", "missed")
        assert events[-1].kind == "replay" and events[-1].data.replays == n
        assert st.view(None).round == 1
    events = play_round(st, "missed", "missed")  # the fourth time it counts
    assert any(e.kind == "reveal" for e in events)
    assert st.view(None).round == 2 and st.replays == 0
    # one player missing is an empty submission, not a replay
    r = reveal(play_round(st, "missed", "score+grow"))
    assert r["moves"] == ["-", "score+grow"] and st.pos.chips == [0, 1]
    # standard never replays: its timer plays the empty submission
    st = new()
    assert MISSED not in st.legal_moves(0)
    with pytest.raises(IllegalMove, match="timer"):
        st.play(0, MISSED)


def test_max_moves_bounds_the_game() -> None:
    assert SPEC.max_moves(SPEC.config()) == 102
    assert SPEC.max_moves(SPEC.config("original")) == 40 * 2 * 4 + 2


# --------------------------------------------------------------------------
# final: doubles and items
# --------------------------------------------------------------------------


def test_final_majority_resolves_once_and_equal_copies_cancel() -> None:
    st = new("final")
    r = reveal(play_round(st, "score+score", "score+grow"))
    assert statuses(r, 0) == {"score": "live"}
    assert statuses(r, 1) == {"score": "outnumbered", "grow": "live"}
    assert st.pos.chips == [1, 0] and st.pos.pot == 2  # 2v1 scores once
    # an action played twice may not be used next round
    assert st.view(0).restrictions[0] == {"score": "doubled_last_round"}
    r = reveal(play_round(st, "score+grow", "grow+grow"))
    assert statuses(r, 0) == {"score": "disregarded", "grow": "outnumbered"}
    assert st.pos.pot == 3
    # Overload 2v2 cancels
    st = new("final")
    r = reveal(play_round(st, "claim+claim+grow+overload", "claim+claim+score+overload"))
    assert statuses(r, 0)["claim"] == "collided" and statuses(r, 1)["claim"] == "collided"
    assert st.pos.items[0][0] == 2 and st.view(1).items[0]["overload"] == "used"


def test_overload_obeys_the_pair_rule_on_every_two_cards() -> None:
    st = new("final")
    play_round(st, "score+grow", "-")
    r = reveal(play_round(st, "score+grow+claim+overload", "-"))
    assert statuses(r, 0) == {"score": "disregarded", "grow": "disregarded", "claim": "live"}
    with pytest.raises(IllegalMove, match="already used"):
        st.play_text(0, "score+steal+claim+overload")
    with pytest.raises(NotationError):
        parse_move("score+score+score+overload")  # all three the same


def test_limit_reset_lifts_restrictions_and_restarts_history() -> None:
    st = new("final")
    play_round(st, "score+grow", "-")
    play_round(st, "score+claim", "-")
    # Score twice in a row: a third is disregarded, unless Limit Reset
    r = reveal(play_round(st, "score+steal+reset", "-"))
    assert statuses(r, 0) == {"score": "live", "steal": "live"}
    # next round's restrictions come from that round only: no three-in-a-row for Score
    assert st.view(0).restrictions[0] == {}
    assert st.view(0).repeat_pair[0] == ["score", "steal"]
    assert st.view(0).items[0]["reset"] == "used"
    r = reveal(play_round(st, "score+grow", "-"))
    assert statuses(r, 0) == {"score": "live", "grow": "live"}


def test_claim_priority_after_colliding_claims() -> None:
    st = new("final")
    play_round(st, "grow+score", "grow+steal")  # Grows cancel
    play_round(st, "grow+steal", "score+block:score")  # pot 2
    events = play_round(st, "claim+score", "claim+grow")  # Claims tie; pot 3
    assert st.pos.pot == 3
    windows = [e for e in events if e.kind == "priority_window"]
    assert [e.data.seat for e in windows] == [0, 1]
    assert PRIORITY_MOVE in st.legal_moves(0)
    chips = st.pos.chips[:]
    clock_before = st.clock(0)
    events = st.play(1, PRIORITY_MOVE)
    assert events[0].data.taken == 3
    clock_after = st.clock(0)
    # "the timer for the next round will reset": the clock's turn changes
    assert clock_before is not None and clock_after is not None
    assert clock_after.turn != clock_before.turn
    assert st.pos.chips == [chips[0], chips[1] + 3] and st.pos.pot == 1
    assert st.to_act() == (0, 1)  # using the item is not the submission
    assert PRIORITY_MOVE not in st.legal_moves(0)  # the pot is gone: window closed
    with pytest.raises(IllegalMove, match="already used"):
        st.play(1, PRIORITY_MOVE)
    with pytest.raises(IllegalMove, match="both Claims collided"):
        st.play(0, PRIORITY_MOVE)
    play_round(st, "-", "-")
    assert st.view(None).items[1]["priority"] == "used"


def test_claim_priority_window_ends_with_the_next_round() -> None:
    st = new("final")
    play_round(st, "claim+score", "claim+grow")
    assert st.view(0).priority_window == [True, True]
    play_round(st, "-", "-")
    assert st.view(0).priority_window == [False, False]
    with pytest.raises(IllegalMove):
        st.play(0, PRIORITY_MOVE)
    st = new("final", items="none")
    play_round(st, "claim+score", "claim+grow")
    assert st.view(0).priority_window == [False, False]
    with pytest.raises(IllegalMove, match="do not have"):
        st.play(0, PRIORITY_MOVE)


def test_items_split_as_in_the_seed() -> None:
    v = new("final", items="split", seed=3).view(None)
    owned = sorted(tuple(k for k, s in seat.items() if s == "unused") for seat in v.items)
    assert owned == [("overload",), ("reset", "priority")]


# --------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------


def test_pending_submission_is_seen_by_its_owner_only() -> None:
    st = new()
    other = new()
    other.play_text(0, "grow+steal")
    events = st.play_text(0, "score+block:claim")
    assert st.to_act() == (1,) and st.legal_moves(0) == []
    # the opponent's and a spectator's views cannot tell what was submitted
    assert st.view(1) == other.view(1) and st.view(None) == other.view(None)
    assert st.view(0).pending == "score+block:claim"
    for seat in (1, None):
        v = st.view(seat)
        assert v.pending is None and v.submitted == [True, False]
        assert "claim" not in str(visible_events(events, seat)[0].data.to_json())
        assert visible_events(events, seat)[0].text == "{p0 has|have} submitted."
    assert "block:claim" in visible_events(events, 0)[0].data.move


def test_block_target_hidden_unless_the_block_went_live() -> None:
    st = new()
    # both Block: neither goes live, each target stays with its owner
    events = play_round(st, "block:score+grow", "block:claim+score")
    public = reveal(events)
    assert public["moves"] == ["grow+block:?", "score+block:?"]
    assert public["block_targets"] == [None, None]
    # what a seat sees reads back, and cannot be played
    hidden = parse_move("score+block:?")
    assert isinstance(hidden, Submission) and hidden.target == HIDDEN_TARGET
    assert str(hidden) == "score+block:?"
    with pytest.raises(IllegalMove, match="name the action to block"):
        st.copy().play_text(0, "score+block:?")
    notes = visible_events(events, 0)
    assert any(e.kind == "block_target" and e.data.target == "score" for e in notes)
    assert not any(e.kind == "block_target" and e.data.seat == 1 for e in notes)
    assert st.view(0).last_round.moves == ["grow+block:score", "score+block:?"]
    assert st.view(1).last_round.moves == ["grow+block:?", "score+block:claim"]
    assert st.view(None).history == [["grow+block:?", "score+block:?"]]
    assert "claim" not in str(st.view(0).last_round.block_targets)
    # a live Block is public
    events = play_round(st, "steal+block:grow", "-")
    assert reveal(events)["moves"][0] == "steal+block:grow"
    assert st.view(1).blocked == [None, "grow"]


def test_determinize_keeps_the_view_and_hides_the_opponent() -> None:
    st = new()
    play_round(st, "block:score+grow", "block:claim+score")
    st.play_text(1, "steal+block:steal")
    rng = random.Random(4)
    seen = set()
    for _ in range(30):
        d = st.determinize(0, rng)
        assert d.view(0) == st.view(0)
        seen.add(str(d.pending[1]))
        seen.add(str(d.history[0][1]))
    assert len(seen) > 5  # the opponent's pending move and hidden target were resampled
    d = st.determinize(1, rng)
    assert d.pending[1] == st.pending[1] and d.view(1) == st.view(1)


def test_copy_is_independent() -> None:
    st = new("final")
    play_round(st, "score+grow", "claim+steal")
    c = st.copy()
    play_round(c, "claim+claim", "grow+grow")
    assert st.pos.chips != c.pos.chips or st.pos.pot != c.pos.pot
    assert st.view(None).round == 2 and c.view(None).round == 3
    assert len(st.history) == 1


# --------------------------------------------------------------------------
# Random play: invariants over every preset
# --------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_random_games_keep_invariants_and_replay(preset: str) -> None:
    cfg = SPEC.config(preset)
    for seed in range(4):
        rng = random.Random(seed)
        st = SPEC.new(cfg, seed)
        record: list[tuple[int, str]] = []
        chips = [0, 0]
        while not st.is_over:
            seats = st.to_act()
            assert seats and all(st.legal_moves(s) for s in seats)
            seat = rng.choice(seats)
            moves = st.legal_moves(seat)
            move = rng.choice(moves)
            st.play(seat, move)
            record.append((seat, str(move)))
            assert st.pos.pot >= 1 and all(0 <= m < 32 for m in st.pos.lights)
            assert all(a >= b for a, b in zip(st.pos.chips, chips, strict=True))
            chips = st.pos.chips[:]
            assert len(record) <= SPEC.max_moves(cfg)
        again = SPEC.replay(cfg, seed, record)
        assert again.snapshot() == st.snapshot()
        o = st.outcome()
        assert o is not None and o.scores == tuple(st.pos.chips)


def test_submissions_cache_is_per_config_shape() -> None:
    cfg = SPEC.config("final")
    assert submissions_for(cfg, True, True) is submissions_for(cfg, True, True)
    assert all(s.overload == (s.cards == 3) for s in submissions_for(cfg, True, False))


def test_a_resignation_leaves_the_view_in_the_round_being_played() -> None:
    from rules.registry import get_game

    spec = get_game("trick")
    state = spec.new(spec.config(), seed=1)
    state.play_text(0, "score+grow")
    state.play_text(1, "claim+steal")  # round 1 revealed: round 2 is being played
    state.resign(0)
    assert state.view(0).round == 2
