"""The score sheet's print page, its blank sheet and the PDF download.

Expected values come from the examples' ``expected`` (tests/data/examples/) or are worked
by hand from barbu-rules.md.
"""

import json
import re
import subprocess
from pathlib import Path

import pytest

from scorepad.scoring import BUILTIN
from scorepad.services import games, presets
from tests.conftest import SCREENSHOTS
from tests.extremes import LONG_NAMES, LONG_TITLE, full_game, nine_contract_preset

EXAMPLES = Path(__file__).parent / "data" / "examples"


def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def start(app, document: dict):
    with app.app_context():
        stored, _ = games.create_game(document)
        return stored.edit_token, stored.view_token


def points(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


def row(html: str, number: int) -> str:
    """The HTML of round ``number``'s line."""
    rows = re.findall(r'<tr class="rnd[^"]*">(.*?)</tr>', html, re.S)
    return rows[number - 1]


def cells(row_html: str) -> list[str]:
    return re.findall(r"<td[^>]*>(.*?)</td>", row_html, re.S)


def text(fragment: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment)).strip()


def test_the_sheet_shows_every_round_raw_and_settled_with_the_final_totals(app, client):
    data = example("tournament-full")
    _, view = start(app, data["game"])
    response = client.get(f"/s/{view}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    for res in data["expected"]["rounds"]:
        line = cells(row(html, res["number"]))
        assert text(line[0]) == str(res["number"])
        # Per player: marks, raw, settled round score.
        for p in range(4):
            assert text(line[3 + 3 * p + 1]) == points(res["result"]["raw"][p])
            assert text(line[3 + 3 * p + 2]) == points(res["result"]["total"][p])
    foot = html[html.index("<tfoot>") : html.index("</tfoot>")]
    total = re.search(r'<tr class="tot">(.*?)</tr>', foot, re.S).group(1)
    assert [text(c) for c in cells(total)] == [points(v) for v in data["expected"]["standings"]["final"]]
    rank = re.search(r'<tr class="rank">(.*?)</tr>', foot, re.S).group(1)
    assert [text(c) for c in cells(rank)] == [str(r) for r in data["expected"]["standings"]["rank"]]


def test_round_one_marks_the_doubles_as_on_paper(app, client):
    # tournament-full round 1: Beth (C) declares No Last Two; Élodie (A) doubled Marc (D),
    # Anne (B) doubled Beth, the declarer, and Beth redoubled Anne.
    data = example("tournament-full")
    _, view = start(app, data["game"])
    line = cells(row(client.get(f"/s/{view}").get_data(as_text=True), 1))
    assert "C" in text(line[1]) and "Beth" in text(line[1])
    assert text(line[2]) == "Last two"
    marks = [line[3 + 3 * p] for p in range(4)]
    assert re.findall(r'class="mk mk-(\S+?)"[^>]*>(\w)<', marks[0]) == [("double", "D")]
    assert re.findall(r'class="mk mk-(\S+?)"[^>]*>(\w)<', marks[1]) == [("on-declarer", "C")]
    assert re.findall(r'class="mk mk-(\S+?)"[^>]*>(\w)<', marks[2]) == [("redouble", "B")]
    assert marks[3].strip() == ""


def test_each_run_has_a_subtotal_whose_check_sum_is_the_run_total(app, client):
    data = example("brader-32-card")
    _, view = start(app, data["game"])
    html = client.get(f"/s/{view}").get_data(as_text=True)
    subs = re.findall(r'<tr class="sub">(.*?)</tr>', html, re.S)
    assert len(subs) == 4
    # Brader's values on the 32-card deck (8 tricks, 8 hearts): tricks −40, queens −60,
    # last two −30, hearts −7×4 −12 = −40, Barbu −25, trumps +40, domino +40, Ravage −36.
    run_total = -40 - 60 - 30 - 40 - 25 + 40 + 40 - 36
    assert run_total == -151
    rounds = data["expected"]["rounds"]
    carries = re.findall(r'<tr class="carry">(.*?)</tr>', html, re.S)
    assert len(carries) == 3  # after the last run, the Total line is the running total
    for run, sub in enumerate(subs):
        assert f"Σ {points(run_total)} = {points(run_total)} ✓" in text(sub)
        last = rounds[8 * run + 7]["result"]["running"]
        run_sums = [sum(r["result"]["total"][p] for r in rounds[8 * run : 8 * run + 8]) for p in range(4)]
        values = [text(c) for c in cells(sub)]
        assert values[1::2] == [points(v) for v in run_sums]
        if run < 3:
            assert [text(c) for c in cells(carries[run])] == [points(v) for v in last]


def test_the_running_total_after_a_run_has_a_line_of_its_own(app, client):
    """Issue 13: the run line put the running total in the Raw column. Worked by hand from the
    tournament example, Élodie (column A): her round scores in Beth's run (rounds 1–7) are
    −60, 6, −36, −14, 0, 5, 45 = −54; in Marc's (rounds 8–14) 0, 20, −18, 4, 30, 6, 0 = 42,
    so her running total after round 14 is −54 + 42 = −12."""
    data = example("tournament-full")
    _, view = start(app, data["game"])
    html = client.get(f"/s/{view}").get_data(as_text=True)
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    lines = re.findall(r'<tr class="(rnd[^"]*|sub|carry)">(.*?)</tr>', body, re.S)
    kinds = [kind.split()[0] for kind, _ in lines]
    # Seven rounds, the run's line, its running total line; four times, the last one without (Total).
    assert kinds == (["rnd"] * 7 + ["sub", "carry"]) * 3 + ["rnd"] * 7 + ["sub"]
    beth_run, beth_total = lines[7][1], lines[8][1]
    marc_run, marc_total = lines[16][1], lines[17][1]
    # The run line: per player the doubles given to the declarer, then the run's points under
    # Score and across Raw (one cell of two columns): no running total in it.
    assert re.findall(r"<td([^>]*)>", marc_run)[:2] == [' class="quota p-first"', ' colspan="2" class="num run"']
    assert text(cells(beth_run)[1]) == "−54" and text(cells(marc_run)[1]) == "42"
    assert "−12" not in text(marc_run)
    # The running total line: labelled, one cell of three columns per player.
    assert text(re.search(r"<th[^>]*>(.*?)</th>", marc_total, re.S).group(1)) == "Running total"
    assert re.findall(r"<td([^>]*)>", marc_total)[0] == ' colspan="3" class="num p-first"'
    assert text(cells(beth_total)[0]) == "−54" and text(cells(marc_total)[0]) == "−12"


def test_a_blank_sheet_has_an_empty_running_total_line_after_each_run_but_the_last(app, client):
    _, view = start(app, example("brader-32-card")["game"])
    html = client.get(f"/s/{view}/blank").get_data(as_text=True)
    carries = re.findall(r'<tr class="carry">(.*?)</tr>', html, re.S)
    assert len(carries) == 3
    assert all([text(c) for c in cells(line)] == [""] * 4 for line in carries)


def test_the_subtotal_counts_the_doubles_on_the_runs_declarer(app, client):
    data = example("tournament-full")
    _, view = start(app, data["game"])
    html = client.get(f"/s/{view}").get_data(as_text=True)
    sub = re.findall(r'<tr class="sub">(.*?)</tr>', html, re.S)[0]
    # Beth (seat 2) declares rounds 1–7; the doubles on her, counted from the example's rounds.
    given = [sum(1 for r in data["game"]["rounds"][:7] for d in r["doubles"] if d == [p, 2]) for p in range(4)]
    quota = [text(c) for c in cells(sub)][0::2]
    assert quota == [f"{given[0]}/2", f"{given[1]}/2", "", f"{given[3]}/2"]


def test_the_header_names_the_preset_its_values_players_place_and_date(app, client):
    data = example("tournament-full")
    _, view = start(app, {**data["game"], "title": "Thursday, table 2"})
    html = client.get(f"/s/{view}?place=Caf%C3%A9+Anatole&date=2026-03-05").get_data(as_text=True)
    head = text(
        html[
            html.index('<header class="sheet-head">') : html.index(
                "</header>", html.index('<header class="sheet-head">')
            )
        ]
    )
    assert "Thursday, table 2" in head
    assert "Date: March 5, 2026" in head and "Place: Café Anatole" in head  # the language's long date
    assert "Tournament Barbu" in head
    assert "No Hearts −2 per heart, ♥A −6" in head and "Domino +45 / +20 / +5 / −5" in head
    assert "A Élodie" in head and "D Marc" in head
    assert "Beth (declares first)" in head
    foot = html[html.index('<footer class="sheet-foot">') :]
    assert "Quota: 2 doubles on each declarer" in text(foot)
    assert foot.count('class="sig"') == 4


def test_the_date_field_holds_the_date_the_sheet_shows(app, client):
    """Issue 26, item 19: a game played on 3 December 2026 opens its sheet with that date in
    the field (not an empty "mm/dd/yyyy" above a dated sheet); a date asked for replaces it;
    the blank sheet has none."""
    _, view = start(app, {**example("tournament-full")["game"], "date": "2026-12-03"})
    field = re.compile(r'<input id="date" name="date" type="date" value="([^"]*)"')
    assert field.search(client.get(f"/s/{view}").text).group(1) == "2026-12-03"
    assert field.search(client.get(f"/s/{view}?date=2026-03-05").text).group(1) == "2026-03-05"
    assert field.search(client.get(f"/s/{view}/blank").text).group(1) == ""


def test_bad_print_options_are_refused_next_to_the_field(app, client):
    data = example("tournament-full")
    _, view = start(app, data["game"])
    response = client.get(f"/s/{view}?date=5.3.2026&paper=a3")
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert 'id="date-error">Write the date as YYYY-MM-DD.' in html
    assert 'id="paper-error">Choose A4 or US Letter.' in html


def test_the_edit_token_moves_to_the_view_tokens_sheet(app, client):
    edit, view = start(app, example("tournament-full")["game"])
    response = client.get(f"/s/{edit}?place=Club")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/s/{view}?place=Club")


def back_link(html: str) -> tuple[str, str]:
    """The print page's back link: its address and its words."""
    link = re.search(r'<p class="tools-links">\s*<a href="([^"]+)">← ([^<]+)</a>', html)
    return link.group(1), link.group(2)


def test_the_sheets_back_link_leads_the_scorer_back_to_the_scorers_page(app, client):
    edit, view = start(app, example("tournament-full")["game"])
    client.get(f"/g/{edit}")  # the scorer's page, which links the sheet by its view token
    for path in (f"/s/{view}", f"/s/{view}/blank", f"/s/{view}?paper=letter&next=https://example.com/"):
        assert back_link(client.get(path).get_data(as_text=True)) == (f"/g/{edit}", "Back to the game"), path


def test_the_sheet_opened_with_the_edit_token_leads_back_to_the_scorers_page(app, client):
    edit, view = start(app, example("tournament-full")["game"])
    response = client.get(f"/s/{edit}", follow_redirects=True)
    assert response.request.path == f"/s/{view}"
    assert back_link(response.get_data(as_text=True)) == (f"/g/{edit}", "Back to the game")


def test_the_sheets_back_link_leads_a_viewer_to_the_board_and_never_shows_the_edit_token(app, client):
    edit, view = start(app, example("tournament-full")["game"])
    other_edit, _ = start(app, example("brader-32-card")["game"])
    client.get(f"/g/{other_edit}")  # this device scores another game
    html = client.get(f"/s/{view}").get_data(as_text=True)
    assert back_link(html) == (f"/b/{view}", "Live scores")
    assert edit not in html and other_edit not in html
    # A fresh device (no cookie): the board too; no query parameter can send the link elsewhere.
    fresh = app.test_client()
    for query in ("", "?from=scorer", "?next=/g/" + edit, "?back=https://example.com/"):
        html = fresh.get(f"/s/{view}{query}").get_data(as_text=True)
        assert back_link(html) == (f"/b/{view}", "Live scores"), query
        assert edit not in html


def test_a_blank_sheet_has_the_schedule_and_no_scores(app, client):
    data = example("tournament-full")
    _, view = start(app, {**data["game"], "rounds": data["game"]["rounds"][:5]})
    html = client.get(f"/s/{view}/blank").get_data(as_text=True)
    rows = re.findall(r'<tr class="rnd[^"]*">(.*?)</tr>', html, re.S)
    assert len(rows) == 28
    players = data["game"]["players"]
    for i, line in enumerate(rows):
        declarer = players[(2 + i // 7) % 4]  # Beth first, then to her left, 7 rounds each
        values = [text(c) for c in cells(line)]
        assert declarer in values[1]
        assert values[2:] == [""] * 13
    assert "Σ = 0" in text(html[html.index("<tfoot>") :])


def test_a_blank_sheet_of_a_fixed_order_lists_the_contracts(app, client):
    data = example("french-classic")
    _, view = start(app, data["game"])
    html = client.get(f"/s/{view}/blank").get_data(as_text=True)
    rows = re.findall(r'<tr class="rnd[^"]*">(.*?)</tr>', html, re.S)
    order = ["Tricks", "Hearts", "Queens", "Barbu", "Last two", "Salade", "Domino"]
    assert [text(cells(r)[2]) for r in rows[:7]] == order


def test_a_blank_sheet_of_a_fixed_order_moving_every_round_gives_each_declarer_the_next_contract(app, client):
    # Rotation "round": the role moves left every round, so rounds 1-4 are each player's
    # first round (No Tricks), rounds 5-8 their second (No Hearts): the order the engine
    # accepts when the rounds are recorded.
    game = example("french-classic")["game"]
    preset = {
        "id": "french-round",
        "chooser": "fixed",
        "rotation": "round",
        "doubling": {"enabled": False},
        "contracts": [{"id": "no-tricks", "per_trick": -2}, {"id": "no-hearts", "per_heart": -2, "ace": -6}],
    }
    _, view = start(app, {**game, "preset": preset, "rounds": []})
    html = client.get(f"/s/{view}/blank").get_data(as_text=True)
    rows = re.findall(r'<tr class="rnd[^"]*">(.*?)</tr>', html, re.S)
    assert [text(cells(r)[2]) for r in rows] == ["Tricks"] * 4 + ["Hearts"] * 4


def pdf_facts(data: bytes, tmp_path: Path) -> tuple[int, str, str]:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(data)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    size = re.search(r"Page size:\s+(.*)", info).group(1)
    body = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return pages, size, body


@pytest.mark.pdf
@pytest.mark.parametrize("name", ["tournament-full", "brader-32-card"])
@pytest.mark.parametrize("paper, size", [("a4", "595.276 x 841.89"), ("letter", "612 x 792")])
def test_the_pdf_download_is_one_page_with_the_expected_totals(app, client, tmp_path, name, paper, size):
    data = example(name)
    _, view = start(app, data["game"])
    response = client.get(f"/s/{view}/sheet.pdf?paper={paper}")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"].startswith("attachment")
    pages, page_size, body = pdf_facts(response.data, tmp_path)
    assert pages == 1
    assert page_size.startswith(size)
    total = next(line for line in body.splitlines() if line.lstrip().startswith("Total"))
    assert total.split()[-4:] == [points(v) for v in data["expected"]["standings"]["final"]]
    assert "Download" not in body


@pytest.mark.pdf
def test_the_blank_pdf_is_one_page(app, client, tmp_path):
    _, view = start(app, example("brader-32-card")["game"])
    response = client.get(f"/s/{view}/sheet.pdf?blank=1&paper=letter")
    pages, _, body = pdf_facts(response.data, tmp_path)
    assert pages == 1
    assert "32" in body and "Anne" in body


def test_every_builtin_presets_blank_sheet_renders(app, client):
    for preset_id in BUILTIN:
        _, view = start(app, {"players": ["A1", "B2", "C3", "D4"], "first_declarer": 0, "preset": preset_id})
        assert client.get(f"/s/{view}/blank").status_code == 200, preset_id


def test_only_the_print_options_go_along_to_the_view_tokens_sheet(app, client):
    edit, view = start(app, example("tournament-full")["game"])
    for query in ("_method=POST", "_external=1&_scheme=ftp", "_anchor=x&paper=letter"):
        response = client.get(f"/s/{edit}?{query}")
        assert response.status_code == 303
        location = response.headers["Location"]
        assert location in (f"/s/{view}", f"/s/{view}?paper=letter")


# -- one page, always (issue 11): the longest names, the most rounds, every language and paper --


def worst_preset() -> dict:
    """Nine contracts (40 lines) and every rule the sheet's notes state: the dealer chooses,
    32 cards, only the declarer doubled, automatic redoubles, undoubled contracts split, a
    quota penalty."""
    preset = {**nine_contract_preset(), "deck": 32, "chooser": "dealer", "undoubled_negative": "split"}
    preset["doubling"] = {**preset["doubling"], "target": "declarer", "auto_redouble": True}
    return preset


def extreme_sheet(app, case: str) -> str:
    """The view token of one of the extreme games: ``brader-30`` (the issue's: the brader
    preset, 32 rounds, four names of 30 characters), ``nine-40`` (nine contracts played out,
    40-character names, an 80-character title) or ``notes`` (the same with every rule note and
    a saved preset of 2,000 characters of notes)."""
    with app.app_context():
        if case == "brader-30":
            doc = {**example("brader-32-card")["game"], "players": [name[:30] for name in LONG_NAMES]}
        elif case == "nine-40":
            doc = full_game(LONG_NAMES, nine_contract_preset(), LONG_TITLE)
        else:
            saved = presets.create_preset(worst_preset(), notes=("House rule. " * 200)[:2000])
            doc = full_game(LONG_NAMES, worst_preset(), LONG_TITLE) | {"preset": saved.public_id}
        stored, _ = games.create_game(doc)
        return stored.view_token


PLACE = "Salle des fêtes de la mairie de Saint-Rémy-de-Provence, premier étage, à gauche"[:80]
#: (case, paper, language, blank): each language and paper at least once with the fullest sheets.
EXTREMES = [
    ("brader-30", "letter", "en", False),
    ("brader-30", "a4", "de", False),
    ("nine-40", "letter", "fr", False),
    ("nine-40", "a4", "nl", False),
    ("nine-40", "letter", "de", True),
    ("notes", "letter", "de", False),
    ("notes", "letter", "fr", False),
    ("notes", "a4", "en", True),
]


@pytest.mark.pdf
@pytest.mark.parametrize("case, paper, lang, blank", EXTREMES)
def test_the_fullest_sheets_print_on_one_page(app, client, tmp_path, case, paper, lang, blank):
    view = extreme_sheet(app, case)
    query = {"paper": paper, "place": PLACE} | ({"blank": "1"} if blank else {})
    response = client.get(f"/s/{view}/sheet.pdf", query_string=query, headers={"Accept-Language": lang})
    assert response.status_code == 200
    pages, _, body = pdf_facts(response.data, tmp_path)
    assert pages == 1
    # The last lines made it onto the page: the rank line, then the signatures under it.
    rank = body.index({"en": "Rank", "de": "Platz", "nl": "Plaats", "fr": "Rang"}[lang])
    assert body.rindex("Bartholomäus") > rank
    SCREENSHOTS.mkdir(exist_ok=True)
    stem = SCREENSHOTS / f"sheet-weasy-{case}-{paper}-{lang}{'-blank' if blank else ''}"
    stem.with_suffix(".pdf").write_bytes(response.data)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "70", "-singlefile", str(stem.with_suffix(".pdf")), str(stem)], check=True
    )


@pytest.mark.pdf
def test_anything_printed_after_the_sheet_starts_a_new_page(app, client, tmp_path):
    """A later addition (a chart after the sheet, a correction note at the sheet's end) never
    shares the score sheet's page, however full the sheet is."""
    from weasyprint import HTML  # noqa: PLC0415 (loads pango)

    from scorepad.views.sheet import static_fetcher  # noqa: PLC0415

    view = extreme_sheet(app, "nine-40")
    html = client.get(f"/s/{view}?paper=letter").get_data(as_text=True)
    html = html.replace("</footer>\n</article>", "</footer><p>Correction note</p></article>")
    html = html.replace("</article>", "</article><section><h2>Chart</h2></section>")
    with app.app_context():
        document = HTML(string=html, base_url="http://localhost/", url_fetcher=static_fetcher).write_pdf()
    pages, _, body = pdf_facts(document, tmp_path)
    assert pages == 3
    sheet, note, chart = body.split("\f")[:3]
    assert "Rank" in sheet and "Correction note" not in sheet and "Chart" not in sheet
    assert "Correction note" in note and "Chart" in chart


@pytest.mark.pdf
@pytest.mark.parametrize("lang", ["fr", "de"])
def test_every_builtin_presets_sheet_prints_on_one_letter_page_with_long_names(app, client, tmp_path, lang):
    """The built-ins' descriptions and house rules are printed whole (they are not cut like a
    saved preset's notes) and still fit, with four names of 40 characters."""
    for preset_id in BUILTIN:
        _, view = start(app, {"players": LONG_NAMES, "first_declarer": 0, "preset": preset_id})
        response = client.get(f"/s/{view}/sheet.pdf?blank=1&paper=letter", headers={"Accept-Language": lang})
        assert pdf_facts(response.data, tmp_path)[0] == 1, preset_id
