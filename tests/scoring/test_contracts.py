"""Raw scoring of every contract kind and the validation of outcomes and contract values
(barbu-rules.md "The contracts"; game-format.md "Preset" and "Round")."""

import pytest

from scorepad.scoring import ScoringError
from scorepad.scoring.contracts import GIVEN_PLACES, contract_to_dict, implied_place, parse_contract, parse_outcome

NO_TRICKS = {"id": "no-tricks", "per_trick": -2}
NO_QUEENS = {"id": "no-queens", "per_queen": -6}
NO_LAST_TWO = {"id": "no-last-two", "penultimate": -10, "last": -20}
NO_HEARTS = {"id": "no-hearts", "per_heart": -2, "ace": -6}
KING = {"id": "no-king-of-hearts", "king": -20}
TRUMPS = {"id": "trumps", "per_trick": 5}
DOMINO = {"id": "domino", "places": [45, 20, 5, -5]}
RAVAGE = {"id": "ravage-city", "penalty": -36}
RAVAGE_24 = {"id": "ravage-city", "penalty": -24}
SALADE = {
    "id": "salade",
    "per_trick": -2,
    "per_queen": -6,
    "penultimate": -10,
    "last": -20,
    "per_heart": -2,
    "ace": -6,
    "king": -20,
}
TOURNAMENT = [NO_TRICKS, NO_QUEENS, NO_LAST_TWO, NO_HEARTS, KING, TRUMPS, DOMINO]


def raw(contract, outcome, deck=52):
    c = parse_contract(contract, "c")
    return c.raw(parse_outcome(c.id, outcome, deck, "o"))


@pytest.mark.parametrize(
    "contract, deck, outcome, expected",
    [
        # −2 per trick: 4, 3, 6, 0 tricks → −8, −6, −12, 0
        (NO_TRICKS, 52, {"tricks": [4, 3, 6, 0]}, (-8, -6, -12, 0)),
        # −6 per queen: 1, 0, 1, 2 queens → −6, 0, −6, −12 (the worked example's deal)
        (NO_QUEENS, 52, {"queens": [1, 0, 1, 2]}, (-6, 0, -6, -12)),
        # 12th trick −10 to seat 2, 13th −20 to seat 0
        (NO_LAST_TWO, 52, {"penultimate": 2, "last": 0}, (-20, 0, -10, 0)),
        # one player takes both: −10 − 20 = −30
        (NO_LAST_TWO, 52, {"penultimate": 1, "last": 1}, (0, -30, 0, 0)),
        # hearts 3, 5, 0, 5, ace with seat 1: seat 1 = −2×4 − 6 = −14; seat 0 −6; seat 3 −10
        (NO_HEARTS, 52, {"hearts": [3, 5, 0, 5], "ace": 1}, (-6, -14, 0, -10)),
        # the ace alone counts −6 (not −2 − 6): 1, 4, 4, 4 with ace at seat 0 → −6, −8, −8, −8
        (NO_HEARTS, 52, {"hearts": [1, 4, 4, 4], "ace": 0}, (-6, -8, -8, -8)),
        # all 13 hearts with the ace: −2×12 − 6 = −30
        (NO_HEARTS, 52, {"hearts": [0, 0, 13, 0], "ace": 2}, (0, 0, -30, 0)),
        # K♥ −20 to its taker
        (KING, 52, {"king": 3}, (0, 0, 0, -20)),
        # +5 per trick: 5, 3, 4, 1 → 25, 15, 20, 5
        (TRUMPS, 52, {"tricks": [5, 3, 4, 1]}, (25, 15, 20, 5)),
        # order 2, 0, 3, 1 → seat 2 +45, seat 0 +20, seat 3 +5, seat 1 −5
        (DOMINO, 52, {"order": [2, 0, 3, 1]}, (20, -5, 45, 5)),
        # Ravage City −36: alone −36, two −18, three −12, four −9
        (RAVAGE, 52, {"most": [1]}, (0, -36, 0, 0)),
        (RAVAGE, 52, {"most": [0, 2]}, (-18, 0, -18, 0)),
        (RAVAGE, 52, {"most": [3, 0, 1]}, (-12, -12, 0, -12)),
        (RAVAGE, 52, {"most": [0, 1, 2, 3]}, (-9, -9, -9, -9)),
        # the −24 version: −24, −12, −8, −6
        (RAVAGE_24, 52, {"most": [2]}, (0, 0, -24, 0)),
        (RAVAGE_24, 52, {"most": [1, 3]}, (0, -12, 0, -12)),
        (RAVAGE_24, 52, {"most": [0, 1, 2]}, (-8, -8, -8, 0)),
        (RAVAGE_24, 52, {"most": [0, 1, 2, 3]}, (-6, -6, -6, -6)),
        # Salade, every penalty at once:
        # seat 0: tricks 4×−2 = −8, queens 1×−6 = −6, hearts 3×−2 = −6 (the ace is seat 1's),
        #   13th trick −20 → −40
        # seat 1: tricks −6, queens 0, hearts −2×4 − 6 = −14 → −20
        # seat 2: tricks −12, queens −6, hearts 0, K♥ −20 → −38
        # seat 3: tricks 0, queens −12, hearts −10, 12th trick −10 → −32
        (
            SALADE,
            52,
            {
                "tricks": [4, 3, 6, 0],
                "queens": [1, 0, 1, 2],
                "hearts": [3, 5, 0, 5],
                "ace": 1,
                "king": 2,
                "penultimate": 3,
                "last": 0,
            },
            (-40, -20, -38, -32),
        ),
        # 32-card deck: 8 tricks, 8 hearts. No Tricks 2, 2, 2, 2 → −4 each
        (NO_TRICKS, 32, {"tricks": [2, 2, 2, 2]}, (-4, -4, -4, -4)),
        # all 8 hearts with the ace: −2×7 − 6 = −20
        (NO_HEARTS, 32, {"hearts": [0, 8, 0, 0], "ace": 1}, (0, -20, 0, 0)),
        # Trumps 5, 0, 1, 2 tricks → 25, 0, 5, 10 (8 tricks)
        (TRUMPS, 32, {"tricks": [5, 0, 1, 2]}, (25, 0, 5, 10)),
    ],
)
def test_raw_scores_follow_the_contract_values(contract, deck, outcome, expected):
    assert raw(contract, outcome, deck) == expected


@pytest.mark.parametrize(
    "contract, deck, total",
    [
        (NO_TRICKS, 52, -26),  # −2 × 13
        (NO_QUEENS, 52, -24),  # −6 × 4
        (NO_LAST_TWO, 52, -30),  # −10 − 20
        (NO_HEARTS, 52, -30),  # −2 × 12 − 6
        (KING, 52, -20),
        (TRUMPS, 52, 65),  # 5 × 13
        (DOMINO, 52, 65),  # 45 + 20 + 5 − 5
        (RAVAGE, 52, -36),
        (RAVAGE_24, 52, -24),
        (SALADE, 52, -130),  # −26 − 24 − 30 − 30 − 20
        (NO_TRICKS, 32, -16),  # −2 × 8
        (NO_QUEENS, 32, -24),  # still 4 queens
        (NO_HEARTS, 32, -20),  # −2 × 7 − 6
        (TRUMPS, 32, 40),  # 5 × 8
        (DOMINO, 32, 65),
        (SALADE, 32, -110),  # −16 − 24 − 30 − 20 − 20
    ],
)
def test_contract_total_is_the_points_one_deal_hands_out(contract, deck, total):
    assert parse_contract(contract, "c").total(deck) == total


def test_the_seven_tournament_totals_add_up_to_zero():
    totals = [parse_contract(c, "c").total(52) for c in TOURNAMENT]
    assert totals == [-26, -24, -30, -30, -20, 65, 65]
    assert sum(totals) == 0  # −130 + 130


@pytest.mark.parametrize(
    "contract, deck, outcome",
    [
        (NO_TRICKS, 52, {"tricks": [13, 0, 0, 0]}),
        (NO_HEARTS, 52, {"hearts": [2, 2, 2, 7], "ace": 3}),
        (NO_HEARTS, 32, {"hearts": [1, 2, 2, 3], "ace": 0}),
        (RAVAGE, 52, {"most": [0, 3]}),
        (
            SALADE,
            32,
            {
                "tricks": [2, 2, 2, 2],
                "queens": [4, 0, 0, 0],
                "hearts": [0, 0, 0, 8],
                "ace": 3,
                "king": 3,
                "penultimate": 3,
                "last": 3,
            },
        ),
        (DOMINO, 52, {"order": [3, 2, 1, 0]}),
    ],
)
def test_raw_scores_always_add_up_to_the_contract_total(contract, deck, outcome):
    assert sum(raw(contract, outcome, deck)) == parse_contract(contract, "c").total(deck)


@pytest.mark.parametrize("contract", [NO_TRICKS, NO_QUEENS, NO_LAST_TWO, NO_HEARTS, KING, RAVAGE, SALADE])
def test_every_contract_but_trumps_and_domino_is_negative(contract):
    assert parse_contract(contract, "c").negative


@pytest.mark.parametrize("contract", [TRUMPS, DOMINO])
def test_trumps_and_domino_are_positive(contract):
    assert not parse_contract(contract, "c").negative


@pytest.mark.parametrize("contract", TOURNAMENT + [RAVAGE, SALADE])
def test_contract_to_dict_gives_back_the_preset_object(contract):
    assert contract_to_dict(parse_contract(contract, "c")) == contract


def test_outcome_is_normalised_to_the_contract_fields():
    assert parse_outcome("no-hearts", {"ace": 1, "hearts": [3, 5, 0, 5]}, 52, "o") == {"hearts": [3, 5, 0, 5], "ace": 1}


@pytest.mark.parametrize(
    "contract, outcome, deck, path, fragment",
    [
        ("no-tricks", None, 52, "o", "outcome of the deal is missing"),
        ("no-tricks", [4, 3, 6, 0], 52, "o", "outcome of the deal is missing"),
        ("no-tricks", {"tricks": [4, 3, 5, 0]}, 52, "o.tricks", "the tricks add up to 12, a deal has 13"),
        ("trumps", {"tricks": [4, 4, 4, 1]}, 32, "o.tricks", "the tricks add up to 13, a deal has 8"),
        ("no-tricks", {"tricks": [4, 3, 6]}, 52, "o.tricks", "all four players"),
        ("no-tricks", {"tricks": [4, -1, 6, 4]}, 52, "o.tricks[1]", "0 or more"),
        ("no-tricks", {"tricks": [4, 3, 5.5, 0.5]}, 52, "o.tricks[2]", "whole number"),
        ("no-tricks", {"tricks": [True, 3, 6, 3]}, 52, "o.tricks[0]", "whole number"),
        ("no-tricks", {}, 52, "o.tricks", "missing"),
        ("no-queens", {"queens": [1, 1, 1, 0]}, 52, "o.queens", "the queens add up to 3, there are 4"),
        ("no-queens", {"tricks": [13, 0, 0, 0]}, 52, "o.tricks", "no-queens outcome has no 'tricks'"),
        ("no-hearts", {"hearts": [3, 5, 0, 4], "ace": 1}, 52, "o.hearts", "the hearts add up to 12, the deck has 13"),
        ("no-hearts", {"hearts": [3, 5, 0, 5], "ace": 2}, 52, "o.ace", "took no hearts"),
        ("no-hearts", {"hearts": [3, 5, 0, 5], "ace": 4}, 52, "o.ace", "seat from 0 to 3"),
        ("no-hearts", {"hearts": [3, 5, 0, 5]}, 52, "o.ace", "missing"),
        ("no-king-of-hearts", {"king": 4}, 52, "o.king", "seat from 0 to 3"),
        ("no-king-of-hearts", {"king": -1}, 52, "o.king", "seat from 0 to 3"),
        ("no-king-of-hearts", {"king": True}, 52, "o.king", "seat from 0 to 3"),
        ("no-last-two", {"last": 0}, 52, "o.penultimate", "missing"),
        ("no-last-two", {"penultimate": 0, "last": "1"}, 52, "o.last", "seat from 0 to 3"),
        ("domino", {"order": [0, 0, 1, 2]}, 52, "o.order", "each player goes out exactly once"),
        ("domino", {"order": [0, 1, 2]}, 52, "o.order", "all four players"),
        ("domino", {"order": [0, 5, 2, 3]}, 52, "o.order[1]", "seat from 0 to 3"),
        ("ravage-city", {"most": []}, 52, "o.most", "1 to 4 players"),
        ("ravage-city", {"most": [0, 1, 2, 3, 0]}, 52, "o.most", "1 to 4 players"),
        ("ravage-city", {"most": [1, 1]}, 52, "o.most", "a player is named twice"),
        ("ravage-city", {"most": [1, 9]}, 52, "o.most[1]", "seat from 0 to 3"),
        (
            "salade",
            {
                "tricks": [4, 3, 6, 0],
                "queens": [1, 0, 1, 2],
                "hearts": [3, 5, 0, 5],
                "ace": 1,
                "penultimate": 3,
                "last": 0,
            },
            52,
            "o.king",
            "missing",
        ),
    ],
)
def test_an_impossible_outcome_is_refused_naming_the_field(contract, outcome, deck, path, fragment):
    with pytest.raises(ScoringError) as err:
        parse_outcome(contract, outcome, deck, "o")
    assert err.value.path == path
    assert fragment in err.value.message


@pytest.mark.parametrize(
    "obj, path, fragment",
    [
        ("no-tricks", "c", "must be an object"),
        ({"id": "no-spades", "per_trick": -2}, "c.id", "unknown contract 'no-spades'"),
        ({"per_trick": -2}, "c.id", "a contract’s id is one of: no-tricks, no-queens"),
        (
            {"id": "no-tricks", "per_trick": -2, "per_queen": -6},
            "c.per_queen",
            "no-tricks has no value called 'per_queen'",
        ),
        ({"id": "no-tricks"}, "c.per_trick", "missing"),
        ({"id": "no-tricks", "per_trick": -2.5}, "c.per_trick", "whole number"),
        ({"id": "no-tricks", "per_trick": "-2"}, "c.per_trick", "whole number"),
        ({"id": "no-king-of-hearts", "king": True}, "c.king", "whole number"),
        ({"id": "domino", "places": [45, 20, 5]}, "c.places", "all four places"),
        ({"id": "domino", "places": "45,20,5,-5"}, "c.places", "all four places"),
        ({"id": "domino", "places": [45, 20, 5.0, -5]}, "c.places[2]", "whole number"),
        ({"id": "ravage-city", "penalty": -30}, "c.penalty", "divisible by 12"),
        ({"id": "ravage-city", "penalty": -18}, "c.penalty", "divisible by 12"),
    ],
)
def test_a_bad_contract_value_is_refused_naming_the_field(obj, path, fragment):
    with pytest.raises(ScoringError) as err:
        parse_contract(obj, "c")
    assert err.value.path == path
    assert fragment in err.value.message


def test_scoring_error_shows_path_and_message():
    err = ScoringError("rounds[3].outcome.tricks", "the tricks add up to 12, a deal has 13")
    assert str(err) == "rounds[3].outcome.tricks: the tricks add up to 12, a deal has 13"
    assert isinstance(err, ValueError)


def test_a_scorer_gives_three_domino_places():
    assert GIVEN_PLACES == 3


@pytest.mark.parametrize(
    ("first", "last"),
    [
        ([2, 0, 3], 1),  # Anne, Cath and Diana out: Beth (seat 1) is left
        ([0, 1, 2], 3),
        ([3, 2, 1], 0),
        ([0, 1, None], None),  # the third place not given yet
        ([0, 0, 1], None),  # a player given twice: nobody is implied
        ([0, 1], None),
    ],
)
def test_the_last_domino_place_is_the_player_left(first, last):
    assert implied_place(first) == last
