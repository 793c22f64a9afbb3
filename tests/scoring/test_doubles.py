"""Legality of a doubles grid and the pairwise settlement (barbu-rules.md "Doubles")."""

import pytest

from scorepad.scoring import ScoringError
from scorepad.scoring.doubles import Doubling, effective, needed_double, refusal, settle, validate_doubles

TOURNAMENT = Doubling()
OFF = Doubling(enabled=False)
AGAINST_DECLARER = Doubling(target="declarer")
AUTO = Doubling(auto_redouble=True)
HOUSE = Doubling(single=2, mutual=4)


def test_worked_example_of_the_rules_settles_to_the_published_totals():
    # Anne (0) declares No Queens: raw Anne −6, Beth 0, Cath −6, Diana −12.
    # Beth doubled all three; Cath doubled Anne; Anne redoubled Cath.
    raw = (-6, 0, -6, -12)
    doubles = [(1, 0), (1, 2), (1, 3), (2, 0), (0, 2)]
    net = settle(raw, doubles, 0, TOURNAMENT)
    # Beth–Anne: Anne pays 6. Anne–Cath: equal, nothing moves despite the redouble.
    # Beth–Cath: Cath pays 6. Beth–Diana: Diana pays 12 → Beth +24.
    assert net == (-6, 24, -6, -12)
    assert tuple(r + n for r, n in zip(raw, net, strict=True)) == (-12, 24, -12, -24)  # sum −24


@pytest.mark.parametrize(
    "raw, doubles, declarer, doubling, expected",
    [
        # no double: nothing changes hands
        ((-20, 0, 0, 0), [], 0, TOURNAMENT, (0, 0, 0, 0)),
        # one double: the difference 20 moves from the worse (0) to the better (1)
        ((-20, 0, 0, 0), [(1, 0)], 0, TOURNAMENT, (-20, 20, 0, 0)),
        # the direction of a one-way double does not matter: 0 doubled 1, still 20 from 0 to 1
        ((-20, 0, 0, 0), [(0, 1)], 1, TOURNAMENT, (-20, 20, 0, 0)),
        # a double between two players with equal raw scores moves nothing
        ((-20, 0, 0, 0), [(2, 1)], 3, TOURNAMENT, (0, 0, 0, 0)),
        # double + redouble: 2 × 10 = 20
        ((-10, 0, 0, 0), [(1, 0), (0, 1)], 0, TOURNAMENT, (-20, 20, 0, 0)),
        # house multipliers: single ×2 → 2 × 10 = 20; mutual ×4 → 4 × 10 = 40
        ((-10, 0, 0, 0), [(1, 0)], 0, HOUSE, (-20, 20, 0, 0)),
        ((-10, 0, 0, 0), [(1, 0), (0, 1)], 0, HOUSE, (-40, 40, 0, 0)),
        # positive contract: Trumps 25, 15, 20, 5; 1 and 3 double declarer 0, 0 redoubles 3
        # 0–1: 1 × (25 − 15) = 10 to 0; 0–3: 2 × (25 − 5) = 40 to 0
        ((25, 15, 20, 5), [(1, 0), (3, 0), (0, 3)], 0, TOURNAMENT, (50, -10, 0, -40)),
    ],
)
def test_settlement_moves_the_pairwise_difference(raw, doubles, declarer, doubling, expected):
    assert settle(raw, doubles, declarer, doubling) == expected


def test_redouble_doubles_the_pairwise_difference():
    single = settle((-6, 0, -12, 0), [(1, 0)], 0, TOURNAMENT)
    mutual = settle((-6, 0, -12, 0), [(1, 0), (0, 1)], 0, TOURNAMENT)
    assert single == (-6, 6, 0, 0)  # 1 × (0 − (−6))
    assert mutual == (-12, 12, 0, 0)  # 2 × 6


def test_equal_raw_scores_move_nothing_even_when_redoubled():
    assert settle((-9, -9, -9, -9), [(1, 0), (0, 1), (2, 0), (3, 0)], 0, TOURNAMENT) == (0, 0, 0, 0)


def test_auto_redouble_counts_the_declarers_redouble_without_it_being_recorded():
    # 1 and 2 double declarer 0; auto redouble → both pairs mutual (×2)
    # 0–1: 2 × (0 − (−6)) = 12 to 1; 0–2: 2 × (−6 − (−12)) = 12 to 0 → 0 nets 0
    raw = (-6, 0, -12, -6)
    assert settle(raw, [(1, 0), (2, 0)], 0, AUTO) == (0, 12, -12, 0)
    assert settle(raw, [(1, 0), (2, 0)], 0, TOURNAMENT) == (0, 6, -6, 0)


def test_recording_a_redouble_with_auto_redouble_changes_nothing():
    raw = (-6, 0, -12, -6)
    assert settle(raw, [(1, 0), (0, 1)], 0, AUTO) == settle(raw, [(1, 0)], 0, AUTO) == (-12, 12, 0, 0)


def test_auto_redouble_only_answers_doubles_of_the_declarer():
    assert effective([(1, 0), (2, 3)], 0, AUTO) == {(1, 0), (0, 1), (2, 3)}
    assert effective([(1, 0), (2, 3)], 0, TOURNAMENT) == {(1, 0), (2, 3)}


@pytest.mark.parametrize(
    "raw, doubles",
    [
        ((-6, 0, -6, -12), [(1, 0), (1, 2), (1, 3), (2, 0), (0, 2)]),
        ((45, 20, 5, -5), [(1, 0), (2, 0), (3, 0), (0, 1), (0, 2), (0, 3)]),
        ((0, -26, 0, 0), [(a, b) for a in range(4) for b in range(4) if a != b]),
    ],
)
def test_settlement_sums_to_zero(raw, doubles):
    assert sum(settle(raw, doubles, 0, HOUSE)) == 0


@pytest.mark.parametrize(
    "doubles",
    [
        [],
        None,
        [[1, 0], [2, 0], [3, 0], [1, 2], [2, 3], [3, 1]],
        # maximum for everyone: all 12 cells, the declarer redoubling the three who doubled
        [[a, b] for a in range(4) for b in range(4) if a != b],
        # a redouble may be listed before the double it answers
        [[0, 2], [2, 0]],
    ],
)
def test_legal_doubles_are_accepted_as_pairs(doubles):
    pairs = validate_doubles(doubles, 0, False, TOURNAMENT, "d")
    assert pairs == tuple(tuple(p) for p in doubles or [])


@pytest.mark.parametrize(
    "doubles, declarer, positive, doubling",
    [
        # positive contract: opponents double the declarer, who redoubles them
        ([[1, 2], [3, 2], [2, 1]], 2, True, TOURNAMENT),
        # target declarer: same, plus auto redouble with a recorded redouble
        ([[1, 0], [0, 1]], 0, False, Doubling(target="declarer", auto_redouble=True)),
    ],
)
def test_doubling_the_declarer_and_redoubling_is_always_legal(doubles, declarer, positive, doubling):
    assert validate_doubles(doubles, declarer, positive, doubling, "d") == tuple(tuple(p) for p in doubles)


@pytest.mark.parametrize(
    "doubles, declarer, positive, doubling, path, fragment",
    [
        ([[1, 1]], 0, False, TOURNAMENT, "d[0]", "cannot double themselves"),
        ([[0, 0]], 0, False, TOURNAMENT, "d[0]", "cannot double themselves"),
        ([[1, 0]], 0, False, OFF, "d[0]", "no doubling"),
        ([[1, 0]], 0, True, OFF, "d[0]", "no doubling"),
        ([[1, 0], [1, 2]], 0, True, TOURNAMENT, "d[1]", "positive contract only the declarer may be doubled"),
        ([[2, 3]], 1, False, AGAINST_DECLARER, "d[0]", "only the declarer may be doubled"),
        ([[0, 1]], 0, False, TOURNAMENT, "d[0]", "only redouble a player who doubled them; seat 1 did not"),
        # seat 1 doubled seat 2, not the declarer: the declarer's double of 1 is no redouble
        ([[1, 2], [0, 1]], 0, False, TOURNAMENT, "d[1]", "seat 1 did not"),
        ([[0, 2]], 0, True, TOURNAMENT, "d[0]", "only redouble"),
        ([[0, 3]], 0, False, AUTO, "d[0]", "only redouble"),
        ([[1, 0], [2, 0], [1, 0]], 0, False, TOURNAMENT, "d[2]", "seat 1 doubling seat 0 is recorded twice"),
        ([[4, 0]], 0, False, TOURNAMENT, "d[0]", "seats from 0 to 3"),
        ([[1, -1]], 0, False, TOURNAMENT, "d[0]", "seats from 0 to 3"),
        ([[True, 0]], 0, False, TOURNAMENT, "d[0]", "seats from 0 to 3"),
        ([[1, "0"]], 0, False, TOURNAMENT, "d[0]", "seats from 0 to 3"),
        ([[1, 0, 2]], 0, False, TOURNAMENT, "d[0]", "a double is a pair"),
        ([1, 0], 0, False, TOURNAMENT, "d[0]", "a double is a pair"),
        ({"1": 0}, 0, False, TOURNAMENT, "d", "must be a list"),
    ],
)
def test_an_illegal_double_is_refused(doubles, declarer, positive, doubling, path, fragment):
    with pytest.raises(ScoringError) as err:
        validate_doubles(doubles, declarer, positive, doubling, "d")
    assert err.value.path == path
    assert fragment in err.value.message


@pytest.mark.parametrize(
    "doubler, doubled, declarer, positive, doubling, refused",
    [
        (1, 2, 0, False, TOURNAMENT, False),  # opponents may double each other in a negative contract
        (1, 2, 0, True, TOURNAMENT, True),  # not in a positive one
        (1, 2, 0, False, AGAINST_DECLARER, True),
        (1, 0, 0, True, AGAINST_DECLARER, False),
        (0, 1, 0, True, TOURNAMENT, False),  # the declarer's cell: a possible redouble
        (2, 2, 0, False, TOURNAMENT, True),
        (1, 0, 0, False, OFF, True),
    ],
)
def test_refusal_marks_the_cells_that_can_never_be_used(doubler, doubled, declarer, positive, doubling, refused):
    assert (refusal(doubler, doubled, declarer, positive, doubling) is not None) == refused


def test_pair_settlements_explain_the_worked_example():
    # barbu-rules.md: Anne declares No Queens; raw Anne −6, Beth 0, Cath −6, Diana −12.
    # Beth doubled all three; Cath doubled Anne; Anne redoubled Cath.
    from scorepad.scoring.doubles import PairSettlement, pair_settlements

    doubles = [(1, 0), (1, 2), (1, 3), (2, 0), (0, 2)]
    pairs = pair_settlements((-6, 0, -6, -12), doubles, 0, Doubling())
    assert pairs == (
        PairSettlement(0, 1, (1,), 1, -6),  # Anne pays Beth 6
        PairSettlement(0, 2, (0, 2), 2, 0),  # equal: nothing moves despite the redouble
        PairSettlement(1, 2, (1,), 1, 6),  # Cath pays Beth 6
        PairSettlement(1, 3, (1,), 1, 12),  # Diana pays Beth 12
    )


@pytest.mark.parametrize(
    ("doubler", "doubled", "declarer", "needs"),
    [
        (0, 2, 0, (2, 0)),  # the declarer redoubles Cath: Cath must have doubled the declarer
        (3, 1, 3, (1, 3)),
        (2, 0, 0, None),  # a double of the declarer needs nothing
        (1, 2, 0, None),  # a double between two opponents needs nothing
        (0, 0, 0, None),  # the declarer's own cell is no redouble (refused anyway)
    ],
)
def test_a_redouble_needs_the_double_it_answers(doubler, doubled, declarer, needs):
    assert needed_double(doubler, doubled, declarer) == needs
