"""A round said in words where the scorer looks back at it (issue 26, items 15 and 16): the
page of a save refused because another phone saved that round first says what was entered
(contract, declarer, outcome, points), and the history page gives each entry the round's
outcome and points (an edit: the points before → after).

The game is tournament-full (tests/data/examples): Élodie, Anne, Beth, Marc; Beth (seat 2)
declares rounds 1–7. Points come from the example's ``expected`` results, not from the code."""

import json
import re
from pathlib import Path

from scorepad.services import games
from tests.test_names import without_isolates
from tests.test_rounds import form_of

EXAMPLE = json.loads((Path(__file__).parent / "data" / "examples" / "tournament-full.json").read_text())
ROUNDS = EXAMPLE["game"]["rounds"]
# Round 2 of the example, No Hearts: hearts 3 0 5 5, Beth took ♥A; Élodie doubled Beth and Marc,
# Anne doubled Beth and Marc, Beth redoubled Anne. Its points (expected, round 2): 6 38 −50 −24;
# played as round 1 it is the same deal with the same declarer, so the same points.
NO_HEARTS = ROUNDS[1]
NO_HEARTS_WORDS = [
    "Round 1: Beth declares No Hearts",
    "Hearts: Élodie 3, Anne 0, Beth 5, Marc 5",
    "Ace of hearts ♥A: Beth",
    "Doubles: Élodie doubled Beth, Élodie doubled Marc, Anne doubled Beth, Anne doubled Marc, Beth redoubled Anne",
    "Points: Élodie +6, Anne +38, Beth −50, Marc −24",
]


def import_game(app, rounds: int) -> str:
    with app.app_context():
        stored, _ = games.create_game({**EXAMPLE["game"], "rounds": ROUNDS[:rounds]})
        return stored.edit_token


def entered_lines(html: str) -> list[str]:
    """The lines of the page's "You entered" part, without tags and isolates."""
    part = re.search(r"<div class=\"entered-round\" data-entered>(.*?)</div>", html, re.S)
    assert part, "the page does not say what was entered"
    lines = re.findall(r"<(?:p|li) data-line>(.*?)</(?:p|li)>", part.group(1), re.S)
    return [" ".join(without_isolates(re.sub(r"<[^>]+>", "", line)).split()) for line in lines]


def test_a_save_refused_because_another_phone_saved_the_round_says_what_was_entered(app, client):
    edit = import_game(app, rounds=1)  # the other phone saved round 1 (No Last Two) first
    response = client.post(
        f"/g/{edit}/rounds", data={**form_of(NO_HEARTS), "number": "1"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "Another phone saved round 1 first" in html
    assert "You entered" in html
    assert entered_lines(html) == NO_HEARTS_WORDS


def test_a_save_refused_as_the_game_is_complete_says_nothing_it_cannot_place(app, client):
    """Without a round number the save names no round: nothing is said of what was entered."""
    edit = import_game(app, rounds=28)
    response = client.post(f"/g/{edit}/rounds", data=form_of(NO_HEARTS), headers={"HX-Request": "true"})
    assert response.status_code == 409
    assert "data-entered" not in response.get_data(as_text=True)
