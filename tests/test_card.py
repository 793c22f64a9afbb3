"""The result card (issue 13, "Share the result"): ``links.card``, a PNG of the standings at
``/b/<view token>/card.png`` at least 600 px wide that chats can show, cached as the board is
(ETag, 304), and the short text the Share button sends.

Expected standings come from the examples' ``expected`` (tests/data/examples/), checked by
hand against the card's rows; the font's coverage is read from the font file with fontTools,
not from the code under test."""

import io
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from PIL import Image

from scorepad.render.card_image import font_file

EXAMPLES = Path(__file__).parent / "data" / "examples"
#: Complete; final [-112, 373, -102, -179] for Anne, Jörg, Piet, Zoë: Jörg 1st, Piet 2nd
#: (−102), Anne 3rd (−112), Zoë 4th (−179).
HOUSE = json.loads((EXAMPLES / "house-rules.json").read_text(encoding="utf-8"))["game"]
FORTY = "Maximiliane Alexandra von Hohenzollern-S"  # 40 characters
NAMES = ["Zoë", "Żaneta", FORTY, "מרים"]
EVENING = datetime(2026, 12, 3, 19, 30, tzinfo=UTC)

# The card's layout (scorepad/render/card_image.py): 1200 × 630, a green band on top, rows of
# 82 px from y = 240, the leader's row on a light green band; negative points in red.
GREEN = (0x0B, 0x5D, 0x3B)
LEADER = (0xDC, 0xEF, 0xE4)
RED = (0xA3, 0x20, 0x20)
ROW_TOP, ROW_HEIGHT = 240, 82


@pytest.fixture
def house(app, client):
    """The house-rules example (complete), started through the API on a Thursday evening."""
    app.config["CLOCK"] = lambda: EVENING
    response = client.post("/api/v1/games", json={**HOUSE, "title": "Thursday, table 2"})
    assert response.status_code == 201
    return response.get_json()


def card_of(client, body: dict, lang: str = "en"):
    return client.get(f"/b/{body['view_token']}/card.png?lang={lang}")


def png(response) -> Image.Image:
    assert response.status_code == 200
    assert response.mimetype == "image/png"
    image = Image.open(io.BytesIO(response.data))
    image.load()  # decodes the whole file
    assert image.format == "PNG"
    return image.convert("RGB")


def row_pixels(image: Image.Image, row: int, left: int, right: int) -> set[tuple[int, int, int]]:
    """The colours in the middle third of players' row ``row`` (0-based) between ``left`` and ``right``."""
    top = ROW_TOP + row * ROW_HEIGHT
    box = image.crop((left, top + ROW_HEIGHT // 3, right, top + 2 * ROW_HEIGHT // 3))
    return {colour for _count, colour in box.getcolors(maxcolors=box.width * box.height)}


def test_links_card_is_a_png_at_least_600_px_wide(client, house):
    view = house["view_token"]
    assert house["links"]["card"] == f"http://localhost/b/{view}/card.png"
    image = png(client.get(house["links"]["card"].removeprefix("http://localhost")))
    assert image.width >= 600
    assert image.size == (1200, 630)  # twice the 600 px a chat shows, 1.91 : 1 as link previews


def test_the_card_shows_the_standings_in_order(client, house):
    image = png(card_of(client, house))
    assert image.getpixel((10, 10)) == GREEN  # the title's band
    # Row 1, Jörg, 373: the leader's band, no red; rows 2-4 (−102, −112, −179): red points.
    points = (900, 1140)
    assert image.getpixel((45, ROW_TOP + ROW_HEIGHT // 2)) == LEADER
    assert RED not in row_pixels(image, 0, *points)
    for row in (1, 2, 3):
        assert image.getpixel((45, ROW_TOP + row * ROW_HEIGHT + ROW_HEIGHT // 2)) != LEADER
        assert RED in row_pixels(image, row, *points), row


def test_the_font_has_every_letter_of_the_names():
    """DejaVu Sans (fonts-dejavu-core) is found, and its character map holds every letter of
    names with diacritics and in Hebrew: none is drawn as an empty box."""
    path = font_file("DejaVuSans.ttf")
    assert path is not None and path.name == "DejaVuSans.ttf"
    with TTFont(path) as dejavu:
        cmap = dejavu.getBestCmap()
    assert [ch for name in NAMES for ch in name if ord(ch) not in cmap] == []


def test_long_and_non_latin_names_are_drawn_whole(app, client):
    """Each name's row has ink in the name's column; the 40-character name's ink spans more
    than 500 px (at the smallest size, 26 px, a letter averages over 12 px) and stops before the
    points column."""
    game = {**HOUSE, "players": NAMES}
    body = client.post("/api/v1/games", json=game).get_json()
    image = png(card_of(client, body))
    # Standings as for the house game, by seat: seat 1 (Żaneta) 1st, seat 2 (FORTY) 2nd, seat 0 (Zoë) 3rd,
    # seat 3 (מרים) 4th.
    for row in range(4):
        colours = row_pixels(image, row, 127, 800)
        assert any(sum(colour) < 200 for colour in colours), row  # dark ink: the name
    forty = image.crop((120, ROW_TOP + ROW_HEIGHT + 20, 1200, ROW_TOP + 2 * ROW_HEIGHT - 20)).convert("L")
    ink = [x for x in range(forty.width) if min(forty.getpixel((x, y)) for y in range(forty.height)) < 100]
    name_ink = [x for x in ink if x < 1200 - 120 - 200]  # left of the points column (a 3-digit number)
    assert max(name_ink) - min(name_ink) > 500


def test_the_card_is_revalidated_by_its_etag(client, house):
    first = card_of(client, house)
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache, private"
    again = client.get(f"/b/{house['view_token']}/card.png?lang=en", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert card_of(client, house, "de").headers["ETag"] != etag  # another language, another card


def test_a_changed_game_has_a_new_card(client, app):
    body = client.post("/api/v1/games", json={**HOUSE, "rounds": HOUSE["rounds"][:27]}).get_json()
    etag = card_of(client, body).headers["ETag"]
    headers = {"Authorization": f"Bearer {body['edit_token']}"}
    assert client.post(f"/api/v1/games/{body['id']}/rounds", json=HOUSE["rounds"][27], headers=headers).status_code
    response = client.get(f"/b/{body['view_token']}/card.png?lang=en", headers={"If-None-Match": etag})
    assert response.status_code == 200
    assert response.headers["ETag"] != etag


def test_the_card_of_the_edit_token_moves_to_the_view_tokens_address(client, house):
    response = client.get(f"/b/{house['edit_token']}/card.png?lang=fr")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/b/{house['view_token']}/card.png?lang=fr"
    response = client.get(f"/b/{house['edit_token']}/card.png")
    assert response.headers["Location"] == f"/b/{house['view_token']}/card.png"


@pytest.mark.parametrize("url", ["/b/not-a-token/card.png", "/b/{view}/card.png?lang=xx"])
def test_an_unknown_token_or_language_has_no_card(client, house, url):
    assert client.get(url.format(view=house["view_token"])).status_code == 404


def test_a_game_just_started_has_a_card_too(client):
    body = client.post("/api/v1/games", json={**HOUSE, "rounds": []}).get_json()
    assert png(card_of(client, body)).width >= 600


def test_the_share_text_lists_the_standings_with_points(client, house):
    """The Share button's text on the finished game's page: the title, the heading, one line
    per player in standings order with a true minus (U+2212), names isolated (U+2068 … U+2069)."""
    page = client.get(f"/g/{house['edit_token']}").get_data(as_text=True)
    expected = "\n".join(
        [
            "Thursday, table 2",
            "Final standings:",
            "1. \u2068Jörg\u2069 373",
            "2. \u2068Piet\u2069 −102",
            "3. \u2068Anne\u2069 −112",
            "4. \u2068Zoë\u2069 −179",
        ]
    )
    assert f'data-share-text="{expected}"' in page
    assert f'data-share-url="http://localhost/b/{house["view_token"]}"' in page


def test_a_name_too_wide_for_one_line_is_drawn_whole_on_two(client):
    """Forty W (the widest letter) fit no line of the name's column even at 28 px: the name
    is set on two lines, so its row holds two bands of ink one above the other."""
    body = client.post("/api/v1/games", json={**HOUSE, "players": ["Zoë", "W" * 40, "Piet", "Anne"]}).get_json()
    image = png(card_of(client, body)).convert("L")
    # Seat 1 has 373: the first row.
    top = ROW_TOP
    inked = [y for y in range(top, top + ROW_HEIGHT) if min(image.getpixel((x, y)) for x in range(127, 900)) < 100]
    runs = [y for y in inked if y - 1 not in inked]  # where each band of ink starts
    assert len(runs) == 2
