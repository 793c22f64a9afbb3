"""Property tests (Hypothesis) on the pure engine: for random legal games of every built-in
preset, the doubles settle to zero, the raw scores add up to the contract's total, what
moves between two players is antisymmetric, and replaying the export scores the same."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.scoring import BUILTIN, export_game, parse_game, preset_to_dict, score
from scorepad.scoring.contracts import POSITIVE
from scorepad.scoring.doubles import pair_settlements, refusal, settle
from scorepad.scoring.game import contracts_left, declarer_of, seats_of

SEATS = range(4)
PRESETS = sorted(BUILTIN)


def contract_total(values: dict, deck: int) -> int:
    """A contract's total from its values in the preset object, worked out from
    barbu-rules.md's table (not from the engine): n tricks, n hearts, 4 queens."""
    n = deck // 4
    cid = values["id"]
    if cid in ("no-tricks", "trumps"):
        return values["per_trick"] * n
    if cid == "no-queens":
        return values["per_queen"] * 4
    if cid == "no-last-two":
        return values["penultimate"] + values["last"]
    if cid == "no-hearts":
        return values["per_heart"] * (n - 1) + values["ace"]
    if cid == "no-king-of-hearts":
        return values["king"]
    if cid == "domino":
        return sum(values["places"])
    if cid == "ravage-city":
        return values["penalty"]
    assert cid == "salade"
    return (
        values["per_trick"] * n
        + values["per_queen"] * 4
        + values["penultimate"]
        + values["last"]
        + values["per_heart"] * (n - 1)
        + values["ace"]
        + values["king"]
    )


def counts(total: int):
    """Four non-negative whole numbers adding up to ``total``."""
    return (
        st.lists(st.integers(0, total), min_size=3, max_size=3)
        .map(sorted)
        .map(lambda cuts: [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], total - cuts[2]])
        .flatmap(st.permutations)
    )


@st.composite
def outcomes(draw, contract: str, deck: int) -> dict:
    n = deck // 4
    seat = st.integers(0, 3)
    if contract in ("no-tricks", "trumps"):
        return {"tricks": draw(counts(n))}
    if contract == "no-queens":
        return {"queens": draw(counts(4))}
    if contract == "no-last-two":
        return {"penultimate": draw(seat), "last": draw(seat)}
    if contract == "no-king-of-hearts":
        return {"king": draw(seat)}
    if contract == "domino":
        return {"order": draw(st.permutations([0, 1, 2, 3]))}
    if contract == "ravage-city":
        return {"most": sorted(draw(st.sets(seat, min_size=1, max_size=4)))}
    hearts = draw(counts(n))
    ace = draw(st.sampled_from([p for p in SEATS if hearts[p] > 0]))
    if contract == "no-hearts":
        return {"hearts": hearts, "ace": ace}
    assert contract == "salade"
    return {
        "tricks": draw(counts(n)),
        "queens": draw(counts(4)),
        "hearts": hearts,
        "ace": ace,
        "king": draw(seat),
        "penultimate": draw(seat),
        "last": draw(seat),
    }


@st.composite
def games(draw) -> dict:
    """A game document with a random legal prefix of rounds: contracts still free for the
    declarer, legal doubles only (the engine's own refusal() per grid cell), any outcome."""
    preset = BUILTIN[draw(st.sampled_from(PRESETS))]
    first = draw(st.integers(0, 3))
    doc = {
        "players": ["Anne", "Beth", "Cath", "Diana"],
        "first_declarer": first,
        "preset": preset_to_dict(preset),
        "rounds": [],
    }
    game = parse_game(doc)
    for index in range(draw(st.integers(0, preset.round_count))):
        declarer = declarer_of(preset, first, index)
        left = contracts_left(preset, first, game.rounds, declarer)
        contract = left[0] if preset.chooser == "fixed" else draw(st.sampled_from(left))
        declarer = seats_of(preset, first, index, contract).declarer
        positive = contract in POSITIVE
        doubles: list[list[int]] = []
        if preset.doubling.enabled:
            doubles = [
                [a, b]
                for a in SEATS
                for b in SEATS
                if refusal(a, b, declarer, positive, preset.doubling) is None and draw(st.booleans())
            ]
            # A redouble needs the double it answers.
            doubles = [[a, b] for a, b in doubles if a != declarer or [b, a] in doubles]
        rnd: dict = {"contract": contract, "doubles": doubles}
        split = preset.undoubled_negative == "split" and not positive and not doubles
        if not split:
            rnd["outcome"] = draw(outcomes(contract, preset.deck))
        doc["rounds"].append(rnd)
        game = parse_game(doc)
    return doc


# Whole random games are slow to draw: a modest number in the suite, more by hand with
# e.g. SCOREPAD_PROPERTY_EXAMPLES=2000 .venv/bin/python -m pytest tests/scoring/test_properties.py
EXAMPLES = int(os.environ.get("SCOREPAD_PROPERTY_EXAMPLES", "40"))
PROPERTY = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(games())
def test_doubles_settlement_sums_to_zero(doc):
    for result in score(parse_game(doc)).rounds:
        assert sum(result.doubles) == 0


@PROPERTY
@given(games())
def test_raw_scores_add_up_to_the_contract_total(doc):
    values = {c["id"]: c for c in doc["preset"]["contracts"]}
    deck = doc["preset"]["deck"]
    for rnd, result in zip(doc["rounds"], score(parse_game(doc)).rounds, strict=True):
        assert sum(result.raw) == contract_total(values[rnd["contract"]], deck)
        assert sum(result.total) == sum(result.raw)  # the doubles only move points


@PROPERTY
@given(games())
def test_settlement_is_antisymmetric_pair_by_pair(doc):
    """What a gains from b is what b loses to a, and swapping the two raw scores turns it round."""
    game = parse_game(doc)
    for index, (rnd, result) in enumerate(zip(game.rounds, score(game).rounds, strict=True)):
        declarer = seats_of(game.preset, game.first_declarer, index, rnd.contract).declarer
        pairs = pair_settlements(result.raw, rnd.doubles, declarer, game.preset.doubling)
        net = [0, 0, 0, 0]
        for pair in pairs:
            net[pair.a] += pair.amount
            net[pair.b] -= pair.amount
            swapped = list(result.raw)
            swapped[pair.a], swapped[pair.b] = swapped[pair.b], swapped[pair.a]
            again = {
                (p.a, p.b): p.amount
                for p in pair_settlements(tuple(swapped), rnd.doubles, declarer, game.preset.doubling)
            }
            assert again[(pair.a, pair.b)] == -pair.amount
        assert tuple(net) == settle(result.raw, rnd.doubles, declarer, game.preset.doubling)
        if result.played:
            assert tuple(net) == result.doubles


@PROPERTY
@given(games())
def test_replaying_the_export_gives_the_same_result(doc):
    export = export_game(parse_game(doc))
    assert export_game(parse_game(export)) == export


@settings(max_examples=300, deadline=None)
@given(
    raw=st.tuples(*[st.integers(-200, 200)] * 4),
    double=st.tuples(st.integers(0, 3), st.integers(0, 3)),
    mutual=st.booleans(),
)
def test_one_pair_moves_the_multiplied_difference(raw, double, mutual):
    """barbu-rules.md: a single double moves the raw difference, double + redouble twice it."""
    a, b = double
    if a == b:
        return
    doubles = [(a, b), (b, a)] if mutual else [(a, b)]
    doubling = BUILTIN["tournament"].doubling
    net = settle(raw, doubles, declarer=b, doubling=doubling)
    moved = (2 if mutual else 1) * (raw[a] - raw[b])
    assert net[a] == moved and net[b] == -moved
    assert all(net[p] == 0 for p in SEATS if p not in (a, b))
