"""The longest and fullest games the sheet and the pages must still lay out: four names of 40
characters (one without a space, two right-to-left), a title of 80 characters, a preset of 60
characters with all nine contracts, a quota penalty and every double the rules allow in
every round. Shared by tests/test_sheet.py (WeasyPrint) and tests/browser/test_paper.py."""

from __future__ import annotations

from scorepad.scoring import BUILTIN, parse_game, preset_to_dict
from scorepad.scoring.contracts import POSITIVE
from scorepad.scoring.doubles import refusal
from scorepad.scoring.game import contracts_left, declarer_of

#: Four names of 40 characters each: one with spaces and hyphens, one without a space, an
#: Arabic one with a Latin surname and a Hebrew one.
LONG_NAMES = [
    "Anne-Marie van der Westhuizen-Oosterhuis",
    "Bartholomäusfriedrichwilhelmvonhohenlohe",
    ("سارا Ahmed " + "ابراهيم" * 5)[:40],
    ("מרים " + "בת-שבע " * 6)[:40],
]
LONG_TITLE = "Thursday night Barbu at the Café de la Gare, table two, second half of the season"[:80]
#: Every contract kind once (nine, the most a preset may have), in the tournament's order.
NINE = [
    *preset_to_dict(BUILTIN["tournament"])["contracts"],
    {"id": "ravage-city", "penalty": -36},
    {
        "id": "salade",
        "per_trick": -2,
        "per_queen": -6,
        "penultimate": -10,
        "last": -20,
        "per_heart": -2,
        "ace": -6,
        "king": -20,
    },
]


def outcome(contract: str, deck: int) -> dict:
    """A legal outcome of ``contract`` with a ``deck`` of 52 or 32 cards (13 or 8 tricks and hearts)."""
    n = deck // 4
    split = [1, 2, 3, n - 6]
    hearts = {"hearts": split, "ace": 3}
    return {
        "no-tricks": {"tricks": split},
        "trumps": {"tricks": split[::-1]},
        "no-queens": {"queens": [1, 1, 1, 1]},
        "no-last-two": {"penultimate": 1, "last": 2},
        "no-hearts": hearts,
        "no-king-of-hearts": {"king": 2},
        "domino": {"order": [3, 2, 1, 0]},
        "ravage-city": {"most": [0, 1, 2, 3]},
        "salade": {"tricks": split, "queens": [2, 2, 0, 0], **hearts, "king": 1, "penultimate": 2, "last": 3},
    }[contract]


def nine_contract_preset(name_length: int = 60) -> dict:
    """A preset object (game-format.md) with all nine contracts, a quota penalty and the
    declarer's automatic redouble, named with ``name_length`` characters."""
    return {
        "id": "house-nine",
        "name": ("Nine contracts, every penalty and the whole salade at the end" * 2)[:name_length],
        "deck": 52,
        "chooser": "declarer",
        "rotation": "run",
        "contracts": NINE,
        "doubling": {
            "enabled": True,
            "target": "any",
            "auto_redouble": False,
            "single": 1,
            "mutual": 2,
            "quota": 2,
            "quota_penalty": 10,
        },
        "undoubled_negative": "split",
    }


def full_game(players: list[str], preset: dict, title: str | None = None) -> dict:
    """A game document of ``preset`` with every round played in preset order, each with
    every double and redouble the rules allow (the most marks a sheet's cell can get)."""
    doc: dict = {"players": players, "first_declarer": 0, "preset": preset, "rounds": []}
    if title:
        doc["title"] = title
    game = parse_game(doc)
    p = game.preset
    for index in range(p.round_count):
        declarer = declarer_of(p, 0, index)
        contract = contracts_left(p, 0, game.rounds, declarer)[0]
        positive = contract in POSITIVE
        doubles = [
            [a, b]
            for a in range(4)
            for b in range(4)
            if a != declarer and refusal(a, b, declarer, positive, p.doubling) is None
        ]
        doubles += [[declarer, a] for a, b in doubles if b == declarer]
        rnd: dict = {"contract": contract, "doubles": doubles, "outcome": outcome(contract, p.deck)}
        if contract == "trumps":
            rnd["trump"] = "spades"
        if contract == "domino":
            rnd["start_rank"] = "J"
        doc["rounds"].append(rnd)
        game = parse_game(doc)
    return doc
