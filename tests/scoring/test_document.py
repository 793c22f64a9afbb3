"""The game document: validation with exact paths, results on export, round trip
(game-format.md)."""

import copy

import pytest

from scorepad.scoring import (
    BUILTIN,
    FORMAT,
    Round,
    ScoringError,
    export_game,
    parse_game,
    parse_preset,
    parse_round,
    score,
)

TOURNAMENT_IDS = ["no-tricks", "no-queens", "no-last-two", "no-hearts", "no-king-of-hearts", "trumps", "domino"]
CONTRACTS = [
    {"id": "no-tricks", "per_trick": -2},
    {"id": "no-queens", "per_queen": -6},
    {"id": "no-last-two", "penultimate": -10, "last": -20},
    {"id": "no-hearts", "per_heart": -2, "ace": -6},
    {"id": "no-king-of-hearts", "king": -20},
    {"id": "trumps", "per_trick": 5},
    {"id": "domino", "places": [45, 20, 5, -5]},
]
# barbu-rules.md worked example: Anne declares No Queens
WORKED = {
    "contract": "no-queens",
    "doubles": [[1, 0], [1, 2], [1, 3], [2, 0], [0, 2]],
    "outcome": {"queens": [1, 0, 1, 2]},
}
KING = {"contract": "no-king-of-hearts", "doubles": [], "outcome": {"king": 3}}
TRUMPS = {"contract": "trumps", "trump": "spades", "doubles": [[2, 0]], "outcome": {"tricks": [5, 3, 4, 1]}}
DOMINO = {"contract": "domino", "start_rank": "J", "doubles": [], "outcome": {"order": [2, 0, 3, 1]}}


DROP = object()  # a field left out of the document


def game(*rounds, **changes):
    doc = {
        "format": FORMAT,
        "title": "Thursday, table 2",
        "players": ["Anne", "Beth", "Cath", "Diana"],
        "first_declarer": 0,
        "preset": "tournament",
        "rounds": [copy.deepcopy(r) for r in rounds],
    }
    doc.update(changes)
    return {k: v for k, v in doc.items() if v is not DROP}


def preset(**settings):
    return {"id": "p", "contracts": copy.deepcopy(CONTRACTS), **settings}


def error_of(doc, saved=None):
    with pytest.raises(ScoringError) as err:
        parse_game(doc, saved)
    return err.value


# --- results and export -------------------------------------------------------------------


def test_export_of_the_worked_example_carries_results_and_standings():
    doc = export_game(parse_game(game(WORKED)))
    assert doc["format"] == "barbu-scorepad/game@1"
    assert doc["title"] == "Thursday, table 2"
    assert doc["confirmation"] == "optional"  # club-format.md: the default
    assert doc["preset"] == preset_dict_of_tournament()
    assert doc["rounds"] == [
        {
            "number": 1,
            "declarer": 0,
            "contract": "no-queens",
            "doubles": [[1, 0], [1, 2], [1, 3], [2, 0], [0, 2]],
            "outcome": {"queens": [1, 0, 1, 2]},
            "status": "provisional",  # club-format.md "Trust": a new round is provisional
            # Anne −12, Beth +24, Cath −12, Diana −24
            "result": {
                "raw": [-6, 0, -6, -12],
                "doubles": [-6, 24, -6, -12],
                "total": [-12, 24, -12, -24],
                "running": [-12, 24, -12, -24],
                "played": True,
            },
        }
    ]
    assert doc["standings"] == {
        "totals": [-12, 24, -12, -24],
        "quota_penalties": [0, 0, 0, 0],
        "final": [-12, 24, -12, -24],
        "rank": [2, 1, 2, 4],
        "complete": False,
        "rounds_played": 1,
        "rounds_total": 28,
        # Beth and Cath doubled Anne, the declarer
        "quota_given": [[0, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
        "next": {
            "number": 2,
            "declarer": 0,
            "dealer": 3,
            "contracts_left": [c for c in TOURNAMENT_IDS if c != "no-queens"],
        },
    }


def preset_dict_of_tournament():
    return {
        "id": "tournament",
        "name": "Tournament Barbu",
        "deck": 52,
        "chooser": "declarer",
        "rotation": "run",
        "contracts": CONTRACTS,
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


def test_export_keeps_trump_suit_and_starting_rank():
    rounds = export_game(parse_game(game(WORKED, TRUMPS, DOMINO)))["rounds"]
    assert rounds[1]["trump"] == "spades"
    assert rounds[2]["start_rank"] == "J"
    # Trumps 25, 15, 20, 5; Cath doubled Anne: 1 × (25 − 20) = 5 from Cath to Anne
    assert rounds[1]["result"]["total"] == [30, 15, 15, 5]
    # Domino order Cath, Anne, Diana, Beth: 20, −5, 45, 5
    assert rounds[2]["result"]["raw"] == [20, -5, 45, 5]
    # running: (−12, 24, −12, −24) + (30, 15, 15, 5) + (20, −5, 45, 5)
    assert rounds[2]["result"]["running"] == [38, 34, 48, -14]


@pytest.mark.parametrize(
    "doc",
    [
        game(),
        game(WORKED, KING, TRUMPS, DOMINO),
        game(WORKED, title=DROP),
        game(
            {"contract": "no-tricks"},
            {"contract": "trumps", "doubles": [[1, 0]], "outcome": {"tricks": [1, 2, 3, 7]}},
            preset=preset(undoubled_negative="split", chooser="dealer", rotation="round"),
            first_declarer=3,
        ),
    ],
)
def test_export_then_parse_then_export_gives_the_same_document(doc):
    first = export_game(parse_game(doc))
    assert export_game(parse_game(copy.deepcopy(first))) == first


def test_results_in_an_imported_export_are_ignored():
    doc = export_game(parse_game(game(WORKED)))
    doc["rounds"][0]["result"] = {"raw": [99, 99, 99, 99]}
    doc["rounds"][0]["number"] = 17
    doc["standings"] = {"totals": [1, 2, 3, 4]}
    assert export_game(parse_game(doc)) == export_game(parse_game(game(WORKED)))


def test_names_and_title_are_trimmed_and_an_empty_title_is_none():
    g = parse_game(game(players=[" Anne ", "Beth", "Jörg", "Élodie"], title="   "))
    assert g.players == ("Anne", "Beth", "Jörg", "Élodie")
    assert g.title is None
    assert "title" not in export_game(g)


def test_a_saved_preset_may_be_named_by_id():
    saved = {"house": parse_preset(preset(id="house", deck=32))}
    assert parse_game(game(preset="house"), saved).preset.deck == 32


def test_the_declarer_may_be_given_when_it_matches_the_schedule():
    assert parse_game(game(dict(WORKED, declarer=0))).rounds[0].contract == "no-queens"


# --- undoubled negative contracts split ------------------------------------------------------


@pytest.mark.parametrize(
    "contract, raw",
    [
        ("no-tricks", [1, -9, -9, -9]),  # −26: opponents round(−8.67) = −9, declarer +1
        ("no-hearts", [0, -10, -10, -10]),  # −30
        ("no-last-two", [0, -10, -10, -10]),  # −30
        ("no-king-of-hearts", [1, -7, -7, -7]),  # −20: round(−6.67) = −7, declarer +1
        ("no-queens", [0, -8, -8, -8]),  # −24
    ],
)
def test_undoubled_negative_deal_is_split_when_the_preset_says_so(contract, raw):
    doc = export_game(
        parse_game(game({"contract": contract, "doubles": []}, preset=preset(undoubled_negative="split")))
    )
    assert doc["rounds"][0]["result"] == {
        "raw": raw,
        "doubles": [0, 0, 0, 0],
        "total": raw,
        "running": raw,
        "played": False,
    }
    assert "outcome" not in doc["rounds"][0]


def test_the_split_declarer_is_the_scheduled_one():
    doc = export_game(
        parse_game(game({"contract": "no-tricks"}, first_declarer=2, preset=preset(undoubled_negative="split")))
    )
    assert doc["rounds"][0]["result"]["raw"] == [-9, -9, 1, -9]


def test_an_outcome_given_for_a_split_deal_is_refused():
    err = error_of(
        game(
            {"contract": "no-tricks", "doubles": [], "outcome": {"tricks": [4, 3, 6, 0]}},
            preset=preset(undoubled_negative="split"),
        )
    )
    assert err.path == "rounds[0].outcome"
    assert "not played" in err.message


@pytest.mark.parametrize(
    "rnd",
    [
        {"contract": "no-tricks", "doubles": [[1, 0]]},  # doubled: played
        {"contract": "trumps", "doubles": []},  # positive: always played
    ],
)
def test_a_played_deal_needs_its_outcome_even_when_splitting(rnd):
    err = error_of(game(rnd, preset=preset(undoubled_negative="split")))
    assert err.path == "rounds[0].outcome"
    assert "outcome of the deal is missing" in err.message


def test_a_doubled_negative_deal_is_played_and_settled_when_splitting():
    doc = export_game(
        parse_game(
            game(
                {"contract": "no-tricks", "doubles": [[1, 0]], "outcome": {"tricks": [4, 3, 6, 0]}},
                preset=preset(undoubled_negative="split"),
            )
        )
    )
    # raw −8, −6, −12, 0; Beth doubled Anne: 2 from Anne to Beth
    assert doc["rounds"][0]["result"]["total"] == [-10, -4, -12, 0]
    assert doc["rounds"][0]["result"]["played"] is True


# --- validation ------------------------------------------------------------------------------

FIXED = preset(chooser="fixed")
NO_DOUBLING = preset(doubling={"enabled": False})


@pytest.mark.parametrize(
    "doc, path, fragment",
    [
        # the document
        ([], "", "must be a JSON object"),
        (game(colour="red"), "colour", "unknown field"),
        (game(format="barbu/other"), "format", "not a game document"),
        (game(title="x" * 81), "title", "longer than 80"),
        (game(title=7), "title", "must be text"),
        # players
        (game(players=DROP), "players", "exactly four players"),
        (game(players=["Anne", "Beth", "Cath"]), "players", "exactly four players"),
        (game(players=["Anne", "Beth", "Cath", "Diana", "Ed"]), "players", "exactly four players"),
        (game(players="Anne, Beth, Cath, Diana"), "players", "exactly four players"),
        (game(players=["Anne", "", "Cath", "Diana"]), "players[1]", "empty"),
        (game(players=["Anne", "Beth", "   ", "Diana"]), "players[2]", "empty"),
        (game(players=["Anne", "Beth", "Cath", None]), "players[3]", "empty"),
        (game(players=["Anne", "Beth", "C" * 41, "Diana"]), "players[2]", "longer than 40"),
        (game(players=["Anne", "Beth", "anne", "Diana"]), "players[2]", "already playing"),
        (game(players=["Anne", "Beth", " ANNE ", "Diana"]), "players[2]", "already playing"),
        (game(players=["Straße", "Beth", "Cath", "STRASSE"]), "players[3]", "already playing"),  # casefold
        # first declarer
        (game(first_declarer=DROP), "first_declarer", "who declares first"),
        (game(first_declarer=4), "first_declarer", "seat from 0 to 3"),
        (game(first_declarer=-1), "first_declarer", "seat from 0 to 3"),
        (game(first_declarer="0"), "first_declarer", "seat from 0 to 3"),
        (game(first_declarer=True), "first_declarer", "seat from 0 to 3"),
        # preset
        (game(preset=DROP), "preset", "name a preset"),
        (game(preset="tournamnet"), "preset", "no preset called 'tournamnet'"),
        (game(preset=preset(deck=36)), "preset.deck", "52 or 32 cards"),
        (game(preset=preset(contracts=[])), "preset.contracts", "at least one contract"),
        (game(preset=preset(contracts=CONTRACTS + [CONTRACTS[1]])), "preset.contracts[7].id", "listed twice"),
        (
            game(preset=preset(contracts=[{"id": "ravage-city", "penalty": -20}])),
            "preset.contracts[0].penalty",
            "divisible by 12",
        ),
        (
            game(preset=preset(contracts=[{"id": "no-queens", "per_queen": "six"}])),
            "preset.contracts[0].per_queen",
            "whole number",
        ),
        (
            game(preset=preset(contracts=CONTRACTS[:6] + [{"id": "domino", "places": [45, 20, 5, -5, 0]}])),
            "preset.contracts[6].places",
            "all four places",
        ),
        # rounds
        (game(rounds={"0": WORKED}), "rounds", "must be a list"),
        (game(rounds=[WORKED] * 29), "rounds", "29 rounds given, a game of this preset has 28"),
        (game(WORKED, WORKED), "rounds[1].contract", "Anne has already declared no-queens"),
        (
            game(WORKED, {"contract": "ravage-city", "outcome": {"most": [0]}}),
            "rounds[1].contract",
            "'ravage-city' is not a contract of this preset",
        ),
        (game({"doubles": [], "outcome": {"king": 0}}), "rounds[0].contract", "choose the contract"),
        (game({"contract": 3}), "rounds[0].contract", "not a contract of this preset"),
        (
            game({"contract": "no-queens", "outcome": {"queens": [1, 0, 1, 2]}}, preset=FIXED),
            "rounds[0].contract",
            "fixed order: next is no-tricks",
        ),
        (game(dict(WORKED, declarer=1)), "rounds[0].declarer", "round 1 is declared by Anne (seat 0)"),
        (
            game(WORKED, dict(KING, declarer=2), first_declarer=3),
            "rounds[1].declarer",
            "round 2 is declared by Diana (seat 3)",
        ),
        (game(dict(WORKED, trump="hearts")), "rounds[0].trump", "only a Trumps round has a trump suit"),
        (game(dict(TRUMPS, trump="stars")), "rounds[0].trump", "one of spades, hearts, diamonds, clubs"),
        (game(dict(WORKED, start_rank="7")), "rounds[0].start_rank", "only a Domino round has a starting rank"),
        (game(dict(DOMINO, start_rank="1")), "rounds[0].start_rank", "one of 2, 3, 4"),
        (game(dict(DOMINO, start_rank=7)), "rounds[0].start_rank", "one of 2, 3, 4"),
        (game(dict(WORKED, tricks=[1, 2, 3, 7])), "rounds[0].tricks", "unknown round field"),
        (game(["no-queens"]), "rounds[0]", "must be an object"),
        (game({"contract": "no-queens", "doubles": []}), "rounds[0].outcome", "outcome of the deal is missing"),
        (game({"contract": "domino", "outcome": {"order": [2, 0, 2, 1]}}), "rounds[0].outcome.order", "exactly once"),
        (
            game({"contract": "no-hearts", "outcome": {"hearts": [3, 5, 0, 5], "ace": 2}}),
            "rounds[0].outcome.ace",
            "took no hearts",
        ),
        (
            game({"contract": "no-tricks", "outcome": {"tricks": [4, 3, 5, 0]}}),
            "rounds[0].outcome.tricks",
            "the tricks add up to 12, a deal has 13",
        ),
        (
            game({"contract": "no-tricks", "outcome": {"tricks": [4, 3, 6, 0]}}, preset=preset(deck=32)),
            "rounds[0].outcome.tricks",
            "the tricks add up to 13, a deal has 8",
        ),
        (
            game(WORKED, KING, TRUMPS, {"contract": "no-tricks", "outcome": {"tricks": [4, 3, 5, 0]}}),
            "rounds[3].outcome.tricks",
            "add up to 12",
        ),
        # doubles
        (game(dict(TRUMPS, doubles=[[2, 0], [2, 1]])), "rounds[0].doubles[1]", "positive contract only the declarer"),
        (game(dict(WORKED, doubles=[[0, 1]])), "rounds[0].doubles[0]", "only redouble a player who doubled them"),
        (game(dict(WORKED, doubles=[[2, 2]])), "rounds[0].doubles[0]", "cannot double themselves"),
        (game(dict(WORKED, doubles=[[1, 0], [1, 0]])), "rounds[0].doubles[1]", "recorded twice"),
        (game(dict(WORKED, doubles=[[1, 4]])), "rounds[0].doubles[0]", "seats from 0 to 3"),
        (game(dict(WORKED, doubles=[[1, 0]]), preset=NO_DOUBLING), "rounds[0].doubles[0]", "no doubling"),
        (
            game(dict(WORKED, doubles=[[1, 2]]), preset=preset(doubling={"target": "declarer"})),
            "rounds[0].doubles[0]",
            "only the declarer may be doubled",
        ),
    ],
)
def test_invalid_input_is_refused_naming_the_place(doc, path, fragment):
    err = error_of(doc)
    assert err.path == path
    assert fragment in err.message


def test_forty_character_names_are_accepted():
    assert parse_game(game(players=["A" * 40, "Beth", "Cath", "Diana"])).players[0] == "A" * 40


def test_fixed_order_accepts_the_next_contract_of_the_list():
    rounds = [
        {"contract": "no-tricks", "outcome": {"tricks": [4, 3, 6, 0]}},
        {"contract": "no-queens", "outcome": {"queens": [1, 0, 1, 2]}},
    ]
    assert [r.contract for r in parse_game(game(*rounds, preset=FIXED)).rounds] == ["no-tricks", "no-queens"]


def test_with_rotation_round_each_declarer_declares_each_contract_once():
    rot = preset(rotation="round")
    # declarers 0, 1, 2, 3 may all choose No Queens; Anne may not choose it again in round 5
    queens = {"contract": "no-queens", "outcome": {"queens": [1, 0, 1, 2]}}
    assert len(parse_game(game(*[queens] * 4, preset=rot)).rounds) == 4
    err = error_of(game(*[queens] * 5, preset=rot))
    assert (err.path, err.message) == ("rounds[4].contract", "Anne has already declared no-queens")


def test_a_round_after_the_last_is_refused():
    full = tuple(Round("no-queens") for _ in range(28))
    with pytest.raises(ScoringError) as err:
        parse_round(BUILTIN["tournament"], ("A", "B", "C", "D"), 0, full, WORKED, "rounds[28]")
    assert err.value.path == "rounds[28]"
    assert "complete after 28 rounds" in err.value.message


def test_parse_round_validates_the_next_round_of_a_game():
    g = parse_game(game(WORKED))
    rnd = parse_round(g.preset, g.players, g.first_declarer, g.rounds, copy.deepcopy(KING), "rounds[1]")
    assert rnd == Round("no-king-of-hearts", (), {"king": 3})
    scores = score(g.__class__(g.players, 0, g.preset, g.rounds + (rnd,)))
    # K♥ −20 to Diana: running (−12, 24, −12, −44)
    assert scores.standings.totals == (-12, 24, -12, -44)
