"""The club night's public pages (club-format.md "Club night"): the event board (phone and TV)
with the leaderboard in order and shared ranks, 304 while nothing changed at any table, no edit
or director token anywhere at the view token's URLs, the results sheet with the adjustments and
every table's standings, and the CSV.

The night is built through the services, as the organiser's form and the API do. Nine players, two sessions, a fixed
seating (indexes: Anne 0, Beth 1, Cath 2, Dora 3, Emma 4, Fay 5, Gina 6, Hugo 7, Ivan 8):

- session 1: table 1 Anne Beth Cath Dora, table 2 Emma Fay Gina Hugo; Ivan sits out;
- session 2: table 1 Ivan Anne Emma Beth, table 2 Cath Fay Dora Gina; Hugo sits out.

One round at three tables, worked by hand with the tournament preset (a queen −6, a trick −2):

- S1 T1 no queens, queens 2 1 1 0: Anne −12, Beth −6, Cath −6, Dora 0;
- S1 T2 no queens, queens 0 0 1 3: Emma 0, Fay 0, Gina −6, Hugo −18;
- S2 T1 no tricks, tricks 5 3 3 2: Ivan −10, Anne −6, Emma −6, Beth −4;
- S2 T2 has not started: its game does not count yet.

Dora gets −10 ("late"). Totals / games, highest first, ties sharing the rank; places per game =
players lower + ½ players equal at that table:

rank name games total places   (places worked per game)
1    Fay  1     0      2.5     (S1T2: lower Gina Hugo 2, equal Emma ½)
2    Emma 2     −6     4       (2.5 + S2T1: lower Ivan 1, equal Anne ½)
3    Beth 2     −10    4.5     (S1T1: Anne 1, Cath ½ = 1.5; S2T1: 3)
4    Cath 1     −6     1.5
4    Gina 1     −6     1
6    Anne 2     −18    1.5     (0 + 1.5)
7    Dora 1     −10    3       (0 − 10 adjustment; average −10)
7    Ivan 1     −10    0
9    Hugo 1     −18    0
"""

import csv
import io
import re
from dataclasses import dataclass

import pytest
import sqlalchemy

from scorepad.extensions import db
from scorepad.services import confirmation, games, nights, rounds
from scorepad.views import night as night_view
from tests.test_api_events import NIGHT as API_NIGHT
from tests.test_names import without_isolates

NAMES = ["Anne", "Beth", "Cath", "Dora", "Emma", "Fay", "Gina", "Hugo", "Ivan"]
SEATING = [[[0, 1, 2, 3], [4, 5, 6, 7]], [[8, 0, 4, 1], [2, 5, 3, 6]]]
#: The API tests' night (title "Thursday club night", 2026-12-03, tournament, 2 sessions, by points) with these players.
NIGHT = {**API_NIGHT, "players": NAMES, "seating": SEATING}


def queens(*counts):
    return {"contract": "no-queens", "doubles": [], "outcome": {"queens": list(counts)}}


def tricks(*counts):
    return {"contract": "no-tricks", "doubles": [], "outcome": {"tricks": list(counts)}}


def auth(token):
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Night:
    """A night as its creator holds it: ids and tokens, the tables' edit and view tokens by
    (session, table)."""

    id: int
    director_token: str
    view_token: str
    tables: dict[tuple[int, int], tuple[str, str]]


def create(app, **change) -> Night:
    """A night stored through the services, as the organiser's form and the API do."""
    with app.app_context():
        stored = nights.create_night({**NIGHT, **change})
        tables = {}
        for session in stored.seating:
            for t in session["tables"]:
                edit = nights.table_token(stored.director_token, session["number"], t["number"])
                game, _ = games.find_by_token(edit)
                tables[session["number"], t["number"]] = edit, game.view_token
        night = Night(stored.id, stored.director_token, stored.view_token, tables)
        db.session.remove()
    return night


def save(app, night, session, number, round_doc):
    """A round saved at a table, as its scorer's phone does."""
    with app.app_context():
        game, _ = games.find_by_token(night.tables[session, number][0])
        rounds.record_round(game, round_doc)
        db.session.remove()


def adjust(app, night, player, points, reason):
    """The director's adjustment."""
    with app.app_context():
        stored, _ = nights.find_night(night.director_token)
        nights.add_adjustment(stored, player, points, reason)
        db.session.remove()


def played(app):
    """The night of the module docstring, played and adjusted."""
    night = create(app)
    save(app, night, 1, 1, queens(2, 1, 1, 0))
    save(app, night, 1, 2, queens(0, 0, 1, 3))
    save(app, night, 2, 1, tricks(5, 3, 3, 2))
    adjust(app, night, 3, -10, "late")
    return night


#: The leaderboard of the module docstring: rank (None: no game yet), name, games, total, places.
BOARD = [
    ("1", "Fay", "1", "0", "2.5"),
    ("2", "Emma", "2", "−6", "4"),
    ("3", "Beth", "2", "−10", "4.5"),
    ("4", "Cath", "1", "−6", "1.5"),
    ("4", "Gina", "1", "−6", "1"),
    ("6", "Anne", "2", "−18", "1.5"),
    ("7", "Dora", "1", "−10", "3"),
    ("7", "Ivan", "1", "−10", "0"),
    ("9", "Hugo", "1", "−18", "0"),
]


def text(html: str) -> str:
    """The words a sighted reader sees (tags, isolates and visually hidden labels left out)."""
    shown = re.sub(r'<span class="visually-hidden">[^<]*</span>', "", without_isolates(html))
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", shown)).strip()


def leaderboard_rows(html: str) -> list[tuple[str, ...]]:
    """The first leaderboard table's body rows as the cells' text (rank, name, games, total, places…)."""
    start = html.index('class="night-leaderboard"')
    body = html[html.index("<tbody>", start) : html.index("</tbody>", start)]
    rows = []
    for row in re.findall(r"<tr\b.*?</tr>", body, re.S):
        cells = [text(cell) for cell in re.findall(r"<t[hd]\b[^>]*>(.*?)</t[hd]>", row, re.S)]
        rows.append(tuple(cells))
    return rows


def test_the_board_shows_the_leaderboard_in_order_with_shared_ranks(app, client):
    night = played(app)
    response = client.get(f"/n/{night.view_token}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert [row[:5] for row in leaderboard_rows(html)] == BOARD
    assert f'href="/n/{night.view_token}/screen"' in html and f'href="/n/{night.view_token}/results"' in html
    words = text(html)
    assert "Thursday club night" in words
    assert "Thursday, December 3, 2026" in words
    # Session 2 has saved a round and is not complete: it is on.
    assert "Session 2 of 2 is on" in words
    assert "Sitting out: Ivan" in words and "Sitting out: Hugo" in words


def test_the_board_shows_every_tables_progress(app, client):
    night = played(app)
    words = text(client.get(f"/n/{night.view_token}").get_data(as_text=True))
    assert "Table 1 1 of 28 rounds" in words
    assert "Table 2 not started" in words
    assert "Ivan · Anne · Emma · Beth" in words
    assert "Cath · Fay · Dora · Gina" in words


def test_players_with_no_game_yet_come_last_without_a_rank(app, client):
    night = create(app)
    save(app, night, 1, 2, queens(0, 0, 1, 3))
    rows = leaderboard_rows(client.get(f"/n/{night.view_token}").get_data(as_text=True))
    # Emma 0, Fay 0 share rank 1 (places 2.5 each); Gina −6; Hugo −18; then the others in the night's order.
    assert [row[:5] for row in rows] == [
        ("1", "Emma", "1", "0", "2.5"),
        ("1", "Fay", "1", "0", "2.5"),
        ("3", "Gina", "1", "−6", "1"),
        ("4", "Hugo", "1", "−18", "0"),
        *[("–", name, "0", "0", "0") for name in ("Anne", "Beth", "Cath", "Dora", "Ivan")],
    ]
    assert "Session 1 of 2 is on" in text(client.get(f"/n/{night.view_token}").get_data(as_text=True))


def test_the_screen_shows_the_leaderboard_the_sessions_tables_and_the_qr_code(app, client):
    night = played(app)
    view = night.view_token
    html = client.get(f"/n/{view}/screen").get_data(as_text=True)
    # Eight players: two columns (pages/night.py SCREEN_TWO_COLUMNS), read one after the other.
    assert html.count('<table class="night-leaderboard"') == 2
    second = html.index('class="night-leaderboard"', html.index('class="night-leaderboard"') + 1)
    rows = leaderboard_rows(html) + leaderboard_rows(html[second - 7 :])
    assert [row[:5] for row in rows] == BOARD
    assert f"/n/{view}/qr.svg" in html
    assert f'href="/n/{view}">Phone layout' in html
    assert f'hx-get="/n/{view}/live?layout=screen&amp;lang=en"' in html
    words = text(html)
    assert "Session 2 Table 1 1 of 28 rounds" in words
    assert "Session 1: complete" not in words and "Session 1:" in words


def test_the_screen_shows_42_lines_in_three_columns_and_counts_the_others(app, client):
    night = create(app, players=[f"Player {n}" for n in range(50)], seating=None, sessions=1)
    html = client.get(f"/n/{night.view_token}/screen").get_data(as_text=True)
    assert html.count('<table class="night-leaderboard"') == 3
    assert html.count('<tr class="unranked">') == 42
    assert "8 more players: see the board on your phone" in text(html)


def test_the_live_fragment_answers_304_until_a_round_is_saved_at_any_table(app, client):
    night = played(app)
    url = f"/n/{night.view_token}/live?layout=board&lang=en"
    first = client.get(url)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "public, max-age=1, must-revalidate"
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.get_data() == b""
    # Another language or layout is another fragment.
    assert client.get(url.replace("lang=en", "lang=de"), headers={"If-None-Match": etag}).status_code == 200
    assert client.get(url.replace("board", "screen"), headers={"If-None-Match": etag}).status_code == 200
    save(app, night, 2, 2, queens(1, 1, 1, 1))  # the table that had not started
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    words = text(changed.get_data(as_text=True))
    assert "Table 2 1 of 28 rounds Cath · Fay · Dora · Gina" in words


def test_an_adjustment_changes_the_etag(app, client):
    night = create(app)
    url = f"/n/{night.view_token}/live?layout=board&lang=en"
    etag = client.get(url).headers["ETag"]
    adjust(app, night, 0, 5, "bonus")
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 200


def secrets_of(night) -> list[str]:
    return [night.director_token, *(edit for edit, _ in night.tables.values())]


@pytest.mark.parametrize("suffix", ["", "/screen", "/live", "/results", "/results.csv", "/night.json"])
def test_the_view_tokens_pages_hold_no_edit_or_director_token(app, client, suffix):
    night = played(app)
    response = client.get(f"/n/{night.view_token}{suffix}")
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    for secret in secrets_of(night):
        assert secret not in body


def test_the_director_token_moves_to_the_view_tokens_board(app, client):
    night = create(app)
    response = client.get(f"/n/{night.director_token}")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/n/{night.view_token}")
    response = client.get(f"/n/{night.director_token}/screen")
    assert response.headers["Location"].endswith(f"/n/{night.view_token}/screen")


@pytest.mark.parametrize("suffix", ["", "/screen", "/live", "/qr.svg", "/results", "/results.csv", "/night.json"])
def test_an_unknown_or_table_token_is_404(app, client, suffix):
    night = create(app)
    for token in ("nope", *night.tables[1, 1]):
        assert client.get(f"/n/{token}{suffix}").status_code == 404


def test_the_director_token_is_404_where_it_would_be_shown(app, client):
    night = create(app)
    for suffix in ("/live", "/results", "/results.csv", "/night.json", "/qr.svg"):
        assert client.get(f"/n/{night.director_token}{suffix}").status_code == 404


def test_the_csv_has_one_row_per_player_worked_by_hand(app, client):
    night = played(app)
    response = client.get(f"/n/{night.view_token}/results.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert "2026-12-03 Thursday club night.csv" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data().decode("utf-8-sig"))))
    assert rows == [
        ["rank", "name", "games", "total", "places", "adjustment", "provisional", "session 1", "session 2"],
        ["1", "Fay", "1", "0", "2.5", "0", "", "0", ""],
        ["2", "Emma", "2", "-6", "4", "0", "", "0", "-6"],
        ["3", "Beth", "2", "-10", "4.5", "0", "", "-6", "-4"],
        ["4", "Cath", "1", "-6", "1.5", "0", "", "-6", ""],
        ["4", "Gina", "1", "-6", "1", "0", "", "-6", ""],
        ["6", "Anne", "2", "-18", "1.5", "0", "", "-12", "-6"],
        ["7", "Dora", "1", "-10", "3", "-10", "", "0", ""],
        ["7", "Ivan", "1", "-10", "0", "0", "", "", "-10"],
        ["9", "Hugo", "1", "-18", "0", "0", "", "-18", ""],
    ]


def test_a_name_a_spreadsheet_would_run_is_quoted_in_the_csv(app, client):
    night = create(app, players=["=SUM(A1)", *NAMES[1:]])
    rows = list(
        csv.reader(io.StringIO(client.get(f"/n/{night.view_token}/results.csv").get_data().decode("utf-8-sig")))
    )
    assert ["", "'=SUM(A1)", "0", "0", "0", "0", "", "", ""] in rows


def test_the_results_list_adjustments_with_their_reasons(app, client):
    night = played(app)
    adjust(app, night, 5, 3, "brought the cards")
    response = client.get(f"/n/{night.view_token}/results")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    section = text(html[html.index('id="results_adjustments"') : html.index('id="results_tables"')])
    assert "Dora −10 · late" in section
    assert "Fay +3 · brought the cards" in section


def test_the_results_show_every_tables_standings_and_each_players_games(app, client):
    night = played(app)
    html = client.get(f"/n/{night.view_token}/results").get_data(as_text=True)
    tables = text(html[html.index('id="results_tables"') :])
    assert "Session 1 Table 1 complete" not in tables
    assert "Table 1 1 of 28 rounds Dora 0 Beth −6 Cath −6 Anne −12" in tables
    assert "Table 2 1 of 28 rounds Emma 0 Fay 0 Gina −6 Hugo −18" in tables
    assert "Table 1 1 of 28 rounds Beth −4 Anne −6 Emma −6 Ivan −10" in tables
    # Each player's line links their games' boards: Anne played S1 T1 (−12) and S2 T1 (−6).
    rows = leaderboard_rows(html)
    anne = next(row for row in rows if row[1] == "Anne")
    assert anne == ("6", "Anne", "2", "−18", "1.5", "", "T1 −12", "T1 −6")
    line = re.search(r"<tr[^>]*>\s*<td[^>]*>6</td>.*?</tr>", html, re.S).group(0)
    assert re.findall(r'href="([^"]+)"', line) == [f"/b/{night.tables[1, 1][1]}", f"/b/{night.tables[2, 1][1]}"]


def test_the_json_is_the_events_export_for_the_view_token(app, client):
    night = played(app)
    response = client.get(f"/n/{night.view_token}/night.json")
    assert response.status_code == 200
    document = response.get_json(force=True)
    api = client.get(f"/api/v1/events/{night.id}", headers=auth(night.view_token))
    assert document == api.get_json()
    assert [(e["name"], e["rank"], e["total"]) for e in document["leaderboard"]][:3] == [
        ("Fay", 1, 0),
        ("Emma", 2, -6),
        ("Beth", 3, -10),
    ]


def test_the_qr_code_is_an_svg_of_the_boards_url(app, client):
    night = create(app)
    response = client.get(f"/n/{night.view_token}/qr.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"


def test_a_closed_night_says_so_on_the_board_and_the_results(app, client):
    night = played(app)
    with app.app_context():
        stored, _ = nights.find_night(night.director_token)
        nights.close_night(stored)
        db.session.remove()
    assert "The night is closed: final results" in text(client.get(f"/n/{night.view_token}").get_data(as_text=True))
    words = text(client.get(f"/n/{night.view_token}/results").get_data(as_text=True))
    assert "Results · final" in words
    assert "provisional" not in words


def test_a_304_costs_one_stamp_lookup_and_loads_no_night(app, client, monkeypatch):
    night = played(app)
    url = f"/n/{night.view_token}/live?layout=screen&lang=en"
    etag = client.get(url).headers["ETag"]
    lookups = []
    real_stamp = nights.night_stamp
    monkeypatch.setattr(nights, "night_stamp", lambda token: lookups.append(token) or real_stamp(token))
    # The board view reads the night through the name it imported.
    monkeypatch.setattr(night_view, "night_state", lambda *args: pytest.fail("the night was loaded on a 304"))
    statements = []  # what went through SQLAlchemy (the ORM session or Core), not the one driver-level lookup
    with app.app_context():
        engine = db.engine
    listener = lambda *args: statements.append(args[2])  # noqa: E731 (conn, cursor, statement, ...)
    sqlalchemy.event.listen(engine, "before_cursor_execute", listener)
    try:
        response = client.get(url, headers={"If-None-Match": etag})
    finally:
        sqlalchemy.event.remove(engine, "before_cursor_execute", listener)
    assert response.status_code == 304
    assert lookups == [night.view_token]
    assert [s for s in statements if "games" in s or "rounds" in s or "events" in s] == []


# -- a night that requires confirmation (issue 15) ----------------------------------------------


def confirm(app, night, session, number, round_number):
    """The table's other player confirms a round, as the confirm page does (its confirm token)."""
    with app.app_context():
        game, _ = games.find_by_token(night.tables[session, number][0])
        confirmation.confirm_round(game, round_number)
        db.session.remove()


def provisional_names(html: str) -> list[str]:
    """The names the leaderboard marks provisional, in its order."""
    found = re.findall(r'<span class="name-text">((?:(?!</span>).)*)</span> <span class="provisional"', html, re.S)
    return [text(name) for name in found]


@pytest.mark.parametrize("layout", ["", "/screen", "/results"])
def test_a_required_nights_board_screen_and_results_mark_the_provisional_players(app, client, layout):
    """The night of the module docstring, confirmation required; S1 T2's round is confirmed.
    S1 T1 (Anne Beth Cath Dora) and S2 T1 (Ivan Anne Emma Beth) are not: their six players are
    provisional, in leaderboard order Emma, Beth, Cath, Anne, Dora, Ivan; Fay, Gina and Hugo
    (S1 T2 only) are not."""
    night = create(app, confirmation="required")
    save(app, night, 1, 1, queens(2, 1, 1, 0))
    save(app, night, 1, 2, queens(0, 0, 1, 3))
    save(app, night, 2, 1, tricks(5, 3, 3, 2))
    adjust(app, night, 3, -10, "late")
    confirm(app, night, 1, 2, 1)
    html = client.get(f"/n/{night.view_token}{layout}").get_data(as_text=True)
    assert provisional_names(html) == ["Emma", "Beth", "Cath", "Anne", "Dora", "Ivan"]
    assert "* provisional: a round is not confirmed yet" in text(html)
    # The ranks and totals are those of the module docstring: provisional results count as they stand.
    assert [row[:2] for row in leaderboard_rows(html)][:3] == [("1", "Fay"), ("2", "Emma *"), ("3", "Beth *")]


def test_a_required_nights_csv_says_which_results_are_provisional(app, client):
    """The night of the test above: the same six players are provisional in the CSV."""
    night = create(app, confirmation="required")
    save(app, night, 1, 1, queens(2, 1, 1, 0))
    save(app, night, 1, 2, queens(0, 0, 1, 3))
    save(app, night, 2, 1, tricks(5, 3, 3, 2))
    confirm(app, night, 1, 2, 1)
    rows = list(csv.reader(io.StringIO(client.get(f"/n/{night.view_token}/results.csv").text.lstrip("\ufeff"))))
    assert rows[0][6] == "provisional"
    assert sorted(row[1] for row in rows[1:] if row[6] == "yes") == ["Anne", "Beth", "Cath", "Dora", "Emma", "Ivan"]
    assert {row[6] for row in rows[1:]} == {"yes", ""}


def test_the_board_drops_the_mark_once_the_last_round_is_confirmed(app, client):
    night = create(app, confirmation="required")
    save(app, night, 1, 1, queens(2, 1, 1, 0))
    url = f"/n/{night.view_token}/live?layout=board&lang=en"
    first = client.get(url)
    assert provisional_names(first.get_data(as_text=True)) == ["Dora", "Beth", "Cath", "Anne"]
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    confirm(app, night, 1, 1, 1)
    after = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert after.status_code == 200  # the confirm moved the table's stamp
    assert provisional_names(after.get_data(as_text=True)) == []
    assert "provisional" not in text(after.get_data(as_text=True))


@pytest.mark.parametrize("confirmation", ["off", "optional"])
def test_an_off_or_optional_night_marks_nothing_provisional(app, client, confirmation):
    night = create(app, confirmation=confirmation)
    save(app, night, 1, 1, queens(2, 1, 1, 0))
    for layout in ("", "/screen", "/results"):
        html = client.get(f"/n/{night.view_token}{layout}").get_data(as_text=True)
        assert provisional_names(html) == []
        assert "a round is not confirmed" not in html
