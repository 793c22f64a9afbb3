"""Replay the example games of shared/examples and compare with their expected results.

The examples are copied into tests/data/examples so that a clean clone (CI) has them.
"""

import copy
import json
from pathlib import Path

import pytest

from scorepad.scoring import export_game, parse_game

DATA = Path(__file__).resolve().parents[1] / "data" / "examples"
EXAMPLES = sorted(DATA.glob("*.json"))


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_four_examples_are_present():
    assert [p.name for p in EXAMPLES] == [
        "brader-32-card.json",
        "french-classic.json",
        "house-rules.json",
        "tournament-full.json",
    ]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_round_of_the_example_scores_as_expected(path):
    example = load(path)
    exported = export_game(parse_game(example["game"]))
    got = [{"number": r["number"], "declarer": r["declarer"], "result": r["result"]} for r in exported["rounds"]]
    expected = example["expected"]["rounds"]
    assert len(got) == len(expected) == len(example["game"]["rounds"])
    for mine, theirs in zip(got, expected, strict=True):
        assert mine == theirs, f"round {theirs['number']}"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_example_standings_are_as_expected(path):
    example = load(path)
    assert export_game(parse_game(example["game"]))["standings"] == example["expected"]["standings"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_example_export_round_trips(path):
    first = export_game(parse_game(load(path)["game"]))
    assert export_game(parse_game(copy.deepcopy(first))) == first
