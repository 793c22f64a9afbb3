"""The rules the pages, forms and scripts take from the engine (issue 10: one place per
rule): contract choice, the split of an undoubled negative deal, the quota counters and
reminder, the family shortcut, implicit redoubles, the defaults and an edit's schedule
check. Values worked by hand from barbu-rules.md."""

import pytest

from scorepad.scoring import (
    BUILTIN,
    Game,
    IllegalDouble,
    MissingPart,
    Round,
    ScheduleError,
    ScoringError,
    parse_preset,
    parse_round,
    score,
)
from scorepad.scoring.document import check_contract, parse_replacement
from scorepad.scoring.doubles import Doubling, double_kind, family_cells, implicit_redoubles, pair_settlements
from scorepad.scoring.errors import AlreadyDeclared, OutOfOrder
from scorepad.scoring.game import (
    contract_choices,
    contracts_left,
    declared,
    declared_in,
    declared_later,
    fixed_contract,
    free_contracts,
    leaders,
    not_played,
    quota_counts,
    quota_reminders,
    ranking,
    round_raw,
    split_applies,
)
from scorepad.scoring.presets import CONTRACT_DEFAULTS, DEFAULT_DOUBLING, doubling_to_dict, preset_to_dict

TOURNAMENT = BUILTIN["tournament"]
FRENCH = BUILTIN["french-classic"]  # fixed order: tricks, hearts, queens, K♥, last two, salade, domino
SPLIT = BUILTIN["undoubled-not-played"]
PLAYERS = ("Anne", "Beth", "Cath", "Diana")
TRICKS_0 = {"tricks": [13, 0, 0, 0]}


def rnd(contract, doubles=(), outcome=None):
    return Round(contract, tuple(doubles), outcome)


# --- which contracts the declarer may choose ------------------------------------------------


def test_the_declarer_chooses_among_every_contract_left():
    left = ("no-queens", "trumps", "domino")
    assert contract_choices(TOURNAMENT, left) == left


def test_with_a_fixed_order_only_the_next_contract_may_be_chosen():
    assert contract_choices(FRENCH, ("no-queens", "no-king-of-hearts", "domino")) == ("no-queens",)
    assert contract_choices(FRENCH, ()) == ()


def test_the_next_round_offers_the_fixed_orders_next_contract_and_lists_what_was_declared():
    # Round 1 of the French form is No Tricks; round 2 must be No Hearts.
    game = Game(PLAYERS, 0, FRENCH, (rnd("no-tricks", outcome=TRICKS_0),))
    upcoming = score(game).standings.next
    assert upcoming.choices == ("no-hearts",)
    assert upcoming.declared == ("no-tricks",)
    assert upcoming.contracts_left == ("no-hearts", "no-queens", "no-king-of-hearts", "no-last-two", "salade", "domino")


def test_a_contract_out_of_the_fixed_order_is_a_schedule_error():
    with pytest.raises(ScheduleError) as caught:
        parse_round(
            FRENCH,
            PLAYERS,
            0,
            (rnd("no-tricks", outcome=TRICKS_0),),
            {"contract": "domino", "outcome": {"order": [0, 1, 2, 3]}},
            "",
        )
    assert caught.value.path == "contract"
    assert caught.value.params == {"contract": "no-hearts"}


def test_declared_is_the_preset_order_minus_what_is_left():
    assert declared(TOURNAMENT, ("no-tricks", "trumps")) == (
        "no-queens",
        "no-last-two",
        "no-hearts",
        "no-king-of-hearts",
        "domino",
    )


@pytest.mark.parametrize(
    "rotation, index, contract",
    [
        # run: the k-th round of each run declares the k-th contract
        ("run", 0, "no-tricks"),
        ("run", 1, "no-hearts"),
        ("run", 6, "domino"),
        ("run", 7, "no-tricks"),
        ("run", 27, "domino"),
        # round: round i is its declarer's (i // 4)-th
        ("round", 0, "no-tricks"),
        ("round", 3, "no-tricks"),
        ("round", 4, "no-hearts"),
        ("round", 27, "domino"),
    ],
)
def test_a_fixed_order_names_each_rounds_contract(rotation, index, contract):
    preset = parse_preset({**_french_object(), "rotation": rotation})
    assert fixed_contract(preset, index) == contract


def test_without_a_fixed_order_no_round_has_a_set_contract():
    assert fixed_contract(TOURNAMENT, 0) is None


def _french_object():
    return preset_to_dict(FRENCH)  # a copy of the built-in to vary


# --- editing a round: the contracts it may change to, and the later rounds -------------------


def test_an_edited_round_may_take_its_own_contract_or_one_its_declarer_has_left():
    rounds = (rnd("no-tricks", outcome=TRICKS_0), rnd("no-queens", outcome={"queens": [4, 0, 0, 0]}))
    # Anne declared No Tricks and No Queens: round 1 may stay No Tricks or take any contract but No Queens.
    assert free_contracts(TOURNAMENT, 0, rounds, 0) == (
        "no-tricks",
        "no-last-two",
        "no-hearts",
        "no-king-of-hearts",
        "trumps",
        "domino",
    )


def test_a_contract_its_declarer_declared_already_is_refused_naming_the_declarer():
    # Tournament, rotation run: Anne (seat 0) declares rounds 1-7; No Tricks was her round 1.
    with pytest.raises(AlreadyDeclared) as caught:
        check_contract(TOURNAMENT, PLAYERS, 0, (rnd("no-tricks", outcome=TRICKS_0),), "no-tricks")
    assert (caught.value.seat, caught.value.contract) == (0, "no-tricks")
    assert caught.value.message == "Anne has already declared no-tricks"


def test_a_contract_left_to_its_declarer_is_given_back():
    # Anne played No Tricks in round 1; No Queens is still hers to declare in round 2.
    assert check_contract(TOURNAMENT, PLAYERS, 0, (rnd("no-tricks", outcome=TRICKS_0),), "no-queens") == "no-queens"


def test_a_contract_out_of_the_fixed_order_is_refused_naming_the_next():
    # French classic, round 2: No Hearts is next; Domino (not declared yet) is out of order.
    with pytest.raises(OutOfOrder) as caught:
        check_contract(FRENCH, PLAYERS, 0, (rnd("no-tricks", outcome=TRICKS_0),), "domino")
    assert (caught.value.path, caught.value.next) == ("contract", "no-hearts")


@pytest.mark.parametrize("contract", [None, "ravage-city", 3])
def test_no_contract_or_one_the_preset_lacks_is_no_schedule_error(contract):
    with pytest.raises(ScoringError) as caught:
        check_contract(TOURNAMENT, PLAYERS, 0, (), contract)
    assert not isinstance(caught.value, ScheduleError)


def test_a_contract_the_declarer_declares_in_a_later_round_is_found():
    rounds = (rnd("no-tricks", outcome=TRICKS_0), rnd("no-queens", outcome={"queens": [4, 0, 0, 0]}))
    assert declared_later(TOURNAMENT, 0, rounds, 0, "no-queens") == 1
    assert declared_later(TOURNAMENT, 0, rounds, 0, "trumps") is None


def test_changing_a_round_to_a_contract_declared_later_is_a_schedule_error():
    game = Game(
        PLAYERS, 0, TOURNAMENT, (rnd("no-tricks", outcome=TRICKS_0), rnd("no-queens", outcome={"queens": [4, 0, 0, 0]}))
    )
    with pytest.raises(ScheduleError) as caught:
        parse_replacement(game, 0, {"contract": "no-queens", "outcome": {"queens": [0, 4, 0, 0]}})
    assert caught.value.path == "contract"
    assert caught.value.params == {"name": "Anne", "contract": "no-queens", "n": 2}


def test_changing_a_round_to_a_free_contract_gives_the_new_round():
    game = Game(PLAYERS, 0, TOURNAMENT, (rnd("no-tricks", outcome=TRICKS_0),))
    new = parse_replacement(game, 0, {"contract": "no-king-of-hearts", "outcome": {"king": 2}})
    assert new == Round("no-king-of-hearts", (), {"king": 2})


def test_the_schedule_so_far_names_each_declarers_round_per_contract():
    rounds = (rnd("no-tricks", outcome=TRICKS_0), rnd("no-queens", outcome={"queens": [4, 0, 0, 0]}))
    assert declared_in(TOURNAMENT, 3, rounds) == {("no-tricks", 3): 1, ("no-queens", 3): 2}


# --- an undoubled negative deal, split -------------------------------------------------------


@pytest.mark.parametrize(
    "preset, contract, applies",
    [
        (SPLIT, "no-tricks", True),
        (SPLIT, "no-king-of-hearts", True),
        (SPLIT, "trumps", False),
        (SPLIT, "domino", False),
        (TOURNAMENT, "no-tricks", False),
    ],
)
def test_only_negative_contracts_of_a_split_preset_may_be_split(preset, contract, applies):
    assert split_applies(preset, contract) is applies


def test_a_split_deal_is_one_nobody_doubled():
    assert not_played(SPLIT, "no-tricks", ()) is True
    assert not_played(SPLIT, "no-tricks", ((1, 0),)) is False
    assert not_played(TOURNAMENT, "no-tricks", ()) is False


@pytest.mark.parametrize(
    "contract, declarer_raw, opponent_raw",
    [
        # barbu-rules.md "Undoubled negative contract not played"
        ("no-tricks", 1, -9),
        ("no-hearts", 0, -10),
        ("no-last-two", 0, -10),
        ("no-king-of-hearts", 1, -7),
        ("no-queens", 0, -8),
    ],
)
def test_a_split_deal_gives_each_opponent_a_third(contract, declarer_raw, opponent_raw):
    raw, played = round_raw(SPLIT, rnd(contract), 2)
    assert played is False
    assert raw == (opponent_raw, opponent_raw, declarer_raw, opponent_raw)


def test_the_form_and_the_document_agree_a_split_deal_has_no_outcome():
    with pytest.raises(ScoringError) as caught:
        parse_round(SPLIT, PLAYERS, 0, (), {"contract": "no-tricks", "doubles": [], "outcome": TRICKS_0}, "")
    assert caught.value.path == "outcome"


# --- the quota --------------------------------------------------------------------------------


def test_quota_counts_say_who_gave_the_declarer_their_doubles():
    counts = quota_counts(DEFAULT_DOUBLING, (0, 2, 1, 3), 0)
    assert [(c.player, c.given, c.quota, c.met) for c in counts] == [(1, 2, 2, True), (2, 1, 2, False), (3, 3, 2, True)]


def _game_with(rounds, preset=TOURNAMENT):
    return Game(PLAYERS, 0, preset, tuple(rounds))


def test_no_reminder_while_more_rounds_are_left_than_doubles_owed_plus_one():
    # Anne declares; after 4 rounds 3 are left; Beth owes 2 (3 ≤ 2 + 1: reminded), Cath and
    # Diana each doubled once and owe 1 (3 > 1 + 1: not yet).
    played = [
        rnd(c, [(2, 0), (3, 0)] if i == 0 else [], outcome=o)
        for i, (c, o) in enumerate(
            [
                ("no-tricks", TRICKS_0),
                ("no-queens", {"queens": [4, 0, 0, 0]}),
                ("no-hearts", {"hearts": [13, 0, 0, 0], "ace": 0}),
                ("no-king-of-hearts", {"king": 0}),
            ]
        )
    ]
    standings = score(_game_with(played)).standings
    reminders = quota_reminders(TOURNAMENT.doubling, standings)
    assert [(r.player, r.owed, r.left) for r in reminders] == [(1, 2, 3)]


def test_a_player_who_owes_one_double_is_reminded_with_two_rounds_left():
    played = [
        rnd(c, [(1, 0), (2, 0), (3, 0)] if i == 0 else [], outcome=o)
        for i, (c, o) in enumerate(
            [
                ("no-tricks", TRICKS_0),
                ("no-queens", {"queens": [4, 0, 0, 0]}),
                ("no-hearts", {"hearts": [13, 0, 0, 0], "ace": 0}),
                ("no-king-of-hearts", {"king": 0}),
                ("no-last-two", {"penultimate": 0, "last": 0}),
            ]
        )
    ]
    standings = score(_game_with(played)).standings
    assert [(r.player, r.owed, r.left) for r in quota_reminders(TOURNAMENT.doubling, standings)] == [
        (1, 1, 2),
        (2, 1, 2),
        (3, 1, 2),
    ]


def test_no_reminder_without_doubling_or_quota():
    standings = score(_game_with([])).standings
    assert quota_reminders(Doubling(enabled=False), standings) == ()
    assert quota_reminders(Doubling(quota=0), standings) == ()


# --- the doubles grid -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "doubler, cells",
    [
        (1, ((1, 0), (1, 2))),
        (2, ((2, 1), (2, 3))),
        (3, ((3, 0), (3, 2))),
        (0, ()),  # the declarer only redoubles
    ],
)
def test_family_doubles_both_neighbours_of_each_opponent(doubler, cells):
    assert family_cells(doubler, 0, False, DEFAULT_DOUBLING) == cells


def test_seat_0s_family_is_seats_1_and_3():
    assert family_cells(0, 2, False, DEFAULT_DOUBLING) == ((0, 1), (0, 3))


@pytest.mark.parametrize(
    "positive, doubling",
    [
        (True, DEFAULT_DOUBLING),  # a positive contract: only the declarer may be doubled
        (False, Doubling(target="declarer")),
        (False, Doubling(enabled=False)),
    ],
)
def test_no_family_when_a_neighbour_may_not_be_doubled(positive, doubling):
    # Declarer 0: seat 2's neighbours are 1 and 3, neither the declarer.
    assert family_cells(2, 0, positive, doubling) == ()


@pytest.mark.parametrize(
    "doubler, doubled, kind",
    [
        (0, 1, "redouble"),
        (1, 0, "on-declarer"),
        (1, 2, "double"),
    ],
)
def test_each_double_has_a_kind_relative_to_the_declarer(doubler, doubled, kind):
    assert double_kind(doubler, doubled, 0) == kind


def test_an_automatic_redouble_is_implied_for_everyone_who_doubled_the_declarer():
    auto = Doubling(target="declarer", auto_redouble=True)
    assert implicit_redoubles([(1, 0), (3, 0), (0, 3)], 0, auto) == ((0, 1),)
    assert implicit_redoubles([(1, 0)], 0, DEFAULT_DOUBLING) == ()


def test_a_pair_says_who_pays_whom_and_the_difference():
    # Beth (1) doubled Anne (0) and Anne redoubled: raw Anne −6, Beth 0 → Anne pays 12 = 2 × 6.
    (pair,) = pair_settlements((-6, 0, 0, -20), [(1, 0), (0, 1)], 0, DEFAULT_DOUBLING)
    assert (pair.payer, pair.payee, pair.paid, pair.difference) == (0, 1, 12, 6)


# --- standings --------------------------------------------------------------------------------


def test_ranking_lists_seats_by_rank_then_seat():
    assert ranking((2, 1, 2, 4)) == (1, 0, 2, 3)


def test_leaders_are_the_seats_ranked_first_once_a_round_is_played():
    assert leaders(score(_game_with([])).standings) == ()
    game = _game_with([rnd("no-tricks", outcome={"tricks": [0, 13, 0, 0]})])
    assert leaders(score(game).standings) == (0, 2, 3)


# --- errors by type ---------------------------------------------------------------------------


def test_a_missing_outcome_part_is_its_own_error():
    with pytest.raises(MissingPart) as caught:
        parse_round(TOURNAMENT, PLAYERS, 0, (), {"contract": "no-hearts", "outcome": {"hearts": [13, 0, 0, 0]}}, "")
    assert caught.value.path == "outcome.ace"
    assert caught.value.message == "this part of the outcome is missing"


def test_a_redouble_of_a_player_who_did_not_double_is_an_illegal_double():
    with pytest.raises(IllegalDouble) as caught:
        parse_round(TOURNAMENT, PLAYERS, 0, (), {"contract": "no-tricks", "doubles": [[0, 1]], "outcome": TRICKS_0}, "")
    assert caught.value.path == "doubles[0]"


# --- defaults ----------------------------------------------------------------------------------


def test_the_default_doubling_is_the_tournaments():
    assert doubling_to_dict(DEFAULT_DOUBLING) == {
        "enabled": True,
        "target": "any",
        "auto_redouble": False,
        "single": 1,
        "mutual": 2,
        "quota": 2,
        "quota_penalty": 0,
    }
    assert TOURNAMENT.doubling == DEFAULT_DOUBLING
    assert parse_preset({"id": "p", "contracts": [{"id": "trumps", "per_trick": 5}]}).doubling == DEFAULT_DOUBLING


def test_the_contract_defaults_are_the_tournament_values():
    assert CONTRACT_DEFAULTS["no-tricks"] == {"per_trick": -2}
    assert CONTRACT_DEFAULTS["domino"] == {"places": [45, 20, 5, -5]}
    assert CONTRACT_DEFAULTS["ravage-city"] == {"penalty": -36}
    assert CONTRACT_DEFAULTS["salade"] == {
        "per_trick": -2,
        "per_queen": -6,
        "penultimate": -10,
        "last": -20,
        "per_heart": -2,
        "ace": -6,
        "king": -20,
    }
    # the seven tournament contracts' totals cancel (−130 + 130)
    assert TOURNAMENT.run_total() == 0


@pytest.mark.parametrize("rotation", ["run", "round"])
def test_the_fixed_contract_of_each_round_is_the_one_the_schedule_offers(rotation):
    preset = parse_preset({**_french_object(), "rotation": rotation})
    rounds = []
    for index in range(preset.round_count):
        declarer = (0 + (index if rotation == "round" else index // 7)) % 4
        (offered,) = contract_choices(preset, contracts_left(preset, 0, rounds, declarer))
        assert offered == fixed_contract(preset, index)
        rounds.append(Round(offered))
