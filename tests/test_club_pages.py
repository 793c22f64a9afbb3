"""A club's pages (issue 16; club-format.md "Club, members, statistics, ladder, rating"): the club
page, a member's page, a club game under the club's token, the ladder and its CSV, the admin's
forms (add, rename, merge), a new game and a new night for the club, and the tokens' roles.

The club is built through the API (as a club's software would) with a four-round preset (No
Queens only, 6 points a queen: each player declares once), so that every number below is worked
by hand from barbu-rules.md; the rating is checked against openskill called directly."""

import csv
import io
import re

import pytest
from openskill.models import PlackettLuce

from scorepad.scoring import BUILTIN
from scorepad.scoring.presets import preset_to_dict
from scorepad.services import games, nights

API = "/api/v1"
MINUS = "\u2212"
#: The tournament preset with one contract, No Queens (−6 a queen): four rounds, one per declarer.
QUEENS = {**preset_to_dict(BUILTIN["tournament"]), "id": "queens", "name": "Queens only"}
QUEENS["contracts"] = [{"id": "no-queens", "per_queen": -6}]


def queens(counts: list[int], doubles: list[list[int]] | None = None) -> dict:
    return {"contract": "no-queens", "doubles": doubles or [], "outcome": {"queens": counts}}


# Game 1, 2026-03-01: Anne, Beth, Cath, Diana (seats 0-3), Anne declares first.
#   R1 (Anne)  queens 1 0 1 2, Beth doubles Anne: raw −6 0 −6 −12; Beth wins 6 from Anne → −12 +6 −6 −12
#   R2 (Beth)  queens 0 4 0 0:                     0 −24 0 0
#   R3 (Cath)  queens 3 0 1 0, Anne doubles Cath: raw −18 0 −6 0; Cath wins 12 from Anne → −30 0 +6 0
#   R4 (Diana) queens 0 0 0 4:                     0 0 0 −24
#   Finals: Anne −42, Beth −18, Cath 0, Diana −36; ranks 4, 2, 1, 3.
GAME_1 = [queens([1, 0, 1, 2], [[1, 0]]), queens([0, 4, 0, 0]), queens([3, 0, 1, 0], [[0, 2]]), queens([0, 0, 0, 4])]
# Game 2, 2026-03-08: Emma, Anne, Beth, Cath.
#   R1 (Emma)  queens 0 1 1 2:                     0 −6 −6 −12
#   R2 (Anne)  queens 0 0 2 2, Beth doubles Anne: raw 0 0 −12 −12; Anne wins 12 from Beth → 0 +12 −24 −12
#   R3 (Beth)  queens 1 1 1 1:                     −6 −6 −6 −6
#   R4 (Cath)  queens 4 0 0 0:                     −24 0 0 0
#   Finals: Emma −30, Anne 0, Beth −36, Cath −30; ranks 2, 1, 4, 2.
GAME_2 = [queens([0, 1, 1, 2]), queens([0, 0, 2, 2], [[2, 1]]), queens([1, 1, 1, 1]), queens([4, 0, 0, 0])]
# Game 3, 2026-03-15, in progress: Diana, Emma, Fay, Anne; one round (Diana), a queen each: −6 each.
GAME_3 = [queens([1, 1, 1, 1])]


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def new_club(client, name: str = "De Zwarte Koning", **ladder) -> dict:
    rules = {"best": 1, "min_games": 2, "by": "points", **ladder}
    response = client.post(f"{API}/clubs", json={"name": name, "ladder": rules})
    assert response.status_code == 201, response.json
    return response.json


def add_members(client, club: dict, *names: str) -> dict[str, str]:
    """Add members through the API: name → member id."""
    ids = {}
    for name in names:
        response = client.post(
            f"{API}/clubs/{club['id']}/members", json={"name": name}, headers=auth(club["admin_token"])
        )
        assert response.status_code == 201, response.json
        ids[name] = response.json["id"]
    return ids


def club_game(client, club: dict, members: dict[str, str], players: list[str], day: str, rounds: list[dict]) -> dict:
    """A game of the club (its members in seat order, the first declaring first) with ``rounds`` recorded."""
    document = {
        "players": players,
        "first_declarer": 0,
        "preset": QUEENS,
        "date": day,
        "club": club["id"],
        "members": [members[name] for name in players],
    }
    response = client.post(f"{API}/games", json=document, headers={"X-Club-Token": club["admin_token"]})
    assert response.status_code == 201, response.json
    game = response.json
    for rnd in rounds:
        saved = client.post(f"{API}/games/{game['id']}/rounds", json=rnd, headers=auth(game["edit_token"]))
        assert saved.status_code == 201, saved.json
    return game


@pytest.fixture
def club(client) -> dict:
    """The small club: six members, two complete games and one in progress (see above)."""
    made = new_club(client)
    members = add_members(client, made, "Anne", "Beth", "Cath", "Diana", "Emma", "Fay")
    games = [
        club_game(client, made, members, ["Anne", "Beth", "Cath", "Diana"], "2026-03-01", GAME_1),
        club_game(client, made, members, ["Emma", "Anne", "Beth", "Cath"], "2026-03-08", GAME_2),
        club_game(client, made, members, ["Diana", "Emma", "Fay", "Anne"], "2026-03-15", GAME_3),
    ]
    return {**made, "members": members, "games": games}


def text_of(html: str) -> str:
    """The text of some HTML: tags dropped, whitespace collapsed (none before a comma or a colon)."""
    return re.sub(r" ([,:])", r"\1", " ".join(re.sub(r"<[^>]+>", " ", html).split()))


def row_of(html: str, name: str) -> list[str]:
    """The cells' texts of the table row whose heading names ``name``."""
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S):
        cells = [text_of(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        if name in cells:
            return cells
    raise AssertionError(f"no row for {name}")


def section(html: str, section_id: str) -> str:
    match = re.search(rf'<section id="{section_id}".*?</section>', html, re.S)
    assert match, section_id
    return match.group(0)


# -- the club page ------------------------------------------------------------------------------


def openskill_ordinals() -> dict[str, float]:
    """The members' ordinals (μ − 3σ) after games 1 and 2, from openskill itself (game 3 is not complete)."""
    model = PlackettLuce()
    ratings = {name: model.rating() for name in ("Anne", "Beth", "Cath", "Diana", "Emma")}
    for players, ranks in (
        (["Anne", "Beth", "Cath", "Diana"], [4, 2, 1, 3]),
        (["Emma", "Anne", "Beth", "Cath"], [2, 1, 4, 2]),
    ):
        rated = model.rate([[ratings[p]] for p in players], ranks=ranks)
        for player, team in zip(players, rated, strict=True):
            ratings[player] = team[0]
    return {name: r.mu - 3 * r.sigma for name, r in ratings.items()}


def one_decimal(value: float) -> str:
    text = f"{abs(value):.1f}"
    return f"{MINUS}{text}" if value < 0 else text


def test_the_club_page_lists_each_member_with_games_wins_average_and_rating(client, club):
    html = client.get(f"/k/{club['view_token']}").text
    ordinals = openskill_ordinals()
    # Member, games (with a round), wins (complete, rank 1), average (total ÷ games), rating ordinal.
    assert row_of(html, "Anne") == ["Anne", "3", "1", "−16", one_decimal(ordinals["Anne"])]  # −42 + 0 − 6 = −48 over 3
    assert row_of(html, "Beth") == ["Beth", "2", "0", "−27", one_decimal(ordinals["Beth"])]  # −18 − 36
    assert row_of(html, "Cath") == ["Cath", "2", "1", "−15", one_decimal(ordinals["Cath"])]  # 0 − 30
    assert row_of(html, "Diana") == ["Diana", "2", "0", "−21", one_decimal(ordinals["Diana"])]  # −36 − 6
    assert row_of(html, "Emma") == ["Emma", "2", "0", "−18", one_decimal(ordinals["Emma"])]  # −30 − 6
    assert row_of(html, "Fay") == ["Fay", "1", "0", "−6", "–"]  # no complete game: no rating yet


def test_the_club_page_shows_the_ladders_top_and_links_the_whole_ladder(client, club):
    top = section(client.get(f"/k/{club['view_token']}").text, "ladder-top")
    assert row_of(top, "Anne")[0:1] == ["1"]
    assert f"/k/{club['view_token']}/ladder" in top
    assert len(re.findall(r"<tr class=", top)) == 5  # the first five of six


def test_only_the_admin_link_shows_the_members_forms_the_view_link_and_the_club_games(client, club):
    admin = client.get(f"/k/{club['admin_token']}").text
    assert 'id="add-member"' in admin and 'id="rename-member"' in admin and 'id="merge-members"' in admin
    # Each label names its own field: the rename form's "New name" is not the add form's "Name" (ids unique).
    assert admin.count('id="name"') == 1 and 'for="rename-name"' in admin and 'id="rename-name"' in admin
    assert f"/k/{club['view_token']}" in admin and "<svg" in admin  # the view link and its QR code
    assert f"/k/{club['admin_token']}/game" in admin and f"/k/{club['admin_token']}/night" in admin
    # A club made in the browser: the API's club id is on its admin page (the only place to read it).
    assert f"For the API: the club’s id is {club['id']};" in text_of(admin)
    view = client.get(f"/k/{club['view_token']}").text
    for piece in (
        'id="add-member"',
        'id="rename-member"',
        'id="merge-members"',
        "/game",
        "/night",
        club["admin_token"],
    ):
        assert piece not in view


# -- a member's page ------------------------------------------------------------------------------


def test_a_members_page_shows_the_statistics_worked_by_hand(client, club):
    anne = club["members"]["Anne"]
    html = client.get(f"/k/{club['view_token']}/m/{anne}").text
    summary = text_of(section(html, "summary"))
    assert "Games 3 (2 complete)" in summary
    assert "Wins 1" in summary
    assert "Average −16" in summary
    assert "Total −48" in summary
    # No Queens: 9 rounds, 2 as declarer; raw −24 (game 1) − 12 (game 2) − 6 (game 3); doubles −18 + 12.
    assert row_of(section(html, "contracts"), "No Queens") == ["No Queens", "9", "2", "−42", "−6"]
    doubles = text_of(section(html, "doubles"))
    assert "Doubles given 1" in doubles  # game 1, round 3: Anne doubled Cath
    assert "Doubles received 2" in doubles  # Beth doubled Anne in games 1 and 2
    assert "Net points −6" in doubles
    # Cath took 12 from Anne (game 1); Anne won 12 from Beth in game 2 after losing 6 to her in game 1: net 6.
    assert "Nemesis: Cath, took 12 points from Anne through doubles" in doubles
    assert "Favourite victim: Beth, gave 6 points to Anne through doubles" in doubles


def test_a_members_page_shows_the_rating_as_openskill_gives_it_and_its_history(client, club):
    model = PlackettLuce()
    names = ["Anne", "Beth", "Cath", "Diana", "Emma"]
    ratings = {name: model.rating() for name in names}
    history = []
    for players, ranks in (
        (["Anne", "Beth", "Cath", "Diana"], [4, 2, 1, 3]),
        (["Emma", "Anne", "Beth", "Cath"], [2, 1, 4, 2]),
    ):
        rated = model.rate([[ratings[p]] for p in players], ranks=ranks)
        ratings.update({p: team[0] for p, team in zip(players, rated, strict=True)})
        history.append(ratings["Anne"])
    anne = ratings["Anne"]
    html = client.get(f"/k/{club['view_token']}/m/{club['members']['Anne']}").text
    rating = text_of(section(html, "rating"))
    assert f"μ {one_decimal(anne.mu)}" in rating
    assert f"σ {one_decimal(anne.sigma)}" in rating
    assert f"Ordinal {one_decimal(anne.mu - 3 * anne.sigma)}" in rating
    assert "updating" not in rating
    # The chart's table: one row per complete game, oldest first.
    rows = re.findall(r"<tr><th scope=\"row\">(.*?)</tr>", section(html, "rating"), re.S)
    assert [text_of(row).split()[-3:] for row in rows] == [
        [one_decimal(r.mu), one_decimal(r.sigma), one_decimal(r.mu - 3 * r.sigma)] for r in history
    ]
    assert f"/k/{club['view_token']}/m/{club['members']['Anne']}/rating.svg" in html


def test_a_members_last_games_link_each_game_under_the_clubs_token(client, club):
    view = club["view_token"]
    html = section(client.get(f"/k/{view}/m/{club['members']['Anne']}").text, "games")
    links = re.findall(rf'href="/k/{view}/g/(\d+)"', html)
    assert links == [str(g["id"]) for g in reversed(club["games"])]  # newest first
    rows = [text_of(row) for row in re.findall(r"<tr>(.*?)</tr>", html, re.S)[1:]]
    # Date, the three opponents, points, place.
    assert rows[0] == "Mar 15, 2026 in progress Diana, Emma, Fay −6 1"  # game 3: one round, everyone −6, tied first
    assert rows[1] == "Mar 8, 2026 Emma, Beth, Cath 0 1"  # game 2: Anne first with 0
    assert rows[2] == "Mar 1, 2026 Beth, Cath, Diana −42 4"  # game 1: Anne last with −42
    assert f"/k/{view}/m/{club['members']['Anne']}/results.svg" in html


@pytest.mark.parametrize("chart", ["rating.svg", "results.svg"])
def test_the_members_charts_are_svg_images(client, club, chart):
    response = client.get(f"/k/{club['view_token']}/m/{club['members']['Anne']}/{chart}")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.data.lstrip().startswith(b"<svg")
    assert b"<script" not in response.data
    assert "default-src 'none'" in response.headers["Content-Security-Policy"]  # an image runs nothing


def test_a_club_game_reads_under_the_clubs_token_and_no_other_game_does(client, club):
    view = club["view_token"]
    html = client.get(f"/k/{view}/g/{club['games'][0]['id']}").text
    standings = text_of(section(html, "club_game_standings"))
    assert "1. Cath 0 2. Beth −18 3. Diana −36 4. Anne −42" in standings
    other = new_club(client, "Another club")
    members = add_members(client, other, "Wim", "Xan", "Yde", "Zoe")
    stranger = club_game(client, other, members, ["Wim", "Xan", "Yde", "Zoe"], "2026-03-02", [])
    assert client.get(f"/k/{view}/g/{stranger['id']}").status_code == 404
    casual = client.post(
        f"{API}/games", json={"players": ["A", "B", "C", "D"], "first_declarer": 0, "preset": "tournament"}
    )
    assert client.get(f"/k/{view}/g/{casual.json['id']}").status_code == 404
    assert client.get(f"/k/{view}/g/999999").status_code == 404


# -- the ladder -------------------------------------------------------------------------------------

# Best 1 result of at least 2 complete games, by points. Complete: game 1 (Anne −42, Beth −18,
# Cath 0, Diana −36) and game 2 (Emma −30, Anne 0, Beth −36, Cath −30). Anne and Cath best 0
# (tied first), Beth −18; not qualified, by score: Fay (no game, 0), Emma −30, Diana −36.
LADDER_CSV = [
    ["rank", "name", "games", "counted", "score", "qualified"],
    ["1", "Anne", "2", "1", "0", "yes"],
    ["1", "Cath", "2", "1", "0", "yes"],
    ["3", "Beth", "2", "1", "-18", "yes"],
    ["", "Fay", "0", "0", "0", "no"],
    ["", "Emma", "1", "1", "-30", "no"],
    ["", "Diana", "1", "1", "-36", "no"],
]


def test_the_ladder_csv_has_the_spec_columns_and_the_hand_worked_lines(client, club):
    response = client.get(f"/k/{club['view_token']}/ladder.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))
    assert rows == LADDER_CSV


def test_the_ladder_page_ranks_the_qualified_first_then_the_others(client, club):
    html = client.get(f"/k/{club['view_token']}/ladder").text
    body = re.search(r"<tbody>(.*?)</tbody>", html, re.S).group(1)
    lines = [text_of(row) for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]
    assert lines == [
        "1 Anne 2 1 0",
        "1 Cath 2 1 0",
        "3 Beth 2 1 −18",
        "– not qualified Fay 0 0 0",
        "– not qualified Emma 1 1 −30",
        "– not qualified Diana 1 1 −36",
    ]
    assert "The best result counts. Qualifying takes 2 games." in text_of(html)
    assert 'class="unqualified first-unqualified"' in html


def test_a_ladder_by_places_scores_halves(client):
    made = new_club(client, by="places", best=2, min_games=1)
    members = add_members(client, made, "Anne", "Beth", "Cath", "Diana")
    club_game(client, made, members, ["Cath", "Anne", "Beth", "Diana"], "2026-03-08", GAME_2)
    # Game 2's finals by seat: Cath −30, Anne 0, Beth −36, Diana −30. Anne beats 3; Cath and
    # Diana beat Beth and tie each other: 1 + ½ each; Beth 0.
    rows = list(csv.reader(io.StringIO(client.get(f"/k/{made['view_token']}/ladder.csv").data.decode("utf-8-sig"))))
    assert rows[1:] == [
        ["1", "Anne", "1", "1", "3", "yes"],
        ["2", "Cath", "1", "1", "1.5", "yes"],
        ["2", "Diana", "1", "1", "1.5", "yes"],
        ["4", "Beth", "1", "1", "0", "yes"],
    ]
    assert "1.5" in client.get(f"/k/{made['view_token']}/ladder").text


# -- the tokens' roles ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path, form",
    [
        ("members", {"name": "Gwen"}),
        ("rename", {"member": "", "name": "Gwen"}),
        ("merge", {"source": "", "target": ""}),
        ("game", {}),
        ("night", {}),
    ],
)
def test_the_view_token_cannot_manage_the_club(client, club, path, form):
    response = client.post(f"/k/{club['view_token']}/{path}", data=form)
    assert response.status_code == 403
    if path in ("game", "night"):
        assert client.get(f"/k/{club['view_token']}/{path}").status_code == 403
    assert "Gwen" not in client.get(f"/k/{club['view_token']}").text


@pytest.mark.parametrize("path", ["", "/ladder", "/ladder.csv", "/game", "/night", "/m/x", "/g/1"])
def test_a_token_of_no_club_is_404(client, club, path):
    assert client.get(f"/k/not-a-token-of-any-club{path}").status_code == 404


def test_a_games_token_opens_no_club_page(client, club):
    game = club["games"][0]
    assert client.get(f"/k/{game['edit_token']}").status_code == 404
    assert client.get(f"/k/{club['view_token']}/m/no-such-member").status_code == 404


# -- the admin's forms ------------------------------------------------------------------------------


def test_a_new_club_through_the_form_lands_on_its_admin_page_saying_to_keep_the_link(client):
    response = client.post(
        "/clubs/new",
        data={
            "name": "De Zwarte Koning",
            "best": "8",
            "min_games": "3",
            "by": "places",
            "start": "2026-01-01",
            "end": "2026-12-31",
        },
    )
    assert response.status_code == 303
    admin = re.fullmatch(r"/k/([A-Za-z0-9_-]+)", response.headers["Location"]).group(1)
    html = client.get(f"/k/{admin}").text
    assert "Keep this page’s link: it is the club’s admin link" in html
    assert "The best 8 results count. Qualifying takes 3 games." in text_of(html)
    assert "places" in text_of(section(html, "ladder-top"))
    assert "Season: January 1, 2026 to December 31, 2026." in text_of(html)


@pytest.mark.parametrize(
    "change, field",
    [
        ({"name": ""}, "name"),
        ({"best": "x"}, "best"),
        ({"min_games": "0"}, "min_games"),
        ({"start": "2026-12-31", "end": "2026-01-01"}, "end"),
    ],
)
def test_a_bad_new_club_is_refused_with_the_message_next_to_its_field(client, change, field):
    data = {"name": "De Zwarte Koning", "best": "10", "min_games": "5", "by": "points", **change}
    response = client.post("/clubs/new", data=data)
    assert response.status_code == 422
    assert f'id="{field}-error"' in response.text
    assert client.get("/").status_code == 200  # and nothing else broke


def test_the_home_page_links_a_new_club(client):
    assert 'href="/clubs/new"' in client.get("/").text


def test_the_admin_adds_and_renames_a_member(client, club):
    admin = club["admin_token"]
    response = client.post(f"/k/{admin}/members", data={"name": "Gwen"})
    assert response.status_code == 303
    assert row_of(client.get(f"/k/{admin}").text, "Gwen") == ["Gwen", "0", "0", "–", "–"]
    taken = client.post(f"/k/{admin}/members", data={"name": "anne"})
    assert taken.status_code == 422
    assert 'id="name-error"' in taken.text
    response = client.post(f"/k/{admin}/rename", data={"member": club["members"]["Fay"], "name": "Faye"})
    assert response.status_code == 303
    html = client.get(f"/k/{admin}").text
    assert row_of(html, "Faye")[1] == "1"  # her game kept
    assert ">Fay<" not in html


def test_merging_two_members_asks_first_then_keeps_both_histories(client):
    made = new_club(client, min_games=1)
    members = add_members(client, made, "Anne", "Ann", "Beth", "Cath", "Diana")
    club_game(client, made, members, ["Anne", "Beth", "Cath", "Diana"], "2026-03-01", GAME_1)
    club_game(client, made, members, ["Beth", "Ann", "Cath", "Diana"], "2026-03-08", GAME_2)
    admin = made["admin_token"]
    asked = client.post(f"/k/{admin}/merge", data={"source": members["Ann"], "target": members["Anne"]})
    assert asked.status_code == 200
    assert "Merge Ann into Anne" in text_of(asked.text)
    assert 'name="confirmed" value="yes"' in asked.text
    assert row_of(client.get(f"/k/{admin}").text, "Ann")[1] == "1"  # nothing merged yet
    done = client.post(
        f"/k/{admin}/merge", data={"source": members["Ann"], "target": members["Anne"], "confirmed": "yes"}
    )
    assert done.status_code == 303
    html = client.get(f"/k/{admin}").text
    # Anne: game 1 (−42, 4th) and Ann's game 2 (seat 1: 0, 1st): 2 games, 1 win, average −21.
    assert row_of(html, "Anne")[:4] == ["Anne", "2", "1", "−21"]
    assert ">Ann<" not in html
    # The old id reads as the member it became.
    moved = client.get(f"/k/{admin}/m/{members['Ann']}")
    assert moved.status_code == 303
    assert moved.headers["Location"].endswith(f"/m/{members['Anne']}")


def test_two_members_who_played_together_are_not_merged(client, club):
    admin = club["admin_token"]
    data = {"source": club["members"]["Beth"], "target": club["members"]["Anne"], "confirmed": "yes"}
    response = client.post(f"/k/{admin}/merge", data=data)
    assert response.status_code == 409
    assert "played at the same table" in response.text
    same = client.post(f"/k/{admin}/merge", data={**data, "target": club["members"]["Beth"]})
    assert same.status_code == 422


# -- a game and a night for the club -------------------------------------------------------------


def new_game_form(*players: str) -> dict[str, str]:
    """The new-game form's fields: the four players, the first declaring first, the tournament preset."""
    return {
        **{f"players-{seat}": name for seat, name in enumerate(players)},
        "first_declarer": "0",
        "preset": "tournament",
    }


def test_the_clubs_new_game_form_offers_the_members(client, club):
    html = client.get(f"/k/{club['admin_token']}/game").text
    datalist = re.search(r'<datalist id="club-members">(.*?)</datalist>', html, re.S).group(1)
    assert re.findall(r'value="([^"]+)"', datalist) == ["Anne", "Beth", "Cath", "Diana", "Emma", "Fay"]
    assert html.count('list="club-members"') == 4
    assert f'action="/k/{club["admin_token"]}/game"' in html


def test_a_game_for_the_club_makes_the_new_names_members_and_counts_for_them(client, club):
    admin = club["admin_token"]
    response = client.post(f"/k/{admin}/game", data=new_game_form("anne", "Beth", "Hugo", "Ida"))
    assert response.status_code == 303
    edit = re.fullmatch(r"/g/([A-Za-z0-9_-]+)", response.headers["Location"]).group(1)
    html = client.get(f"/k/{admin}").text
    assert row_of(html, "Hugo") == ["Hugo", "0", "0", "–", "–"]  # a member, no round yet
    assert "Ida" in html
    # The scorer's page records a round; it counts for the members (Anne's fourth game).
    saved = client.post(
        f"/g/{edit}/rounds",
        data={
            "contract": "no-queens",
            "queens-0": "1",
            "queens-1": "1",
            "queens-2": "1",
            "queens-3": "1",
            "number": "1",
        },
    )
    assert saved.status_code in (200, 303), saved.text
    html = client.get(f"/k/{admin}").text
    assert row_of(html, "Anne")[1] == "4"
    assert row_of(html, "Hugo")[1] == "1"


def test_a_game_for_the_club_with_a_bad_name_stores_no_member(client, club):
    admin = club["admin_token"]
    response = client.post(f"/k/{admin}/game", data=new_game_form("Anne", "Beth", "Hugo", ""))
    assert response.status_code == 422
    assert "Hugo" not in client.get(f"/k/{admin}").text


def test_a_night_for_the_club_takes_the_members_ticked_and_the_names_typed(app, client, club):
    admin = club["admin_token"]
    html = client.get(f"/k/{admin}/night").text
    assert html.count('name="present"') == 6
    ticked = [club["members"][name] for name in ("Anne", "Beth", "Cath", "Diana", "Emma", "Fay")]
    form = {
        "title": "Thursday",
        "date": "2026-03-19",
        "preset": "tournament",
        "sessions": "1",
        "ranking": "points",
        "present": ticked,
        "players": "Hugo\nIda",
    }
    response = client.post(f"/k/{admin}/night", data=form)
    assert response.status_code == 303, response.text
    director = re.fullmatch(r"/d/([A-Za-z0-9_-]+)", response.headers["Location"]).group(1)
    html = client.get(f"/k/{admin}").text
    assert row_of(html, "Hugo")[1] == "0" and row_of(html, "Ida")[1] == "0"
    # A round at the night's first table counts for its four players, all members of the club.
    names = ("Anne", "Beth", "Cath", "Diana", "Emma", "Fay", "Hugo", "Ida")
    before = sum(int(row_of(html, name)[1]) for name in names)
    with app.app_context():
        stored, _edit = games.find_by_token(nights.table_token(director, 1, 1))
        game_id = stored.id
    saved = client.post(
        f"{API}/games/{game_id}/rounds", json=queens([1, 1, 1, 1]), headers=auth(nights.table_token(director, 1, 1))
    )
    assert saved.status_code == 201, saved.json
    html = client.get(f"/k/{admin}").text
    assert sum(int(row_of(html, name)[1]) for name in names) == before + 4


def test_the_home_page_keeps_the_clubs_whose_admin_page_this_device_opened(client, club):
    client.get(f"/k/{club['view_token']}")
    assert 'id="clubs"' not in client.get("/").text  # the view link is no admin's
    client.get(f"/k/{club['admin_token']}")
    home = section(client.get("/").text, "clubs")
    assert "De Zwarte Koning" in home
    assert f'href="/k/{club["admin_token"]}"' in home


def test_a_member_with_no_game_has_the_starting_rating(client, club):
    gwen = add_members(client, club, "Gwen")["Gwen"]
    html = client.get(f"/k/{club['view_token']}/m/{gwen}").text
    summary = text_of(section(html, "summary"))
    assert "Games 0" in summary and "Average –" in summary
    # openskill's defaults: μ 25, σ 25/3 ≈ 8.3, ordinal 25 − 3 × 25/3 = 0.
    assert "μ 25.0 σ 8.3 Ordinal 0.0" in text_of(section(html, "rating"))
    assert "No complete game yet" in html and "No games yet." in html and "No rounds yet." in html
    assert "Nemesis: nobody yet" in text_of(section(html, "doubles"))


def test_the_club_pages_speak_the_readers_language(client, club):
    headers = {"Accept-Language": "de"}
    assert "Mitglieder" in client.get(f"/k/{club['view_token']}", headers=headers).text
    html = client.get(f"/k/{club['view_token']}/m/{club['members']['Anne']}", headers=headers).text
    assert "Angstgegner" in html and "Durchschnitt" in html
    assert "−16" in html  # the average, with the language's notation (no decimals here)
    assert "Rangliste" in client.get(f"/k/{club['view_token']}/ladder", headers=headers).text


def test_a_club_game_beyond_the_limits_keeps_what_was_typed(app, client, club):
    app.config["MAX_GAMES_PER_DEVICE_BURST"] = 0
    app.config["MAX_GAMES_PER_ADDRESS_BURST"] = 0
    refused = client.post(f"/k/{club['admin_token']}/game", data=new_game_form("Anne", "Beth", "Hugo", "Ida"))
    assert refused.status_code == 429
    assert 'value="Hugo"' in refused.text and 'role="alert"' in refused.text
    assert "Hugo" not in client.get(f"/k/{club['admin_token']}").text  # no member made


def test_a_merge_of_two_who_played_together_is_refused_at_its_first_step_at_the_top(client, club):
    """Issue 26, item 14: the refusal at the first step (before the confirm button), on the
    merge's short page, above everything else; nothing merged."""
    admin = club["admin_token"]
    data = {"source": club["members"]["Beth"], "target": club["members"]["Anne"]}
    response = client.post(f"/k/{admin}/merge", data=data)
    assert response.status_code == 409
    html = response.text
    alert = html.index('role="alert"')
    assert html.index("Beth and Anne played at the same table: they are two people") > alert
    assert alert < html.index("stay two members") < html.index("Back to the club")
    assert "Merge Beth into Anne" not in html  # no confirm button
    still = client.get(f"/k/{admin}").text
    assert row_of(still, "Beth")[0] == "Beth"
