"""The players' date and time zone in the game document (club-format.md "Game document
additions"): parsed exactly, refused with the field's path, kept by the export."""

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from scorepad.scoring import ScoringError, export_game, parse_game
from scorepad.scoring.document import default_date, parse_date, parse_timezone

GAME = {"players": ["Anne", "Beth", "Cath", "Diana"], "first_declarer": 0, "preset": "tournament"}


def test_a_date_is_a_day_of_the_calendar_written_yyyy_mm_dd():
    assert parse_date("2026-12-03") == date(2026, 12, 3)
    assert parse_date("2028-02-29") == date(2028, 2, 29)  # a leap year
    assert parse_date(None) is None


@pytest.mark.parametrize(
    "value",
    [
        "2026-13-01",  # no 13th month
        "2026-02-30",
        "2027-02-29",  # not a leap year
        "2026-2-3",
        "20261203",  # fromisoformat alone takes it
        "2026-W49-4",  # and a week date
        "2026-12-03T19:30",
        "2026-12-03\n",
        " 2026-12-03",
        "２０２６-１２-０３",  # digits, but not ASCII ones
        "0000-01-01",
        "",
        20261203,
        1.5,
        True,
        ["2026-12-03"],
        {"date": "2026-12-03"},
    ],
)
def test_anything_else_is_refused_at_date(value):
    with pytest.raises(ScoringError) as refused:
        parse_date(value)
    assert refused.value.path == "date"


def test_a_time_zone_is_an_iana_name():
    assert parse_timezone("Europe/Amsterdam") == "Europe/Amsterdam"
    assert parse_timezone("America/New_York") == "America/New_York"
    assert parse_timezone("UTC") == "UTC"
    assert parse_timezone(None) is None


@pytest.mark.parametrize(
    "value",
    [
        "Mars/Olympus",
        "../../etc/passwd",
        "/etc/passwd",
        "../etc",
        "Europe/../Europe/Amsterdam",
        "europe/amsterdam",  # names are spelled exactly
        "Europe/Amsterdam\x00",
        "A\ud800",
        "Etc/Unknown",
        "localtime",  # files of the zone folder that are no zone a phone reports
        "Factory",
        "posixrules",
        "",
        " ",
        "x" * 10_000,
        1,
        object(),
        ["Europe/Amsterdam"],
        {"zone": "UTC"},
    ],
)
def test_anything_else_is_refused_at_timezone(value):
    with pytest.raises(ScoringError) as refused:
        parse_timezone(value, "game.timezone")
    assert refused.value.path == "game.timezone"


# 19:30 on 3 December 2026 in New York (EST, UTC−5) is 00:30 on the 4th in UTC.
EVENING_IN_NEW_YORK = datetime(2026, 12, 4, 0, 30, tzinfo=UTC)


def test_the_default_date_is_today_where_the_players_are():
    assert default_date("America/New_York", EVENING_IN_NEW_YORK) == date(2026, 12, 3)
    assert default_date("Europe/Amsterdam", EVENING_IN_NEW_YORK) == date(2026, 12, 4)
    assert default_date("Pacific/Kiritimati", datetime(2026, 12, 3, 10, 0, tzinfo=UTC)) == date(2026, 12, 4)  # UTC+14


def test_without_a_time_zone_the_default_date_is_the_utc_day():
    assert default_date(None, EVENING_IN_NEW_YORK) == date(2026, 12, 4)
    # Whatever zone the clock reports in.
    assert default_date(None, datetime(2026, 12, 3, 20, 0, tzinfo=timezone(timedelta(hours=-5)))) == date(2026, 12, 4)


def test_the_document_keeps_its_date_and_zone_and_the_export_writes_them():
    game = parse_game({**GAME, "date": "2026-12-03", "timezone": "America/New_York"})
    assert (game.date, game.timezone) == (date(2026, 12, 3), "America/New_York")
    exported = export_game(game)
    assert (exported["date"], exported["timezone"]) == ("2026-12-03", "America/New_York")
    again = parse_game(exported)
    assert (again.date, again.timezone) == (game.date, game.timezone)


def test_a_document_without_them_has_neither_and_its_export_none():
    game = parse_game(GAME)
    assert game.date is None and game.timezone is None
    assert "date" not in export_game(game) and "timezone" not in export_game(game)


@pytest.mark.parametrize("field, value", [("date", "2026-2-3"), ("timezone", "Mars/Olympus")])
def test_a_document_with_a_bad_one_is_refused_naming_it(field, value):
    with pytest.raises(ScoringError) as refused:
        parse_game({**GAME, field: value})
    assert refused.value.path == field


def test_a_stored_time_zone_this_machine_lacks_is_kept_as_a_label():
    """A game moved to a host whose time zone database lacks its zone still opens: the zone
    only labels the game once its date is fixed (the date is not recomputed)."""
    doc = {
        "players": ["Anne", "Beth", "Cath", "Dora"],
        "first_declarer": 0,
        "preset": "tournament",
        "date": "2026-12-03",
        "timezone": "Mars/Olympus_Mons",
    }
    game = parse_game(doc, stored=True)
    assert (game.date, game.timezone) == (date(2026, 12, 3), "Mars/Olympus_Mons")
    with pytest.raises(ScoringError) as refused:
        parse_game(doc)
    assert refused.value.path == "timezone"
