"""The words of the pages in the four languages: a session and a round each have their own
word, French counts and names read as French does (one round played, a name that begins with
a vowel), a number in a refusal is written as the pages write points, and a round's title names
its contract once. The test client on a real database; the expected words written by hand."""

import pytest

from tests.test_director import create_night, save_round, table_game
from tests.test_translations import import_game

#: What each language's pages say, written by hand: a table's session and its first round, the
#: night's results' session heading and column, one round played of 28, the next declarer's
#: contracts (Élodie), the title of a Trumps round in hearts, the bounds of an adjustment.
SAID = {
    "en": {
        "table": "Table 3 · session 2",
        "first round": "Round 1 of 28",
        "session": ("Session 1", "S1"),
        "progress": "1 of 28 rounds played",
        "contracts": "<bdi>Élodie</bdi>’s contracts",
        "trumps": "Round 6 of 28: Trumps (♥ Hearts)",
        "bounds": "−100,000 to 100,000",
    },
    "de": {
        "table": "Tisch 3 · Durchgang 2",
        "first round": "Runde 1 von 28",
        "session": ("Durchgang 1", "D1"),
        "progress": "1 von 28 Runden gespielt",
        "contracts": "Verträge von <bdi>Élodie</bdi>",
        "trumps": "Runde 6 von 28: Trumpf (♥ Herz)",
        "bounds": "−100.000 bis 100.000",
    },
    "nl": {
        "table": "Tafel 3 · zitting 2",
        "first round": "Ronde 1 van 28",
        "session": ("Zitting 1", "Z1"),
        "progress": "1 van 28 ronden gespeeld",
        "contracts": "Contracten van <bdi>Élodie</bdi>",
        "trumps": "Ronde 6 van 28: Troef (♥ Harten)",
        "bounds": "−100.000 tot 100.000",
    },
    "fr": {
        "table": "Table 3 · séance 2",
        "first round": "Donne 1 sur 28",
        "session": ("Séance 1", "S1"),
        "progress": "1 sur 28 donnes jouées",  # never "1 donnes jouées"
        "contracts": "Contrats\u00a0: <bdi>Élodie</bdi>",  # never "Contrats de Élodie"
        "trumps": "Donne 6 sur 28\u00a0: Atout (♥ Cœur)",
        "bounds": "−100\u202f000 à 100\u202f000",
    },
}
LANGUAGES = tuple(SAID)


def headers(lang: str) -> dict:
    return {"Accept-Language": lang}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_tables_page_says_its_session_and_its_round_in_two_words(app, client, lang):
    director = create_night(client)
    _game_id, token = table_game(app, director, 2, 3)
    html = client.get(f"/g/{token}", headers=headers(lang)).text
    assert f'<p class="night-table"><strong>{SAID[lang]["table"]}</strong></p>' in html
    assert SAID[lang]["first round"] in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_nights_results_head_a_session_with_the_session_word(app, client, lang):
    director = create_night(client)
    assert save_round(client, app, director).status_code == 201
    view = client.get(f"/d/{director}").text.split('href="/n/')[1].split('"')[0]
    html = client.get(f"/n/{view}/results", headers=headers(lang)).text
    heading, column = SAID[lang]["session"]
    assert f"<h3>{heading}</h3>" in html
    assert f'class="num session-col">{column}</th>' in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_round_played_reads_right_in_each_language(app, client, lang):
    director = create_night(client)
    assert save_round(client, app, director).status_code == 201
    assert SAID[lang]["progress"] in client.get(f"/d/{director}", headers=headers(lang)).text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_next_declarers_contracts_name_her_as_the_language_does(app, client, lang):
    """The tournament example after 15 rounds: Élodie declares rounds 15 to 21."""
    _edit, view, _data = import_game(app, "tournament-full", 15)
    html = client.get(f"/b/{view}", headers=headers(lang)).text
    assert f'<p class="small-heading">{SAID[lang]["contracts"]}</p>' in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_trumps_rounds_title_names_the_contract_once_and_its_suit(app, client, lang):
    """Round 6 of the tournament example is Trumps in hearts."""
    edit, _view, _data = import_game(app, "tournament-full", 6)
    html = client.get(f"/g/{edit}/rounds/6", headers=headers(lang)).text
    assert f"<h1>{SAID[lang]['trumps']}</h1>" in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_adjustment_out_of_bounds_is_refused_with_the_bounds_written_as_points(client, lang):
    """A true minus sign (U+2212) and the language's digit grouping, as every score on the pages."""
    director = create_night(client)
    response = client.post(
        f"/d/{director}/adjustments",
        data={"player": "0", "points": "−200000", "reason": "typo"},
        headers=headers(lang),
    )
    assert response.status_code == 422
    assert SAID[lang]["bounds"] in response.text
    assert "-100000" not in response.text
