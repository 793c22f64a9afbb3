"""The catalogues are complete, and each language's pages show no English left behind.

The catalogues (translations/<lang>/LC_MESSAGES/messages.po) are read with Babel; the pages
are rendered with the browser asking for the language (Accept-Language), and their visible
text (text nodes plus the attributes people read or hear: aria-label, title, alt, the
confirm question, the messages JavaScript shows from data attributes) is searched for any
English msgid whose translation is different.
"""

import json
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from scorepad.services import games

ROOT = Path(__file__).parent.parent
EXAMPLES = Path(__file__).parent / "data" / "examples"
LANGUAGES = ("de", "nl", "fr")
#: %(name)s / %(n)d / %(contract)r (gettext) and {name} (filled in by the JavaScript).
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]|\{(\w+)\}")
#: Attributes whose text a person reads or hears, or that JavaScript shows.
READ_ATTRIBUTES = {
    "aria-label",
    "title",
    "alt",
    "placeholder",
    "hx-confirm",
    "data-why",
    "data-text",
    "data-note-partial",
    "data-note-done",
    "data-note-over",
    "data-note-filled",
    "data-copied",
    "data-failed",
}


def catalogue(lang: str):
    with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po, locale=lang)


def entries(lang: str):
    return [m for m in catalogue(lang) if m.id]


def forms(message) -> list[tuple[str, str]]:
    """(msgid, msgstr) pairs of an entry; a plural entry pairs each msgstr with the plural msgid
    (and the first with the singular)."""
    if isinstance(message.id, tuple):
        singular, plural = message.id
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        return [(singular if i == 0 else plural, s) for i, s in enumerate(strings)]
    return [(message.id, message.string)]


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


# -- the catalogues --------------------------------------------------------------------------


def test_the_template_is_not_empty():
    """A broken extraction (babel.cfg) would make every other check here pass vacuously."""
    with open(ROOT / "translations" / "messages.pot", "rb") as pot:
        ids = {m.id for m in read_po(pot) if m.id}
    assert len(ids) > 400
    # One string from each source the extraction must reach: a template, a view, a form,
    # the engine (N_) and the lazily translated labels.
    for msgid in (
        "Skip to content",
        "Imported “%(name)s”.",
        "Who declares first?",
        "the tricks add up to %(sum)d, a deal has %(total)d",
        "No King of Hearts (Barbu)",
    ):
        assert msgid in ids


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_entry_is_translated_and_none_is_fuzzy(lang):
    with open(ROOT / "translations" / "messages.pot", "rb") as pot:
        pot_ids = {(m.context, m.id) for m in read_po(pot) if m.id}
    messages = entries(lang)
    assert {(m.context, m.id) for m in messages} == pot_ids, "run `make translations`"
    untranslated = [m.id for m in messages if not all(s.strip() for _, s in forms(m))]
    assert untranslated == []
    assert [m.id for m in messages if m.fuzzy] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_are_kept_exactly(lang):
    wrong = [
        (msgid, msgstr)
        for m in entries(lang)
        for msgid, msgstr in forms(m)
        if placeholders(msgid) != placeholders(msgstr)
        # a plural's singular may say "one" instead of the number
        and not (isinstance(m.id, tuple) and placeholders(msgstr) == placeholders(msgid) - {"num"})
    ]
    assert wrong == []


def test_the_game_words_are_the_clubs_words():
    """barbu-rules.md, "Words", and the contract names of each language."""
    expected = {
        "de": {
            "Declarer": "Ansager",
            "Contract": "Vertrag",
            "Round": "Runde",
            "Game": "Partie",
            "Score sheet": "Punktetafel",
            "Preset": "Wertung",
            "Doubles": "Kontras",
            "No Tricks": "Keine Stiche",
            "No King of Hearts (Barbu)": "Kein Herzkönig (Barbu)",
            "Trumps": "Trumpf",
        },
        "nl": {
            "Declarer": "Declarant",
            "Contract": "Contract",
            "Round": "Ronde",
            "Game": "Partij",
            "No Queens": "Geen vrouwen",
            "No King of Hearts (Barbu)": "Geen hartenheer (Barbu)",
            "Trumps": "Troef",
        },
        "fr": {
            "Declarer": "Déclarant",
            "Contract": "Contrat",
            "Round": "Donne",
            "Game": "Partie",
            "No Last Two": "Pas les deux derniers",
            "No Hearts": "Pas de cœurs",
            "Trumps": "Atout",
            "Domino": "Domino (Réussite)",
        },
    }
    for lang, words in expected.items():
        strings = {m.id: m.string for m in entries(lang) if m.context is None}
        for english, word in words.items():
            assert strings[english] == word, (lang, english)


#: The word of a club night's session and of a round of the game, as each language's clubs say
#: them (a stem, lower case): a session is one game at one table before the players move on,
#: a round one deal of that game. Dutch clubs play a night in "zittingen" (the bridge clubs'
#: word for a session), each a game of "rondes"; German "Durchgang" and "Runde"; French
#: "séance" and "donne".
SESSION_AND_ROUND = {"nl": ("zitting", "ronde"), "de": ("durchg", "runde"), "fr": ("séance", "donne")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_session_and_a_round_have_words_of_their_own(lang):
    """Every message about a session says the session's word, a message about no session never
    does, and a message about a round says the round's word: "Tafel 3 · zitting 2", then
    "Ronde 5 van 28", never "ronde" for both."""
    session_word, round_word = SESSION_AND_ROUND[lang]
    wrong = []
    for m in entries(lang):
        for msgid, msgstr in forms(m):
            about_session = re.search(r"\bsessions?\b", msgid, re.IGNORECASE) and "CSRF" not in msgid
            about_round = re.search(r"\brounds?\b", msgid, re.IGNORECASE)
            said = msgstr.lower()
            session_said = (session_word in said) == bool(about_session)
            round_said = round_word in said if about_round else not (about_session and round_word in said)
            if not (session_said and round_said):
                wrong.append((msgid, msgstr))
    assert wrong == []


def test_a_session_is_abbreviated_with_its_own_letter():
    """The night's results head each session's column with the session word's first letter."""
    expected = {"nl": "Z%(n)d", "de": "D%(n)d", "fr": "S%(n)d"}
    for lang, abbreviation in expected.items():
        strings = {m.id: m.string for m in entries(lang) if m.context is None}
        assert strings["S%(n)d"] == abbreviation, lang
        hint = strings[
            "S1, S2…: each player’s points in each session, at table T1, T2…; a link opens that table’s game."
        ]
        assert hint.startswith(abbreviation.replace("%(n)d", "1")), lang


# -- the pages -------------------------------------------------------------------------------


class VisibleText(HTMLParser):
    """The text of a page as people meet it: text nodes outside script/style, and the
    READ_ATTRIBUTES; also the page's <html lang>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self.skip = 0
        self.lang = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.lang = attrs.get("lang")
        if tag in ("script", "style"):
            self.skip += 1
        for name, value in attrs.items():
            if name in READ_ATTRIBUTES and value:
                self.chunks.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.chunks.append(data)


def visible(html: str) -> VisibleText:
    parser = VisibleText()
    parser.feed(html)
    return parser


def normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def as_regex(msgid: str) -> str:
    """A regular expression of an English msgid: a number placeholder (%(n)d) matches a
    number, any other placeholder any text, a space any whitespace."""
    out, at = [], 0
    for match in PLACEHOLDER.finditer(msgid):
        out.append(re.escape(msgid[at : match.start()]))
        out.append(r"[−+-]?\d[\d.,\s]*" if match.group(0).endswith("d") and match.group(1) else ".+?")
        at = match.end()
    out.append(re.escape(msgid[at:]))
    return re.sub(r"\\\s+", r"\\s+", "".join(out))


def english_patterns(lang: str) -> list[tuple[str, re.Pattern]]:
    """For each English msgid whose translation in ``lang`` is different (and that is no word of
    that language either: French says Domino for the short contract name), a pattern that finds
    it in a text chunk, its placeholders matching anything: the whole chunk for a msgid of one
    word besides its placeholders (short words such as "Total" or "Round" are also parts of
    other sentences), anywhere in the chunk for a longer one."""
    messages = entries(lang)
    translated = {msgstr for m in messages for _, msgstr in forms(m)}
    patterns = []
    for m in messages:
        for msgid, msgstr in forms(m):
            if msgstr == msgid or msgid in translated:
                continue
            words = re.findall(r"[A-Za-z]{2,}", PLACEHOLDER.sub(" ", msgid))
            if not words:
                continue
            regex = as_regex(msgid)
            patterns.append((msgid, re.compile(rf"^{regex}$" if len(words) <= 1 else regex)))
    return patterns


def english_left(html: str, lang: str, patterns) -> list[tuple[str, str]]:
    found = []
    for chunk in visible(html).chunks:
        text = normal(chunk)
        for msgid, pattern in patterns:
            if pattern.search(text):
                found.append((msgid, text))
    return found


def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def import_game(app, name: str, rounds: int):
    data = example(name)
    with app.app_context():
        stored, _ = games.create_game({**data["game"], "rounds": data["game"]["rounds"][:rounds]})
        return stored.edit_token, stored.view_token, data


def form_of(rnd: dict, tricks_off: int = 0) -> dict:
    """The round as the scorer's form posts it (``tricks_off`` spoils the first count)."""
    data = {"contract": rnd["contract"], "doubles": [f"{a}-{b}" for a, b in rnd["doubles"]]}
    for key in ("trump", "start_rank"):
        if key in rnd:
            data[key] = rnd[key]
    for part, value in rnd["outcome"].items():
        if part in ("tricks", "queens", "hearts"):
            data.update({f"{part}-{seat}": str(v + (tricks_off if seat == 0 else 0)) for seat, v in enumerate(value)})
        elif part == "order":
            data.update({f"order-{place}": str(seat) for place, seat in enumerate(value)})
        elif part == "most":
            data["most"] = [str(s) for s in value]
        else:
            data[part] = str(value)
    return data


@pytest.fixture
def pages(app, client):
    """Every kind of page a player meets, as (name, method, url, form data, status): a game
    of the tournament example after 10 rounds (game page, round forms, a round page, the
    settlement preview, a refused round, board, sheet), a Brader game (Ravage City and the
    32-card deck), the presets, and an error page."""
    edit, view, data = import_game(app, "tournament-full", 10)
    b_edit, _b_view, b_data = import_game(app, "brader-32-card", 8)
    rounds = data["game"]["rounds"]
    listed = [
        ("game", "GET", f"/g/{edit}", None, 200),
        ("home", "GET", "/", None, 200),  # after the game page: it lists the game
        ("new game", "GET", "/games/new", None, 200),
        ("round page", "GET", f"/g/{edit}/rounds/3", None, 200),
        ("edit round", "GET", f"/g/{edit}/rounds/10/edit", None, 200),
        ("preview", "POST", f"/g/{edit}/rounds/preview", form_of(rounds[10]), 200),
        ("refused round", "POST", f"/g/{edit}/rounds", form_of(rounds[10], tricks_off=1), 422),
        ("board", "GET", f"/b/{view}", None, 200),
        ("big screen", "GET", f"/b/{view}/screen", None, 200),
        ("share", "GET", f"/b/share/{edit}", None, 200),
        ("sheet", "GET", f"/s/{view}?place=Club&date=2026-03-05", None, 200),
        ("blank sheet", "GET", f"/s/{view}/blank", None, 200),
        ("brader game", "GET", f"/g/{b_edit}", None, 200),
        ("presets", "GET", "/presets", None, 200),
        ("preset", "GET", "/presets/brader", None, 200),
        ("preset editor", "GET", "/presets/new", None, 200),
        ("offline", "GET", "/offline", None, 200),
        ("not found", "GET", "/g/no-such-game", None, 404),
    ]
    # The round form of every contract the next declarer may still choose, in each game.
    for token in (edit, b_edit):
        page = client.get(f"/g/{token}").get_data(as_text=True)
        for contract in sorted(set(re.findall(r'data-contract="([\w-]+)"', page))):
            listed.append((f"round form {contract}", "GET", f"/g/{token}/rounds/new?contract={contract}", None, 200))
    assert sum(name.startswith("round form") for name, *_ in listed) >= 5
    return listed


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_page_speaks_the_language_without_english_left(app, client, pages, lang):
    patterns = english_patterns(lang)
    assert len(patterns) > 300
    headers = {"Accept-Language": f"{lang},en;q=0.5"}
    for name, method, url, data, status in pages:
        response = client.open(url, method=method, data=data, headers=headers)
        assert response.status_code == status, name
        html = response.get_data(as_text=True)
        assert visible(html).lang == lang, name
        assert english_left(html, lang, patterns) == [], name


def test_the_check_finds_english_left_behind():
    """The search itself: an English page read as German is full of leftovers."""
    html = (
        '<html lang="de"><body><h2>Final standings</h2><p>Anne declares</p>'
        '<button aria-label="Anne doubles Beth">✓</button><p>Domino</p><p>Punktetafel</p></body></html>'
    )
    found = {msgid for msgid, _ in english_left(html, "de", english_patterns("de"))}
    assert found == {"Final standings", "%(name)s declares", "%(a)s doubles %(b)s"}


def test_english_is_the_default(client):
    html = client.get("/", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert visible(html).lang == "en" and "New game" in html


def test_numbers_and_dates_follow_the_language(app, client):
    """The sheet's date in the language's long form; the contract values of the header with
    the language's words and a true minus sign."""
    _edit, view, _data = import_game(app, "tournament-full", 28)
    expected = {
        "en": ("March 5, 2026", "−2 per heart"),
        "de": ("5. März 2026", "−2 je Herz"),
        "nl": ("5 maart 2026", "−2 per harten"),
        "fr": ("5 mars 2026", "−2 par cœur"),
    }
    for lang, (day, hearts) in expected.items():
        html = client.get(f"/s/{view}?date=2026-03-05", headers={"Accept-Language": lang}).get_data(as_text=True)
        assert f'<time datetime="2026-03-05">{day}</time>' in html
        assert hearts in html


def test_points_of_a_thousand_or_more_are_grouped_the_languages_way(app):
    """A made-up preset whose Domino pays +1000 to the first out (the editor allows any whole
    number): the preset page shows it grouped."""
    from flask import render_template_string

    with app.test_request_context(headers={"Accept-Language": "de"}):
        app.preprocess_request()
        rendered = render_template_string(
            '{% from "macros/barbu.html" import points %}{{ points(1000, plus=true) }} {{ points(-12345) }}'
        )
    assert "+1.000" in rendered and "−12.345" in rendered


@pytest.mark.parametrize("lang", ["en", "de", "nl", "fr"])
def test_numbers_under_a_thousand_are_written_as_babel_writes_them(app, lang):
    """The pages write 0 to 999 without asking Babel (scorepad.pages.common.number): what Babel
    itself writes for each of them in each language."""
    from flask_babel import force_locale, format_number

    from scorepad.pages.common import number

    with app.test_request_context(), force_locale(lang):
        assert [number(value) for value in range(1000)] == [format_number(value) for value in range(1000)]
        assert number(1000) == format_number(1000) != "1000"  # grouped from a thousand on


@pytest.mark.pdf
def test_the_board_and_sheet_follow_the_choice_made_on_the_device(app, client):
    """A player who chose French on their phone gets the board and the printed sheet (its
    PDF and the PDF's file name too) in French, whatever the browser asks for."""
    _edit, view, _data = import_game(app, "tournament-full", 5)
    client.post("/language", data={"lang": "fr", "next": "/"})
    german = {"Accept-Language": "de"}
    board = client.get(f"/b/{view}", headers=german).get_data(as_text=True)
    assert visible(board).lang == "fr" and "Classement" in board
    live = client.get(f"/b/{view}/live", headers=german)
    assert "Donne 6 sur 28" in live.get_data(as_text=True)
    sheet = client.get(f"/s/{view}/blank", headers=german)
    assert visible(sheet.get_data(as_text=True)).lang == "fr"
    assert "Feuille de marque vierge" in sheet.get_data(as_text=True)
    pdf = client.get(f"/s/{view}/sheet.pdf?blank=1", headers=german)
    assert pdf.status_code == 200
    assert "feuille de marque vierge" in pdf.headers["Content-Disposition"]
    words = subprocess.run(["pdftotext", "-", "-"], input=pdf.data, capture_output=True, check=True).stdout.decode()
    assert "Déclarant" in words and "Barème" in words and "Declarer" not in words


def test_the_boards_etag_changes_with_the_language(app, client):
    """A phone that switches language must not be served the fragment in the old one (304)."""
    _edit, view, _data = import_game(app, "tournament-full", 5)
    english = client.get(f"/b/{view}/live", headers={"Accept-Language": "en"})
    etag = english.headers["ETag"]
    again = client.get(f"/b/{view}/live", headers={"Accept-Language": "en", "If-None-Match": etag})
    assert again.status_code == 304
    dutch = client.get(f"/b/{view}/live", headers={"Accept-Language": "nl", "If-None-Match": etag})
    assert dutch.status_code == 200 and "Ronde 6 van 28" in dutch.get_data(as_text=True)


def test_a_conflict_from_another_phone_is_told_in_the_language(app, client):
    """common.Conflict carries its message as a template; the game page translates it."""
    edit, _view, data = import_game(app, "tournament-full", 10)
    form = {**form_of(data["game"]["rounds"][9]), "number": "10"}  # round 10 is already saved
    response = client.post(f"/g/{edit}/rounds", data=form, headers={"Accept-Language": "de"})
    assert response.status_code == 409
    assert "Ein anderes Handy hat Runde 10 zuerst gespeichert" in response.get_data(as_text=True)


# -- the words of the table, said as players say them (issue 13, "Small things that add up") --

#: Anne declares; Jörg doubled her in all three rounds, Cath in one, Diana never; then Domino
#: from the jack. Tournament Barbu's quota is 2 doubles against each declarer.
TABLE_GAME = {
    "players": ["Anne", "Jörg", "Cath", "Diana"],
    "first_declarer": 0,
    "preset": "tournament",
    "rounds": [
        {"contract": "no-last-two", "doubles": [[1, 0], [2, 0]], "outcome": {"penultimate": 0, "last": 0}},
        {"contract": "no-queens", "doubles": [[1, 0]], "outcome": {"queens": [1, 1, 1, 1]}},
        {"contract": "no-tricks", "doubles": [[1, 0]], "outcome": {"tricks": [4, 3, 3, 3]}},
        {"contract": "domino", "start_rank": "J", "doubles": [], "outcome": {"order": [0, 1, 2, 3]}},
    ],
}

#: Per language: Jörg's line (over the quota, ticked), Cath's (short), the Domino row, the
#: doubles grid's "every double" button. The jack is J, V (valet) or B (Bube, boer).
TABLE_WORDS = {
    "en": ("3, quota 2", "1, quota 2", "Domino <span", "from J", "max"),
    "de": ("3, Pflicht 2", "1, Pflicht 2", "Domino <span", "ab B", "alle"),
    "fr": ("3, quota 2", "1, quota 2", "Domino <span", "départ V", "max"),
    "nl": ("3, quotum 2", "1, quotum 2", "Domino <span", "vanaf B", "max"),
}


@pytest.fixture
def table_game(app) -> str:
    with app.app_context():
        stored, _ = games.create_game(TABLE_GAME)
        return stored.edit_token


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
def test_the_quota_line_says_given_then_quota_with_a_tick_when_met(client, table_game, lang):
    over, short, *_ = TABLE_WORDS[lang]
    html = client.get(f"/g/{table_game}", headers={"Accept-Language": lang}).get_data(as_text=True)
    quota = re.search(r'<section id="quota".*?</section>', html, re.S).group(0)
    lines = [re.sub(r"<[^>]+>", "", li).split() for li in re.findall(r"<li>(.*?)</li>", quota, re.S)]
    assert lines == [["Jörg", *over.split(), "✓"], ["Cath", *short.split()], ["Diana", "0,", *short.split()[1:]]]
    assert " of 2" not in quota


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
def test_a_domino_row_says_the_rank_is_where_it_started(client, table_game, lang):
    *_, domino, start, _max = TABLE_WORDS[lang]
    html = client.get(f"/g/{table_game}", headers={"Accept-Language": lang}).get_data(as_text=True)
    row = re.search(r'<tr id="round-4".*?</tr>', html, re.S).group(0)
    contract = re.search(r'<span class="round-contract">(.*?</span>)</span>', row, re.S).group(1)
    assert contract.startswith(domino)
    assert re.search(r'<span class="rank" title="[^"]+">(.*?)</span>', contract).group(1) == start
    if lang == "en":
        assert 'title="starting rank: Jack"' in contract


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
def test_the_doubles_shortcuts_speak_the_language_and_name_the_players(client, table_game, lang):
    *_, every = TABLE_WORDS[lang]
    url = f"/g/{table_game}/rounds/new?contract=no-hearts"
    html = client.get(url, headers={"Accept-Language": lang}).get_data(as_text=True)
    assert html.count(f'data-shortcut="max" data-row="1" hidden><span aria-hidden="true">{every}</span>') == 1
    family = re.findall(r'data-shortcut="family"[^>]*><bdi class="family-name" aria-hidden="true">([^<]*)</bdi>', html)
    # Anne declares round 5 (she only redoubles): each opponent's button, under the full name.
    assert family == ["Jörg", "Cath", "Diana"]
