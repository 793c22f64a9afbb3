"""The engine's club module (club-format.md "Club, members, statistics, ladder, rating"):
per-seat results checked against the examples' expected results, averages, the ladder and
the club document, with values worked by hand."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from scorepad.scoring import ScoringError, parse_game
from scorepad.scoring.club import (
    ContractLine,
    LadderGame,
    LadderRules,
    MemberGame,
    average_of,
    is_win,
    ladder,
    member_stats,
    ordinal,
    parse_club,
    parse_ladder,
    seat_results,
)
from scorepad.scoring.document import parse_game_club

EXAMPLES = Path(__file__).parent.parent / "data" / "examples"


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.json")))
def test_seat_results_agree_with_the_examples_expected_results(name):
    """Each seat's final and rank are the example's; by contract, the raw and doubles sums are
    the sums of the example's expected per-round results; given/received count the recorded pairs."""
    example = json.loads((EXAMPLES / name).read_text())
    game = parse_game(example["game"])
    expected = example["expected"]
    results = seat_results(game)
    for seat, result in enumerate(results):
        assert result.final == expected["standings"]["final"][seat]
        assert result.rank == expected["standings"]["rank"][seat]
        assert result.rounds_played == len(example["game"]["rounds"])
        raw: dict[str, int] = {}
        doubles: dict[str, int] = {}
        for rnd, exp in zip(example["game"]["rounds"], expected["rounds"], strict=True):
            raw[rnd["contract"]] = raw.get(rnd["contract"], 0) + exp["result"]["raw"][seat]
            doubles[rnd["contract"]] = doubles.get(rnd["contract"], 0) + exp["result"]["doubles"][seat]
        assert {c: line.raw for c, line in result.by_contract.items()} == raw
        assert {c: line.doubles for c, line in result.by_contract.items()} == doubles
        assert result.net == sum(doubles.values())
        pairs = [pair for rnd in example["game"]["rounds"] for pair in rnd.get("doubles", [])]
        assert result.given == sum(1 for doubler, _ in pairs if doubler == seat)
        assert result.received == sum(1 for _, doubled in pairs if doubled == seat)
    # What one seat wins from another, the other loses; a seat's wins sum to its doubles net.
    for a in range(4):
        assert sum(results[a].against) == results[a].net
        for b in range(4):
            assert results[a].against[b] == -results[b].against[a]


@pytest.mark.parametrize(
    ("total", "games", "expected"),
    [(310, 12, "25.83"), (-31, 6, "-5.17"), (1, 8, "0.13"), (-1, 8, "-0.13"), (5, 2, "2.50"), (0, 3, "0.00")],
)
def test_the_average_rounds_half_away_from_zero(total, games, expected):
    # 310/12 = 25.8333…; -31/6 = -5.1666…; 1/8 = 0.125 → 0.13 (half away from zero); -1/8 → -0.13.
    assert average_of(total, games) == Decimal(expected)


def test_no_games_has_no_average():
    assert average_of(0, 0) is None
    assert member_stats([]).average is None


def _game(game_id, day, final, rank, complete=True, against=None):
    return MemberGame(
        game_id=game_id,
        date=day,
        final=final,
        rank=rank,
        complete=complete,
        by_contract={"no-queens": ContractLine(2, 1, -12, 6)},
        given=1,
        received=2,
        net=6,
        against=against or {},
    )


def test_member_stats_sum_the_games_newest_first():
    games = [
        _game(1, date(2026, 3, 1), 40, 1, against={"b": 10, "c": -30}),
        _game(2, date(2026, 3, 8), -10, 1, complete=False, against={"b": 5, "c": -4}),
        _game(3, date(2026, 3, 8), 22, 2, against={"b": -2, "d": 8}),
    ]
    stats = member_stats(games)
    assert (stats.games, stats.complete_games, stats.wins, stats.total) == (3, 2, 1, 52)
    assert stats.average == Decimal("17.33")  # 52 / 3 = 17.333…
    assert stats.by_contract == {"no-queens": ContractLine(6, 3, -36, 18)}
    assert (stats.given, stats.received, stats.net) == (3, 6, 18)
    assert [g.game_id for g in stats.history] == [3, 2, 1]
    # c took 34 (30 + 4) from this member; from b they won 13 (10 + 5 − 2), from d 8.
    assert (stats.nemesis.member, stats.nemesis.points) == ("c", 34)
    assert (stats.victim.member, stats.victim.points) == ("b", 13)


MEMBERS = [("a", "Anne"), ("b", "Bert"), ("c", "Cath"), ("d", "Dirk"), ("e", "Eva")]


def test_the_ladder_counts_the_best_results_and_ranks_the_qualified_first():
    rules = LadderRules(best=2, min_games=2, by="points", start=date(2026, 1, 1), end=date(2026, 12, 31))
    games = [
        LadderGame(date(2026, 2, 1), ("a", "b", "c", None), (50, 10, -20, -40)),
        LadderGame(date(2026, 3, 1), ("a", "b", "c", "d"), (5, 30, 0, -35)),
        LadderGame(date(2026, 4, 1), ("a", "b", "c", "d"), (20, 15, -5, -30)),
        LadderGame(date(2025, 12, 31), ("d", "b", "c", "a"), (500, 0, 0, -500)),  # before the season
    ]
    entries = ladder(rules, MEMBERS, games)
    # a: 50, 5, 20 → best two 70; b: 10, 30, 15 → 45; c: −20, 0, −5 → −5; d: −35, −30 → −65 (2 games);
    # e: no game.
    assert [(e.member, e.games, e.counted, e.score, e.qualified, e.rank) for e in entries] == [
        ("a", 3, 2, 70, True, 1),
        ("b", 3, 2, 45, True, 2),
        ("c", 3, 2, -5, True, 3),
        ("d", 2, 2, -65, True, 4),
        ("e", 0, 0, 0, False, None),
    ]


def test_a_ladder_by_places_counts_halves_and_ties_share_a_rank():
    rules = LadderRules(best=10, min_games=1, by="places")
    games = [
        LadderGame(date(2026, 2, 1), ("a", "b", "c", "d"), (30, 10, 10, -50)),  # places 3, 1½, 1½, 0
        LadderGame(date(2026, 2, 8), ("b", "c", "e", None), (0, 0, 0, 0)),  # all tied: 1½ each
    ]
    entries = ladder(rules, MEMBERS, games)
    # a 3; b 1½ + 1½ = 3; c 3; e 1½; d 0.
    assert [(e.member, e.score, e.rank) for e in entries] == [
        ("a", Fraction(3), 1),
        ("b", Fraction(3), 1),
        ("c", Fraction(3), 1),
        ("e", Fraction(3, 2), 4),
        ("d", Fraction(0), 5),
    ]


def test_members_short_of_the_minimum_come_after_unranked():
    rules = LadderRules(best=10, min_games=2)
    games = [LadderGame(date(2026, 2, 1), ("a", "b", None, None), (90, -10, -40, -40))]
    entries = ladder(rules, MEMBERS[:2], games)
    assert [(e.member, e.qualified, e.rank) for e in entries] == [("a", False, None), ("b", False, None)]


@pytest.mark.parametrize(
    ("doc", "path"),
    [
        ({}, "name"),
        ({"name": "  "}, "name"),
        ({"name": "x" * 81}, "name"),
        ({"name": "Club", "ladder": {"best": 0}}, "ladder.best"),
        ({"name": "Club", "ladder": {"min_games": 0}}, "ladder.min_games"),
        ({"name": "Club", "ladder": {"by": "elo"}}, "ladder.by"),
        ({"name": "Club", "ladder": {"from": "2026-13-01"}}, "ladder.from"),
        ({"name": "Club", "ladder": {"from": "2026-06-01", "to": "2026-05-31"}}, "ladder.to"),
        ({"name": "Club", "ladder": {"season": 2026}}, "ladder.season"),
        ({"name": "Club", "colour": "red"}, "colour"),
    ],
)
def test_a_club_document_is_refused_at_its_problem(doc, path):
    with pytest.raises(ScoringError) as refused:
        parse_club(doc)
    assert refused.value.path == path


def test_a_club_document_takes_the_ladder_defaults():
    spec = parse_club({"name": "De Zwarte Koning"})
    assert spec.ladder == LadderRules(10, 5, "points", None, None)
    assert parse_ladder({"from": "2026-01-01"}).start == date(2026, 1, 1)


@pytest.mark.parametrize(
    ("doc", "path"),
    [
        ({"members": ["a", "b", "c", "d"]}, "members"),  # no club
        ({"club": 7}, "club"),
        ({"club": "k", "members": ["a", "b", "c"]}, "members"),
        ({"club": "k", "members": ["a", "b", "a", None]}, "members[2]"),
        ({"club": "k", "members": ["a", "b", "c d", None]}, "members[2]"),
    ],
)
def test_club_and_members_of_a_game_document_are_checked(doc, path):
    with pytest.raises(ScoringError) as refused:
        parse_game_club(doc)
    assert refused.value.path == path


def test_a_guest_seat_is_null():
    assert parse_game_club({"club": "k", "members": ["a", None, "b", None]}) == ("k", ("a", None, "b", None))
    assert parse_game_club({}) == (None, None)


@pytest.mark.parametrize(
    ("complete", "rank", "wins"),
    [
        (True, 1, True),  # a complete game won
        (True, 2, False),  # second: no win
        (True, 4, False),
        (False, 1, False),  # leading a game in play is no win yet
        (False, 3, False),
    ],
)
def test_a_win_is_rank_one_of_a_complete_game(complete, rank, wins):
    assert is_win(complete, rank) is wins


def test_tied_first_places_both_win():
    """Finals 57, 43, 57, 7: ranks 1, 3, 1, 4, so seats 0 and 2 both win."""
    assert [is_win(True, rank) for rank in (1, 3, 1, 4)] == [True, False, True, False]


@pytest.mark.parametrize(
    ("mu", "sigma", "expected"),
    [
        (25.0, 25 / 3, 0.0),  # openskill's default rating: 25 − 3 × 8.33… = 0
        (27.1, 4.2, 14.5),  # club-format.md's example: 27.1 − 12.6
        (30.0, 2.0, 24.0),
        (10.0, 5.0, -5.0),  # an ordinal may be negative
    ],
)
def test_the_ordinal_is_mu_less_three_sigma(mu, sigma, expected):
    assert ordinal(mu, sigma) == pytest.approx(expected)
