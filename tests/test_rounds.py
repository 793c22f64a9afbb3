"""Recording, showing, editing and undoing rounds through the scorer's forms."""

import json
import re
from pathlib import Path

import pytest

from scorepad import services
from tests.test_names import without_isolates

EXAMPLE = json.loads((Path(__file__).parent / "data" / "examples" / "tournament-full.json").read_text())
ROUNDS = EXAMPLE["game"]["rounds"]
EXPECTED = EXAMPLE["expected"]["rounds"]


def import_game(app, rounds=0):
    doc = {**EXAMPLE["game"], "rounds": ROUNDS[:rounds]}
    with app.app_context():
        stored, _ = services.create_game(doc)
        return stored.edit_token, stored.view_token


def form_of(rnd: dict) -> dict:
    """The round as the scorer's form posts it."""
    data = {"contract": rnd["contract"], "doubles": [f"{a}-{b}" for a, b in rnd["doubles"]]}
    for key in ("trump", "start_rank"):
        if key in rnd:
            data[key] = rnd[key]
    for part, value in rnd["outcome"].items():
        if part in ("tricks", "queens", "hearts"):
            data.update({f"{part}-{seat}": str(v) for seat, v in enumerate(value)})
        elif part == "order":
            data.update({f"order-{place}": str(seat) for place, seat in enumerate(value)})
        elif part == "most":
            data["most"] = [str(s) for s in value]
        else:
            data[part] = str(value)
    return data


def opened(client, edit: str, number: int) -> str:
    """Open the edit form of round ``number``: its ``based_on`` digest (the round as it was)."""
    response = client.get(f"/g/{edit}/rounds/{number}/edit")
    assert response.status_code == 200
    match = re.search(r'<input type="hidden" name="based_on" value="([0-9a-f]{16})">', response.get_data(as_text=True))
    assert match, "the edit form carries no based_on"
    return match.group(1)


def running(html: str, number: int) -> list[int]:
    row = re.search(rf'<tr id="round-{number}".*?</tr>', html, re.S).group(0)
    return [int(v.replace("−", "-")) for v in re.findall(r'class="running"><span class="pts[^"]*">([^<]+)<', row)]


def group_error(html: str, group: str) -> str:
    match = re.search(rf'<ul class="field-error" id="{group}-error"[^>]*>(.*?)</ul>', html, re.S)
    assert match, f"no error next to {group}"
    return re.sub(r"<[^>]+>", " ", match.group(1))


def test_the_contract_step_leads_to_its_form(app, client):
    edit, _ = import_game(app)
    html = client.get(f"/g/{edit}/rounds/new?contract=no-hearts").get_data(as_text=True)
    assert '<input type="hidden" name="contract" value="no-hearts">' in html
    assert "Hearts taken (with the ace): 13 in all" in html
    assert 'name="ace"' in html and 'name="hearts-3"' in html
    assert 'name="tricks-0"' not in html


def test_htmx_gets_only_the_round_form_block(app, client):
    edit, _ = import_game(app)
    response = client.get(f"/g/{edit}/rounds/new?contract=domino", headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)
    assert html.lstrip().startswith('<section id="round_form"')
    assert "<html" not in html
    assert "HX-Request" in response.headers["Vary"]
    assert 'name="start_rank" value="A"' in html and 'name="order-2"' in html
    assert 'name="order-3"' not in html  # the fourth out is the player left: never asked


def test_the_doubles_grid_explains_the_cells_that_cannot_be_used(app, client):
    edit, _ = import_game(app)
    html = client.get(f"/g/{edit}/rounds/new?contract=trumps").get_data(as_text=True)
    # Beth (seat 2) declares Trumps: opponents may only double her, she only redoubles.
    assert 'value="0-2"' in html and 'value="2-0"' in html and 'value="0-1"' not in html
    assert "Élodie doubles Anne: not possible, in a positive contract only the declarer may be doubled" in html
    assert "Beth redoubles Élodie" in html


def test_recording_a_round_by_plain_post(app, client):
    edit, _ = import_game(app)
    response = client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[0]))
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/g/{edit}#current_round")
    html = client.get(f"/g/{edit}").get_data(as_text=True)
    assert running(html, 1) == EXPECTED[0]["result"]["running"] == [-60, 0, 0, 30]
    assert "Round 2 of 28" in html


def test_recording_a_round_with_htmx_returns_the_live_part_of_the_page(app, client):
    edit, _ = import_game(app, rounds=1)
    response = client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[1]), headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "HX-Request" in response.headers["Vary"]
    assert response.headers["HX-Push-Url"] == f"/g/{edit}"
    assert html.lstrip().startswith('<div id="game_live">') and "<html" not in html
    assert running(html, 2) == EXPECTED[1]["result"]["running"]
    assert "Round 3 of 28" in html


def test_tricks_that_do_not_add_up_are_refused_next_to_the_tricks(app, client):
    edit, _ = import_game(app)
    data = {"contract": "no-tricks", "tricks-0": "4", "tricks-1": "2", "tricks-2": "1", "tricks-3": "5"}
    response = client.post(f"/g/{edit}/rounds", data=data)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "the tricks add up to 12, a deal has 13" in group_error(html, "tricks")
    assert 'value="5"' in html  # the scorer's input is kept
    assert '<tr id="round-1"' not in html


def test_an_empty_count_is_named_before_the_engine_is_asked(app, client):
    edit, _ = import_game(app)
    data = {"contract": "no-queens", "queens-0": "2", "queens-1": "", "queens-2": "two", "queens-3": "0"}
    response = client.post(f"/g/{edit}/rounds", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 422
    errors = group_error(response.get_data(as_text=True), "queens")
    assert "Anne&#39;s queens" in errors and "Beth&#39;s queens" in errors


def test_an_illegal_double_is_refused(app, client):
    edit, _ = import_game(app)
    data = form_of({"contract": "trumps", "doubles": [[0, 1]], "outcome": {"tricks": [1, 2, 4, 6]}})
    response = client.post(f"/g/{edit}/rounds", data=data)
    assert response.status_code == 422
    assert "only the declarer may be doubled" in group_error(response.get_data(as_text=True), "doubles")


def test_a_redouble_needs_a_double(app, client):
    edit, _ = import_game(app)
    data = form_of({"contract": "no-tricks", "doubles": [[2, 0]], "outcome": {"tricks": [4, 2, 1, 6]}})
    response = client.post(f"/g/{edit}/rounds", data=data)
    assert response.status_code == 422
    assert "may only redouble a player who doubled them" in group_error(response.get_data(as_text=True), "doubles")


def test_a_contract_already_declared_is_refused(app, client):
    edit, _ = import_game(app, rounds=1)  # Beth declared No Last Two in round 1
    response = client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[0]))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "already declared" in html
    assert '<tr id="round-2"' not in html


def test_the_view_token_cannot_change_anything(app, client):
    edit, view = import_game(app, rounds=2)
    assert client.post(f"/g/{view}/rounds", data=form_of(ROUNDS[2])).status_code == 403
    assert client.post(f"/g/{view}/rounds/undo", data={"number": "2"}).status_code == 403
    assert client.post(f"/g/{view}/rounds/1/edit", data=form_of(ROUNDS[0])).status_code == 403
    assert client.get(f"/g/{view}/rounds/1/edit").status_code == 403
    assert "Round 3 of 28" in client.get(f"/g/{edit}").get_data(as_text=True)


def test_a_round_page_tells_what_happened(app, client):
    edit, view = import_game(app, rounds=2)
    html = without_isolates(client.get(f"/g/{edit}/rounds/2").get_data(as_text=True))
    assert "No Hearts" in html
    assert "Élodie 3 · Anne 0 · Beth 5 · Marc 5" in html
    assert "Beth redoubled Anne" in html and "Élodie doubled Beth" in html
    assert f"/g/{edit}/rounds/2/edit" in html
    assert "/edit" not in client.get(f"/g/{view}/rounds/2").get_data(as_text=True)
    assert client.get(f"/g/{edit}/rounds/3").status_code == 404


def test_editing_a_round_recomputes_the_later_totals(app, client):
    edit, _ = import_game(app, rounds=3)
    form = client.get(f"/g/{edit}/rounds/1/edit").get_data(as_text=True)
    assert 'name="penultimate" value="0" checked' in form  # prefilled
    # Round 1 corrected: Marc took the 12th trick, not Élodie. Raw −20 / 0 / 0 / −10; Élodie's
    # double on Marc now moves 10 to Marc; Anne and Beth are still level: totals −30 / 0 / 0 / 0,
    # i.e. +30 for Élodie and −30 for Marc compared with the round as first recorded.
    data = {**form_of({**ROUNDS[0], "outcome": {"penultimate": 3, "last": 0}}), "based_on": opened(client, edit, 1)}
    response = client.post(f"/g/{edit}/rounds/1/edit", data=data)
    assert response.status_code == 303
    html = client.get(f"/g/{edit}").get_data(as_text=True)
    assert running(html, 1) == [-30, 0, 0, 0]
    before = EXPECTED[2]["result"]["running"]
    assert running(html, 3) == [before[0] + 30, before[1], before[2], before[3] - 30]


def test_an_edit_may_change_the_contract_to_a_free_one(app, client):
    edit, _ = import_game(app, rounds=3)
    html = client.get(f"/g/{edit}/rounds/1/edit?contract=no-tricks").get_data(as_text=True)
    assert 'name="tricks-0"' in html
    assert "contract=no-hearts" not in html  # declared in round 2


def test_undo_deletes_the_last_round(app, client):
    edit, _ = import_game(app, rounds=2)
    assert client.post(f"/g/{edit}/rounds/undo", data={"number": "1"}).status_code == 409
    response = client.post(f"/g/{edit}/rounds/undo", data={"number": "2"})
    assert response.status_code == 303
    html = client.get(f"/g/{edit}").get_data(as_text=True)
    assert 'id="round-2"' not in html and 'id="round-1"' in html
    assert "Round 2 of 28" in html


def test_undo_with_htmx_replaces_the_live_part(app, client):
    edit, _ = import_game(app, rounds=1)
    response = client.post(f"/g/{edit}/rounds/undo", data={"number": "1"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "No rounds yet." in response.get_data(as_text=True)


def test_a_complete_game_takes_no_more_rounds(app, client):
    edit, _ = import_game(app, rounds=28)
    response = client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[0]), headers={"HX-Request": "true"})
    assert response.status_code == 409
    assert "complete" in response.get_data(as_text=True)


# -- round entry (issue 3): preview, domino order, fixed order, schedule, quota note ---------

WORKED = {"players": ["Anne", "Beth", "Cath", "Diana"], "first_declarer": 0, "preset": "tournament", "rounds": []}


def new_game(app, doc):
    with app.app_context():
        stored, _ = services.create_game(doc)
        return stored.edit_token


def text_of(html: str) -> str:
    """The words of ``html`` as a reader sees them (tags dropped, spaces collapsed, ASCII minus)."""
    return re.sub(r"\s+([,:)])", r"\1", re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))).replace("−", "-")


def test_the_preview_settles_the_worked_example_of_the_rules(app, client):
    # barbu-rules.md, "Doubles": Anne declares No Queens; Anne -6, Beth 0, Cath -6, Diana -12.
    # Beth doubled all three, Cath doubled Anne, Anne redoubled Cath.
    edit = new_game(app, WORKED)
    data = {
        "contract": "no-queens",
        "queens-0": "1",
        "queens-1": "0",
        "queens-2": "1",
        "queens-3": "2",
        "doubles": ["1-0", "1-2", "1-3", "2-0", "0-2"],
    }
    response = client.post(f"/g/{edit}/rounds/preview", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    text = text_of(response.get_data(as_text=True))
    assert "Beth doubled Anne: Anne -6, Beth 0 → Anne pays 6 to Beth" in text
    assert "Cath doubled Anne, who redoubled: Anne -6, Cath -6 → nothing moves" in text
    assert "Beth doubled Cath: Beth 0, Cath -6 → Cath pays 6 to Beth" in text
    assert "Beth doubled Diana: Beth 0, Diana -12 → Diana pays 12 to Beth" in text
    assert "Round total -12 +24 -12 -24" in text
    assert "<html" not in response.get_data(as_text=True)
    # Nothing is stored by a preview.
    assert "Round 1 of 28" in client.get(f"/g/{edit}").get_data(as_text=True)


def test_the_preview_without_javascript_shows_the_page_with_the_form_kept(app, client):
    edit = new_game(app, WORKED)
    data = {"contract": "no-king-of-hearts", "king": "3", "doubles": ["2-0", "0-2"]}
    response = client.post(f"/g/{edit}/rounds/preview", data=data)
    html = without_isolates(response.get_data(as_text=True))
    assert response.status_code == 200
    # Diana took the K♥: -20. Cath doubled Anne who redoubled: equal raw scores, nothing moves.
    assert "Cath doubled Anne, who redoubled" in html and "nothing moves" in text_of(html)
    assert 'name="king" value="3" checked' in html
    assert 'value="2-0" data-needs' not in html and 'value="2-0" checked' in html


def test_the_preview_says_what_is_wrong_or_still_missing(app, client):
    edit = new_game(app, WORKED)
    data = {"contract": "no-tricks", "tricks-0": "4", "tricks-1": "2", "tricks-2": "1", "tricks-3": "5"}
    html = client.post(f"/g/{edit}/rounds/preview", data=data, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "the tricks add up to 12, a deal has 13" in html
    html = client.post(
        f"/g/{edit}/rounds/preview", data={"contract": "no-tricks", "tricks-0": "4"}, headers={"HX-Request": "true"}
    ).get_data(as_text=True)
    assert "enter the outcome to see what each player scores" in html


def test_the_fourth_player_out_in_domino_is_implied(app, client):
    edit = new_game(app, WORKED)
    data = {"contract": "domino", "order-0": "2", "order-1": "0", "order-2": "3"}
    assert client.post(f"/g/{edit}/rounds", data=data).status_code == 303
    html = without_isolates(client.get(f"/g/{edit}/rounds/1").get_data(as_text=True))
    assert "1st out: Cath" in html and "4th out: Beth" in html
    # Domino places +45 / +20 / +5 / -5: Cath, Anne, Diana, Beth.
    page = without_isolates(client.get(f"/g/{edit}").get_data(as_text=True))
    assert running(page, 1) == [20, -5, 45, 5]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"order-0": "2", "order-2": "3"}, "Choose who went out second."),
        ({"order-0": "2", "order-1": "2", "order-2": "3"}, "Cath is chosen for two places"),
    ],
)
def test_a_domino_order_with_a_gap_or_a_player_twice_is_refused(app, client, data, message):
    edit = new_game(app, WORKED)
    response = client.post(f"/g/{edit}/rounds", data={"contract": "domino", **data})
    assert response.status_code == 422
    assert message in group_error(response.get_data(as_text=True), "order")


def test_with_a_fixed_order_the_form_comes_straight_up(app, client):
    example = json.loads((Path(__file__).parent / "data" / "examples" / "french-classic.json").read_text())
    edit = new_game(app, {**example["game"], "rounds": example["game"]["rounds"][:5]})
    html = client.get(f"/g/{edit}").get_data(as_text=True)
    # Round 6 of the fixed order is Salade: nothing to choose, so no contract buttons.
    assert '<input type="hidden" name="contract" value="salade">' in html
    assert "data-contract=" not in html and "Change contract" not in html
    response = client.post(
        f"/g/{edit}/rounds", data=form_of({"contract": "no-tricks", "doubles": [], "outcome": {"tricks": [4, 3, 3, 3]}})
    )
    assert response.status_code == 422


def test_the_last_contract_of_a_run_comes_straight_up(app, client):
    edit, _ = import_game(app, rounds=6)  # Beth has only Domino left
    html = client.get(f"/g/{edit}").get_data(as_text=True)
    assert '<input type="hidden" name="contract" value="domino">' in html


def test_a_round_page_shows_what_moved_between_each_pair(app, client):
    edit, _ = import_game(app, rounds=2)
    # Round 2 (Beth declares No Hearts): hearts Élodie 3, Anne 0, Beth 5, Marc 5, Beth took the ace:
    # raw Élodie -6, Anne 0, Beth -14, Marc -10. Élodie doubled Beth: Beth pays 8.
    # Anne doubled Beth, Beth redoubled: 2 x 14 = 28 from Beth to Anne.
    html = text_of(client.get(f"/g/{edit}/rounds/2").get_data(as_text=True))
    assert "Élodie doubled Beth: Élodie -6, Beth -14 → Beth pays 8 to Élodie" in html
    assert "Anne doubled Beth, who redoubled: Anne 0, Beth -14 → Beth pays 28 to Anne (2 × 14)" in html
    assert EXPECTED[1]["result"]["raw"] == [-6, 0, -14, -10]


def test_after_a_save_the_page_leads_with_the_saved_round(app, client):
    edit, _ = import_game(app, rounds=1)
    response = client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[1]), headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)
    saved = re.search(r'<div class="last-round just-saved" data-saved>.*?</table>', html, re.S).group(0)
    assert "Round 2 saved" in saved
    numbers = [int(v.replace("−", "-")) for v in re.findall(r'<span class="pts[^"]*">([^<]+)<', saved)]
    assert numbers == EXPECTED[1]["result"]["total"] + EXPECTED[1]["result"]["running"]
    assert "Undo round 2" in html


def test_the_schedule_shows_who_declared_what(app, client):
    edit, _ = import_game(app, rounds=8)
    html = client.get(f"/g/{edit}").get_data(as_text=True)
    schedule = re.search(r'<section id="schedule".*?</section>', html, re.S).group(0)
    rows = dict(re.findall(r'<th scope="row">([^<]+)</th>(.*?)</tr>', schedule, re.S))

    # Beth (seat 2) declared rounds 1-7; Marc (seat 3) declared No Last Two in round 8.
    def cells(row):
        return [re.sub(r"<[^>]+>|still to come", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]

    assert cells(rows["Last two"]) == ["", "", "1", "8"]
    assert cells(rows["Domino"]) == ["", "", "7", ""]


def test_a_gentle_note_when_someone_still_owes_the_declarer_doubles(app, client):
    edit, _ = import_game(app, rounds=5)
    html = without_isolates(client.get(f"/g/{edit}").get_data(as_text=True))
    # Rounds 1-5: Marc never doubled Beth; two of her rounds are left.
    assert "Marc still owes Beth 2 doubles (rounds left in Beth’s run: 2)." in html
    assert "Anne still owes" not in html
    edit, _ = import_game(app, rounds=3)
    assert "still owes" not in client.get(f"/g/{edit}").get_data(as_text=True)


def test_the_next_form_after_a_save_starts_empty(app, client):
    edit, _ = import_game(app, rounds=12)
    # Round 13 saved with htmx; round 14 is Marc's last contract, so its form comes back at once.
    response = client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[12]), headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)
    assert '<input type="hidden" name="contract" value="no-king-of-hearts">' in html
    form = re.search(r'<form method="post" action="[^"]*/rounds" class="round-form".*?</form>', html, re.S).group(0)
    assert " checked" not in form


# -- refusals a script can read (issue 10, contracts.md §1) ----------------------------------


def test_a_refused_field_carries_the_invalid_refusal_code(app, client):
    edit, _ = import_game(app)
    data = {"contract": "no-tricks", "tricks-0": "4", "tricks-1": "2", "tricks-2": "1", "tricks-3": "5"}
    response = client.post(f"/g/{edit}/rounds", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert '<ul class="field-error" id="tricks-error" role="alert" data-refusal="invalid">' in html


def test_a_conflict_flash_carries_the_conflict_refusal_code(app, client):
    edit, _ = import_game(app, rounds=28)
    response = client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[0]), headers={"HX-Request": "true"})
    assert response.status_code == 409
    flash = re.search(
        r'<p class="flash flash-error" role="alert" data-refusal="([a-z]+)">([^<]+)</p>',
        response.get_data(as_text=True),
    )
    assert flash and flash.group(1) == "conflict"
    assert "complete" in flash.group(2)


def test_an_undo_of_an_earlier_round_is_a_conflict(app, client):
    edit, _ = import_game(app, rounds=2)
    response = client.post(f"/g/{edit}/rounds/undo", data={"number": "1"})
    assert response.status_code == 409
    assert 'data-refusal="conflict">Only the last round (2) can be deleted' in response.get_data(as_text=True)


def test_a_contract_already_declared_is_an_invalid_refusal(app, client):
    edit, _ = import_game(app, rounds=1)
    response = client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[0]))
    assert response.status_code == 422
    assert re.search(
        r'<p class="flash flash-error" role="alert" data-refusal="invalid">[^<]*already declared',
        response.get_data(as_text=True),
    )


def test_the_preview_waits_for_a_missing_part_without_an_error(app, client):
    edit, _ = import_game(app)
    data = {"contract": "no-hearts", "hearts-0": "13", "hearts-1": "0", "hearts-2": "0", "hearts-3": "0"}
    response = client.post(f"/g/{edit}/rounds/preview", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "enter the outcome to see what each player scores." in response.get_data(as_text=True)


# -- the family shortcut's cells come from the engine ----------------------------------------


def test_each_family_button_names_both_neighbours_cells(app, client):
    edit, _ = import_game(app)  # Beth (seat 2) declares round 1
    html = client.get(f"/g/{edit}/rounds/new?contract=no-tricks").get_data(as_text=True)
    family = dict(re.findall(r'data-shortcut="family" data-row="(\d)" data-cells="([^"]*)"', html))
    # seat 0's neighbours are 1 and 3, seat 1's 0 and 2, seat 3's 0 and 2; the declarer has none
    assert family == {"0": "0-1 0-3", "1": "1-0 1-2", "3": "3-0 3-2"}


def test_a_positive_contract_has_no_family_shortcut(app, client):
    edit, _ = import_game(app)
    html = client.get(f"/g/{edit}/rounds/new?contract=trumps").get_data(as_text=True)
    assert 'data-shortcut="family"' not in html


@pytest.mark.parametrize("typed", ["²", "٣", "9" * 5000, "-1", "1.0"])
def test_a_count_that_is_no_whole_number_is_refused_next_to_the_field(app, client, typed):
    edit, _ = import_game(app)
    data = {"contract": "no-tricks", "tricks-0": typed, "tricks-1": "2", "tricks-2": "1", "tricks-3": "5"}
    response = client.post(f"/g/{edit}/rounds", data=data)
    assert response.status_code == 422
    assert "enter a whole number from 0 to 13" in group_error(response.get_data(as_text=True), "tricks")


@pytest.mark.parametrize("typed", ["²", "٣", "9" * 5000, "-1", "3.0"])
def test_a_round_number_that_is_no_whole_number_is_refused_and_nothing_changes(app, client, typed):
    # Not read as "no number", which would skip the check that the round is the one the page showed.
    edit, _ = import_game(app, rounds=2)
    saved = client.post(f"/g/{edit}/rounds", data={**form_of(ROUNDS[2]), "number": typed})
    assert saved.status_code == 422
    assert "The round number of this page is not a whole number; reload the page." in saved.get_data(as_text=True)
    undone = client.post(f"/g/{edit}/rounds/undo", data={"number": typed})
    assert undone.status_code == 422
    assert "The round number of this page is not a whole number; reload the page." in undone.get_data(as_text=True)
    with app.app_context():
        assert len(services.find_by_token(edit)[0].rounds) == 2


def test_a_contract_out_of_a_fixed_order_is_refused_with_the_engines_reason(app, client):
    with app.app_context():
        stored, _ = services.create_game(
            {"players": ["Anne", "Beth", "Cath", "Dora"], "first_declarer": 0, "preset": "french-classic"}
        )
        edit = stored.edit_token
    response = client.post(
        f"/g/{edit}/rounds",
        data={"contract": "no-hearts", "hearts-0": "13", "hearts-1": "0", "hearts-2": "0", "hearts-3": "0", "ace": "0"},
    )
    assert response.status_code == 422
    flash = re.search(
        r'<p class="flash flash-error" role="alert" data-refusal="invalid">([^<]+)</p>', response.get_data(as_text=True)
    )
    assert flash and "fixed order: next is No Tricks" in flash.group(1)
