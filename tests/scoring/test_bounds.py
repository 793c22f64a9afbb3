"""Every number a preset holds is bounded, and a value of the wrong type is refused naming
its field, never a TypeError (issue 11, "Numbers and structures that crash the server")."""

import json
from pathlib import Path

import pytest

from scorepad.scoring import BUILTIN, ScoringError, parse_game, parse_preset, preset_to_dict
from scorepad.scoring.contracts import RANGES, parse_contract, parse_outcome

EXAMPLES = Path(__file__).parent.parent / "data" / "examples"


def tournament(**changes):
    return {**preset_to_dict(BUILTIN["tournament"]), **changes}


def with_contract(index, **values):
    obj = json.loads(json.dumps(preset_to_dict(BUILTIN["brader"])))
    obj["contracts"][index].update(values)
    return obj


def refusal(obj):
    with pytest.raises(ScoringError) as err:
        parse_preset(obj, "preset")
    return err.value


# -- a contract id that is not text ------------------------------------------------------------


@pytest.mark.parametrize("cid", [["no-tricks"], {"id": "no-tricks"}, 3, 2.5, True, False, None, []])
def test_a_contract_id_that_is_not_text_is_refused_naming_it(cid):
    obj = tournament()
    obj["contracts"][2] = {**obj["contracts"][2], "id": cid}
    err = refusal(obj)
    assert err.path == "preset.contracts[2].id"
    assert err.message.startswith("a contract’s id is one of: no-tricks, no-queens, no-last-two")


def test_a_contract_with_no_id_is_refused_naming_the_id():
    err = refusal(tournament(contracts=[{"per_trick": -2}]))
    assert err.path == "preset.contracts[0].id"


def test_a_long_unknown_id_is_quoted_short():
    err = refusal(tournament(contracts=[{"id": "x" * 5000, "per_trick": -2}]))
    assert err.path == "preset.contracts[0].id"
    assert len(err.message) < 200
    assert err.message.startswith("unknown contract 'xxxxxxxx")


@pytest.mark.parametrize(
    "setting, value",
    [
        ("chooser", ["declarer"]),
        ("chooser", {"declarer": 1}),
        ("rotation", ["run"]),
        ("undoubled_negative", {"play": True}),
        ("deck", [52]),
        ("deck", {"52": 52}),
        ("deck", True),
    ],
)
def test_a_setting_of_the_wrong_type_is_refused_naming_it(setting, value):
    assert refusal(tournament(**{setting: value})).path == f"preset.{setting}"


@pytest.mark.parametrize("value", [["any"], {"any": 1}, 1, None])
def test_a_doubling_target_of_the_wrong_type_is_refused(value):
    err = refusal(tournament(doubling={"target": value}))
    assert err.path == "preset.doubling.target"


# -- the bounds ------------------------------------------------------------------------------

# (contract index in Brader's preset, field, lowest, highest): the table written out by hand.
EDGES = [
    (0, "per_trick", -100, 100),
    (1, "per_queen", -100, 100),
    (3, "per_heart", -100, 100),
    (2, "penultimate", -1000, 1000),
    (2, "last", -1000, 1000),
    (3, "ace", -1000, 1000),
    (4, "king", -1000, 1000),
    (5, "per_trick", -100, 100),
]


@pytest.mark.parametrize("index, field, lowest, highest", EDGES)
def test_a_contract_value_at_its_bound_is_accepted(index, field, lowest, highest):
    for value in (lowest, highest):
        preset = parse_preset(with_contract(index, **{field: value}), "preset")
        assert preset.contracts[index].value(field) == value


@pytest.mark.parametrize("index, field, lowest, highest", EDGES)
@pytest.mark.parametrize("beyond", [1, 10**25, 2**63])
def test_a_contract_value_past_its_bound_is_refused_with_the_range(index, field, lowest, highest, beyond):
    for value in (lowest - beyond, highest + beyond):
        err = refusal(with_contract(index, **{field: value}))
        assert err.path == f"preset.contracts[{index}].{field}"
        assert err.message == f"must be a whole number from {lowest} to {highest}"


@pytest.mark.parametrize("places", [[1001, 0, 0, 0], [0, 0, 0, -1001], [10**25, 0, 0, 0]])
def test_a_domino_place_past_1000_is_refused_naming_the_place(places):
    err = refusal(with_contract(6, places=places))
    assert err.path == f"preset.contracts[6].places[{next(i for i, p in enumerate(places) if p)}]"
    assert err.message == "must be a whole number from -1000 to 1000"


@pytest.mark.parametrize(
    "penalty, ok", [(-1200, True), (1200, True), (-1212, False), (1212, False), (-(10**25), False)]
)
def test_the_ravage_city_penalty_is_bounded_at_1200(penalty, ok):
    obj = with_contract(7, penalty=penalty)
    if ok:
        assert parse_preset(obj, "preset").contracts[7].value("penalty") == penalty
    else:
        err = refusal(obj)
        assert (err.path, err.message) == ("preset.contracts[7].penalty", "must be a whole number from -1200 to 1200")


@pytest.mark.parametrize(
    "setting, lowest, highest",
    [("single", 0, 10), ("mutual", 0, 10), ("quota", 0, 9), ("quota_penalty", 0, 100)],
)
def test_each_doubling_number_is_bounded(setting, lowest, highest):
    for value in (lowest, highest):
        assert getattr(parse_preset(tournament(doubling={setting: value}), "preset").doubling, setting) == value
    for value in (lowest - 1, highest + 1, 10**25):
        err = refusal(tournament(doubling={setting: value}))
        assert (err.path, err.message) == (
            f"preset.doubling.{setting}",
            f"must be a whole number from {lowest} to {highest}",
        )


@pytest.mark.parametrize("value", [True, False, 2.0, "2", None, [2]])
def test_a_number_that_is_a_bool_or_another_type_is_refused(value):
    assert refusal(with_contract(0, per_trick=value)).path == "preset.contracts[0].per_trick"
    assert refusal(tournament(doubling={"quota": value})).path == "preset.doubling.quota"


def test_every_bound_the_table_has_is_tested_here():
    tested = {field for _, field, _, _ in EDGES} | {"places", "penalty", "single", "mutual", "quota", "quota_penalty"}
    assert set(RANGES) == tested


# -- what must stay valid --------------------------------------------------------------------


def test_every_built_in_preset_is_within_the_bounds():
    for preset in BUILTIN.values():
        assert parse_preset(preset_to_dict(preset), "preset") == preset


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.name)
def test_every_example_game_is_within_the_bounds(path):
    doc = json.loads(path.read_text())
    parse_game(doc.get("game", doc))


# -- counts ----------------------------------------------------------------------------------


@pytest.mark.parametrize("big", [14, 10**25, 10**4000])
def test_a_count_over_the_deal_is_refused_before_any_sum_is_formatted(big):
    # 10**4000 + 10**4000 has more digits than Python formats with %d: the sum is never shown.
    with pytest.raises(ScoringError) as err:
        parse_outcome("no-tricks", {"tricks": [0, big, big, 0]}, 52, "o")
    assert (err.value.path, err.value.message) == ("o.tricks[1]", "must be a whole number from 0 to 13")


def test_a_count_within_the_deal_still_names_the_wrong_sum():
    with pytest.raises(ScoringError) as err:
        parse_outcome("no-queens", {"queens": [4, 4, 0, 0]}, 52, "o")
    assert (err.value.path, err.value.message) == ("o.queens", "the queens add up to 8, there are 4")


def test_parse_contract_refuses_a_list_id_without_a_type_error():
    with pytest.raises(ScoringError) as err:
        parse_contract({"id": ["domino"], "places": [45, 20, 5, -5]}, "c")
    assert err.value.path == "c.id"
