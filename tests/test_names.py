"""Names shown right: a right-to-left name (Hebrew, Arabic) inside a sentence or a table is
isolated (``<bdi>`` or ``dir="auto"``) on every page and in every language, so it neither
reorders the words and numbers around it nor is reordered by them (issue 11, "Names on
screen and paper")."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from scorepad.extensions import db
from scorepad.services import games, presets
from tests.extremes import full_game, nine_contract_preset

RTL_NAMES = ("מרים", "سارا Ahmed")
RTL_TITLE = "ערב ברבו"
RTL_PRESET = "ברבו של מרים"
PLAYERS = ["Anne", "מרים", "سارا Ahmed", "Beth"]
LANGUAGES = ("en", "de", "nl", "fr")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
#: Text that is no sentence or table of the page: the tab's title, scripts, styles.
RAW = {"title", "script", "style", "template"}


class Unisolated(HTMLParser):
    """Collects each piece of a page's text that holds one of ``names`` outside any
    ``<bdi>`` or ``dir="auto"`` element (attribute values are not text: not looked at)."""

    def __init__(self, names: tuple[str, ...]):
        super().__init__(convert_charrefs=True)
        self.names = names
        self.stack: list[tuple[str, bool]] = []
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append((tag, tag == "bdi" or dict(attrs).get("dir") == "auto"))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if any(tag in RAW or isolated for tag, isolated in self.stack):
            return
        if any(name in data for name in self.names):
            self.found.append(" ".join(data.split()))


def unisolated(html: str, names: tuple[str, ...] = (*RTL_NAMES, RTL_TITLE, RTL_PRESET)) -> list[str]:
    parser = Unisolated(names)
    parser.feed(html)
    return parser.found


def test_the_checker_finds_a_bare_name_and_accepts_an_isolated_one():
    assert unisolated("<p>Doubles against <b>מרים</b></p><title>מרים</title>") == ["מרים"]
    assert unisolated('<p><bdi>מרים</bdi> 1 of 2 <span dir="auto">سارا Ahmed</span></p>') == []


@pytest.fixture
def rtl_game(app):
    """A game of four players, two of them right-to-left, after round 1 (everyone doubled
    everyone they could), with a right-to-left title and preset name; its tokens."""
    preset = {**nine_contract_preset(), "name": RTL_PRESET}
    doc = full_game(PLAYERS, preset, RTL_TITLE)
    doc["rounds"] = doc["rounds"][:1]
    with app.app_context():
        stored, _ = games.create_game(doc)
        tokens = stored.edit_token, stored.view_token
        db.session.remove()
    return tokens


def pages_of(edit: str, view: str) -> list[str]:
    return [
        f"/g/{edit}",
        f"/g/{view}",
        f"/g/{edit}/rounds/new?contract=no-queens",
        f"/g/{edit}/rounds/new?contract=domino",
        f"/g/{edit}/rounds/new?contract=ravage-city",
        f"/g/{edit}/rounds/1",
        f"/g/{edit}/rounds/1/edit",
        f"/b/{view}",
        f"/b/{view}/screen",
        f"/b/{view}/live",
        f"/b/share/{edit}",
        f"/s/{view}",
        f"/s/{view}/blank",
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_name_title_and_preset_name_in_a_game_page_is_isolated(client, rtl_game, lang):
    edit, view = rtl_game
    for url in pages_of(edit, view):
        response = client.get(url, headers={"Accept-Language": lang})
        assert response.status_code == 200, url
        html = response.get_data(as_text=True)
        assert RTL_TITLE in html or RTL_NAMES[0] in html, url
        assert unisolated(html) == [], url


def test_the_quota_line_isolates_the_name_from_its_numbers(client, rtl_game):
    """The line under "Doubles against Anne" keeps its order: name, 1, quota 2."""
    edit, _ = rtl_game
    html = client.get(f"/g/{edit}").get_data(as_text=True)
    heading = re.search(r'<h2 class="small-heading">(.*?)</h2>', html).group(1)
    assert heading == "Doubles against <bdi>Anne</bdi> (quota 2)"
    assert '<li><bdi>מרים</bdi> <span class="quota-count">1, quota 2</span>' in html
    assert '<li><bdi>سارا Ahmed</bdi> <span class="quota-count">1, quota 2</span>' in html


def test_the_round_preview_isolates_the_names_of_its_sentences(client, rtl_game):
    edit, _ = rtl_game
    form = {"contract": "no-queens", "number": "2", "queens-0": "1", "queens-1": "1", "queens-2": "1", "queens-3": "1"}
    form |= {"doubles": ["1-0", "2-1"]}
    html = client.post(f"/g/{edit}/rounds/preview", data=form).get_data(as_text=True)
    assert "pairs" in html
    assert unisolated(html) == []


def test_the_home_page_and_the_presets_isolate_titles_players_and_preset_names(app, client):
    form = {"title": RTL_TITLE, "first_declarer": "0", "preset": "tournament"}
    form |= {f"players-{seat}": name for seat, name in enumerate(PLAYERS)}
    assert client.post("/games/new", data=form).status_code == 303
    home = client.get("/").get_data(as_text=True)
    assert RTL_TITLE in home and RTL_NAMES[1] in home
    assert unisolated(home) == []
    new = client.post("/games/new", data={**form, "players-0": ""}).get_data(as_text=True)
    assert RTL_NAMES[0] in new
    assert unisolated(new) == []
    with client.session_transaction() as session:
        device = session["device"]  # the new game made this device's id
    with app.app_context():
        preset = {**nine_contract_preset(), "name": RTL_PRESET, "default_players": PLAYERS}
        preset_id = presets.create_preset(preset, owner_device=device).public_id
    for url in ("/presets", f"/presets/{preset_id}"):
        html = client.get(url).get_data(as_text=True)
        assert RTL_PRESET in html, url
        assert unisolated(html) == [], url


def without_isolates(html: str) -> str:
    """A page's HTML without its isolates (``<bdi>`` tags, FSI and PDI): for tests that read
    the words of a sentence."""
    return re.sub(r"</?bdi\b[^>]*>|[\u2068\u2069]", "", html)
