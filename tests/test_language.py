"""The language follows the browser until the player chooses one; the choice is remembered."""


def test_browser_language_sets_the_page_language(client):
    page = client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}).data.decode()
    assert '<html lang="de">' in page
    assert '<html lang="en">' in client.get("/", headers={"Accept-Language": "ja"}).data.decode()


def test_a_chosen_language_is_remembered_over_the_browsers(client):
    response = client.post("/language", data={"lang": "nl", "next": "/games/new"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/games/new"
    page = client.get("/", headers={"Accept-Language": "fr"}).data.decode()
    assert '<html lang="nl">' in page


def test_every_page_offers_each_language_in_its_own_name(client):
    page = client.get("/").data.decode()
    for code, name in {"en": "English", "de": "Deutsch", "nl": "Nederlands", "fr": "Français"}.items():
        assert f'value="{code}" lang="{code}"' in page
        assert f">{name}</button>" in page


def test_an_unknown_language_is_refused_and_changes_nothing(client):
    assert client.post("/language", data={"lang": "xx"}).status_code == 422
    assert '<html lang="en">' in client.get("/").data.decode()


def test_the_language_switch_never_redirects_off_the_site(client):
    for target in ("https://evil.example/", "//evil.example/", "javascript:alert(1)"):
        response = client.post("/language", data={"lang": "fr", "next": target})
        assert response.headers["Location"] == "/"
