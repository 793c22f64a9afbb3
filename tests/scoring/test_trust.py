"""scoring.trust: confirmation modes, the dispute note, statuses and the history replayed
(club-format.md "Trust: confirmation and history"); values worked by hand."""

import pytest

from scorepad.scoring import ScoringError
from scorepad.scoring.document import same_round
from scorepad.scoring.trust import (
    counts_as_provisional,
    parse_confirmation,
    parse_note,
    replay,
    shown_status,
)

QUEENS = {"contract": "no-queens", "doubles": [[1, 0]], "outcome": {"queens": [1, 0, 1, 2]}}
QUEENS_2 = {"contract": "no-queens", "doubles": [[1, 0]], "outcome": {"queens": [0, 1, 1, 2]}}
TRICKS = {"contract": "no-tricks", "doubles": [[1, 0]], "outcome": {"tricks": [3, 4, 3, 3]}}


@pytest.mark.parametrize(("given", "mode"), [(None, "optional"), ("off", "off"), ("required", "required")])
def test_confirmation_defaults_to_optional(given, mode):
    assert parse_confirmation(given) == mode


@pytest.mark.parametrize("given", ["Off", "always", 1, True, ["off"], ""])
def test_any_other_confirmation_is_refused_at_its_field(given):
    with pytest.raises(ScoringError) as refused:
        parse_confirmation(given)
    assert refused.value.path == "confirmation"


def test_a_note_is_trimmed_text_of_at_most_200_characters_or_none():
    assert parse_note("  Beth took the ace  ") == "Beth took the ace"
    assert parse_note(None) is None and parse_note("   ") is None
    assert parse_note("x" * 200) == "x" * 200
    for bad in ("x" * 201, 7, "a\x00b"):
        with pytest.raises(ScoringError) as refused:
            parse_note(bad)
        assert refused.value.path == "note"


def test_with_confirmation_off_every_round_shows_confirmed():
    assert shown_status("off", "provisional") == "confirmed"
    assert shown_status("optional", "provisional") == "provisional"
    assert shown_status("required", "disputed") == "disputed"


def test_only_a_required_game_with_an_unconfirmed_round_is_provisional():
    assert counts_as_provisional("required", ["confirmed", "disputed"])
    assert counts_as_provisional("required", ["provisional"])
    assert not counts_as_provisional("required", ["confirmed", "confirmed"])
    assert not counts_as_provisional("optional", ["provisional"])
    assert not counts_as_provisional("off", ["disputed"])


def entry(action, number=None, before=None, after=None, note=None):
    return {"action": action, "round": number, "before": before, "after": after, "note": note}


def test_replay_rebuilds_rounds_statuses_and_notes():
    entries = [
        entry("import", after={"rounds": [QUEENS]}),
        entry("record", 2, after=TRICKS),
        entry("dispute", 1, QUEENS, QUEENS, "Beth had the queen"),
        entry("confirm", 2, TRICKS, TRICKS),
        entry("close"),
        entry("reopen"),
        entry("edit", 1, QUEENS, QUEENS_2),
    ]
    rounds = replay(entries)
    # Round 1 edited after its dispute: provisional again; round 2 stays confirmed.
    assert [(dict(r.round), r.status, r.note) for r in rounds] == [
        (QUEENS_2, "provisional", None),
        (TRICKS, "confirmed", None),
    ]
    rounds = replay(entries[:3])
    assert (rounds[0].status, rounds[0].note) == ("disputed", "Beth had the queen")
    assert replay([*entries, entry("undo", 2, before=TRICKS)])[-1].round == QUEENS_2


@pytest.mark.parametrize(
    "entries",
    [
        [entry("record", 2, after=TRICKS)],  # round 2 first
        [entry("record", 1, after=QUEENS), entry("edit", 2, TRICKS, QUEENS)],  # no round 2
        [entry("record", 1, after=QUEENS), entry("record", 2, after=TRICKS), entry("undo", 1, QUEENS)],  # not last
        [entry("record", 1, after=QUEENS), entry("edit", 1, TRICKS, QUEENS_2)],  # before is not round 1
        [entry("swap", 1)],
    ],
)
def test_a_history_that_does_not_add_up_is_refused(entries):
    with pytest.raises(ValueError, match="history entry"):
        replay(entries)


def test_the_same_round_ignores_the_order_of_doubles_and_of_most_only():
    one = {"contract": "no-queens", "doubles": [[1, 0], [2, 0]], "outcome": {"queens": [1, 0, 1, 2]}}
    assert same_round(one, {**one, "doubles": [[2, 0], [1, 0]]})
    assert not same_round(one, {**one, "doubles": [[1, 0]]})
    assert not same_round(one, {**one, "outcome": {"queens": [0, 1, 1, 2]}})
    ravage = {"contract": "ravage-city", "doubles": [], "outcome": {"most": [2, 0]}}
    assert same_round(ravage, {**ravage, "outcome": {"most": [0, 2]}})
    assert not same_round(ravage, {**ravage, "outcome": {"most": [0]}})
