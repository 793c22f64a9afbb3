"""The history replayed from its first entry gives the game's current rounds exactly
(issue 15): Hypothesis plays sequences of record, edit, undo, put back, confirm and dispute
through the API on the real database, then rebuilds the rounds from GET …/history alone
(scoring.trust.replay) and compares them with the game's export.

The rounds are tournament rounds declared by Anne (seat 0, rounds 1 to 7), one contract per
round number in a fixed order, each in two versions worked by hand (the edit swaps them), so
every operation is one the scorepad accepts.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.scoring.trust import replay
from tests.test_api import API, NEW_GAME, auth, create, fetch

# Round n (1-based) plays CONTRACTS[n - 1]; Beth doubles Anne in each (a negative contract
# undoubled would not be played). Two outcomes of each: 13 tricks, 4 queens, 13 hearts.
VERSIONS = {
    "no-queens": ({"queens": [1, 0, 1, 2]}, {"queens": [0, 1, 1, 2]}),
    "no-hearts": ({"hearts": [2, 5, 3, 3], "ace": 1}, {"hearts": [2, 5, 3, 3], "ace": 2}),
    "no-tricks": ({"tricks": [3, 4, 3, 3]}, {"tricks": [4, 3, 3, 3]}),
    "no-king-of-hearts": ({"king": 1}, {"king": 3}),
    "no-last-two": ({"penultimate": 1, "last": 2}, {"penultimate": 2, "last": 2}),
    "trumps": ({"tricks": [5, 3, 3, 2]}, {"tricks": [6, 3, 2, 2]}),
}
CONTRACTS = list(VERSIONS)
TRUMP = {"trumps": "hearts"}


def round_doc(number: int, version: int) -> dict:
    contract = CONTRACTS[number - 1]
    doc = {"contract": contract, "doubles": [[1, 0]], "outcome": VERSIONS[contract][version]}
    if contract in TRUMP:
        doc["trump"] = TRUMP[contract]
    return doc


OPERATIONS = st.lists(
    st.tuples(st.sampled_from(["record", "edit", "undo", "confirm", "dispute", "put_back"]), st.integers(0, 7)),
    max_size=14,
)


def apply(client, game: dict, operation: str, pick: int, count: int) -> None:
    """One operation on the game of ``count`` rounds; refusals (an edit of no round, an undo of
    none) are part of the sequence too and must leave the history as it was."""
    headers = auth(game["edit_token"])
    witness = auth(game["confirm_token"])
    number = pick % count + 1 if count else 1
    url = f"{API}/games/{game['id']}/rounds"
    if operation == "record" and count < len(CONTRACTS):
        assert client.post(url, json=round_doc(count + 1, pick % 2), headers=headers).status_code == 201
    elif operation == "edit" and count:
        client.put(f"{url}/{number}", json=round_doc(number, pick % 2), headers=headers)
    elif operation == "undo" and count:
        assert client.delete(f"{url}/{count}", headers=headers).status_code == 204
    elif operation == "confirm" and count:
        assert client.post(f"{url}/{number}/confirm", headers=witness).status_code == 200
    elif operation == "dispute" and count:
        response = client.post(f"{url}/{number}/dispute", json={"note": f"note {pick}"}, headers=witness)
        assert response.status_code == 200
    elif operation == "put_back":
        client.post(f"/g/{game['edit_token']}/rounds/put-back", data={})  # a 409 when nothing is undone


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS)
def test_the_history_replayed_gives_the_current_rounds_and_statuses(app, client, operations):
    app.config["WTF_CSRF_ENABLED"] = False  # the put back goes through the scorer's page form
    game = create(client, NEW_GAME)
    count = 0
    for operation, pick in operations:
        apply(client, game, operation, pick, count)
        count = len(fetch(client, game)["rounds"])
    document = fetch(client, game)
    history = client.get(f"{API}/games/{game['id']}/history", headers=auth(game["view_token"])).json
    rebuilt = replay(history)
    keys = ("contract", "trump", "start_rank", "doubles", "outcome")
    assert [dict(r.round) for r in rebuilt] == [{k: rnd[k] for k in keys if k in rnd} for rnd in document["rounds"]]
    assert [r.status for r in rebuilt] == [rnd["status"] for rnd in document["rounds"]]
    assert document["history"] == history


def test_a_round_put_back_is_recorded_again_after_its_undo(app, client):
    app.config["WTF_CSRF_ENABLED"] = False
    game = create(client, NEW_GAME)
    for operation, pick, count in (("record", 0, 0), ("record", 1, 1), ("dispute", 1, 2), ("undo", 0, 2)):
        apply(client, game, operation, pick, count)
    apply(client, game, "put_back", 0, 1)
    history = client.get(f"{API}/games/{game['id']}/history", headers=auth(game["view_token"])).json
    # Round 2 (version 1) was disputed, undone and put back: recorded again, provisional.
    assert [(e["action"], e["round"]) for e in history] == [
        ("record", 1),
        ("record", 2),
        ("dispute", 2),
        ("undo", 2),
        ("record", 2),
    ]
    assert history[-1]["after"] == round_doc(2, 1)
    assert [r["status"] for r in fetch(client, game)["rounds"]] == ["provisional", "provisional"]
