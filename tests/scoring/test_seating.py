"""A club night's seating (club-format.md "Seating"): drawn seatings always have valid
tables and balanced sit-outs, and as few repeat meetings as the spec's figures say; a fixed
seating is refused with the path of its problem; the organiser's swap keeps the rest."""

from __future__ import annotations

import itertools
import os
import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.scoring import (
    ScoringError,
    Session,
    Table,
    draw_seating,
    parse_seating,
    repeat_count,
    seating_to_list,
    sit_out_counts,
    swap_players,
)
from scorepad.scoring.night import MAX_SESSIONS
from scorepad.scoring.seating import Meeting, swap_meetings
from scorepad.scoring.seating_draw import least_repeats

SEEDS = range(8)


def repeats(seating) -> int:
    """The spec's repeat count, counted here on its own: Σ over pairs that meet of
    (sessions together − 1)."""
    together = Counter(
        frozenset(pair) for session in seating for table in session.tables for pair in combinations(table.players, 2)
    )
    return sum(n - 1 for n in together.values())


def check_valid(seating, players: int, sessions: int) -> None:
    """The hard rules of club-format.md "Seating", checked from the seating alone."""
    assert [s.number for s in seating] == list(range(1, sessions + 1))
    sat_out = Counter()
    for session in seating:
        assert len(session.tables) == players // 4
        assert [t.number for t in session.tables] == list(range(1, players // 4 + 1))
        seated = [p for table in session.tables for p in table.players]
        assert all(len(table.players) == 4 for table in session.tables)
        assert all(table.first_declarer in range(4) for table in session.tables)
        assert len(seated) == len(set(seated))  # nobody seated twice in a session
        assert list(session.sit_out) == sorted(session.sit_out)
        assert len(session.sit_out) == players % 4
        assert sorted(seated + list(session.sit_out)) == list(range(players))  # everyone, once
        sat_out.update(session.sit_out)
    counts = [sat_out[p] for p in range(players)]
    assert max(counts) - min(counts) <= 1


@settings(max_examples=60, deadline=None)
@given(players=st.integers(4, 60), sessions=st.integers(1, 6), seed=st.integers(0, 2**32))
def test_a_drawn_seating_has_valid_tables_and_balanced_sit_outs(players, sessions, seed):
    seating = draw_seating(players, sessions, random.Random(seed))
    check_valid(seating, players, sessions)
    assert repeat_count(seating) == repeats(seating)
    assert sit_out_counts(seating, players) == tuple(sum(p in s.sit_out for s in seating) for p in range(players))


@pytest.mark.parametrize(("players", "sessions"), [(16, 1), (16, 2), (16, 3), (16, 4), (16, 5), (20, 2), (20, 3)])
@pytest.mark.parametrize("seed", SEEDS)
def test_no_repeat_where_the_numbers_leave_room(players, sessions, seed):
    # 16 players: 5 sessions without a repeat exist (the affine plane of order 4), so up to 3
    # (the spec's figure) certainly; 20 players: 5 tables of 4, 2 or 3 sessions.
    seating = draw_seating(players, sessions, random.Random(seed))
    check_valid(seating, players, sessions)
    assert repeats(seating) == 0


@pytest.mark.parametrize("seed", SEEDS)
def test_twelve_players_two_sessions_repeat_three_times(seed):
    # 12 players sit at 3 tables in session 1. In session 2 each table of 4 takes its players
    # from those 3 tables, so two of them sat together before (pigeonhole): at least 1 repeat
    # per table, 3 in all; the spec allows at most 3: exactly 3.
    seating = draw_seating(12, 2, random.Random(seed))
    check_valid(seating, 12, 2)
    assert repeats(seating) == 3


@pytest.mark.parametrize(("players", "sessions", "least"), [(8, 2, 4), (8, 3, 8), (12, 3, 6), (16, 6, 24)])
def test_small_nights_reach_the_least_repeats_possible(players, sessions, least):
    # Everyone plays every session. 8 players (2 tables): each later table holds 2 + 2 or 3 + 1
    # of a first-session table, so at least 2 pairs again: 4 a session after the first; with 3
    # sessions the 28 pairs hold 3 × 2 × 6 = 36 seats of pairs, 8 again (also the count by
    # pairs). 12 players (3 tables): at least 1 pair a table again, 3 a session after the first:
    # 6 over 3 sessions. 16 × 6: see below.
    assert least_repeats(players, sessions) == least
    for seed in range(3):
        seating = draw_seating(players, sessions, random.Random(seed))
        assert repeats(seating) == least


def test_sixteen_players_sixth_session_repeats_only_there():
    # 5 sessions of 16 without a repeat use all C(16, 2) = 120 pairs (5 × 4 tables × 6 pairs);
    # a 6th session's 4 tables then repeat 6 pairs each: 24, and no more.
    seating = draw_seating(16, 6, random.Random(3))
    check_valid(seating, 16, 6)
    assert repeats(seating) == 24


def test_the_same_random_state_draws_the_same_seating():
    assert draw_seating(30, 4, random.Random(7)) == draw_seating(30, 4, random.Random(7))
    assert draw_seating(30, 4, random.Random(7)) != draw_seating(30, 4, random.Random(8))


def test_a_large_night_is_drawn_valid_without_repeats():
    # 200 players × 6 sessions: 50 tables a session, room enough for no repeat at all.
    seating = draw_seating(200, 6, random.Random(1))
    check_valid(seating, 200, 6)
    assert repeats(seating) == 0


def test_too_few_players_cannot_be_drawn():
    with pytest.raises(ValueError):
        draw_seating(3, 1, random.Random(0))
    with pytest.raises(ValueError):
        draw_seating(8, 0, random.Random(0))


# --- Sit-outs after every session (a night may close early) ---------------------------

#: Hypothesis examples of the prefix property (SCOREPAD_PROPERTY_EXAMPLES=2000 for more, as
#: tests/scoring/test_properties.py).
PREFIX_EXAMPLES = int(os.environ.get("SCOREPAD_PROPERTY_EXAMPLES", "40"))


def sit_outs_after_each_session(seating, players: int) -> list[list[int]]:
    """Per session, every player's sit-outs so far, sorted (who has them does not matter)."""
    counts = [0] * players
    prefixes = []
    for session in seating:
        for p in session.sit_out:
            counts[p] += 1
        prefixes.append(sorted(counts))
    return prefixes


def out_twice_in_a_row(seating) -> list[tuple[int, int]]:
    """(player, session) for each player sitting out ``session`` and the one before it."""
    pairs = itertools.pairwise(seating)
    return [(p, later.number) for earlier, later in pairs for p in set(earlier.sit_out) & set(later.sit_out)]


@settings(max_examples=PREFIX_EXAMPLES, deadline=None)
@given(players=st.integers(4, 40), sessions=st.integers(1, MAX_SESSIONS), seed=st.integers(0, 2**32))
def test_sit_outs_are_balanced_after_every_session_and_never_twice_in_a_row(players, sessions, seed):
    # m = players mod 4 sit out a session; the m of the session before leave players − m ≥ m
    # others (players ≥ m + 4, m ≤ 3), so the numbers always allow nobody out twice in a row.
    seating = draw_seating(players, sessions, random.Random(seed))
    for prefix in sit_outs_after_each_session(seating, players):
        assert prefix[-1] - prefix[0] <= 1
    assert out_twice_in_a_row(seating) == []


@pytest.mark.parametrize(
    ("players", "after_each"),
    [
        # 7 players, 3 out a session: 3k sit-outs after k sessions over 7 players, each ⌊3k/7⌋ or
        # one more: 3 ones; 6 ones; all 7 once and 2 twice (9); 5 twice (12); 6 twice and 1
        # three times (15); 3 twice and 4 three times (18).
        (
            7,
            [
                [0, 0, 0, 0, 1, 1, 1],
                [0, 1, 1, 1, 1, 1, 1],
                [1, 1, 1, 1, 1, 2, 2],
                [1, 1, 2, 2, 2, 2, 2],
                [2, 2, 2, 2, 2, 2, 3],
                [2, 2, 2, 3, 3, 3, 3],
            ],
        ),
        # 11 players, 3 out a session: nobody a second time before all 11 sat out once (after
        # session 4: 12 = 11 + 1), then 15 (4 twice) and 18 (7 twice).
        (
            11,
            [
                [0] * 8 + [1] * 3,
                [0] * 5 + [1] * 6,
                [0] * 2 + [1] * 9,
                [1] * 10 + [2],
                [1] * 7 + [2] * 4,
                [1] * 4 + [2] * 7,
            ],
        ),
    ],
)
@pytest.mark.parametrize("seed", range(16))
def test_a_night_closed_after_any_session_has_balanced_sit_outs(players, after_each, seed):
    seating = draw_seating(players, 6, random.Random(seed))
    check_valid(seating, players, 6)
    assert sit_outs_after_each_session(seating, players) == after_each
    assert out_twice_in_a_row(seating) == []


# --- Counting ---------------------------------------------------------------------------


def night(*sessions: list[list[int]], players: int) -> tuple[Session, ...]:
    """A seating written by hand: per session its tables; sit-outs are the others."""
    return tuple(
        Session(
            s + 1,
            tuple(Table(t + 1, tuple(table), 0) for t, table in enumerate(tables)),
            tuple(p for p in range(players) if all(p not in table for table in tables)),
        )
        for s, tables in enumerate(sessions)
    )


def test_a_pair_together_all_night_counts_once_per_extra_session():
    # Sessions: {0,1,2,3}, {0,1,4,5}, {0,1,2,6}. Pair 0-1 meets 3 times: 2; pair 0-2 and 1-2
    # meet twice: 1 each. Total 4.
    seating = night([[0, 1, 2, 3]], [[0, 1, 4, 5]], [[0, 1, 2, 6]], players=7)
    assert repeat_count(seating) == 4
    # Player 3 sits out sessions 2 and 3, players 4 and 5 sessions 1 and 3, 6 sessions 1 and
    # 2, 2 session 2; 0 and 1 never.
    assert sit_out_counts(seating, 7) == (0, 0, 1, 2, 2, 2, 2)


def test_seating_to_list_is_the_documents_shape():
    seating = night([[3, 1, 0, 2], [4, 5, 6, 7]], players=9)
    assert seating_to_list(seating) == [[[3, 1, 0, 2], [4, 5, 6, 7]]]


# --- A fixed seating --------------------------------------------------------------------


def test_a_fixed_seating_is_kept_in_its_seat_order_and_others_sit_out():
    seating = parse_seating([[[5, 0, 3, 1]], [[2, 4, 0, 1]]], 6, 2, random.Random(0))
    assert seating_to_list(seating) == [[[5, 0, 3, 1]], [[2, 4, 0, 1]]]
    assert [s.sit_out for s in seating] == [(2, 4), (3, 5)]
    assert all(t.first_declarer in range(4) for s in seating for t in s.tables)


def test_unbalanced_sit_outs_are_the_organisers_choice():
    # Player 5 sits out both sessions, players 0-3 never.
    seating = parse_seating([[[0, 1, 2, 3]], [[0, 1, 2, 3]]], 6, 2, random.Random(0))
    assert sit_out_counts(seating, 6) == (0, 0, 0, 0, 2, 2)


@pytest.mark.parametrize(
    ("seating", "path"),
    [
        ({"1": [0, 1, 2, 3]}, "seating"),  # not a list
        ([[[0, 1, 2, 3]]], "seating"),  # 1 session, the night has 2
        ([[[0, 1, 2, 3]], [[0, 1, 2, 3]], [[0, 1, 2, 3]]], "seating"),  # 3 sessions
        ([[[0, 1, 2, 3]], []], "seating[1]"),  # a session without tables
        ([[[0, 1, 2, 3]], [0, 1, 2, 3]], "seating[1][0]"),  # a session of numbers, not tables
        ([[[0, 1, 2, 3]], [[0, 1, 2]]], "seating[1][0]"),  # a table of 3
        ([[[0, 1, 2, 3]], [[4, 5, 6, 7], [0, 1, 2, 3, 8]]], "seating[1][1]"),  # a table of 5
        ([[[0, 1, 2, 3], [4, 5, 6, 0]], [[0, 1, 2, 3]]], "seating[0][1][3]"),  # 0 twice in session 1
        ([[[0, 1, 2, 2]], [[0, 1, 2, 3]]], "seating[0][0][3]"),  # 2 twice at one table
        ([[[0, 1, 9, 3]], [[0, 1, 2, 3]]], "seating[0][0][2]"),  # out of range (9 players: 0-8)
        ([[[0, 1, -1, 3]], [[0, 1, 2, 3]]], "seating[0][0][2]"),  # negative
        ([[[0, 1, 2, 3]], [[0, True, 2, 3]]], "seating[1][0][1]"),  # a boolean is not an index
        ([[[0, 1, 2, 3]], [[0, "1", 2, 3]]], "seating[1][0][1]"),  # text is not an index
    ],
)
def test_a_fixed_seating_is_refused_at_its_problem(seating, path):
    with pytest.raises(ScoringError) as refused:
        parse_seating(seating, 9, 2, random.Random(0))
    assert refused.value.path == path


# --- The organiser's swap ---------------------------------------------------------------


def test_swapping_two_seated_players_keeps_their_seats():
    seating = night([[0, 1, 2, 3], [4, 5, 6, 7]], [[0, 4, 1, 5], [2, 6, 3, 7]], players=9)
    swapped = swap_players(seating, 2, 1, 6)
    assert seating_to_list(swapped) == [[[0, 1, 2, 3], [4, 5, 6, 7]], [[0, 4, 6, 5], [2, 1, 3, 7]]]
    assert swapped[1].sit_out == (8,)


def test_swapping_a_seated_player_with_one_sitting_out():
    seating = night([[0, 1, 2, 3], [4, 5, 6, 7]], players=10)  # 8 and 9 sit out
    swapped = swap_players(seating, 1, 9, 2)
    assert seating_to_list(swapped) == [[[0, 1, 9, 3], [4, 5, 6, 7]]]
    assert swapped[0].sit_out == (2, 8)


@pytest.mark.parametrize(
    ("session", "a", "b", "path"),
    [(0, 1, 2, "session"), (2, 1, 2, "session"), (1, 10, 2, "a"), (1, 1, -1, "b"), (1, 3, 3, "b")],
)
def test_a_swap_is_refused_for_an_unknown_session_or_player(session, a, b, path):
    seating = night([[0, 1, 2, 3], [4, 5, 6, 7]], players=10)
    with pytest.raises(ScoringError) as refused:
        swap_players(seating, session, a, b)
    assert refused.value.path == path


def test_a_swap_names_the_pairs_it_seats_together_who_met_in_another_session():
    # Session 2 trades 1 (table 1) and 6 (table 2): table 1 becomes 0 4 6 5, table 2 2 1 3 7.
    # New pairs: 0-6, 4-6, 5-6 and 1-2, 1-3, 1-7; of them 1-2, 1-3 sat at session 1's table 1
    # and 4-6, 5-6 at its table 2; 0-6 and 1-7 never met. (0-4, 4-5 … were together before the swap.)
    seating = night([[0, 1, 2, 3], [4, 5, 6, 7]], [[0, 4, 1, 5], [2, 6, 3, 7]], players=9)
    assert swap_meetings(seating, 2, 1, 6) == (
        Meeting(1, 2, (1,)),
        Meeting(1, 3, (1,)),
        Meeting(4, 6, (1,)),
        Meeting(5, 6, (1,)),
    )


def test_a_swap_names_a_meeting_of_a_later_session_and_none_where_there_is_none():
    # 10 players, 8 and 9 out in session 1. Trading 3 and 4 in session 1 seats 0 with 4, who
    # share session 2's table 1, and 3 with 5 and 6, who share its table 2; trading 2 and 7
    # makes 0-7, 1-7, 3-7, 2-4, 2-5, 2-6: none of them meets in session 2.
    seating = night([[0, 1, 2, 3], [4, 5, 6, 7]], [[0, 4, 8, 9], [1, 5, 3, 6]], players=10)
    assert swap_meetings(seating, 1, 3, 4) == (Meeting(0, 4, (2,)), Meeting(3, 5, (2,)), Meeting(3, 6, (2,)))
    assert swap_meetings(seating, 1, 2, 7) == ()
    assert swap_meetings(seating, 1, 9, 8) == ()  # two sitting out trade: no table changes
    with pytest.raises(ScoringError):
        swap_meetings(seating, 3, 1, 2)
