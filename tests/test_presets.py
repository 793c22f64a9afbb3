"""Preset pages: the built-ins, the editor (validation next to the field, moving contracts,
totals), ownership by device, export/import, and games keeping their copy of a preset."""

import copy
import html as html_lib
import json
import re

import pytest

from scorepad.extensions import db
from scorepad.models import StoredGame, StoredPreset
from scorepad.scoring import BUILTIN, preset_to_dict
from scorepad.services import presets
from tests.test_names import without_isolates

CONTRACT_ROWS = [
    "no-tricks",
    "no-queens",
    "no-last-two",
    "no-hearts",
    "no-king-of-hearts",
    "trumps",
    "domino",
    "ravage-city",
    "salade",
]
VALUES = {
    "no-tricks": {"per_trick": "-2"},
    "no-queens": {"per_queen": "-6"},
    "no-last-two": {"penultimate": "-10", "last": "-20"},
    "no-hearts": {"per_heart": "-2", "ace": "-6"},
    "no-king-of-hearts": {"king": "-20"},
    "trumps": {"per_trick": "5"},
    "domino": {"places": ["45", "20", "5", "-5"]},
    "ravage-city": {"penalty": "-36"},
    "salade": {
        "per_trick": "-2",
        "per_queen": "-6",
        "penultimate": "-10",
        "last": "-20",
        "per_heart": "-2",
        "ace": "-6",
        "king": "-20",
    },
}


def editor_data(name="Thursday club", on=CONTRACT_ROWS[:7], values=None, **fields):
    """The editor's POST: rows in CONTRACT_ROWS order, ``on`` switched on."""
    data = {
        "name": name,
        "deck": "52",
        "chooser": "declarer",
        "rotation": "run",
        "doubling_enabled": "y",
        "doubling_target": "any",
        "doubling_single": "1",
        "doubling_mutual": "2",
        "doubling_quota": "2",
        "doubling_quota_penalty": "0",
        "undoubled_negative": "play",
        "notes": "",
        **{f"players-{i}": "" for i in range(4)},
    }
    for i, cid in enumerate(CONTRACT_ROWS):
        data[f"contracts-{i}-id"] = cid
        if cid in on:
            data[f"contracts-{i}-on"] = "y"
        for field, value in {**VALUES[cid], **(values or {}).get(cid, {})}.items():
            if field == "places":
                for j, place in enumerate(value):
                    data[f"contracts-{i}-places-{j}"] = place
            else:
                data[f"contracts-{i}-{field}"] = value
    data.update(fields)
    return data


def saved_id(response) -> str:
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return response.headers["Location"].rsplit("/", 1)[1]


def error_next_to(html: str, field_id: str) -> str:
    """The message list rendered right after the field with id ``field_id``."""
    match = re.search(rf'<ul class="field-error" id="{re.escape(field_id)}-error">(.*?)</ul>', html, re.S)
    assert match, f"no message next to {field_id}"
    return html_lib.unescape(re.sub(r"<[^>]+>", "", match.group(1))).strip()


def other_device(app):
    return app.test_client()


# -- built-ins ------------------------------------------------------------------------------


def test_the_list_shows_every_built_in_with_its_description(client):
    html = client.get("/presets").get_data(as_text=True)
    for preset_id in BUILTIN:
        assert f'href="/presets/{preset_id}"' in html
    assert "Mark Brader" in html and "s scoring" in html
    assert "the most cards of one suit costs −36" in html


@pytest.mark.parametrize(
    "preset_id, rounds, run",
    [
        ("tournament", 28, "0"),
        ("brader", 32, "−171"),
        ("ravage-city", 32, "−36"),
        ("no-trumps", 24, "−65"),
    ],
)
def test_a_built_in_page_shows_rounds_and_the_run_total(client, preset_id, rounds, run):
    # Worked by hand: Brader −65 −60 −30 −60 −25 +65 +40 −36 = −171; Ravage City 0 − 36;
    # without Trumps −130 + 65 = −65.
    html = client.get(f"/presets/{preset_id}").get_data(as_text=True)
    assert f"{rounds} (4 × {rounds // 4} contracts)" in html
    shown = re.search(r'id="run_total"><span class="pts[^"]*">([^<]+)<', html).group(1)
    assert shown == run
    assert "Edit</a>" not in html


def test_built_in_house_rule_notes_are_shown(client):
    html = client.get("/presets/french-classic").get_data(as_text=True)
    assert "Domino is often started by the 7♦ or by any 7." in html


def test_a_built_in_cannot_be_edited_or_deleted(client):
    assert client.get("/presets/tournament/edit").status_code == 403
    assert client.post("/presets/tournament/edit", data=editor_data()).status_code == 403
    assert client.post("/presets/tournament/delete").status_code == 403


def test_an_unknown_preset_is_404(client):
    assert client.get("/presets/nope-nope").status_code == 404


# -- the editor -----------------------------------------------------------------------------


def test_a_new_preset_is_saved_with_its_settings(app, client):
    response = client.post(
        "/presets/new",
        data=editor_data(
            on=["no-tricks", "no-queens", "ravage-city"],
            values={"ravage-city": {"penalty": "-24"}},
            deck="32",
            chooser="fixed",
            rotation="round",
            doubling_target="declarer",
            doubling_auto_redouble="y",
            doubling_single="2",
            doubling_mutual="4",
            doubling_quota="3",
            doubling_quota_penalty="5",
            undoubled_negative="split",
            notes="  Hearts may be led.  ",
            **{"players-0": "Anne", "players-1": "Beth", "players-2": "Cath", "players-3": "Dora"},
        ),
    )
    pid = saved_id(response)
    with app.app_context():
        stored = presets.find_preset(pid)
        assert stored.preset == {
            "id": pid,
            "name": "Thursday club",
            "deck": 32,
            "chooser": "fixed",
            "rotation": "round",
            "contracts": [
                {"id": "no-tricks", "per_trick": -2},
                {"id": "no-queens", "per_queen": -6},
                {"id": "ravage-city", "penalty": -24},
            ],
            "doubling": {
                "enabled": True,
                "target": "declarer",
                "auto_redouble": True,
                "single": 2,
                "mutual": 4,
                "quota": 3,
                "quota_penalty": 5,
            },
            "undoubled_negative": "split",
            "default_players": ["Anne", "Beth", "Cath", "Dora"],
        }
        assert stored.notes == "Hearts may be led."
    assert len(pid) >= 22  # 128 random bits
    html = client.get(f"/presets/{pid}").get_data(as_text=True)
    assert "Thursday club" in html and "Hearts may be led." in html
    assert "12 (4 × 3 contracts)" in html
    # The run: 8 tricks × −2 = −16, queens −24, Ravage City −24: −64.
    assert re.search(r'id="run_total"><span class="pts negative">−64<', html)


def test_the_minus_sign_and_plus_are_read_as_points(app, client):
    pid = saved_id(
        client.post(
            "/presets/new",
            data=editor_data(
                on=["no-tricks", "trumps"], values={"no-tricks": {"per_trick": "−3"}, "trumps": {"per_trick": "+3"}}
            ),
        )
    )
    with app.app_context():
        assert presets.find_preset(pid).preset["contracts"] == [
            {"id": "no-tricks", "per_trick": -3},
            {"id": "trumps", "per_trick": 3},
        ]


@pytest.mark.parametrize(
    "changes, field_id, message",
    [
        ({"contracts-0-per_trick": "-1.5"}, "contracts-0-per_trick", "must be a whole number of points"),
        ({"contracts-0-per_trick": "two"}, "contracts-0-per_trick", "must be a whole number of points"),
        ({"contracts-0-per_trick": ""}, "contracts-0-per_trick", "must be a whole number of points"),
        (
            {"contracts-7-on": "y", "contracts-7-penalty": "-30"},
            "contracts-7-penalty",
            "the Ravage City penalty must be divisible by 12",
        ),
        ({"contracts-6-places-3": ""}, "contracts-6-places", "domino needs the points of all four places"),
        ({"doubling_quota": "x"}, "doubling_quota", "must be a whole number"),
        ({"doubling_single": "-1"}, "doubling_single", "must be a whole number from 0 to 10"),
        ({"name": ""}, "name", "the preset name must be a non-empty text"),
        ({"players-0": "Anne"}, "players-1", "a player's name must be a non-empty text"),
        ({"deck": "40"}, "deck", "the deck has 52 or 32 cards"),
        ({"doubling_enabled": "", "undoubled_negative": "split"}, "undoubled_negative", "never played"),
        ({"notes": "x" * 2001}, "notes", "longer than 2,000 characters"),
    ],
)
def test_an_invalid_value_is_refused_next_to_its_field(app, client, changes, field_id, message):
    data = editor_data(**changes)
    data = {k: v for k, v in data.items() if v != "" or k.startswith(("contracts-0", "name", "notes", "players"))}
    response = client.post("/presets/new", data=data)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert message in error_next_to(html, field_id)
    assert f'id="{field_id}"' in html
    with app.app_context():
        assert db.session.query(StoredPreset).count() == 0


def test_no_contract_is_refused(client):
    data = {k: v for k, v in editor_data().items() if not k.endswith("-on")}
    response = client.post("/presets/new", data=data)
    assert response.status_code == 422
    assert "a preset needs at least one contract" in error_next_to(response.get_data(as_text=True), "contracts")


def test_a_move_button_reorders_without_saving(app, client):
    response = client.post("/presets/new", data={**editor_data(), "move": "6-up"})
    assert response.status_code == 200
    ids = re.findall(
        r'id="contracts-(\d)-id" name="contracts-\d-id" type="hidden" value="([\w-]+)"', response.get_data(as_text=True)
    )
    assert [cid for _, cid in ids][:7] == [
        "no-tricks",
        "no-queens",
        "no-last-two",
        "no-hearts",
        "no-king-of-hearts",
        "domino",
        "trumps",
    ]
    with app.app_context():
        assert db.session.query(StoredPreset).count() == 0


def test_the_saved_order_is_the_order_of_play(app, client):
    # Rows moved by the editor: Domino before Trumps, in a fixed order.
    data = editor_data(chooser="fixed")
    for field in ("id", "per_trick"):
        data[f"contracts-5-{field}"], data[f"contracts-6-{field}"] = None, None
    data = {k: v for k, v in data.items() if v is not None and not k.startswith(("contracts-5", "contracts-6"))}
    data.update(
        {
            "contracts-5-id": "domino",
            "contracts-5-on": "y",
            **{f"contracts-5-places-{j}": p for j, p in enumerate(["45", "20", "5", "-5"])},
            "contracts-6-id": "trumps",
            "contracts-6-on": "y",
            "contracts-6-per_trick": "5",
        }
    )
    pid = saved_id(client.post("/presets/new", data=data))
    with app.app_context():
        assert presets.find_preset(pid).to_preset().contract_ids[-2:] == ("domino", "trumps")


def test_the_editor_shows_each_total_and_says_when_the_run_does_not_balance(client):
    html = client.post("/presets/new", data={**editor_data(on=CONTRACT_ROWS[:5]), "check": "1"}).get_data(as_text=True)
    assert re.search(r'id="total-no-hearts" class="row-total">total <span class="pts negative">−30<', html)
    assert "adds up to" in html and "−130" in html and "does not balance to zero" in html
    html = client.post("/presets/new", data={**editor_data(), "check": "1"}).get_data(as_text=True)
    assert "it balances to zero" in html and "Every value is valid" in html


def test_the_live_preview_answers_the_totals_out_of_band(client):
    html = client.post(
        "/presets/preview",
        data=editor_data(values={"domino": {"places": ["40", "20", "10", "-10"]}}),
        headers={"HX-Request": "true"},
    ).get_data(as_text=True)
    assert re.search(r'id="total-domino" class="row-total" hx-swap-oob="true">total <span class="pts">\+60<', html)
    assert 'id="run_total"' in html and "−5" in html  # −130 + 65 + 60


def test_a_copy_starts_from_the_source(client):
    html = client.get("/presets/new?from=french-classic").get_data(as_text=True)
    assert 'value="Copy of Older French form"' in html
    assert 'id="chooser-2" name="chooser" type="radio" value="fixed" checked' in html or re.search(
        r'<input checked id="chooser-\d" name="chooser" type="radio" value="fixed">', html
    )


# -- ownership, sharing, deleting ----------------------------------------------------------


def make(client, **kwargs) -> str:
    return saved_id(client.post("/presets/new", data=editor_data(**kwargs)))


def test_only_the_device_that_made_it_can_change_it(app, client):
    pid = make(client)
    other = other_device(app)
    assert other.get(f"/presets/{pid}/edit").status_code == 403
    assert other.post(f"/presets/{pid}/edit", data=editor_data(name="Hijacked")).status_code == 403
    assert other.post(f"/presets/{pid}/delete").status_code == 403
    # The link is the share link: the other device sees it and can copy it.
    html = other.get(f"/presets/{pid}").get_data(as_text=True)
    assert "Copy to my presets" in html and f"/presets/{pid}/edit" not in html
    copy_id = saved_id(other.post("/presets/new", data=editor_data(name="My copy")))
    assert "My copy" in other.get("/presets").get_data(as_text=True)
    assert "My copy" not in client.get("/presets").get_data(as_text=True)
    assert client.get(f"/presets/{copy_id}/edit").status_code == 403
    with app.app_context():
        assert presets.find_preset(pid).name == "Thursday club"


def test_the_device_cookie_is_permanent(client):
    response = client.post("/presets/new", data=editor_data())
    cookie = response.headers["Set-Cookie"]
    assert "Expires=" in cookie


def test_delete_asks_then_deletes(app, client):
    pid = make(client)
    assert "Delete “Thursday club”?" in without_isolates(client.get(f"/presets/{pid}/delete").get_data(as_text=True))
    response = client.post(f"/presets/{pid}/delete")
    assert response.status_code == 303
    assert client.get(f"/presets/{pid}").status_code == 404


# -- limits --------------------------------------------------------------------------------


def test_one_device_keeps_at_most_its_number_of_presets(app, client):
    app.config["MAX_PRESETS_PER_DEVICE"] = 2
    first = make(client, name="One")
    make(client, name="Two")
    response = client.post("/presets/new", data=editor_data(name="Three", notes="Deal clockwise"))
    assert response.status_code == 429
    page = response.get_data(as_text=True)
    assert "This device keeps 2 saved presets, the most allowed" in html_lib.unescape(page)
    assert 'value="Three"' in page and "Deal clockwise" in page  # what was typed is still there
    refused = client.post("/presets/import", data={"text": json.dumps(preset_to_dict(BUILTIN["brader"]))})
    assert refused.status_code == 429
    assert "This device keeps 2 saved presets" in html_lib.unescape(
        error_next_to(refused.get_data(as_text=True), "text")
    )
    with app.app_context():
        assert sorted(p.name for p in db.session.query(StoredPreset)) == ["One", "Two"]
    # Editing a kept preset is not saving another one; deleting one frees its place.
    assert saved_id(client.post(f"/presets/{first}/edit", data=editor_data(name="One, renamed"))) == first
    assert client.post(f"/presets/{first}/delete").status_code == 303
    make(client, name="Three")
    # Another device has its own presets.
    assert other_device(app).post("/presets/new", data=editor_data(name="Elsewhere")).status_code == 303


# -- export and import ---------------------------------------------------------------------


def test_export_is_the_spec_preset_object(client):
    response = client.get("/presets/brader/export")
    assert "attachment" in response.headers["Content-Disposition"]
    assert response.get_json() == preset_to_dict(BUILTIN["brader"])


def test_import_makes_a_new_preset_of_this_device(app, client):
    obj = preset_to_dict(BUILTIN["brader"])
    response = client.post("/presets/import", data={"text": json.dumps(obj)})
    pid = saved_id(response)
    assert pid != "brader"
    with app.app_context():
        stored = presets.find_preset(pid)
        assert stored.preset == {**obj, "id": pid}
    assert client.get(f"/presets/{pid}/edit").status_code == 200


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", "This is not valid JSON (line 1, column 2"),
        ("", "Paste a preset"),
        (
            json.dumps(
                {"name": "x", "contracts": [{"id": "no-tricks", "per_trick": -2}, {"id": "no-tricks", "per_trick": -2}]}
            ),
            "preset.contracts[1].id: No Tricks is listed twice",
        ),
        (
            json.dumps({"name": "x", "contracts": [{"id": "domino", "places": [45, 20, 5]}]}),
            "preset.contracts[0].places: domino needs the points of all four places",
        ),
    ],
)
def test_an_invalid_import_is_refused_next_to_the_text(app, client, text, message):
    response = client.post("/presets/import", data={"text": text})
    assert response.status_code == 422
    assert message in error_next_to(response.get_data(as_text=True), "text")
    with app.app_context():
        assert db.session.query(StoredPreset).count() == 0


# -- games keep their copy -----------------------------------------------------------------


def test_new_game_offers_this_devices_presets_and_prefills_the_players(app, client):
    pid = make(client, **{"players-0": "Anne", "players-1": "Beth", "players-2": "Cath", "players-3": "Dora"})
    html = client.get(f"/games/new?preset={pid}").get_data(as_text=True)
    assert re.search(rf'<option[^>]*selected[^>]*value="{pid}"|<option[^>]*value="{pid}"[^>]*selected', html)
    assert 'value="Dora"' in html
    assert pid not in other_device(app).get("/games/new").get_data(as_text=True)


def test_a_game_keeps_its_preset_when_the_preset_is_edited_or_deleted(app, client):
    pid = make(client, on=["no-tricks", "no-queens"])
    response = client.post(
        "/games/new",
        data={
            "players-0": "Anne",
            "players-1": "Beth",
            "players-2": "Cath",
            "players-3": "Dora",
            "first_declarer": "0",
            "preset": pid,
        },
    )
    assert response.status_code == 303
    token = response.headers["Location"].rsplit("/g/", 1)[1]  # the new game's page
    with app.app_context():
        game = db.session.query(StoredGame).one()
        before = copy.deepcopy(game.preset)
    assert before["contracts"] == [{"id": "no-tricks", "per_trick": -2}, {"id": "no-queens", "per_queen": -6}]
    # One round: Anne takes 4 tricks, Beth 9 → −8, −18.
    client.post(
        f"/g/{token}/rounds",
        data={
            "contract": "no-tricks",
            "number": "1",
            "tricks-0": "4",
            "tricks-1": "9",
            "tricks-2": "0",
            "tricks-3": "0",
        },
    )
    assert (
        saved_id(
            client.post(
                f"/presets/{pid}/edit", data=editor_data(on=["no-tricks"], values={"no-tricks": {"per_trick": "-5"}})
            )
        )
        == pid
    )
    with app.app_context():
        game = db.session.query(StoredGame).one()
        assert game.preset == before
        assert game.to_game().preset.round_count == 8
    client.post(f"/presets/{pid}/delete")
    with app.app_context():
        game = db.session.query(StoredGame).one()
        assert game.preset == before
        from scorepad.scoring import score

        assert score(game.to_game()).standings.totals == (-8, -18, 0, 0)
