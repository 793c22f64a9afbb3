"""A club night in the engine (club-format.md "Club night", "Leaderboard"): the night
document's validation with its paths, the leaderboard worked out by hand, which session is
on, and which tables stand out on the director's page."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import pytest

from scorepad.scoring import (
    BUILTIN,
    Adjustment,
    ScoringError,
    TableResult,
    is_stale,
    leaderboard,
    parse_event,
    session_on,
)
from scorepad.scoring.night import table_places

NAMES = ["Anne", "Beth", "Cath", "Dora", "Emma", "Fay", "Gina", "Hana", "Iris", "Jade"]

# A night of 10 players, 2 sessions of 2 tables; 2 players sit out each session.
#   Session 1, table 1: Anne, Beth, Cath, Dora   28 rounds, final (60, 20, 20, -100)
#   Session 1, table 2: Emma, Fay, Gina, Hana    10 rounds, final (-40, 40, 20, -20)
#     Iris and Jade sit out.
#   Session 2, table 1: Anne, Emma, Iris, Cath    5 rounds, final (10, 10, -5, -15), provisional
#   Session 2, table 2: Beth, Fay, Dora, Jade     0 rounds yet: not counted
#     Gina and Hana sit out.
#   Adjustments: Dora −10 (late), Jade +7 (set up the room).
TABLES = [
    TableResult((0, 1, 2, 3), 28, (60, 20, 20, -100)),
    TableResult((4, 5, 6, 7), 10, (-40, 40, 20, -20)),
    TableResult((0, 4, 8, 2), 5, (10, 10, -5, -15), provisional=True),
    TableResult((1, 5, 3, 9), 0, (0, 0, 0, 0)),
]
ADJUSTMENTS = [Adjustment(3, -10, "late"), Adjustment(9, 7, "set up the room")]

# By hand, per player: games counted, total (Σ final + adjustment), places (per game: the
# players with a lower final + ½ per equal one), provisional (a counted table is).
#   Anne  2 games  60 + 10 = 70           3 (above all) + 2.5 (above 2, level with Emma) = 5.5  prov.
#   Beth  1 game   20                     1 (above Dora) + ½ (level with Cath) = 1.5
#   Cath  2 games  20 − 15 = 5            1.5 + 0 (lowest) = 1.5                                 prov.
#   Dora  1 game   −100 − 10 = −110       0
#   Emma  2 games  −40 + 10 = −30         0 + 2.5 = 2.5                                          prov.
#   Fay   1 game   40                     3
#   Gina  1 game   20                     2 (above Emma, Hana)
#   Hana  1 game   −20                    1 (above Emma)
#   Iris  1 game   −5                     1 (above Cath)                                         prov.
#   Jade  0 games  7 (the adjustment)     0
EXPECTED = {
    # name: (games, total, places, adjustment, provisional)
    "Anne": (2, 70, 5.5, 0, True),
    "Beth": (1, 20, 1.5, 0, False),
    "Cath": (2, 5, 1.5, 0, True),
    "Dora": (1, -110, 0.0, -10, False),
    "Emma": (2, -30, 2.5, 0, True),
    "Fay": (1, 40, 3.0, 0, False),
    "Gina": (1, 20, 2.0, 0, False),
    "Hana": (1, -20, 1.0, 0, False),
    "Iris": (1, -5, 1.0, 0, True),
    "Jade": (0, 7, 0.0, 7, False),
}


def lines(board) -> list[tuple]:
    return [(e.name, e.rank) for e in board]


def test_leaderboard_by_points_averages_per_game_and_shares_ranks():
    # Points per game: Fay 40, Anne 70/2 = 35, Beth 20, Gina 20, Cath 5/2 = 2.5, Iris −5,
    # Emma −30/2 = −15, Hana −20, Dora −110; Jade has no game. Beth and Gina share rank 3 (in
    # players order), so there is no rank 4: Cath is 5. Jade comes last, unranked.
    board = leaderboard(NAMES, TABLES, ADJUSTMENTS, "points")
    assert lines(board) == [
        ("Fay", 1),
        ("Anne", 2),
        ("Beth", 3),
        ("Gina", 3),
        ("Cath", 5),
        ("Iris", 6),
        ("Emma", 7),
        ("Hana", 8),
        ("Dora", 9),
        ("Jade", None),
    ]
    for entry in board:
        assert NAMES[entry.player] == entry.name
        assert (entry.games, entry.total, entry.places, entry.adjustment, entry.provisional) == EXPECTED[entry.name]


def test_leaderboard_by_places_then_points():
    # Places per game: Fay 3, Anne 5.5/2 = 2.75, Gina 2, Beth 1.5, Emma 2.5/2 = 1.25, Iris 1
    # and Hana 1 (then points per game: Iris −5 above Hana −20), Cath 1.5/2 = 0.75, Dora 0.
    board = leaderboard(NAMES, TABLES, ADJUSTMENTS, "places")
    assert lines(board) == [
        ("Fay", 1),
        ("Anne", 2),
        ("Gina", 3),
        ("Beth", 4),
        ("Emma", 5),
        ("Iris", 6),
        ("Hana", 7),
        ("Cath", 8),
        ("Dora", 9),
        ("Jade", None),
    ]


def test_places_tie_only_when_points_per_game_tie_too():
    # One table: (30, 30, −10, −50). Anne and Beth have 2.5 places and 30 points each: rank 1
    # both; Cath 1 place is rank 3. The other night's players (no game) follow in order.
    board = leaderboard(
        ["Anne", "Beth", "Cath", "Dora", "Emma", "Fay"],
        [TableResult((1, 0, 2, 3), 3, (30, 30, -10, -50))],
        [],
        "places",
    )
    assert lines(board) == [("Anne", 1), ("Beth", 1), ("Cath", 3), ("Dora", 4), ("Emma", None), ("Fay", None)]
    assert [e.places for e in board[:4]] == [2.5, 2.5, 1.0, 0.0]


def test_an_adjustment_can_change_the_order():
    # Final (10, 5, 0, −15): by points Anne 10 is first, but with −6 Anne has 4: Beth (5) first.
    tables = [TableResult((0, 1, 2, 3), 1, (10, 5, 0, -15))]
    board = leaderboard(["Anne", "Beth", "Cath", "Dora"], tables, [Adjustment(0, -6, "slow play")], "points")
    assert [(e.name, e.total, e.adjustment, e.rank) for e in board] == [
        ("Beth", 5, 0, 1),
        ("Anne", 4, -6, 2),
        ("Cath", 0, 0, 3),
        ("Dora", -15, 0, 4),
    ]


def test_nobody_ranks_before_a_round_is_saved():
    tables = [TableResult((3, 2, 1, 0), 0, (0, 0, 0, 0))]
    board = leaderboard(["Anne", "Beth", "Cath", "Dora"], tables, [Adjustment(2, 5, "bonus")], "points")
    assert [(e.name, e.games, e.total, e.rank) for e in board] == [
        ("Anne", 0, 0, None),
        ("Beth", 0, 0, None),
        ("Cath", 0, 5, None),
        ("Dora", 0, 0, None),
    ]


@pytest.mark.parametrize(
    ("final", "places"),
    [
        ((50, 10, 10, -70), (3, 1.5, 1.5, 0)),
        ((0, 0, 0, 0), (1.5, 1.5, 1.5, 1.5)),
        ((-5, 20, 20, 20), (0, 2, 2, 2)),
        ((1, 2, 3, 4), (0, 1, 2, 3)),
    ],
)
def test_places_in_one_game(final, places):
    assert table_places(final) == places


def test_an_unknown_ranking_is_a_programming_error():
    with pytest.raises(ValueError):
        leaderboard(NAMES, TABLES, [], "elo")


# --- Progress ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("progress", "on"),
    [
        ([(1, 0, False), (2, 0, False)], 1),  # nothing saved yet: the first session
        ([(1, 7, False), (2, 0, False)], 1),  # session 1 playing
        ([(1, 56, True), (2, 0, False)], 2),  # session 1 over, session 2 not started yet
        ([(1, 50, False), (2, 3, False)], 2),  # a slow table of session 1 while session 2 plays
        ([(1, 56, True), (2, 56, True)], 2),  # the night is over: the last session
        ([(1, 56, True), (2, 9, False), (3, 0, False)], 2),
    ],
)
def test_the_session_on(progress, on):
    assert session_on(progress) == on


NOW = datetime(2026, 12, 3, 20, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("last_save", "complete", "started", "stale"),
    [
        (NOW - timedelta(minutes=10), False, True, True),  # 10 minutes without a save
        (NOW - timedelta(minutes=9, seconds=59), False, True, False),
        (NOW - timedelta(hours=1), True, True, False),  # finished: nothing to wait for
        (None, False, False, False),  # not started: its players may not be there yet
        (NOW - timedelta(hours=1), False, False, False),
    ],
)
def test_a_table_stands_out_after_ten_minutes_without_a_save(last_save, complete, started, stale):
    assert is_stale(last_save, NOW, complete, started) is stale


# --- The night document -----------------------------------------------------------------


def document(**fields):
    doc = {
        "format": "barbu-scorepad/event@1",
        "title": "Thursday club night",
        "date": "2026-12-03",
        "timezone": "Europe/Amsterdam",
        "preset": "tournament",
        "sessions": 2,
        "ranking": "points",
        "players": [f"Player {i + 1}" for i in range(18)],
        "club": None,
        "members": None,
        "seating": None,
    }
    doc.update(fields)
    return doc


def test_a_night_document_is_read_and_its_seating_drawn():
    spec = parse_event(document(), None, random.Random(0))
    assert spec.title == "Thursday club night"
    assert spec.date == date(2026, 12, 3)
    assert spec.timezone == "Europe/Amsterdam"
    assert spec.preset == BUILTIN["tournament"]
    assert (spec.sessions, spec.ranking) == (2, "points")
    assert spec.players[0] == "Player 1" and len(spec.players) == 18
    # 18 players: 4 tables of 4 and 2 sitting out, each session
    assert [(len(s.tables), len(s.sit_out)) for s in spec.seating] == [(4, 2), (4, 2)]


def test_a_minimal_night_document():
    spec = parse_event(
        {"players": [" Anne ", "Beth", "Cath", "Dora"], "sessions": 1, "preset": "tournament"}, {}, random.Random(0)
    )
    assert spec.players == ("Anne", "Beth", "Cath", "Dora")  # trimmed, as a game's names
    assert (spec.title, spec.date, spec.timezone, spec.ranking) == (None, None, None, "points")
    assert sorted(spec.seating[0].tables[0].players) == [0, 1, 2, 3]


def test_a_fixed_seating_is_kept():
    seating = [[[5, 0, 3, 1]], [[2, 4, 0, 1]]]
    spec = parse_event(document(players=NAMES[:6], seating=seating), None, random.Random(0))
    assert [[list(t.players) for t in s.tables] for s in spec.seating] == seating
    assert [s.sit_out for s in spec.seating] == [(2, 4), (3, 5)]


@pytest.mark.parametrize(
    ("fields", "path"),
    [
        ({"players": ["Anne", "Beth", "Cath"]}, "players"),  # fewer than 4
        ({"players": [f"P{i}" for i in range(201)]}, "players"),  # more than 200
        ({"players": "Anne, Beth, Cath, Dora"}, "players"),
        ({"players": None}, "players"),
        ({"players": ["Anne", "Beth", "Cath", "Dora", "ANNE"]}, "players[4]"),  # the same after case-folding
        ({"players": ["Anne", "Beth", "Cath", "Dora", "Eve", "beth\u200b"]}, "players[5]"),
        ({"players": ["Anne", "Beth", " ", "Dora"]}, "players[2]"),
        ({"players": ["Anne", "Beth", "Cath", "D" * 41]}, "players[3]"),
        ({"sessions": 0}, "sessions"),
        ({"sessions": 7}, "sessions"),
        ({"sessions": "2"}, "sessions"),
        ({"sessions": 2.0}, "sessions"),
        ({"sessions": True}, "sessions"),
        ({"sessions": None}, "sessions"),
        ({"ranking": "elo"}, "ranking"),
        ({"preset": "no-such-preset"}, "preset"),
        ({"preset": None}, "preset"),
        ({"format": "barbu-scorepad/game@1"}, "format"),
        ({"tables": 3}, "tables"),  # unknown field
        ({"club": "not an id!"}, "club"),  # issue 16: an id's shape (whether it is a club's: the app)
        ({"members": [None] * 18}, "members"),  # members without a club
        ({"club": "abc", "members": [None] * 17}, "members"),  # one per player (18)
        ({"club": "abc", "members": ["m1"] + [None] * 16 + ["m1"]}, "members[17]"),  # a member twice
        ({"confirmation": "always"}, "confirmation"),  # issue 15: off, optional or required only
        ({"confirmation": True}, "confirmation"),
        ({"date": "2026-2-3"}, "date"),
        ({"timezone": "Mars/Olympus"}, "timezone"),
        ({"title": "x" * 81}, "title"),
        ({"seating": [[[0, 1, 2, 3], [4, 5, 6, 0]], [[0, 1, 2, 3]]]}, "seating[0][1][3]"),  # 0 twice
        ({"seating": [[[0, 1, 2, 3]], [[0, 1, 2]]]}, "seating[1][0]"),  # a table of 3
        ({"seating": [[[0, 1, 2, 3]]]}, "seating"),  # 1 session, the night has 2
        ({"seating": [[[0, 1, 2, 18]], [[0, 1, 2, 3]]]}, "seating[0][0][3]"),  # 18 players: 0-17
    ],
)
def test_a_night_document_is_refused_at_its_problem(fields, path):
    doc = document(**fields)
    if fields.get("preset", "") is None:
        del doc["preset"]
    with pytest.raises(ScoringError) as refused:
        parse_event(doc, None, random.Random(0))
    assert refused.value.path == path


@pytest.mark.parametrize(
    ("given", "taken"),
    [({}, "optional"), ({"confirmation": None}, "optional")]
    + [({"confirmation": c}, c) for c in ("off", "optional", "required")],
)
def test_a_nights_confirmation_is_taken_optional_by_default(given, taken):
    assert parse_event(document(**given), None, random.Random(0)).confirmation == taken


def test_a_night_document_is_an_object():
    with pytest.raises(ScoringError) as refused:
        parse_event([], None, random.Random(0))
    assert refused.value.path == ""


def test_a_saved_preset_may_be_named():
    saved = {"club-rules": BUILTIN["tournament"]}
    assert parse_event(document(preset="club-rules"), saved, random.Random(0)).preset == BUILTIN["tournament"]
