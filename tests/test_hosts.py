"""Forged Host headers (issue 12): requests are served only for trusted hosts, and every
absolute link the app hands out starts with PUBLIC_URL when it is set."""

import http.client
import re
import urllib.request

import ifaddr
import pytest
from flask import url_for

from scorepad import create_app
from scorepad.config import TestConfig
from scorepad.render.qr import qr_svg
from tests.conftest import fresh_app
from tests.test_api import NEW_GAME, game_count
from tests.test_presets import editor_data

EVIL = "evil.example"


@pytest.fixture
def public_app(tmp_path):
    """The app with PUBLIC_URL set to a name the test client never sends."""
    yield from fresh_app(tmp_path, PUBLIC_URL="https://scores.club.example/")


@pytest.fixture
def app_with(tmp_path):
    """Makes the app with the given settings (one per test), released at the end."""
    made = []

    def make(**settings):
        made.append(fresh_app(tmp_path, **settings))
        return next(made[-1])

    yield make
    for maker in made:
        next(maker, None)


def post_game(client, host: str | None = None, **headers):
    if host is not None:
        headers["Host"] = host
    return client.post("/api/v1/games", json=NEW_GAME, headers=headers)


def lan_address() -> str:
    """An IPv4 address of this machine that is not loopback (read here with ifaddr too:
    the test machine's own interfaces, not a value the app computed)."""
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith("127."):
                return ip.ip
    pytest.skip("this machine has no IPv4 address besides loopback")


# -- refused hosts -----------------------------------------------------------------------------


def test_a_forged_host_cannot_create_a_game(app, client):
    response = post_game(client, EVIL)
    assert response.status_code == 400
    assert set(response.json) == {"error", "path"}
    assert EVIL in response.json["error"] and "TRUSTED_HOSTS" in response.json["error"]
    assert "Location" not in response.headers
    assert game_count(app) == 0


@pytest.mark.parametrize("path", ["/b/share/{edit}", "/b/{view}/qr.svg", "/b/{edit}/qr.svg", "/g/{edit}", "/"])
def test_a_forged_host_gets_no_page_and_no_qr_code(client, path):
    game = post_game(client).json
    url = path.format(edit=game["edit_token"], view=game["view_token"])
    response = client.get(url, headers={"Host": EVIL})
    assert response.status_code == 400
    assert response.mimetype == "text/html"
    text = response.get_data(as_text=True)
    assert "This server does not answer to the host name" in text
    assert "//" + EVIL not in text and "qr-code" not in text


def test_the_refusal_is_in_the_visitors_language(client):
    response = client.get("/", headers={"Host": EVIL, "Accept-Language": "de"})
    assert response.status_code == 400
    assert "Hostnamen" in response.get_data(as_text=True)


@pytest.mark.parametrize("host", ["evil.example:5000", "localhost.evil.example", "127.0.0.1.evil.example", "", "[::2]"])
def test_look_alikes_and_missing_hosts_are_refused(app, client, host):
    assert post_game(client, host).status_code == 400
    assert game_count(app) == 0


# -- served hosts ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "host", ["localhost", "localhost:8000", "127.0.0.1:5000", "127.8.9.10", "[::1]:8000", "LOCALHOST"]
)
def test_loopback_names_and_addresses_are_served(client, host):
    response = post_game(client, host)
    assert response.status_code == 201, response.json
    assert response.json["links"]["board"].startswith(f"http://{host.lower()}/b/")


def test_the_machines_own_address_is_served_for_phones_on_the_local_network(client):
    address = lan_address()
    response = post_game(client, f"{address}:8000")
    assert response.status_code == 201
    assert response.json["links"]["scorer"] == f"http://{address}:8000/g/{response.json['edit_token']}"


def test_the_configured_hosts_are_served_and_a_leading_dot_takes_subdomains(app_with):
    app = app_with(TRUSTED_HOST_NAMES="scores.club.example, .barbu.example")
    client = app.test_client()
    assert post_game(client, "scores.club.example").status_code == 201
    assert post_game(client, "Scores.Club.Example.:443").status_code == 201
    assert post_game(client, "table2.barbu.example").status_code == 201
    assert post_game(client, "barbu.example").status_code == 201
    assert post_game(client, "club.example").status_code == 400
    assert post_game(client, "evilbarbu.example").status_code == 400


def test_a_star_turns_the_check_off(app_with):
    app = app_with(TRUSTED_HOST_NAMES="*")
    response = post_game(app.test_client(), EVIL)
    assert response.status_code == 201
    assert response.json["links"]["api"].startswith(f"http://{EVIL}/api/v1/games/")


def test_behind_a_proxy_the_forwarded_host_is_checked(app_with):
    app = app_with(TRUSTED_PROXIES=1, TRUSTED_HOST_NAMES="scores.club.example")
    client = app.test_client()
    refused = post_game(client, "localhost", **{"X-Forwarded-Host": EVIL, "X-Forwarded-Proto": "https"})
    assert refused.status_code == 400
    served = post_game(client, "localhost", **{"X-Forwarded-Host": "scores.club.example", "X-Forwarded-Proto": "https"})
    assert served.status_code == 201
    assert served.headers["Location"] == f"https://scores.club.example/api/v1/games/{served.json['id']}"


def test_a_live_server_on_loopback_answers_and_refuses_a_forged_host(live_server):
    with urllib.request.urlopen(f"{live_server}/api/v1/health") as response:
        assert response.status == 200
    port = int(live_server.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", "/api/v1/health", headers={"Host": EVIL})
        assert connection.getresponse().status == 400
    finally:
        connection.close()


# -- PUBLIC_URL ----------------------------------------------------------------------------------


def test_with_public_url_every_api_link_and_location_use_it(public_app):
    client = public_app.test_client()
    response = post_game(client, "127.0.0.1:8000")
    assert response.status_code == 201
    game = response.json
    edit, view, game_id = game["edit_token"], game["view_token"], game["id"]
    confirm = game["confirm_token"]
    base = "https://scores.club.example"
    assert response.headers["Location"] == f"{base}/api/v1/games/{game_id}"
    assert game["links"] == {
        "scorer": f"{base}/g/{edit}",
        "confirm": f"{base}/c/{confirm}",
        "api": f"{base}/api/v1/games/{game_id}",
        "board": f"{base}/b/{view}",
        "sheet": f"{base}/s/{view}",
        "sheet_pdf": f"{base}/s/{view}/sheet.pdf",
        "csv": f"{base}/s/{view}/sheet.csv",
        "qr": f"{base}/b/{view}/qr.svg",
        "card": f"{base}/b/{view}/card.png",
    }


def test_with_public_url_its_host_is_served(public_app):
    assert post_game(public_app.test_client(), "scores.club.example").status_code == 201


def test_with_public_url_the_share_page_and_the_qr_code_carry_it(public_app):
    client = public_app.test_client()
    game = post_game(client).json
    board = f"https://scores.club.example/b/{game['view_token']}"
    share = client.get(f"/b/share/{game['edit_token']}", headers={"Host": "localhost:5000"})
    assert share.status_code == 200
    html = share.get_data(as_text=True)
    assert board in html
    assert "localhost" not in re.sub(r"<script.*?</script>", "", html, flags=re.S)
    qr = client.get(f"/b/{game['view_token']}/qr.svg", headers={"Host": "127.0.0.1:5000"})
    # The same code as one made for the URL written out above (segno is deterministic).
    assert qr.data == qr_svg(board)


def test_with_public_url_a_presets_links_use_it(public_app):
    client = public_app.test_client()
    response = client.get("/api/v1/presets/tournament", headers={"Host": "127.0.0.1"})
    assert response.json["links"] == {
        "api": "https://scores.club.example/api/v1/presets/tournament",
        "page": "https://scores.club.example/presets/tournament",
    }
    saved = client.post("/api/v1/presets", json=response.json["preset"], headers={"Host": "localhost"}).json
    assert saved["links"]["page"] == f"https://scores.club.example/presets/{saved['id']}"
    page = client.post("/presets/new", data=editor_data(name="Club rules"))
    preset_id = page.headers["Location"].rsplit("/", 1)[1]
    html = client.get(f"/presets/{preset_id}").get_data(as_text=True)  # its owner's page shares the link
    assert f">https://scores.club.example/presets/{preset_id}</a>" in html


def test_a_public_url_with_a_path_and_a_port_prefixes_the_links(app_with):
    app = app_with(PUBLIC_URL="http://192.168.1.20:8000/barbu/")
    client = app.test_client()
    game = post_game(client).json
    assert game["links"]["board"] == f"http://192.168.1.20:8000/barbu/b/{game['view_token']}"
    assert post_game(client, "192.168.1.20:8000").status_code == 201  # PUBLIC_URL's host is trusted
    # Relative links (pages, redirects) stay relative to where the app is reached.
    response = client.get(f"/b/{game['edit_token']}")
    assert response.headers["Location"] == f"/b/{game['view_token']}"


def test_outside_a_request_links_use_public_url(public_app):
    with public_app.app_context():
        assert url_for("board.show", token="abc") == "https://scores.club.example/b/abc"


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("scores.club.example", "http:// or https://"),
        ("ftp://scores.club.example", "http:// or https://"),
        ("https://", "no host name"),
        ("https://scores.club.example/?table=2", "query"),
        ("https://scores.club.example/#top", "fragment"),
        ("https://anne:secret@scores.club.example", "user name"),
        ("https://scores.club.example:99999", "port"),
        ("https://scores.club.example:http", "port"),
    ],
)
def test_a_bad_public_url_stops_the_app_at_start_up_naming_the_setting(value, problem):
    config = type("Config", (TestConfig,), {"PUBLIC_URL": value})
    with pytest.raises(ValueError, match=r"^PUBLIC_URL=") as error:
        create_app(config)
    assert problem in str(error.value)


# -- make run HOST=0.0.0.0 (issue 13) -----------------------------------------------------------


def test_the_share_box_opened_at_the_printed_lan_address_points_phones_there(client):
    """`make run HOST=0.0.0.0` prints http://<LAN address>:5000 for the scorer to open: the
    share page opened there gives the phones a link and a QR code they can reach."""
    address = lan_address()
    host = f"{address}:5000"
    game = post_game(client, host).json
    board = f"http://{address}:5000/b/{game['view_token']}"
    share = client.get(f"/b/share/{game['edit_token']}", headers={"Host": host})
    assert share.status_code == 200
    assert board in share.get_data(as_text=True)
    qr = client.get(f"/b/{game['view_token']}/qr.svg", headers={"Host": host})
    assert qr.data == qr_svg(board)


def test_public_url_wins_over_the_lan_address_the_share_box_was_opened_at(public_app):
    client = public_app.test_client()
    host = f"{lan_address()}:5000"
    game = post_game(client, host).json
    assert game["links"]["qr"] == f"https://scores.club.example/b/{game['view_token']}/qr.svg"
    share = client.get(f"/b/share/{game['edit_token']}", headers={"Host": host}).get_data(as_text=True)
    assert f"https://scores.club.example/b/{game['view_token']}" in share
    assert f"//{host}" not in share


LOCAL_ONLY = "Only this computer can open this link"


@pytest.mark.parametrize("host", ["127.0.0.1:5000", "localhost:5000", "[::1]:5000"])
def test_the_share_box_opened_at_a_loopback_address_says_phones_cannot_reach_it(client, host):
    """Opened at 127.0.0.1 (what `make run` serves by default), the QR code would send a phone
    to itself: the share box says so and how to let the phones in."""
    game = post_game(client, host).json
    share = client.get(f"/b/share/{game['edit_token']}", headers={"Host": host}).get_data(as_text=True)
    assert LOCAL_ONLY in share
    assert "make run HOST=0.0.0.0" in share


def test_the_share_box_at_the_lan_address_or_public_url_gives_no_such_note(client, public_app):
    host = f"{lan_address()}:5000"
    game = post_game(client, host).json
    assert LOCAL_ONLY not in client.get(f"/b/share/{game['edit_token']}", headers={"Host": host}).get_data(as_text=True)
    public = public_app.test_client()
    game = post_game(public, "127.0.0.1:5000").json  # opened on the laptop, but links go to PUBLIC_URL
    share = public.get(f"/b/share/{game['edit_token']}", headers={"Host": "127.0.0.1:5000"}).get_data(as_text=True)
    assert LOCAL_ONLY not in share
