"""Charts (issue 16): a game's running totals as an SVG image (/b/<view>/chart.svg,
/g/<token>/chart.svg), the printable chart page (/b/<view>/chart), the image on the scorer page
and the board, and the member page's rating and results charts (scorepad/render/charts.py).

The running totals are worked out by hand from shared/barbu-rules.md (Tournament Barbu):
- round 1, Anne declares No Queens, the rules' worked example: totals −12, +24, −12, −24
  (tests/test_api.py WORKED_TOTAL);
- round 2, Anne declares No Tricks, tricks 4/3/3/3, no doubles (−2 a trick): −8, −6, −6, −6;
- round 3, Anne declares No King of Hearts, Diana takes it (−20), no doubles: 0, 0, 0, −20.
Running totals: (−12, 24, −12, −24), (−20, 18, −18, −30), (−20, 18, −18, −50).
"""

import re
import xml.etree.ElementTree as ET

import pytest

from scorepad.render.charts import rating_svg, results_svg, running_totals_svg

from .test_api import API, NEW_GAME, WORKED_NO_QUEENS, auth, create, post_round

SVG = "{http://www.w3.org/2000/svg}"
NAMES = NEW_GAME["players"]  # Anne, Beth, Cath, Diana
ROUND_2 = {"contract": "no-tricks", "doubles": [], "outcome": {"tricks": [4, 3, 3, 3]}}
ROUND_3 = {"contract": "no-king-of-hearts", "doubles": [], "outcome": {"king": 3}}
# Each player's running total after rounds 1, 2 and 3, as the chart writes them (a true minus, U+2212).
RUNNING = {
    "Anne": ["−12", "−20", "−20"],
    "Beth": ["24", "18", "18"],
    "Cath": ["−12", "−18", "−18"],
    "Diana": ["−24", "−30", "−50"],
}


def parse(svg: bytes) -> ET.Element:
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    return root


def series_values(root: ET.Element) -> list[list[str]]:
    """Each series' values as written beside its dots (pygal's ``desc class="value"``), in order."""
    overlay = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "plot overlay")
    series = [g for g in overlay if "series" in (g.get("class") or "").split()]
    return [[d.text for d in s.iter(f"{SVG}desc") if d.get("class") == "value"] for s in series]


def legend(root: ET.Element) -> list[str]:
    legends = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "legends")
    return [t.text for t in legends.iter(f"{SVG}text")]


def axis_labels(root: ET.Element, axis: str) -> list[str]:
    group = next(g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith(f"axis {axis}"))
    return [t.text for t in group.iter(f"{SVG}text")]


@pytest.fixture
def game(client) -> dict:
    """The game of the module's docstring: three rounds recorded through the API."""
    created = create(client, NEW_GAME)
    for round_doc in (WORKED_NO_QUEENS, ROUND_2, ROUND_3):
        assert post_round(client, created, round_doc).status_code == 201
    return created


def view_token(game: dict) -> str:
    return game["view_token"]


def test_the_chart_has_a_line_per_player_with_their_running_totals(client, game):
    response = client.get(f"/b/{view_token(game)}/chart.svg?lang=en")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    root = parse(response.data)
    assert legend(root) == NAMES
    assert series_values(root) == [RUNNING[name] for name in NAMES]
    assert axis_labels(root, "x") == ["1", "2", "3"]
    assert root.find(f"{SVG}title").text == NEW_GAME["title"]
    assert root.find(f"{SVG}desc").text  # says in words what the chart shows
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Round" in texts and "Points" in texts


def test_the_scorer_pages_chart_is_the_same_for_its_edit_and_view_token(client, game):
    for token in (game["edit_token"], view_token(game)):
        response = client.get(f"/g/{token}/chart.svg?lang=en")
        assert response.status_code == 200
        assert response.mimetype == "image/svg+xml"
        assert series_values(parse(response.data)) == [RUNNING[name] for name in NAMES]


def test_negative_points_on_the_axis_have_a_true_minus_sign(client, game):
    labels = axis_labels(parse(client.get(f"/b/{view_token(game)}/chart.svg?lang=en").data), "y")
    negatives = [label for label in labels if label not in ("0", "Points") and not label[0].isdigit()]
    assert negatives and all(label.startswith("−") for label in negatives)
    assert not any(label.startswith("-") for label in labels)


def test_the_chart_runs_no_script_and_has_a_dark_theme(client, game):
    response = client.get(f"/b/{view_token(game)}/chart.svg?lang=en")
    root = parse(response.data)
    assert not [e for e in root.iter() if e.tag == f"{SVG}script"]
    assert b"<script" not in response.data and b"javascript" not in response.data.lower()
    assert not [name for e in root.iter() for name in e.attrib if name.lower().startswith("on")]
    style = "".join(e.text or "" for e in root.iter(f"{SVG}style"))
    assert "@media screen and (prefers-color-scheme:dark)" in style
    # Its own policy: no script of any kind; its inline <style> allowed.
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src" not in policy


def test_an_unchanged_game_answers_304_and_a_new_round_a_new_chart(client):
    created = create(client, NEW_GAME)
    assert post_round(client, created, WORKED_NO_QUEENS).status_code == 201
    for url in (f"/b/{view_token(created)}/chart.svg?lang=en", f"/g/{created['edit_token']}/chart.svg?lang=en"):
        first = client.get(url)
        assert first.status_code == 200 and first.headers["ETag"]
        assert "no-cache" in first.headers["Cache-Control"]
        again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304 and again.data == b""
    etags = {url: client.get(url).headers["ETag"] for url in (f"/b/{view_token(created)}/chart.svg?lang=en",)}
    assert post_round(client, created, ROUND_2).status_code == 201
    for url, etag in etags.items():
        changed = client.get(url, headers={"If-None-Match": etag})
        assert changed.status_code == 200
        assert series_values(parse(changed.data)) == [RUNNING[name][:2] for name in NAMES]


def test_the_chart_speaks_the_language_asked_for(client, game):
    root = parse(client.get(f"/b/{view_token(game)}/chart.svg?lang=de").data)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Runde" in texts and "Punkte" in texts
    assert client.get(f"/b/{view_token(game)}/chart.svg?lang=xx").status_code == 404


@pytest.mark.parametrize(
    "path",
    ["/b/{edit}/chart.svg", "/b/nope/chart.svg", "/g/nope/chart.svg", "/b/{edit}/chart", "/b/nope/chart"],
    ids=["board-edit-token", "board-unknown", "scorer-unknown", "page-edit-token", "page-unknown"],
)
def test_a_wrong_token_is_404(client, game, path):
    assert client.get(path.format(edit=game["edit_token"])).status_code == 404


def test_the_printable_page_has_the_chart_and_a_table_of_the_running_totals(client, game):
    response = client.get(f"/b/{view_token(game)}/chart")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert f"/b/{view_token(game)}/chart.svg?" in html
    assert 'aria-describedby="chart-table-title"' in html
    rows = re.findall(r'<tr><th scope="row">(\d+)</th>(.*?)</tr>', html)
    assert [number for number, _cells in rows] == ["1", "2", "3"]
    cells = [re.findall(r'<span class="pts[^"]*">([^<]*)</span>', row) for _number, row in rows]
    assert cells == [[RUNNING[name][i] for name in NAMES] for i in range(3)]


def chart_img(html: str) -> str | None:
    found = re.search(r'<img loading="lazy" src="([^"]*chart\.svg[^"]*)"', html)
    return found.group(1).replace("&amp;", "&") if found else None


def test_the_scorer_page_and_the_board_show_the_chart_once_a_round_is_played(client):
    created = create(client, NEW_GAME)
    scorer = f"/g/{created['edit_token']}"
    board = f"/b/{view_token(created)}"
    assert chart_img(client.get(scorer).get_data(as_text=True)) is None
    assert chart_img(client.get(board).get_data(as_text=True)) is None
    assert post_round(client, created, WORKED_NO_QUEENS).status_code == 201
    scorer_html = client.get(scorer).get_data(as_text=True)
    src = chart_img(scorer_html)
    assert src and src.startswith(f"/g/{created['edit_token']}/chart.svg?")
    assert 'aria-describedby="score-title"' in scorer_html  # the score sheet holds the same numbers
    assert f'href="/b/{view_token(created)}/chart"' in scorer_html
    board_html = client.get(board).get_data(as_text=True)
    assert 'aria-describedby="board-table-title"' in board_html
    assert client.get(chart_img(board_html)).status_code == 200
    assert client.get(src).status_code == 200


def test_the_boards_chart_address_changes_with_the_totals_only(client):
    """The live part, swapped when the game changes, keeps the image's address while the totals
    are the same (the browser keeps its image), and gives a new one when they change."""
    created = create(client, NEW_GAME)
    assert post_round(client, created, WORKED_NO_QUEENS).status_code == 201
    live = f"/b/{view_token(created)}/live?layout=board&lang=en"
    first = chart_img(client.get(live).get_data(as_text=True))
    assert chart_img(client.get(f"/b/{view_token(created)}").get_data(as_text=True)) == first
    # The same round saved again (an edit that changes nothing but the game's stamp).
    again = client.put(
        f"{API}/games/{created['id']}/rounds/1", json=WORKED_NO_QUEENS, headers=auth(created["edit_token"])
    )
    assert again.status_code == 200
    assert chart_img(client.get(live).get_data(as_text=True)) == first
    assert post_round(client, created, ROUND_2).status_code == 201
    second = chart_img(client.get(live).get_data(as_text=True))
    assert second and second != first


def test_the_score_sheet_has_no_chart(client, game):
    html = client.get(f"/s/{view_token(game)}").get_data(as_text=True)
    assert "chart.svg" not in html


def test_running_totals_need_one_total_per_player(app):
    with app.test_request_context(), pytest.raises(ValueError):
        running_totals_svg(NAMES, [(1, 2, 3)], title="x")


def test_the_rating_chart_has_mu_and_the_ordinal(app):
    points = [("1 Dec", 25.0, 0.0), ("8 Dec", 27.34, -1.5), ("15 Dec", 26.0, 2.0)]
    with app.test_request_context():
        root = parse(rating_svg(points))
    assert legend(root) == ["μ", "ordinal (μ − 3σ)"]
    assert series_values(root) == [["25.0", "27.3", "26.0"], ["0.0", "−1.5", "2.0"]]
    assert axis_labels(root, "x") == ["1 Dec", "8 Dec", "15 Dec"]
    assert root.find(f"{SVG}title").text == "Rating"


def test_the_results_chart_has_a_members_final_per_game(app):
    points = [("1 Dec", -20), ("8 Dec", 45), ("15 Dec", 1200)]
    with app.test_request_context():
        root = parse(results_svg(points))
    assert series_values(root) == [["−20", "45", "1,200"]]
    assert axis_labels(root, "x") == ["1 Dec", "8 Dec", "15 Dec"]
    assert b"<script" not in ET.tostring(root)


def test_a_long_game_labels_every_few_rounds_on_a_phone(app):
    running = [(n, -n, 2 * n, -2 * n) for n in range(1, 29)]
    with app.test_request_context():
        root = parse(running_totals_svg(NAMES, running, title="28 rounds"))
    labels = [label for label in axis_labels(root, "x") if label]
    assert labels[0] == "1" and len(labels) <= 10
    assert len(series_values(root)[0]) == 28


def test_a_long_title_is_cut_on_the_chart_and_whole_in_its_title(app):
    title = "Thursday night Barbu at the Café de la Gare, table two"  # 54 characters
    with app.test_request_context():
        root = parse(running_totals_svg(NAMES, [(1, -1, 2, -2)], title=title))
    assert root.find(f"{SVG}title").text == title
    drawn = [t.text for t in root.iter(f"{SVG}text") if "plot_title" in (t.get("class") or "")]
    assert "".join(drawn).replace(" ", "").startswith("ThursdaynightBarbuattheCafé")
    assert "".join(drawn).endswith("…") and len("".join(drawn)) <= 40


@pytest.mark.parametrize(
    "draw",
    [lambda: rating_svg([]), lambda: results_svg([]), lambda: running_totals_svg(NAMES, [], title="x")],
    ids=["rating", "results", "running-totals"],
)
def test_a_chart_with_nothing_to_show_says_so(app, draw):
    with app.test_request_context():
        root = parse(draw())
    assert [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "no_data"] == ["Nothing to show yet."]
