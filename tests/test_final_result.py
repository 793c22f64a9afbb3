"""The score sheet and the finished game's result once a round is corrected or not confirmed
(issue 26, item 17): the notes on a corrected round share the sheet's page when it has room
for them (the PDF stays one page), and go whole to a second page when it has not; a finished
game whose standings are provisional (a round not confirmed where the game requires it)
offers neither "Share the result" nor the result image until they are final.

The game is tournament-full (tests/data/examples, 28 rounds), through the API."""

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.test_sheet import extreme_sheet

EXAMPLE = json.loads((Path(__file__).parent / "data" / "examples" / "tournament-full.json").read_text())
ROUNDS = EXAMPLE["game"]["rounds"]
API = "/api/v1"
# The correction: round 2 (No Hearts) with the ♥A taken by Marc instead of Beth.
ACE_TO_MARC = {**ROUNDS[1], "outcome": {**ROUNDS[1]["outcome"], "ace": 3}}
NOTE = "Round 2 was changed once after it was recorded"


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def played_game(client, confirmation: str = "optional") -> dict:
    """The example's 28 rounds recorded: the API's answer for the game (id, tokens)."""
    document = {**{k: v for k, v in EXAMPLE["game"].items() if k != "rounds"}, "confirmation": confirmation}
    created = client.post(f"{API}/games", json=document)
    assert created.status_code == 201, created.get_data(as_text=True)
    game = created.get_json()
    for rnd in ROUNDS:
        saved = client.post(f"{API}/games/{game['id']}/rounds", json=rnd, headers=auth(game["edit_token"]))
        assert saved.status_code == 201, saved.get_data(as_text=True)
    return game


def pdf_pages(data: bytes, tmp_path: Path) -> list[str]:
    """The text of each page of the PDF ``data`` (pdfinfo's page count checked against it)."""
    path = tmp_path / "sheet.pdf"
    path.write_bytes(data)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    count = int(re.search(r"^Pages:\s+(\d+)$", info, re.M).group(1))
    body = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    pages = [" ".join(page.split()) for page in body.split("\f")][:count]
    assert len(pages) == count
    return pages


@pytest.mark.pdf
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_28_round_sheet_with_one_correction_stays_one_page(app, client, tmp_path, paper):
    game = played_game(client)
    edited = client.put(f"{API}/games/{game['id']}/rounds/2", json=ACE_TO_MARC, headers=auth(game["edit_token"]))
    assert edited.status_code == 200, edited.get_data(as_text=True)
    response = client.get(f"/s/{game['view_token']}/sheet.pdf?paper={paper}")
    assert response.status_code == 200
    pages = pdf_pages(response.data, tmp_path)
    assert len(pages) == 1
    # The sheet whole, then the note under it: what changed, from the round as recorded.
    sheet = pages[0]
    assert sheet.index("Rank") < sheet.index("Notes on the rounds") < sheet.index(NOTE)
    assert "Ace of hearts ♥A: Beth → Marc" in sheet


@pytest.mark.pdf
def test_notes_without_room_on_the_sheets_page_go_whole_to_the_next(app, client, tmp_path):
    """The fullest sheet (nine contracts, 40 lines, long names) with notes that do not fit under
    it: the sheet keeps its page, the notes are all on the second."""
    from weasyprint import HTML  # noqa: PLC0415 (loads pango)

    from scorepad.views.sheet import static_fetcher  # noqa: PLC0415

    view = extreme_sheet(app, "nine-40")
    html = client.get(f"/s/{view}?paper=letter").get_data(as_text=True)
    notes = "".join(f"<li>Note {n}: round {n} was changed once after it was recorded.</li>" for n in range(1, 9))
    section = f'<section class="sheet-notes"><h2>Notes on the rounds</h2><ul>{notes}</ul></section>'
    html = html.replace("</footer>\n</article>", f"</footer>{section}</article>")
    assert section in html
    with app.app_context():
        document = HTML(string=html, base_url="http://localhost/", url_fetcher=static_fetcher).write_pdf()
    sheet, after = pdf_pages(document, tmp_path)
    assert "Rank" in sheet and "Note" not in sheet.split("Rank")[1]
    assert "Notes on the rounds" in after and "Note 1:" in after and "Note 8:" in after


def finished_offers(client, game: dict) -> str:
    html = client.get(f"/g/{game['edit_token']}").get_data(as_text=True)
    return re.search(r'<section id="finished".*?</section>', html, re.S).group(0)


def test_provisional_standings_offer_no_share_until_every_round_is_confirmed(app, client):
    game = played_game(client, confirmation="required")
    offers = finished_offers(client, game)
    assert "Play again" in offers
    assert "Share the result" not in offers and "Result as an image" not in offers and "/card" not in offers
    assert "The result can be shared once every round is confirmed." in offers
    for number in range(1, 28):
        confirmed = client.post(
            f"{API}/games/{game['id']}/rounds/{number}/confirm", headers=auth(game["confirm_token"])
        )
        assert confirmed.status_code < 300
    assert "Share the result" not in finished_offers(client, game)  # round 28 is not confirmed yet
    client.post(f"{API}/games/{game['id']}/rounds/28/confirm", headers=auth(game["confirm_token"]))
    offers = finished_offers(client, game)
    assert "Share the result" in offers and "Result as an image" in offers
    assert "once every round is confirmed" not in offers


def test_a_disputed_round_holds_the_share_back_where_confirmation_is_optional(app, client):
    game = played_game(client)
    assert "Share the result" in finished_offers(client, game)
    disputed = client.post(
        f"{API}/games/{game['id']}/rounds/5/dispute",
        json={"note": "Marc had the king"},
        headers=auth(game["confirm_token"]),
    )
    assert disputed.status_code < 300
    assert "Share the result" not in finished_offers(client, game)
