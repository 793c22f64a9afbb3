"""The live scoreboard: read-only at the view token's URL, 304 while nothing changed, a new
fragment after every save, undo and edit, and nothing anywhere writes with the view token.

Expected values come from tests/data/examples/tournament-full.json's ``expected``.
"""

import io
import json
import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path

import pytest
import segno
from sqlalchemy import event, update

from scorepad.extensions import db
from scorepad.models import StoredGame
from scorepad.services import confirmation, games, rounds, stamps
from tests.test_names import without_isolates

EXAMPLE = json.loads((Path(__file__).parent / "data" / "examples" / "tournament-full.json").read_text())
ROUNDS = EXAMPLE["game"]["rounds"]
EXPECTED = EXAMPLE["expected"]


def start(app, rounds=0):
    """Store the example with its first ``rounds`` rounds: (game id, edit token, view token)."""
    with app.app_context():
        stored, _ = games.create_game({**EXAMPLE["game"], "rounds": ROUNDS[:rounds]})
        return stored.id, stored.edit_token, stored.view_token


def change(app, game_id, action, *args):
    """Run a services use case on the stored game, as the scorer's phone would."""
    with app.app_context():
        use_case = getattr(rounds, action, None) or getattr(confirmation, action)
        use_case(db.session.get(StoredGame, game_id), *args)
        db.session.remove()


def shown_totals(html: str) -> list[str]:
    """The four totals of the board's score table footer."""
    foot = html[html.index("<tfoot>") : html.index("</tfoot>")]
    return re.findall(r'<span class="pts[^"]*">([^<]+)</span>', foot)


def points(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


def test_the_board_shows_the_game_read_only(app, client):
    _, edit, view = start(app, rounds=10)
    response = client.get(f"/b/{view}")
    html = without_isolates(response.get_data(as_text=True))
    assert response.status_code == 200
    assert shown_totals(html) == [points(v) for v in EXPECTED["rounds"][9]["result"]["running"]]
    assert "Round 11 of 28" in html
    # Round 11: Marc declares (the example's first declarer is Beth, seat 2; runs of 7).
    assert "Marc declares" in html
    main = html[html.index("<main") : html.index("</main>")]
    assert "<form" not in main and "<button" not in main
    assert edit not in html
    assert f'hx-get="/b/{view}/live?layout=board&amp;lang=en"' in html
    assert 'hx-trigger="every 3s"' in html


def test_the_big_screen_layout_puts_the_standings_first(app, client):
    _, _, view = start(app, rounds=28)
    html = client.get(f"/b/{view}/screen").get_data(as_text=True)
    assert html.index('id="board_standings"') < html.index('id="board_table"')
    assert "Game complete: 28 rounds" in html
    final = EXPECTED["standings"]["final"]
    players = EXAMPLE["game"]["players"]
    order = [players[p] for p in sorted(range(4), key=lambda p: (EXPECTED["standings"]["rank"][p], p))]
    standings = html[html.index('id="board_standings"') : html.index('id="board_table"')]
    assert [standings.index(name) for name in order] == sorted(standings.index(name) for name in order)
    assert points(max(final)) in standings
    assert f'src="/b/{view}/qr.svg"' in html


def test_the_big_screen_shows_the_last_nine_rounds_and_says_which_it_leaves_out(app, client):
    """A TV nobody scrolls: the screen keeps the newest rounds (the last nine: 20–28 of 28) with
    the totals, says that rounds 1–19 are not shown, and its live fragment is the same, 304
    while nothing changes. The phone layout keeps every round."""
    game_id, _, view = start(app, rounds=28)
    for html in (
        client.get(f"/b/{view}/screen").get_data(as_text=True),
        client.get(f"/b/{view}/live?layout=screen&lang=en").get_data(as_text=True),
    ):
        shown = [int(n) for n in re.findall(r'<tr id="board-round-(\d+)"', html)]
        assert shown == list(range(20, 29))
        assert '<p class="rounds-not-shown muted">Rounds 1–19 not shown</p>' in html
        assert shown_totals(html) == [points(v) for v in EXPECTED["standings"]["totals"]]
    board = client.get(f"/b/{view}").get_data(as_text=True)
    assert re.findall(r'<tr id="board-round-(\d+)"', board) == [str(n) for n in range(1, 29)]
    assert "not shown" not in board

    url = f"/b/{view}/live?layout=screen&lang=en"
    etag = client.get(url).headers["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    change(app, game_id, "undo_round")  # 27 rounds: 19–27 shown, 1–18 not
    response = client.get(url, headers={"If-None-Match": etag})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert re.findall(r'<tr id="board-round-(\d+)"', html)[0] == "19"
    assert "Rounds 1–18 not shown" in html


@pytest.mark.parametrize("rounds, note", [(9, None), (10, "Round 1 not shown")])
def test_the_big_screen_leaves_out_nothing_until_a_tenth_round(app, client, rounds, note):
    _, _, view = start(app, rounds=rounds)
    html = client.get(f"/b/{view}/screen").get_data(as_text=True)
    assert re.findall(r'<tr id="board-round-(\d+)"', html)[0] == str(rounds - 8)
    assert (note in html) if note else ("not shown" not in html)


def test_the_edit_token_moves_to_the_view_tokens_board(app, client):
    _, edit, view = start(app)
    response = client.get(f"/b/{edit}")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/b/{view}")


@pytest.mark.parametrize("path", ["/b/{t}", "/b/{t}/screen", "/b/{t}/live", "/b/{t}/qr.svg", "/b/share/{t}"])
def test_a_wrong_or_unknown_token_is_404_and_reveals_nothing(app, client, path):
    _, edit, view = start(app)
    for token in ("x" * 32, view[:-1] + ("A" if view[-1] != "A" else "B"), "a" * 65):
        response = client.get(path.format(t=token))
        assert response.status_code == 404
        body = response.get_data(as_text=True)
        assert EXAMPLE["game"]["players"][0] not in body and view not in body and edit not in body


def test_the_live_fragment_answers_304_until_the_game_changes(app, client):
    game_id, edit, view = start(app, rounds=3)
    url = f"/b/{view}/live"
    first = client.get(url)
    assert first.status_code == 200
    # No language in the URL: the answer follows the request's, so only the browser keeps it.
    assert first.headers["Cache-Control"] == "private, no-cache"
    assert {"Accept-Language", "Cookie"} <= {name.strip() for name in first.headers["Vary"].split(",")}
    etag = first.headers["ETag"]
    assert etag.startswith('W/"')
    assert shown_totals(first.get_data(as_text=True)) == [points(v) for v in EXPECTED["rounds"][2]["result"]["running"]]

    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    assert again.headers["ETag"] == etag

    seen = {etag}
    steps = [
        ("record_round", ROUNDS[3]),  # a save: round 4
        ("undo_round",),  # an undo: back to 3 rounds
        ("confirm_round", 2),  # the witness confirms round 2: its status shows (issue 15)
    ]
    expected_running = [
        EXPECTED["rounds"][3]["result"]["running"],
        EXPECTED["rounds"][2]["result"]["running"],
        EXPECTED["rounds"][2]["result"]["running"],
    ]
    for (action, *args), running in zip(steps, expected_running, strict=True):
        previous = etag
        change(app, game_id, action, *args)
        response = client.get(url, headers={"If-None-Match": previous})
        assert response.status_code == 200, action
        etag = response.headers["ETag"]
        assert etag not in seen, action
        seen.add(etag)
        assert shown_totals(response.get_data(as_text=True)) == [points(v) for v in running]
        assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    # An edit of round 2 saved again as it was changes nothing (club-format.md "Trust"): still 304.
    change(app, game_id, "replace_round", 2, ROUNDS[1])
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304


def test_an_edit_changes_the_board(app, client):
    game_id, _, view = start(app, rounds=1)
    url = f"/b/{view}/live"
    etag = client.get(url).headers["ETag"]
    # Round 1 as played: No Last Two, Élodie took both last tricks (−30); edit: Anne took the last.
    edited = {**ROUNDS[0], "outcome": {"penultimate": 0, "last": 1}}
    change(app, game_id, "replace_round", 1, edited)
    response = client.get(url, headers={"If-None-Match": etag})
    assert response.status_code == 200
    # Raw: Élodie −10, Anne −20. Doubles: Élodie doubled Marc (Marc 0 > −10: Marc +10,
    # Élodie −10); Anne and Beth doubled each other (×2: Beth 0 − Anne −20 → Beth +40, Anne −40).
    assert shown_totals(response.get_data(as_text=True)) == ["−20", "−60", "40", "10"]


def test_the_etag_depends_on_the_language(app, client):
    _, _, view = start(app, rounds=2)
    english = client.get(f"/b/{view}/live", headers={"Accept-Language": "en"})
    german = client.get(f"/b/{view}/live", headers={"Accept-Language": "de", "If-None-Match": english.headers["ETag"]})
    assert german.status_code == 200
    assert german.headers["ETag"] != english.headers["ETag"]
    assert "Accept-Language" in german.headers["Vary"]


def test_a_304_costs_one_query_and_no_scoring(app, client, monkeypatch):
    _, _, view = start(app, rounds=28)
    url = f"/b/{view}/live?layout=board&lang=en"
    etag = client.get(url).headers["ETag"]
    lookups = []
    real_stamp = stamps.updated_stamp
    monkeypatch.setattr(stamps, "updated_stamp", lambda token: lookups.append(token) or real_stamp(token))
    statements = []  # what went through SQLAlchemy (the ORM session or Core), not the one driver-level lookup
    with app.app_context():
        engine = db.engine
    listener = lambda *args: statements.append(args[2])  # noqa: E731 (conn, cursor, statement, ...)
    event.listen(engine, "before_cursor_execute", listener)
    monkeypatch.setattr("scorepad.pages.board.score", lambda game: pytest.fail("scored on a 304"))
    try:
        response = client.get(url, headers={"If-None-Match": etag})
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    assert response.status_code == 304
    assert lookups == [view]
    assert [s for s in statements if "games" in s or "rounds" in s] == []
    assert response.data == b""


def test_the_etag_lookup_reads_the_games_updated_at(app):
    game_id, _, view = start(app, rounds=2)
    with app.app_context():
        before = stamps.updated_stamp(view)
        assert stamps.updated_stamp("x" * 32) is None
        db.session.execute(
            update(StoredGame)
            .where(StoredGame.id == game_id)
            .values(updated_at=datetime(2026, 11, 29, 20, 15, 3, tzinfo=UTC))
        )
        db.session.commit()
        after = stamps.updated_stamp(view)
    assert before and after != before
    assert after.startswith("2026-11-29") and "20:15:03" in after


def test_the_page_asks_for_the_fragment_in_its_own_language(app, client):
    """The board page's poll carries its language, so the fragment is in it whatever the
    poll's headers say, and the 304 does not depend on the session or Accept-Language."""
    _, _, view = start(app, rounds=2)
    page = client.get(f"/b/{view}", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert f'hx-get="/b/{view}/live?layout=board&amp;lang=de"' in page
    german = client.get(f"/b/{view}/live?layout=board&lang=de", headers={"Accept-Language": "en"})
    assert german.status_code == 200 and "Runde 3 von 28" in german.get_data(as_text=True)
    assert "Accept-Language" not in german.headers.get("Vary", "") and "Cookie" not in german.headers.get("Vary", "")
    again = client.get(
        f"/b/{view}/live?layout=board&lang=de",
        headers={"Accept-Language": "fr", "If-None-Match": german.headers["ETag"]},
    )
    assert again.status_code == 304
    english = client.get(f"/b/{view}/live?layout=board&lang=en", headers={"If-None-Match": german.headers["ETag"]})
    assert english.status_code == 200 and "Round 3 of 28" in english.get_data(as_text=True)
    assert client.get(f"/b/{view}/live?layout=board&lang=xx").status_code == 404


def test_the_qr_code_is_an_svg_of_the_boards_absolute_url(app, client):
    _, edit, view = start(app)
    for token in (view, edit):
        response = client.get(f"/b/{token}/qr.svg")
        assert response.status_code == 200
        assert response.mimetype == "image/svg+xml"
        root = ET.fromstring(response.data)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"  # a standalone SVG document
        assert int(root.get("width")) == int(root.get("height")) > 0
        # The same symbol as the QR code of the board's URL written by hand.
        expected = segno.make(f"http://localhost/b/{view}", error="m", micro=False)
        out = io.BytesIO()
        expected.save(
            out, kind="svg", scale=4, border=4, dark="#000", light="#fff", xmldecl=False, title="QR code", unit=None
        )
        assert response.data == out.getvalue()


def test_the_share_page_shows_the_board_link_and_never_the_edit_token_in_it(app, client):
    _, edit, view = start(app)
    html = client.get(f"/b/share/{edit}").get_data(as_text=True)
    assert f"http://localhost/b/{view}" in html
    assert f'data-copy="http://localhost/b/{view}"' in html
    assert f"/b/{view}/qr.svg" in html
    assert client.get(f"/b/share/{view}").status_code == 303


def test_the_scorers_page_links_the_share_page_the_board_and_the_sheet(app, client):
    _, edit, view = start(app)
    html = client.get(f"/g/{edit}").get_data(as_text=True)
    share = html[html.index('class="actions share-links') :]
    share = share[: share.index("</p>")]
    assert f'href="/b/share/{edit}"' in share
    assert f'href="/b/{view}"' in share
    assert f'href="/s/{view}"' in share
    # The QR code and the copy button are on the share page: the game page loads neither.
    assert "qr.svg" not in html and "board.js" not in html and "board.css" not in html


# -- the view token never writes --------------------------------------------------------


def web_writes(view: str) -> list[tuple[str, str, dict]]:
    """Every POST of the web pages, with the view token in the URL."""
    return [
        ("post", f"/g/{view}/rounds", {"contract": "no-tricks"}),
        ("post", f"/g/{view}/rounds/undo", {"number": "3"}),
        ("post", f"/g/{view}/rounds/2/edit", {"contract": ROUNDS[1]["contract"]}),
    ]


def test_the_view_token_cannot_change_anything_anywhere(app, client):
    game_id, _, view = start(app, rounds=3)
    with app.app_context():
        before = db.session.get(StoredGame, game_id).document()
    for method, url, data in web_writes(view):
        assert getattr(client, method)(url, data=data).status_code == 403, url
    auth = {"Authorization": f"Bearer {view}"}
    api = f"/api/v1/games/{game_id}/rounds"
    assert client.post(api, json=ROUNDS[3], headers=auth).status_code == 403
    assert client.put(f"{api}/2", json=ROUNDS[1], headers=auth).status_code == 403
    assert client.delete(f"{api}/3", headers=auth).status_code == 403
    # The board, the share page and the sheet take no writes at all.
    for url in (
        f"/b/{view}",
        f"/b/{view}/screen",
        f"/b/{view}/live",
        f"/b/{view}/qr.svg",
        f"/b/share/{view}",
        f"/s/{view}",
        f"/s/{view}/blank",
        f"/s/{view}/sheet.pdf",
        f"/s/{view}/sheet.csv",
        f"/s/{view}/game.json",
    ):
        for method in ("post", "put", "delete"):
            assert getattr(client, method)(url).status_code == 405, (method, url)
    with app.app_context():
        assert db.session.get(StoredGame, game_id).document() == before
