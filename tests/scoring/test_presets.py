"""Presets: the built-in tournament preset, defaults, validation and the export object
(game-format.md "Preset")."""

import copy

import pytest

from scorepad.scoring import BUILTIN, ScoringError, parse_preset, preset_to_dict
from scorepad.scoring.doubles import Doubling
from scorepad.scoring.presets import resolve_preset, rounds_in_game, run_total_of

TOURNAMENT_CONTRACTS = [
    {"id": "no-tricks", "per_trick": -2},
    {"id": "no-queens", "per_queen": -6},
    {"id": "no-last-two", "penultimate": -10, "last": -20},
    {"id": "no-hearts", "per_heart": -2, "ace": -6},
    {"id": "no-king-of-hearts", "king": -20},
    {"id": "trumps", "per_trick": 5},
    {"id": "domino", "places": [45, 20, 5, -5]},
]
TOURNAMENT = {
    "id": "tournament",
    "name": "Tournament Barbu",
    "deck": 52,
    "chooser": "declarer",
    "rotation": "run",
    "contracts": TOURNAMENT_CONTRACTS,
    "doubling": {
        "enabled": True,
        "target": "any",
        "auto_redouble": False,
        "single": 1,
        "mutual": 2,
        "quota": 2,
        "quota_penalty": 0,
    },
    "undoubled_negative": "play",
    "default_players": [],
}
HOUSE = {
    "id": "house",
    "name": "House rules",
    "deck": 32,
    "chooser": "dealer",
    "rotation": "round",
    "contracts": TOURNAMENT_CONTRACTS + [{"id": "ravage-city", "penalty": -24}],
    "doubling": {
        "enabled": True,
        "target": "declarer",
        "auto_redouble": True,
        "single": 2,
        "mutual": 4,
        "quota": 3,
        "quota_penalty": 5,
    },
    "undoubled_negative": "split",
    "default_players": ["Anne", "Beth", "Cath", "Diana"],
}


def test_builtin_tournament_preset_is_the_published_form():
    preset = BUILTIN["tournament"]
    assert preset_to_dict(preset) == TOURNAMENT
    assert preset.round_count == 28  # 4 × 7
    assert preset.tricks == 13  # 52 ÷ 4
    assert preset.run_total() == 0  # −130 + 130


@pytest.mark.parametrize(
    "contracts, rounds",
    [
        (TOURNAMENT_CONTRACTS[:5] + TOURNAMENT_CONTRACTS[6:], 24),  # six, without Trumps
        (TOURNAMENT_CONTRACTS, 28),
        (TOURNAMENT_CONTRACTS + [{"id": "ravage-city", "penalty": -36}], 32),
        (TOURNAMENT_CONTRACTS[:1], 4),
    ],
)
def test_a_game_has_four_rounds_per_contract(contracts, rounds):
    assert parse_preset({"id": "p", "contracts": contracts}).round_count == rounds


def test_32_card_deck_has_8_tricks():
    assert parse_preset({"id": "p", "deck": 32, "contracts": TOURNAMENT_CONTRACTS}).tricks == 8


def test_run_total_of_an_unbalanced_preset_is_its_block_total():
    # Brader on 32 cards: −40 −60 −30 −40 −25 +40 +40 −36 = −151
    preset = parse_preset(
        {
            "id": "b",
            "deck": 32,
            "contracts": [
                {"id": "no-tricks", "per_trick": -5},
                {"id": "no-queens", "per_queen": -15},
                {"id": "no-last-two", "penultimate": -10, "last": -20},
                {"id": "no-hearts", "per_heart": -4, "ace": -12},
                {"id": "no-king-of-hearts", "king": -25},
                {"id": "trumps", "per_trick": 5},
                {"id": "domino", "places": [40, 20, 0, -20]},
                {"id": "ravage-city", "penalty": -36},
            ],
        }
    )
    assert preset.run_total() == -151
    assert preset.game_total() == -604  # four runs, one per declarer: 4 × −151


def test_a_balanced_game_totals_zero():
    assert BUILTIN["tournament"].game_total() == 0  # 4 × (−130 + 130)


def test_a_short_unbalanced_game_totals_four_runs():
    # No Queens −6 a queen (−24) and Trumps +5 a trick (+65): a run is +41, a game 4 × 41 = 164.
    preset = parse_preset(
        {"id": "s", "contracts": [{"id": "no-queens", "per_queen": -6}, {"id": "trumps", "per_trick": 5}]}
    )
    assert (preset.run_total(), preset.game_total()) == (41, 164)


@pytest.mark.parametrize(("contracts", "rounds"), [(0, 0), (1, 4), (2, 8), (6, 24), (7, 28), (8, 32)])
def test_rounds_in_game_are_four_per_contract(contracts, rounds):
    assert rounds_in_game(contracts) == rounds


@pytest.mark.parametrize(
    ("totals", "run"),
    [
        ([-26, -24, -30, -30, -20, 65, 65], 0),  # the tournament's seven contracts: −130 + 130
        ([-24, 65], 41),
        ([-24], -24),
        ([-24, None], None),  # a total not known yet: no run
        ([None], None),
        ([], None),  # no contract switched on: no run either
    ],
)
def test_a_run_is_the_sum_of_known_contract_totals(totals, run):
    assert run_total_of(totals) == run


def test_missing_preset_settings_take_the_tournament_values():
    preset = parse_preset({"id": "mine", "contracts": [{"id": "trumps", "per_trick": 5}]})
    assert (preset.name, preset.deck, preset.chooser, preset.rotation, preset.undoubled_negative) == (
        "mine",
        52,
        "declarer",
        "run",
        "play",
    )
    assert preset.doubling == Doubling(
        enabled=True, target="any", auto_redouble=False, single=1, mutual=2, quota=2, quota_penalty=0
    )
    assert preset.default_players == ()


def test_preset_keeps_contracts_in_the_listed_order():
    contracts = list(reversed(TOURNAMENT_CONTRACTS))
    assert parse_preset({"id": "p", "contracts": contracts}).contract_ids == tuple(c["id"] for c in contracts)


@pytest.mark.parametrize("obj", [TOURNAMENT, HOUSE])
def test_preset_to_dict_round_trips(obj):
    preset = parse_preset(copy.deepcopy(obj))
    assert preset_to_dict(preset) == obj
    assert parse_preset(preset_to_dict(preset)) == preset


def test_preset_strips_its_id_and_name():
    preset = parse_preset({"id": " p ", "name": "  Mine ", "contracts": TOURNAMENT_CONTRACTS[:1]})
    assert (preset.id, preset.name) == ("p", "Mine")


def test_preset_contract_looks_up_by_id():
    assert BUILTIN["tournament"].contract("no-queens").value("per_queen") == -6
    with pytest.raises(KeyError):
        BUILTIN["tournament"].contract("salade")


def with_(**changes):
    obj = copy.deepcopy(TOURNAMENT)
    obj.update(changes)
    return obj


def with_doubling(**changes):
    obj = copy.deepcopy(TOURNAMENT)
    obj["doubling"].update(changes)
    return obj


@pytest.mark.parametrize(
    "obj, path, fragment",
    [
        ("tournament-ish", "preset", "must be an object"),
        (with_(colour="red"), "preset.colour", "unknown preset setting"),
        (with_(id=""), "preset.id", "non-empty"),
        (with_(id=None), "preset.id", "non-empty"),
        (with_(id="x" * 61), "preset.id", "longer than 60"),
        (with_(name="   "), "preset.name", "non-empty"),
        (with_(deck=40), "preset.deck", "52 or 32 cards"),
        (with_(deck="52"), "preset.deck", "52 or 32 cards"),
        (with_(deck=52.0), "preset.deck", "52 or 32 cards"),
        (with_(contracts=[]), "preset.contracts", "at least one contract"),
        (with_(contracts=None), "preset.contracts", "at least one contract"),
        (
            with_(
                contracts=TOURNAMENT_CONTRACTS
                + [{"id": "ravage-city", "penalty": -36}, {"id": "salade", "per_trick": -2}, TOURNAMENT_CONTRACTS[0]]
            ),
            "preset.contracts",
            "at most 9 contracts",
        ),
        (
            with_(contracts=[TOURNAMENT_CONTRACTS[0], TOURNAMENT_CONTRACTS[1], {"id": "no-tricks", "per_trick": -5}]),
            "preset.contracts[2].id",
            "no-tricks is listed twice",
        ),
        (with_(contracts=[{"id": "ravage-city", "penalty": -30}]), "preset.contracts[0].penalty", "divisible by 12"),
        (with_(contracts=[{"id": "no-tricks", "per_trick": -1.5}]), "preset.contracts[0].per_trick", "whole number"),
        (
            with_(contracts=TOURNAMENT_CONTRACTS[:6] + [{"id": "domino", "places": [45, 20, 5]}]),
            "preset.contracts[6].places",
            "all four places",
        ),
        (with_(contracts=[{"id": "hearts-and-spades", "per_heart": -2}]), "preset.contracts[0].id", "unknown contract"),
        (with_(chooser="winner"), "preset.chooser", "declarer, dealer, fixed"),
        (with_(rotation="left"), "preset.rotation", "run, round"),
        (with_(undoubled_negative="skip"), "preset.undoubled_negative", "play, split"),
        (with_(undoubled_negative="split", doubling={"enabled": False}), "preset.undoubled_negative", "never played"),
        (with_(doubling=[]), "preset.doubling", "must be an object"),
        (with_doubling(kontra=True), "preset.doubling.kontra", "unknown doubling setting"),
        (with_doubling(enabled="yes"), "preset.doubling.enabled", "true or false"),
        (with_doubling(auto_redouble=1), "preset.doubling.auto_redouble", "true or false"),
        (with_doubling(target="everyone"), "preset.doubling.target", "any, declarer"),
        (with_doubling(single=-1), "preset.doubling.single", "from 0 to 10"),
        (with_doubling(mutual=2.5), "preset.doubling.mutual", "whole number"),
        (with_doubling(quota="2"), "preset.doubling.quota", "whole number"),
        (with_doubling(quota_penalty=-5), "preset.doubling.quota_penalty", "from 0 to 100"),
        (with_(default_players=["Anne", "Beth", "Cath"]), "preset.default_players", "four default players or none"),
        (with_(default_players=["Anne", "Beth", " ", "Diana"]), "preset.default_players[2]", "non-empty"),
    ],
)
def test_an_invalid_preset_is_refused_naming_the_setting(obj, path, fragment):
    with pytest.raises(ScoringError) as err:
        parse_preset(obj, "preset")
    assert err.value.path == path
    assert fragment in err.value.message


def test_a_builtin_preset_is_resolved_by_id():
    assert resolve_preset("tournament") is BUILTIN["tournament"]


def test_a_saved_preset_is_resolved_by_id():
    saved = parse_preset(copy.deepcopy(HOUSE))
    assert resolve_preset("house", "preset", {"house": saved}) is saved


def test_an_unknown_preset_id_is_refused():
    with pytest.raises(ScoringError) as err:
        resolve_preset("nope", "preset", {})
    assert err.value.path == "preset"
    assert "no preset called 'nope'" in err.value.message


def test_a_whole_preset_object_is_parsed():
    assert resolve_preset(copy.deepcopy(HOUSE)).id == "house"


# Contract totals worked out by hand from barbu-rules.md ("Variants"): e.g. Brader's
# No Hearts is 12 hearts × −4 + the ace −12 = −60; on 32 cards No Tricks is 8 × −2 = −16.
TOURNAMENT_TOTALS = {
    "no-tricks": -26,
    "no-queens": -24,
    "no-last-two": -30,
    "no-hearts": -30,
    "no-king-of-hearts": -20,
    "trumps": 65,
    "domino": 65,
}
BUILTIN_TOTALS = {
    "tournament": (28, TOURNAMENT_TOTALS),
    "ravage-city": (32, {**TOURNAMENT_TOTALS, "ravage-city": -36}),
    "ravage-city-24": (32, {**TOURNAMENT_TOTALS, "ravage-city": -24}),
    "brader": (
        32,
        {
            "no-tricks": -65,
            "no-queens": -60,
            "no-last-two": -30,
            "no-hearts": -60,
            "no-king-of-hearts": -25,
            "trumps": 65,
            "domino": 40,
            "ravage-city": -36,
        },
    ),
    "kh15-domino40": (28, {**TOURNAMENT_TOTALS, "no-king-of-hearts": -15, "domino": 60}),
    "domino30-kh15": (28, {**TOURNAMENT_TOTALS, "no-king-of-hearts": -15, "domino": 60}),
    "dealer-chooses": (28, TOURNAMENT_TOTALS),
    "declarer-doubles-only": (28, TOURNAMENT_TOTALS),
    "undoubled-not-played": (28, TOURNAMENT_TOTALS),
    "french-classic": (
        28,
        {
            "no-tricks": -26,
            "no-hearts": -30,
            "no-queens": -24,
            "no-king-of-hearts": -20,
            "no-last-two": -30,
            "salade": -130,
            "domino": 65,
        },
    ),
    "french-32": (28, {**TOURNAMENT_TOTALS, "no-tricks": -16, "no-hearts": -20, "trumps": 40}),
    "no-domino": (24, {k: v for k, v in TOURNAMENT_TOTALS.items() if k != "domino"}),
    "no-trumps": (24, {k: v for k, v in TOURNAMENT_TOTALS.items() if k != "trumps"}),
}


def test_the_built_in_presets_are_exactly_these():
    assert list(BUILTIN) == list(BUILTIN_TOTALS)


@pytest.mark.parametrize("preset_id", BUILTIN_TOTALS)
def test_each_built_in_has_its_contract_totals_and_round_count(preset_id):
    rounds, totals = BUILTIN_TOTALS[preset_id]
    preset = BUILTIN[preset_id]
    assert preset.round_count == rounds
    assert {c.id: c.total(preset.deck) for c in preset.contracts} == totals
    assert list(preset.contract_ids) == list(totals)


def test_built_in_variants_carry_their_rules():
    assert BUILTIN["dealer-chooses"].chooser == "dealer"
    only = BUILTIN["declarer-doubles-only"].doubling
    assert (only.target, only.auto_redouble) == ("declarer", True)
    assert BUILTIN["undoubled-not-played"].undoubled_negative == "split"
    french = BUILTIN["french-classic"]
    assert (french.chooser, french.doubling.enabled) == ("fixed", False)
    assert BUILTIN["french-32"].deck == 32
