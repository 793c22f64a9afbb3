"""The witness's page (issue 15; club-format.md "Trust: confirmation and history"): a second
phone opens the confirm link and confirms or disputes each round the scorer entered; the
scorer's page offers the link as a QR code and shows the disputed notes.

The test client on a real database. The game (tournament preset, Anne declares the first run):
- round 1, No Queens, queens 0/1/2/1, Beth doubled Anne: raw 0, −6, −12, −6 (6 points a queen);
  between Anne (0) and Beth (−6) the difference moves: Beth pays 6 to Anne;
- round 2, Trumps (hearts), tricks 4/3/3/3, nobody doubled: raw 20, 15, 15, 15 (5 a trick).
"""

import re

import pytest

from scorepad.extensions import db
from scorepad.models import StoredGame
from scorepad.services import games, rounds
from scorepad.tokens import derive_token
from tests.test_director import NO_QUEENS, create_night, table_game
from tests.test_names import without_isolates

PLAYERS = ["Anne", "Beth", "Cath", "Diana"]
ROUND_1 = {"contract": "no-queens", "doubles": [[1, 0]], "outcome": {"queens": [0, 1, 2, 1]}}
ROUND_2 = {"contract": "trumps", "trump": "hearts", "doubles": [], "outcome": {"tricks": [4, 3, 3, 3]}}
ROUND_3 = {"contract": "no-tricks", "doubles": [], "outcome": {"tricks": [4, 3, 3, 3]}}
NOTE = "Beth took the last trick"


def start(app, played=(ROUND_1, ROUND_2), **document):
    """A game with ``played`` recorded one by one, as the scorer's phone saves them (an import
    would start them the same, provisional): (game id, edit token, view token, confirm token)."""
    with app.app_context():
        stored, _ = games.create_game({"players": PLAYERS, "first_declarer": 0, "preset": "tournament", **document})
        ids = stored.id, stored.edit_token, stored.view_token
        for rnd in played:
            rounds.record_round(db.session.get(StoredGame, ids[0]), rnd)
        db.session.remove()
    # The confirm token as the spec derives it from the edit token (tokens.derive_token, "confirm").
    return (*ids, derive_token(ids[1], "confirm"))


def stored_rounds(app, game_id) -> list[tuple[str, str | None]]:
    """Each round's (status, note) in the database."""
    with app.app_context():
        game = db.session.get(StoredGame, game_id)
        found = [(row.status, row.note) for row in game.rounds]
        db.session.remove()
        return found


def text(html: str) -> str:
    """The page's words: tags out, spaces collapsed, isolates out."""
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", without_isolates(html))).strip()
    return re.sub(r" ([,.:;])", r"\1", words)


def section(html: str, start: str, end: str | None = None) -> str:
    """The part of ``html`` from ``start`` to ``end`` (or the end)."""
    begin = html.index(start)
    return html[begin : html.index(end, begin) if end else len(html)]


def digest_of(html: str, number: int) -> str:
    """The digest the confirm form of round ``number`` carries (what a browser sends back)."""
    match = re.search(rf'action="/c/[^"]+/rounds/{number}/confirm".*?name="digest" value="([0-9a-f]+)"', html, re.S)
    assert match, f"no confirm form for round {number}"
    return match.group(1)


def waiting_numbers(html: str) -> list[int]:
    """The round numbers the page asks to check, in the page's order."""
    waiting = section(html, 'id="waiting-title"', 'id="checked-title"' if 'id="checked-title"' in html else None)
    return [int(n) for n in re.findall(r'<article class="card check-round[^"]*" id="round-(\d+)"', waiting)]


def checked_numbers(html: str) -> list[int]:
    if 'id="checked-title"' not in html:
        return []
    return [
        int(n)
        for n in re.findall(
            r'<details class="card checked-round" id="round-(\d+)"', section(html, 'id="checked-title"')
        )
    ]


# -- what the page shows ----------------------------------------------------------------------


def test_the_page_lists_the_waiting_rounds_newest_first_with_what_they_settle(app, client):
    _, edit, view, confirm = start(app)
    response = client.get(f"/c/{confirm}")
    assert response.status_code == 200
    html = response.text
    assert waiting_numbers(html) == [2, 1] and checked_numbers(html) == []
    assert edit not in html and view not in html  # the witness's page hands out no other link
    assert "private" in response.headers["Cache-Control"]
    round_1 = text(section(html, 'id="round-1"', "</article>"))
    assert "Round 1 · No Queens" in round_1
    assert "Declarer: Anne" in round_1
    assert "Queens Anne 0 · Beth 1 · Cath 2 · Diana 1" in round_1
    # The grid: one double, Beth's (row) on Anne (column).
    assert section(html, 'id="round-1"', "</article>").count('<td class="on">') == 1
    assert "Beth doubled Anne" in round_1
    assert "Beth doubled Anne: Anne 0, Beth −6 → Beth pays 6 to Anne" in round_1
    # Raw, doubles and round total by player (Anne, Beth, Cath, Diana).
    assert "Raw score 0 −6 −12 −6 Doubles +6 −6 0 0 Round total +6 −12 −12 −6" in round_1
    round_2 = text(section(html, 'id="round-2"', "</article>"))
    assert "Round 2 · Trumps (♥ Hearts)" in round_2
    assert "Tricks Anne 4 · Beth 3 · Cath 3 · Diana 3" in round_2
    assert "Nobody doubled: the raw scores stand." in round_2
    assert "Raw score 20 15 15 15" in round_2
    for number in (1, 2):
        assert f'action="/c/{confirm}/rounds/{number}/confirm"' in html
        assert f'action="/c/{confirm}/rounds/{number}/dispute"' in html
    # The page polls its live part.
    assert f'hx-get="/c/{confirm}/live?lang=en"' in html and 'hx-trigger="every 3s"' in html


def test_a_game_without_rounds_says_there_is_nothing_to_check(app, client):
    _, _, _, confirm = start(app, played=())
    html = client.get(f"/c/{confirm}").text
    assert "Nothing to check" in html and "No round entered yet." in html
    assert "<article" not in html


# -- who may open and post ----------------------------------------------------------------------


def routes(token: str) -> list[tuple[str, str]]:
    return [
        ("get", f"/c/{token}"),
        ("get", f"/c/{token}/live"),
        ("post", f"/c/{token}/rounds/1/confirm"),
        ("post", f"/c/{token}/rounds/1/dispute"),
    ]


@pytest.mark.parametrize("role", ["edit", "view"])
def test_the_scorers_and_the_view_token_get_403_on_every_route(app, client, role):
    game_id, edit, view, _ = start(app)
    token = edit if role == "edit" else view
    for method, path in routes(token):
        response = getattr(client, method)(path, data={"digest": "0" * 16, "note": NOTE})
        assert response.status_code == 403, (method, path)
        assert "a scorer does not confirm their own entry" in response.text
    assert stored_rounds(app, game_id) == [("provisional", None)] * 2


def test_an_unknown_token_gets_404_on_every_route(app, client):
    start(app)
    for method, path in routes("x" * 32):
        assert getattr(client, method)(path, data={"digest": "0" * 16}).status_code == 404, (method, path)


def test_a_round_the_game_never_had_is_404(app, client):
    _, _, _, confirm = start(app)
    assert client.post(f"/c/{confirm}/rounds/3/confirm", data={"digest": ""}).status_code == 404
    assert client.post(f"/c/{confirm}/rounds/9/dispute", data={"note": NOTE}).status_code == 404


# -- confirm and dispute --------------------------------------------------------------------------


def test_confirm_checks_the_round_and_moves_it_below(app, client):
    game_id, _, _, confirm = start(app)
    html = client.get(f"/c/{confirm}").text
    response = client.post(f"/c/{confirm}/rounds/1/confirm", data={"digest": digest_of(html, 1)})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/c/{confirm}#confirm_live"
    assert stored_rounds(app, game_id) == [("confirmed", None), ("provisional", None)]
    html = client.get(f"/c/{confirm}").text
    assert "Round 1 confirmed." in html  # said once, after the redirect
    assert waiting_numbers(html) == [2] and checked_numbers(html) == [1]
    assert "Round 1 confirmed." not in client.get(f"/c/{confirm}").text


def test_confirm_through_htmx_answers_the_fresh_list(app, client):
    game_id, _, _, confirm = start(app)
    digest = digest_of(client.get(f"/c/{confirm}").text, 2)
    response = client.post(f"/c/{confirm}/rounds/2/confirm", data={"digest": digest}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "HX-Request" in response.headers["Vary"]
    html = response.text
    assert html.startswith('<div id="confirm_live"') and "<html" not in html
    assert "Round 2 confirmed." in html
    assert waiting_numbers(html) == [1] and checked_numbers(html) == [2]
    assert stored_rounds(app, game_id) == [("provisional", None), ("confirmed", None)]


def test_dispute_keeps_the_round_waiting_with_the_note_and_the_scorer_sees_it(app, client):
    game_id, edit, view, confirm = start(app)
    html = client.get(f"/c/{confirm}").text
    response = client.post(f"/c/{confirm}/rounds/2/dispute", data={"digest": digest_of(html, 2), "note": f"  {NOTE} "})
    assert response.status_code == 303
    assert stored_rounds(app, game_id) == [("provisional", None), ("disputed", NOTE)]
    html = client.get(f"/c/{confirm}").text
    assert "Round 2 disputed: the scorer sees your note." in html
    assert waiting_numbers(html) == [2, 1]
    assert f"Disputed: “{NOTE}”" in text(section(html, 'id="round-2"', "</article>"))
    assert 'data-status="disputed"' in section(html, 'id="round-2"', "</article>")
    scorer = client.get(f"/g/{edit}").text
    assert f"Round 2 disputed: “{NOTE}”" in text(scorer)
    assert f'href="/g/{edit}/rounds/2/edit"' in section(scorer, 'id="disputed"', "</section>")
    # The read-only game page shows the note too, without the edit link.
    read_only = client.get(f"/g/{view}").text
    assert f"Round 2 disputed: “{NOTE}”" in text(read_only) and "/rounds/2/edit" not in read_only


def test_the_edit_page_of_a_disputed_round_shows_the_note(app, client):
    """The scorer taps "Edit round 2" from the note: the note stays in view while they correct
    the round (a trial at the table: it was gone from the edit page)."""
    game_id, edit, _, confirm = start(app)
    html = client.get(f"/c/{confirm}").text
    client.post(f"/c/{confirm}/rounds/2/dispute", data={"digest": digest_of(html, 2), "note": NOTE})
    page = client.get(f"/g/{edit}/rounds/2/edit").text
    assert f"Round 2 disputed: “{NOTE}”" in text(section(page, 'id="edit-dispute"', "</p>"))
    assert 'id="edit-dispute"' not in client.get(f"/g/{edit}/rounds/1/edit").text  # round 1 is not disputed


def test_a_dispute_may_say_nothing_more(app, client):
    game_id, edit, _, confirm = start(app)
    digest = digest_of(client.get(f"/c/{confirm}").text, 1)
    assert client.post(f"/c/{confirm}/rounds/1/dispute", data={"digest": digest, "note": "  "}).status_code == 303
    assert stored_rounds(app, game_id) == [("disputed", None), ("provisional", None)]
    assert "Round 1 disputed." in client.get(f"/c/{confirm}").text  # said once: no note to see
    assert "Round 1 disputed." in text(section(client.get(f"/g/{edit}").text, 'id="disputed"', "</section>"))
    assert "⚠ Disputed" in text(section(client.get(f"/c/{confirm}").text, 'id="round-1"', "</article>"))


def test_the_scorers_edit_makes_the_disputed_round_wait_again_and_the_old_form_is_409(app, client):
    game_id, edit, _, confirm = start(app)
    html = client.get(f"/c/{confirm}").text
    old = digest_of(html, 2)
    client.post(f"/c/{confirm}/rounds/2/dispute", data={"digest": old, "note": NOTE})
    with app.app_context():
        stored = db.session.get(StoredGame, game_id)
        rounds.replace_round(stored, 2, {**ROUND_2, "outcome": {"tricks": [3, 4, 3, 3]}})
        db.session.remove()
    assert stored_rounds(app, game_id) == [("provisional", None), ("provisional", None)]
    assert 'id="disputed"' not in client.get(f"/g/{edit}").text  # the note went with the edit
    # The witness's page still showing the round as it was: refused, with the fresh list.
    refused = client.post(f"/c/{confirm}/rounds/2/confirm", data={"digest": old})
    assert refused.status_code == 409
    assert "Round 2 was changed since this page showed it: check it again." in refused.text
    assert "Tricks Anne 3 · Beth 4 · Cath 3 · Diana 3" in text(section(refused.text, 'id="round-2"', "</article>"))
    assert stored_rounds(app, game_id) == [("provisional", None), ("provisional", None)]
    fresh = digest_of(refused.text, 2)
    assert fresh != old
    assert client.post(f"/c/{confirm}/rounds/2/confirm", data={"digest": fresh}).status_code == 303
    assert stored_rounds(app, game_id) == [("provisional", None), ("confirmed", None)]


def test_a_round_undone_since_the_page_showed_it_is_409(app, client):
    game_id, _, _, confirm = start(app)
    digest = digest_of(client.get(f"/c/{confirm}").text, 2)
    with app.app_context():
        rounds.undo_round(db.session.get(StoredGame, game_id), 2)
        db.session.remove()
    refused = client.post(f"/c/{confirm}/rounds/2/dispute", data={"digest": digest, "note": NOTE})
    assert refused.status_code == 409
    assert "Round 2 is no longer there: the scorer undid it." in refused.text
    assert waiting_numbers(refused.text) == [1]


def test_a_note_longer_than_200_characters_is_refused_next_to_the_field(app, client):
    game_id, _, _, confirm = start(app)
    digest = digest_of(client.get(f"/c/{confirm}").text, 1)
    refused = client.post(f"/c/{confirm}/rounds/1/dispute", data={"digest": digest, "note": "x" * 201})
    assert refused.status_code == 422
    error = section(refused.text, 'id="dispute-error-1"', "</p>")
    assert "200" in error
    assert 'value="' + "x" * 201 + '"' in refused.text  # what was typed stays in the field
    assert stored_rounds(app, game_id) == [("provisional", None)] * 2
    # Through htmx: the list with the message next to the round's note field.
    again = client.post(
        f"/c/{confirm}/rounds/1/dispute", data={"digest": digest, "note": "x" * 201}, headers={"HX-Request": "true"}
    )
    assert again.status_code == 422 and again.text.lstrip().startswith('<div id="confirm_live"')
    assert "200" in section(again.text, 'id="dispute-error-1"', "</p>")
    # 200 characters pass.
    assert client.post(f"/c/{confirm}/rounds/1/dispute", data={"digest": digest, "note": "x" * 200}).status_code == 303


# -- checking off, a closed night -------------------------------------------------------------


def test_checking_off_says_so_without_buttons_and_refuses_with_409(app, client):
    game_id, edit, _, confirm = start(app, confirmation="off")
    html = client.get(f"/c/{confirm}").text
    assert "Checking is off for this game" in html
    assert '<form method="post" action="/c/' not in html and "<article" not in html
    refused = client.post(f"/c/{confirm}/rounds/1/confirm", data={"digest": "0" * 16})
    assert refused.status_code == 409
    assert "Confirmation is off for this game" in refused.text
    assert stored_rounds(app, game_id) == [("provisional", None)] * 2
    # The scorer's page offers no one to check.
    scorer = client.get(f"/g/{edit}").text
    assert "Let another player check" not in scorer and "/c/" not in scorer


def test_a_closed_night_says_so_and_offers_no_button(app, client):
    director = create_night(client)
    game_id, token = table_game(app, director, 1, 1)
    with app.app_context():
        # Without doubles: the table's first declarer is drawn, and a double's legality depends on it.
        rounds.record_round(db.session.get(StoredGame, game_id), NO_QUEENS)
        db.session.remove()
    confirm = derive_token(token, "confirm")
    digest = digest_of(client.get(f"/c/{confirm}").text, 1)
    etag = client.get(f"/c/{confirm}/live?lang=en").headers["ETag"]
    assert client.post(f"/d/{director}/close", data={"unfinished": "yes"}).status_code == 303
    # The page open on the witness's phone learns it at its next poll (the close writes no round).
    polled = client.get(f"/c/{confirm}/live?lang=en", headers={"If-None-Match": etag})
    assert polled.status_code == 200 and "The night is closed" in polled.text
    html = client.get(f"/c/{confirm}").text
    assert "The night is closed: its rounds can no longer be confirmed or disputed." in html
    assert waiting_numbers(html) == [1]
    assert "/rounds/1/confirm" not in html
    refused = client.post(f"/c/{confirm}/rounds/1/confirm", data={"digest": digest})
    assert refused.status_code == 409 and "The night is closed" in refused.text
    assert stored_rounds(app, game_id) == [("provisional", None)]


def test_a_closed_night_with_nothing_to_check_does_not_promise_new_rounds(app, client):
    director = create_night(client)
    _game_id, token = table_game(app, director, 1, 1)
    assert client.post(f"/d/{director}/close", data={"unfinished": "yes"}).status_code == 303
    html = client.get(f"/c/{derive_token(token, 'confirm')}").text
    assert "The night is closed: its rounds can no longer be confirmed or disputed." in html
    assert "Nothing to check" in html
    assert "Keep this page open" not in html  # no round will come any more


# -- the live part ----------------------------------------------------------------------------------


def test_the_live_part_is_304_until_the_game_changes(app, client):
    game_id, _, _, confirm = start(app)
    first = client.get(f"/c/{confirm}/live?lang=en")
    assert first.status_code == 200 and first.text.startswith('<div id="confirm_live"')
    etag = first.headers["ETag"]
    assert client.get(f"/c/{confirm}/live?lang=en", headers={"If-None-Match": etag}).status_code == 304
    # The page carries the same validator, so board.js skips an unchanged copy.
    assert f'data-etag="{etag[3:-1]}"' in client.get(f"/c/{confirm}").text
    with app.app_context():
        rounds.record_round(
            db.session.get(StoredGame, game_id),
            ROUND_3,
        )
        db.session.remove()
    changed = client.get(f"/c/{confirm}/live?lang=en", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert waiting_numbers(changed.text) == [3, 2, 1]
    assert client.get(f"/c/{confirm}/live?lang=xx").status_code == 404


# -- the scorer's page ---------------------------------------------------------------------------


def test_the_scorers_page_offers_the_confirm_link_as_a_qr_code(app, client):
    _, edit, view, confirm = start(app)
    html = client.get(f"/g/{edit}").text
    box = section(html, 'id="check_box"', "</details>")
    assert "Let another player check" in box
    assert f'href="http://localhost/c/{confirm}"' in box
    assert "<svg" in box and 'viewBox="0 0' in box
    # The read-only page shows no confirm link.
    read_only = client.get(f"/g/{view}").text
    assert 'id="check_box"' not in read_only and confirm not in read_only


# -- in every language --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["de", "nl", "fr"])
def test_the_witnesss_pages_speak_the_language_without_english_left(app, client, lang):
    from tests.test_translations import english_left, english_patterns, visible  # noqa: PLC0415 (slow to build)

    _, edit, _, confirm = start(app, played=(ROUND_1, ROUND_2, ROUND_3))
    _, _, _, off = start(app, confirmation="off")
    patterns = english_patterns(lang)
    headers = {"Accept-Language": f"{lang},en;q=0.5"}
    html = client.get(f"/c/{confirm}").text
    client.post(f"/c/{confirm}/rounds/1/confirm", data={"digest": digest_of(html, 1)}, headers=headers)
    client.post(f"/c/{confirm}/rounds/2/dispute", data={"digest": digest_of(html, 2), "note": NOTE}, headers=headers)
    pages = {
        "confirm page": client.get(f"/c/{confirm}", headers=headers),
        "refused note": client.post(
            f"/c/{confirm}/rounds/3/dispute", data={"digest": digest_of(html, 3), "note": "x" * 201}, headers=headers
        ),
        "checking off": client.get(f"/c/{off}", headers=headers),
        "scorer": client.get(f"/g/{edit}", headers=headers),
        "wrong token": client.get(f"/c/{edit}", headers=headers),
    }
    for name, response in pages.items():
        assert visible(response.text).lang == lang, name
        assert english_left(response.text, lang, patterns) == [], name
    assert pages["refused note"].status_code == 422 and pages["wrong token"].status_code == 403


def test_the_scorers_page_asks_for_new_disputes_and_shows_one_without_a_reload(app, client):
    """The scorer's page polls /g/<edit>/disputed: 304 while nothing changed, the note once the
    witness disputes; the view token gets 403 there, another token 404."""
    game_id, edit, view, confirm = start(app)
    page = client.get(f"/g/{edit}").text
    poll = re.search(r'id="disputed_live" hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")
    first = client.get(poll)
    assert first.status_code == 200 and 'id="disputed"' not in first.text
    etag = first.headers["ETag"]
    assert client.get(poll, headers={"If-None-Match": etag}).status_code == 304
    html = client.get(f"/c/{confirm}").text
    client.post(f"/c/{confirm}/rounds/1/dispute", data={"digest": digest_of(html, 1), "note": NOTE})
    changed = client.get(poll, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert f"Round 1 disputed: “{NOTE}”" in text(changed.text)
    assert f'href="/g/{edit}/rounds/1/edit"' in changed.text
    assert client.get(poll.replace(edit, view)).status_code == 403
    assert client.get(poll.replace(edit, "x" * 32)).status_code == 404
