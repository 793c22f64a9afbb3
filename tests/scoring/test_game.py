"""The schedule and a game's results (barbu-rules.md "Table and schedule", "Variants";
game-format.md "Results")."""

import pytest

from scorepad.scoring import BUILTIN, Game, Round, parse_preset, score
from scorepad.scoring.game import Seats, contracts_left, declarer_of, rank_of, seats_of, split_raw

TOURNAMENT = BUILTIN["tournament"]
CONTRACTS = [
    {"id": "no-tricks", "per_trick": -2},
    {"id": "no-queens", "per_queen": -6},
    {"id": "no-last-two", "penultimate": -10, "last": -20},
    {"id": "no-hearts", "per_heart": -2, "ace": -6},
    {"id": "no-king-of-hearts", "king": -20},
    {"id": "trumps", "per_trick": 5},
    {"id": "domino", "places": [45, 20, 5, -5]},
]
PLAYERS = ("Anne", "Beth", "Cath", "Diana")


def preset(**settings):
    return parse_preset({"id": "p", "contracts": CONTRACTS, **settings})


# --- schedule -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "first, index, declarer",
    [
        (0, 0, 0),
        (0, 6, 0),
        (0, 7, 1),
        (0, 13, 1),
        (0, 14, 2),
        (0, 21, 3),
        (0, 27, 3),
        # first declarer 2: runs of 7 go 2, 3, 0, 1
        (2, 0, 2),
        (2, 7, 3),
        (2, 14, 0),
        (2, 21, 1),
        (2, 27, 1),
    ],
)
def test_declarer_keeps_the_role_for_a_run_then_the_left_neighbour_takes_over(first, index, declarer):
    assert declarer_of(TOURNAMENT, first, index) == declarer


@pytest.mark.parametrize(
    "first, index, declarer",
    [
        (0, 0, 0),
        (0, 1, 1),
        (0, 3, 3),
        (0, 4, 0),
        (0, 27, 3),
        (3, 0, 3),
        (3, 1, 0),
        (3, 6, 1),
    ],
)
def test_with_rotation_round_the_declarer_moves_left_every_round(first, index, declarer):
    assert declarer_of(preset(rotation="round"), first, index) == declarer


def test_run_length_follows_the_number_of_contracts():
    six = parse_preset({"id": "six", "contracts": CONTRACTS[:6]})
    assert [declarer_of(six, 1, i) for i in (0, 5, 6, 11, 12, 18, 23)] == [1, 1, 2, 2, 3, 0, 0]


@pytest.mark.parametrize(
    "declarer, dealer, cutter",
    [
        # the declarer's right (d − 1) deals, the opposite (d + 2) cuts, the declarer leads
        (0, 3, 2),
        (1, 0, 3),
        (2, 1, 0),
        (3, 2, 1),
    ],
)
@pytest.mark.parametrize("contract", [None, "no-tricks", "domino"])
def test_by_default_right_hand_deals_opposite_cuts_declarer_leads(declarer, dealer, cutter, contract):
    assert seats_of(TOURNAMENT, declarer, 0, contract) == Seats(declarer, dealer, cutter, declarer)


@pytest.mark.parametrize(
    "declarer, contract, leader",
    [
        # the dealer chooses and is the declarer; the dealer's left leads...
        (0, "no-tricks", 1),
        (1, "trumps", 2),
        (3, "no-hearts", 0),
        (2, None, 3),
        # ...except in domino, where the dealer starts
        (0, "domino", 0),
        (3, "domino", 3),
    ],
)
def test_when_the_dealer_chooses_the_dealer_is_declarer_and_the_left_leads(declarer, contract, leader):
    seats = seats_of(preset(chooser="dealer"), declarer, 0, contract)
    # the cutter is the dealer's right, as in the default deal
    assert seats == Seats(declarer, declarer, (declarer - 1) % 4, leader)


def test_with_a_fixed_order_the_deal_is_as_by_default():
    assert seats_of(preset(chooser="fixed"), 1, 7, "no-tricks") == Seats(2, 1, 0, 2)


def test_seats_follow_the_round_index():
    # round 15 (index 14) of a game begun by seat 1: third run, declarer 3, dealer 2, cutter 1
    assert seats_of(TOURNAMENT, 1, 14) == Seats(3, 2, 1, 3)


def test_contracts_left_are_the_declarers_undeclared_ones_in_preset_order():
    rounds = [Round("trumps"), Round("no-queens")]
    assert contracts_left(TOURNAMENT, 0, rounds, 0) == (
        "no-tricks",
        "no-last-two",
        "no-hearts",
        "no-king-of-hearts",
        "domino",
    )
    # another declarer's list is untouched
    assert contracts_left(TOURNAMENT, 0, rounds, 1) == TOURNAMENT.contract_ids


def test_contracts_left_with_rotation_round_count_each_declarers_own_rounds():
    rot = preset(rotation="round")
    # declarers 0, 1, 2, 3, 0
    rounds = [Round("trumps"), Round("trumps"), Round("domino"), Round("no-tricks"), Round("domino")]
    assert contracts_left(rot, 0, rounds, 0) == (
        "no-tricks",
        "no-queens",
        "no-last-two",
        "no-hearts",
        "no-king-of-hearts",
    )
    assert contracts_left(rot, 0, rounds, 2) == (
        "no-tricks",
        "no-queens",
        "no-last-two",
        "no-hearts",
        "no-king-of-hearts",
        "trumps",
    )


# --- undoubled negative split, ranking ----------------------------------------------------


@pytest.mark.parametrize(
    "total, declarer, expected",
    [
        # No Tricks −26: round(−26/3) = −9 each opponent, declarer −26 + 27 = +1
        (-26, 0, (1, -9, -9, -9)),
        (-26, 2, (-9, -9, 1, -9)),
        # No Hearts / No Last Two −30: −10 each, declarer 0
        (-30, 1, (-10, 0, -10, -10)),
        # King of Hearts −20: round(−6.67) = −7, declarer −20 + 21 = +1
        (-20, 3, (-7, -7, -7, 1)),
        # No Queens −24: −8 each, declarer 0
        (-24, 0, (0, -8, -8, -8)),
        # Ravage City −36: −12 each, declarer 0
        (-36, 0, (0, -12, -12, -12)),
    ],
)
def test_an_undoubled_negative_deal_split_gives_each_opponent_a_rounded_third(total, declarer, expected):
    assert split_raw(total, declarer) == expected


@pytest.mark.parametrize(
    "final, rank",
    [
        ((10, 5, 5, 0), (1, 2, 2, 4)),
        ((0, 5, 5, 10), (4, 2, 2, 1)),
        ((-3, 7, 7, 7), (4, 1, 1, 1)),
        ((0, 0, 0, 0), (1, 1, 1, 1)),
        ((0, 0, 5, 5), (3, 3, 1, 1)),
        ((-234, 56, 132, 46), (4, 2, 1, 3)),
    ],
)
def test_rank_is_competition_ranking_ties_share_and_the_next_skips(final, rank):
    assert rank_of(final) == rank


# --- score -------------------------------------------------------------------------------


def test_worked_example_round_is_scored_as_published():
    game = Game(
        PLAYERS,
        0,
        TOURNAMENT,
        (Round("no-queens", ((1, 0), (1, 2), (1, 3), (2, 0), (0, 2)), {"queens": [1, 0, 1, 2]}),),
    )
    result = score(game).rounds[0]
    assert (result.number, result.declarer, result.played) == (1, 0, True)
    assert result.raw == (-6, 0, -6, -12)
    assert result.doubles == (-6, 24, -6, -12)
    assert result.total == (-12, 24, -12, -24)
    assert result.running == (-12, 24, -12, -24)


def test_running_totals_accumulate_and_quota_given_counts_doubles_of_the_declarer():
    game = Game(
        PLAYERS,
        0,
        TOURNAMENT,
        (
            # round 1: as the worked example → −12, 24, −12, −24
            Round("no-queens", ((1, 0), (1, 2), (1, 3), (2, 0), (0, 2)), {"queens": [1, 0, 1, 2]}),
            # round 2: K♥ to Diana, raw (0, 0, 0, −20); Diana doubled Anne: 20 from Diana to Anne
            Round("no-king-of-hearts", ((3, 0),), {"king": 3}),
        ),
    )
    scores = score(game)
    assert scores.rounds[1].total == (20, 0, 0, -40)
    assert scores.rounds[1].running == (8, 24, -12, -64)  # (−12+20, 24+0, −12+0, −24−40)
    st = scores.standings
    assert st.totals == st.final == (8, 24, -12, -64)
    assert st.rank == (2, 1, 3, 4)
    # Anne declared both: Beth doubled her once, Cath once, Diana once; the redouble and
    # the doubles between opponents do not count
    assert st.quota_given == ((0, 1, 1, 1), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    assert (st.complete, st.rounds_played, st.rounds_total) == (False, 2, 28)


def test_next_round_of_a_new_game_is_the_first_declarers_with_every_contract():
    nxt = score(Game(PLAYERS, 2, TOURNAMENT)).standings.next
    assert (nxt.number, nxt.seats.declarer, nxt.seats.dealer) == (1, 2, 1)
    assert nxt.contracts_left == TOURNAMENT.contract_ids


def test_next_round_after_a_run_passes_to_the_left():
    order = ["domino", "trumps", "no-tricks", "no-queens", "no-last-two", "no-hearts", "no-king-of-hearts"]
    outcomes = {
        "domino": {"order": [0, 1, 2, 3]},
        "trumps": {"tricks": [13, 0, 0, 0]},
        "no-tricks": {"tricks": [13, 0, 0, 0]},
        "no-queens": {"queens": [4, 0, 0, 0]},
        "no-last-two": {"penultimate": 0, "last": 0},
        "no-hearts": {"hearts": [13, 0, 0, 0], "ace": 0},
        "no-king-of-hearts": {"king": 0},
    }
    rounds = tuple(Round(c, (), outcomes[c]) for c in order)
    st = score(Game(PLAYERS, 3, TOURNAMENT, rounds[:6])).standings
    assert (st.next.number, st.next.seats.declarer, st.next.contracts_left) == (7, 3, ("no-king-of-hearts",))
    st = score(Game(PLAYERS, 3, TOURNAMENT, rounds)).standings
    # seat 3's run is over: seat 0 declares, seat 3 deals
    assert (st.next.number, st.next.seats.declarer, st.next.seats.dealer) == (8, 0, 3)
    assert st.next.contracts_left == TOURNAMENT.contract_ids
    # Anne (0) took every card and went out first in domino:
    # Anne 45 + 65 − 26 − 24 − 30 − 30 − 20 = −20; domino alone: Beth +20, Cath +5, Diana −5
    assert st.totals == (-20, 20, 5, -5)


def test_next_dealer_is_the_declarer_when_the_dealer_chooses():
    nxt = score(Game(PLAYERS, 1, preset(chooser="dealer"))).standings.next
    assert (nxt.seats.declarer, nxt.seats.dealer) == (1, 1)


def test_a_split_deal_is_not_played_and_scores_the_split():
    game = Game(PLAYERS, 0, preset(undoubled_negative="split"), (Round("no-tricks", (), None),))
    result = score(game).rounds[0]
    assert result.played is False
    assert result.raw == result.total == (1, -9, -9, -9)
    assert result.doubles == (0, 0, 0, 0)


# --- quota penalties ------------------------------------------------------------------------

RAVAGE_ONLY = [{"id": "ravage-city", "penalty": -36}]
ALL_TIE = {"most": [0, 1, 2, 3]}  # −9 each: doubles never move points
QUOTA_ROUNDS = (
    Round("ravage-city", ((1, 0), (2, 0)), ALL_TIE),  # declarer 0: Beth, Cath double
    Round("ravage-city", ((0, 1), (3, 1), (1, 3)), ALL_TIE),  # declarer 1: Anne, Diana (redoubled)
    Round("ravage-city", ((1, 3),), ALL_TIE),  # declarer 2: nobody doubles Cath
    Round("ravage-city", ((1, 3), (0, 3), (2, 3)), ALL_TIE),  # declarer 3: everyone
)


def quota_game(rounds=QUOTA_ROUNDS, **doubling):
    settings = {"enabled": True, "quota": 2, "quota_penalty": 5, **doubling}
    return Game(PLAYERS, 0, parse_preset({"id": "q", "contracts": RAVAGE_ONLY, "doubling": settings}), rounds)


def test_quota_given_counts_each_players_doubles_of_each_declarer():
    assert score(quota_game()).standings.quota_given == (
        (0, 1, 1, 0),
        (1, 0, 0, 1),
        (0, 0, 0, 0),
        (1, 1, 1, 0),
    )


@pytest.mark.parametrize(
    "quota, penalty, expected",
    [
        # quota 2, doubles owed to each other declarer d (quota − given), × 5:
        # Anne:  d1 2−1, d2 2−0, d3 2−1 → 4 → −20
        # Beth:  d0 2−1, d2 2−0, d3 2−1 → 4 → −20
        # Cath:  d0 2−1, d1 2−0, d3 2−1 → 4 → −20
        # Diana: d0 2−0, d1 2−1, d2 2−0 → 5 → −25
        (2, 5, (-20, -20, -20, -25)),
        # quota 1: Anne 0+1+0, Beth 0+1+0, Cath 0+1+0, Diana 1+0+1 → ×3
        (1, 3, (-3, -3, -3, -6)),
        # a quota of 0 is never owed
        (0, 5, (0, 0, 0, 0)),
    ],
)
def test_quota_penalty_deducts_per_double_owed_at_the_end(quota, penalty, expected):
    st = score(quota_game(quota=quota, quota_penalty=penalty)).standings
    assert st.complete and st.next is None
    assert st.quota_penalties == expected
    assert st.totals == (-36, -36, -36, -36)  # 4 rounds × −9
    assert st.final == tuple(-36 + q for q in expected)


def test_quota_penalty_applies_only_to_a_complete_game():
    st = score(quota_game(QUOTA_ROUNDS[:3])).standings
    assert not st.complete
    assert st.quota_penalties == (0, 0, 0, 0)
    assert st.final == st.totals == (-27, -27, -27, -27)


def test_quota_penalty_of_zero_is_shown_only():
    assert score(quota_game(quota_penalty=0)).standings.quota_penalties == (0, 0, 0, 0)


def test_no_quota_penalty_without_doubling():
    rounds = tuple(Round("ravage-city", (), ALL_TIE) for _ in range(4))
    st = score(quota_game(rounds, enabled=False)).standings
    assert st.complete
    assert st.quota_penalties == (0, 0, 0, 0)


def test_final_ranks_after_quota_penalties():
    st = score(quota_game()).standings
    # final −56, −56, −56, −61: three share first, Diana fourth
    assert st.final == (-56, -56, -56, -61)
    assert st.rank == (1, 1, 1, 4)
