"""A small club worked by hand (issue 16; club-format.md "Club, members, statistics, ladder,
rating"): seven members, six games, built through the JSON API (POST /clubs, members, POST
/games with ``club``, ``members`` and X-Club-Token, every round POSTed with the game's edit
token), then each member's statistics (GET …/members/<id>) and two ladders (GET …/ladder)
checked against the values worked out in the comments below, never against the code.

The games are short, so that every number can be worked on paper:
- SHORT: No Queens (−6 a queen, total −24) and Trumps (+5 a trick, total +65); an undoubled
  No Queens is not played (``undoubled_negative: split``): the declarer 0, each opponent
  round(−24 / 3) = −8. Two contracts, so each declarer has a run of 2 rounds: 8 rounds.
- TRUMPS_ONLY: Trumps alone: 4 rounds, the declarer moves left every round.
Doubles are the tournament's: ×1 one way, ×2 with a redouble (barbu-rules.md "Doubles"),
settled pairwise on the round's raw scores. No quota penalty, so ``final`` = totals.

Every game starts with seat 0 declaring. The members: Anne, Beth, Cath, Diana, Erik, Fay,
Gwen (Gwen never plays); "Gus" is a guest (no member) in G2.

G1, SHORT, 2026-03-03, complete. Seats Anne 0, Beth 1, Cath 2, Diana 3.
  R1 Anne  NQ  no doubles: split            raw  0 −8 −8 −8                          total   0  −8  −8  −8
  R2 Anne  Tr  tricks 5 3 3 2, Beth×Anne    raw 25 15 15 10; A−B: 25−15 → A+10 B−10  total  35   5  15  10
  R3 Beth  NQ  queens 1 0 1 2, Anne×Beth, Cath×Beth, Beth redoubles Cath
               raw −6 0 −6 −12; A−B one way: −6 → A−6 B+6; B−C mutual: 2×(0+6) → B+12 C−12
               doubles −6 +18 −12 0                                                  total −12  18 −18 −12
  R4 Beth  Tr  tricks 2 6 3 2               raw 10 30 15 10                          total  10  30  15  10
  R5 Cath  Tr  tricks 3 3 4 3, Diana×Cath   raw 15 15 20 15; C+5 D−5                 total  15  15  25  10
  R6 Cath  NQ  queens 0 2 1 1, Anne×Diana   raw 0 −12 −6 −6; A+6 D−6                 total   6 −12  −6 −12
  R7 Diana NQ  no doubles: split            raw −8 −8 −8 0                           total  −8  −8  −8   0
  R8 Diana Tr  tricks 3 3 3 4, Anne×Diana, Beth×Diana, Diana redoubles Anne
               raw 15 15 15 20; A−D mutual: 2×(−5) → A−10 D+10; B−D: B−5 D+5        total   5  10  15  35
  final Anne 51, Beth 50, Cath 30, Diana 33 (sum 164 = 4 runs × (−24 + 65)); rank 1 2 4 3.

G2, SHORT, 2026-03-12, complete. Seats Erik 0, Anne 1, Gus 2 (guest), Beth 3.
  R1 Erik  Tr  tricks 4 3 3 3, Gus×Erik     raw 20 15 15 15; E+5 G−5                 total  25  15  10  15
  R2 Erik  NQ  queens 2 1 0 1, Anne×Erik, Erik redoubles Anne, Beth×Gus
               raw −12 −6 0 −6; E−A mutual 2×(−6) → E−12 A+12; G−B: 0+6 → G+6 B−6    total −24   6   6 −12
  R3 Anne  NQ  no doubles: split            raw −8 0 −8 −8                           total  −8   0  −8  −8
  R4 Anne  Tr  tricks 2 5 3 3, Beth×Anne    raw 10 25 15 15; A+10 B−10               total  10  35  15   5
  R5 Gus   Tr  tricks 3 3 4 3               raw 15 15 20 15                          total  15  15  20  15
  R6 Gus   NQ  queens 1 1 2 0, Erik×Gus     raw −6 −6 −12 0; E+6 G−6                 total   0  −6 −18   0
  R7 Beth  Tr  tricks 3 3 3 4, Anne×Beth    raw 15 15 15 20; A−5 B+5                 total  15  10  15  25
  R8 Beth  NQ  queens 0 2 1 1, Gus×Beth, Beth redoubles Gus
               raw 0 −12 −6 −6; G−B equal: nothing moves (the redouble still counts as given)
                                                                                     total   0 −12  −6  −6
  final Erik 33, Anne 63, Gus 34, Beth 34 (164); rank 4 1 2 2: Beth ties the guest.

G3, SHORT, 2026-03-12 (created after G2), complete. Seats Cath 0, Diana 1, Erik 2, Fay 3.
  R1 Cath  NQ  split                        raw 0 −8 −8 −8                           total   0  −8  −8  −8
  R2 Cath  Tr  tricks 4 3 3 3               raw 20 15 15 15                          total  20  15  15  15
  R3 Diana Tr  tricks 3 4 3 3, Fay×Diana    raw 15 20 15 15; D+5 F−5                 total  15  25  15  10
  R4 Diana NQ  queens 2 0 1 1, Cath×Erik and Erik×Cath (both ways between opponents: mutual)
               raw −12 0 −6 −6; C−E 2×(−6) → C−12 E+12                               total −24   0   6  −6
  R5 Erik  NQ  split                        raw −8 −8 0 −8                           total  −8  −8   0  −8
  R6 Erik  Tr  tricks 3 3 4 3               raw 15 15 20 15                          total  15  15  20  15
  R7 Fay   Tr  tricks 3 3 3 4, Diana×Fay    raw 15 15 15 20; D−5 F+5                 total  15  10  15  25
  R8 Fay   NQ  queens 0 1 1 2, Cath×Fay, Fay redoubles Cath
               raw 0 −6 −6 −12; C−F mutual 2×12 → C+24 F−24                          total  24  −6  −6 −36
  final Cath 57, Diana 43, Erik 57, Fay 7 (164); rank 1 3 1 4: Cath and Erik both win.

G4, SHORT, 2026-04-09, NOT complete (3 rounds of 8). Seats Anne 0, Cath 1, Erik 2, Fay 3.
  R1 Anne  Tr  tricks 4 3 2 4, Cath×Anne, Anne redoubles Cath
               raw 20 15 10 20; A−C mutual 2×5 → A+10 C−10                           total  30   5  10  20
  R2 Anne  NQ  queens 1 0 0 3, Erik×Fay     raw −6 0 0 −18; E+18 F−18                total  −6   0  18 −36
  R3 Cath  NQ  split                        raw −8 0 −8 −8                           total  −8   0  −8  −8
  as it stands: Anne 16, Cath 5, Erik 20, Fay −24 (65 − 24 − 24 = 17); rank 2 3 1 4 (no win:
  the game is not complete).

G5, TRUMPS_ONLY, 2026-05-01, complete. Seats Beth 0, Diana 1, Fay 2, Anne 3.
  R1 Beth  tricks 4 3 3 3                   raw 20 15 15 15                          total  20  15  15  15
  R2 Diana tricks 3 4 3 3, Anne×Diana       raw 15 20 15 15; D+5 A−5                 total  15  25  15  10
  R3 Fay   tricks 2 3 5 3                   raw 10 15 25 15                          total  10  15  25  15
  R4 Anne  tricks 3 3 3 4, Beth×Anne        raw 15 15 15 20; B−5 A+5                 total  10  15  15  25
  final Beth 55, Diana 70, Fay 70, Anne 65 (260 = 4 × 65); rank 4 1 1 3.

G6, TRUMPS_ONLY, 2026-04-30 (created after G5, dated before it), complete. Seats Diana 0,
Anne 1, Beth 2, Cath 3.
  R1 Diana tricks 5 3 3 2, Anne×Diana, Diana redoubles Anne
                                            raw 25 15 15 10; D−A mutual 2×10 → D+20 A−20  total 45 −5 15 10
  R2 Anne  tricks 3 3 3 4                   raw 15 15 15 20                          total  15  15  15  20
  R3 Beth  tricks 3 3 4 3, Cath×Beth        raw 15 15 20 15; B+5 C−5                 total  15  15  25  10
  R4 Cath  tricks 3 4 3 3                   raw 15 20 15 15                          total  15  20  15  15
  final Diana 90, Anne 45, Beth 70, Cath 55 (260); rank 1 4 2 3.

(Each round above was cross-checked against the game engine's own round results, which
predate the clubs; the member sums below are only added up by hand.)
"""

import json
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from tests.conftest import fresh_app
from tests.test_api import API, auth

SHORT = {
    "id": "club-short",
    "name": "Club short",
    "contracts": [{"id": "no-queens", "per_queen": -6}, {"id": "trumps", "per_trick": 5}],
    "undoubled_negative": "split",
}
TRUMPS_ONLY = {"id": "trumps-only", "name": "Trumps only", "contracts": [{"id": "trumps", "per_trick": 5}]}
MEMBERS = ["Anne", "Beth", "Cath", "Diana", "Erik", "Fay", "Gwen"]
GUEST = "Gus"


def nq(queens: list[int] | None = None, doubles: tuple = ()) -> dict:
    """A No Queens round; without ``queens`` (and doubles) the deal is split, not played."""
    rnd: dict = {"contract": "no-queens", "doubles": [list(d) for d in doubles]}
    if queens is not None:
        rnd["outcome"] = {"queens": queens}
    return rnd


def tr(tricks: list[int], doubles: tuple = ()) -> dict:
    """A Trumps round."""
    return {"contract": "trumps", "doubles": [list(d) for d in doubles], "outcome": {"tricks": tricks}}


#: label → (date, preset, players in seat order, rounds), in creation order (see the module's notes).
GAMES: dict[str, tuple[str, dict, list[str], list[dict]]] = {
    "G1": (
        "2026-03-03",
        SHORT,
        ["Anne", "Beth", "Cath", "Diana"],
        [
            nq(),
            tr([5, 3, 3, 2], [(1, 0)]),
            nq([1, 0, 1, 2], [(0, 1), (2, 1), (1, 2)]),
            tr([2, 6, 3, 2]),
            tr([3, 3, 4, 3], [(3, 2)]),
            nq([0, 2, 1, 1], [(0, 3)]),
            nq(),
            tr([3, 3, 3, 4], [(0, 3), (1, 3), (3, 0)]),
        ],
    ),
    "G2": (
        "2026-03-12",
        SHORT,
        ["Erik", "Anne", GUEST, "Beth"],
        [
            tr([4, 3, 3, 3], [(2, 0)]),
            nq([2, 1, 0, 1], [(1, 0), (0, 1), (3, 2)]),
            nq(),
            tr([2, 5, 3, 3], [(3, 1)]),
            tr([3, 3, 4, 3]),
            nq([1, 1, 2, 0], [(0, 2)]),
            tr([3, 3, 3, 4], [(1, 3)]),
            nq([0, 2, 1, 1], [(2, 3), (3, 2)]),
        ],
    ),
    "G3": (
        "2026-03-12",
        SHORT,
        ["Cath", "Diana", "Erik", "Fay"],
        [
            nq(),
            tr([4, 3, 3, 3]),
            tr([3, 4, 3, 3], [(3, 1)]),
            nq([2, 0, 1, 1], [(0, 2), (2, 0)]),
            nq(),
            tr([3, 3, 4, 3]),
            tr([3, 3, 3, 4], [(1, 3)]),
            nq([0, 1, 1, 2], [(0, 3), (3, 0)]),
        ],
    ),
    "G4": (
        "2026-04-09",
        SHORT,
        ["Anne", "Cath", "Erik", "Fay"],
        [tr([4, 3, 2, 4], [(1, 0), (0, 1)]), nq([1, 0, 0, 3], [(2, 3)]), nq()],
    ),
    "G5": (
        "2026-05-01",
        TRUMPS_ONLY,
        ["Beth", "Diana", "Fay", "Anne"],
        [tr([4, 3, 3, 3]), tr([3, 4, 3, 3], [(3, 1)]), tr([2, 3, 5, 3]), tr([3, 3, 3, 4], [(0, 3)])],
    ),
    "G6": (
        "2026-04-30",
        TRUMPS_ONLY,
        ["Diana", "Anne", "Beth", "Cath"],
        [tr([5, 3, 3, 2], [(1, 0), (0, 1)]), tr([3, 3, 3, 4]), tr([3, 3, 4, 3], [(3, 2)]), tr([3, 4, 3, 3])],
    ),
}
#: The finals and ranks worked out above, by seat.
FINALS = {
    "G1": ([51, 50, 30, 33], [1, 2, 4, 3]),
    "G2": ([33, 63, 34, 34], [4, 1, 2, 2]),
    "G3": ([57, 43, 57, 7], [1, 3, 1, 4]),
    "G4": ([16, 5, 20, -24], [2, 3, 1, 4]),
    "G5": ([55, 70, 70, 65], [4, 1, 1, 3]),
    "G6": ([90, 45, 70, 55], [1, 4, 2, 3]),
}


def line(rounds: int, declared: int, raw: int, doubles: int) -> dict:
    return {"rounds": rounds, "declared": declared, "raw": raw, "doubles": doubles}


# Each member's statistics, summed by hand from the games above. A contract line per game is
# (rounds, declared, raw, doubles); a member's doubles are (given, received, net).
EXPECTED = {
    # Anne: G1 51 (rank 1), G2 63 (1), G4 16 (2, not complete), G5 65 (3), G6 45 (4).
    # 5 games, 4 complete, 2 wins (G1, G2); total 240; average 240 / 5 = 48.
    # no-queens: G1 (4, 1, 0−6+0−8 = −14, −6+6 = 0); G2 (4, 1, −6+0−6−12 = −24, +12); G4 (2, 1, −6−8 = −14, 0)
    #   → 10 rounds, 3 declared, raw −52, doubles +12.
    # trumps: G1 (4, 1, 25+10+15+15 = 65, +10−10 = 0); G2 (4, 1, 15+25+15+15 = 70, +10−5 = 5); G4 (1, 1, 20, +10);
    #   G5 (4, 1, 15+15+15+20 = 65, −5+5 = 0); G6 (4, 1, 15+15+15+20 = 65, −20)
    #   → 17 rounds, 5 declared, raw 285, doubles −5.   (−52 + 12 + 285 − 5 = 240 ✓)
    # given: G1 3 (R3, R6, R8), G2 2 (R2 redouble, R7), G4 1 (R1 redouble), G5 1, G6 1 → 8;
    # received: G1 2 (R2, R8), G2 2 (R2, R4), G4 1, G5 1, G6 1 → 7; net 0 + 17 + 10 + 0 − 20 = 7.
    "Anne": {
        "games": 5,
        "complete_games": 4,
        "wins": 2,
        "total": 240,
        "average": 48.0,
        "by_contract": {"no-queens": line(10, 3, -52, 12), "trumps": line(17, 5, 285, -5)},
        "doubles": {"given": 8, "received": 7, "net": 7},
        "history": ["G5", "G6", "G4", "G2", "G1"],
    },
    # Beth: G1 50 (2), G2 34 (2, tied with the guest), G5 55 (4), G6 70 (2). 4 games, 4 complete, no win;
    # total 209; average 52.25.
    # no-queens: G1 (4, 1, −8+0−12−8 = −28, +18); G2 (4, 1, −6−8+0−6 = −20, −6) → (8, 2, −48, 12).
    # trumps: G1 (4, 1, 15+30+15+15 = 75, −10−5 = −15); G2 (4, 1, 15+15+15+20 = 65, −10+5 = −5);
    #   G5 (4, 1, 20+15+10+15 = 60, −5); G6 (4, 1, 15+15+20+15 = 65, +5) → (16, 4, 265, −20).  (−48+12+265−20 = 209 ✓)
    # given: G1 3 (R2, R3 redouble, R8), G2 3 (R2, R4, R8 redouble), G5 1 → 7;
    # received: G1 2 (R3 twice), G2 2 (R7, R8), G6 1 → 5; net 3 − 11 − 5 + 5 = −8.
    "Beth": {
        "games": 4,
        "complete_games": 4,
        "wins": 0,
        "total": 209,
        "average": 52.25,
        "by_contract": {"no-queens": line(8, 2, -48, 12), "trumps": line(16, 4, 265, -20)},
        "doubles": {"given": 7, "received": 5, "net": -8},
        "history": ["G5", "G6", "G2", "G1"],
    },
    # Cath: G1 30 (4), G3 57 (1, tied), G4 5 (3, not complete), G6 55 (3). 4 games, 3 complete, 1 win;
    # total 147; average 36.75.
    # no-queens: G1 (4, 1, −8−6−6−8 = −28, −12); G3 (4, 1, 0−12−8+0 = −20, −12+24 = 12); G4 (2, 1, 0+0, 0)
    #   → (10, 3, −48, 0).
    # trumps: G1 (4, 1, 15+15+20+15 = 65, +5); G3 (4, 1, 20+15+15+15 = 65, 0); G4 (1, 0, 15, −10);
    #   G6 (4, 1, 10+20+15+15 = 60, −5) → (13, 3, 205, −10).  (−48 + 0 + 205 − 10 = 147 ✓)
    # given: G1 1, G3 2, G4 1, G6 1 → 5; received: G1 2, G3 2, G4 1 → 5; net −7 + 12 − 10 − 5 = −10.
    "Cath": {
        "games": 4,
        "complete_games": 3,
        "wins": 1,
        "total": 147,
        "average": 36.75,
        "by_contract": {"no-queens": line(10, 3, -48, 0), "trumps": line(13, 3, 205, -10)},
        "doubles": {"given": 5, "received": 5, "net": -10},
        "history": ["G6", "G4", "G3", "G1"],
    },
    # Diana: G1 33 (3), G3 43 (3), G5 70 (1, tied with Fay), G6 90 (1). 4 games, 4 complete, 2 wins;
    # total 236; average 59.
    # no-queens: G1 (4, 1, −8−12−6+0 = −26, −6); G3 (4, 1, −8+0−8−6 = −22, 0) → (8, 2, −48, −6).
    # trumps: G1 (4, 1, 10+10+15+20 = 55, −5+15 = 10); G3 (4, 1, 15+20+15+15 = 65, +5−5 = 0);
    #   G5 (4, 1, 15+20+15+15 = 65, +5); G6 (4, 1, 25+15+15+15 = 70, +20) → (16, 4, 255, 35).  (−48−6+255+35 = 236 ✓)
    # given: G1 2 (R5, R8 redouble), G3 1, G6 1 (redouble) → 4; received: G1 3, G3 1, G5 1, G6 1 → 6;
    # net 4 + 0 + 5 + 20 = 29.
    "Diana": {
        "games": 4,
        "complete_games": 4,
        "wins": 2,
        "total": 236,
        "average": 59.0,
        "by_contract": {"no-queens": line(8, 2, -48, -6), "trumps": line(16, 4, 255, 35)},
        "doubles": {"given": 4, "received": 6, "net": 29},
        "history": ["G5", "G6", "G3", "G1"],
    },
    # Erik: G2 33 (4), G3 57 (1, tied), G4 20 (1, but not complete: no win). 3 games, 2 complete, 1 win;
    # total 110; average 110 / 3 = 36.666… → 36.67.
    # no-queens: G2 (4, 1, −12−8−6+0 = −26, −12+6 = −6); G3 (4, 1, −8−6+0−6 = −20, +12); G4 (2, 0, 0−8, +18)
    #   → (10, 2, −54, 24).
    # trumps: G2 (4, 1, 20+10+15+15 = 60, +5); G3 (4, 1, 15+15+20+15 = 65, 0); G4 (1, 0, 10, 0) → (9, 2, 135, 5).
    #   (−54 + 24 + 135 + 5 = 110 ✓)
    # given: G2 2 (R2 redouble, R6), G3 1, G4 1 → 4; received: G2 2 (R1 by the guest, R2), G3 1 → 3;
    # net −1 + 12 + 18 = 29.  History: G4, then the two games of 2026-03-12, G3 (created later) first.
    "Erik": {
        "games": 3,
        "complete_games": 2,
        "wins": 1,
        "total": 110,
        "average": 36.67,
        "by_contract": {"no-queens": line(10, 2, -54, 24), "trumps": line(9, 2, 135, 5)},
        "doubles": {"given": 4, "received": 3, "net": 29},
        "history": ["G4", "G3", "G2"],
    },
    # Fay: G3 7 (4), G4 −24 (4, not complete), G5 70 (1, tied). 3 games, 2 complete, 1 win; total 53;
    # average 53 / 3 = 17.666… → 17.67.
    # no-queens: G3 (4, 1, −8−6−8−12 = −34, −24); G4 (2, 0, −18−8 = −26, −18) → (6, 1, −60, −42).
    # trumps: G3 (4, 1, 15+15+15+20 = 65, −5+5 = 0); G4 (1, 0, 20, 0); G5 (4, 1, 15+15+25+15 = 70, 0)
    #   → (9, 2, 155, 0).  (−60 − 42 + 155 = 53 ✓)
    # given: G3 2 (R3, R8 redouble) → 2; received: G3 2 (R7, R8), G4 1 → 3; net −24 − 18 = −42.
    "Fay": {
        "games": 3,
        "complete_games": 2,
        "wins": 1,
        "total": 53,
        "average": 17.67,
        "by_contract": {"no-queens": line(6, 1, -60, -42), "trumps": line(9, 2, 155, 0)},
        "doubles": {"given": 2, "received": 3, "net": -42},
        "history": ["G5", "G4", "G3"],
    },
    # Gwen never played: no games, average null, no contract, the default rating.
    "Gwen": {
        "games": 0,
        "complete_games": 0,
        "wins": 0,
        "total": 0,
        "average": None,
        "by_contract": {},
        "doubles": {"given": 0, "received": 0, "net": 0},
        "history": [],
    },
}

# Who won what from whom through doubles (pairwise settlements, by member; the guest left out):
#   G1: R2 Anne 10 from Beth; R3 Beth 6 from Anne, 12 from Cath; R5 Cath 5 from Diana; R6 Anne 6 from Diana;
#       R8 Diana 10 from Anne, 5 from Beth.
#   G2: R2 Anne 12 from Erik; R4 Anne 10 from Beth; R7 Beth 5 from Anne (R1, R2, R6 with Gus left out).
#   G3: R3 Diana 5 from Fay; R4 Erik 12 from Cath; R7 Fay 5 from Diana; R8 Cath 24 from Fay.
#   G4: R1 Anne 10 from Cath; R2 Erik 18 from Fay.   G5: R2 Diana 5 from Anne; R4 Anne 5 from Beth.
#   G6: R1 Diana 20 from Anne; R3 Beth 5 from Cath.
# Net, per member and opponent:
#   Anne:  Beth +10−6+10−5+5 = +14, Diana +6−10−5−20 = −29, Erik +12, Cath +10.
#   Beth:  Anne −14, Cath +12+5 = +17, Diana −5.       Cath: Beth −17, Diana +5, Erik −12, Fay +24, Anne −10.
#   Diana: Anne +29, Beth +5, Cath −5, Fay +5−5 = 0.    Erik: Anne −12, Cath +12, Fay +18.
#   Fay:   Cath −24, Erik −18, Diana 0 (nothing won: no favourite victim).
# nemesis: the most taken from the member; favourite victim: the most won from them.
RIVALS = {
    "Anne": (("Diana", 29), ("Beth", 14)),
    "Beth": (("Anne", 14), ("Cath", 17)),
    "Cath": (("Beth", 17), ("Fay", 24)),
    "Diana": (("Cath", 5), ("Anne", 29)),
    "Erik": (("Anne", 12), ("Fay", 18)),
    "Fay": (("Cath", 24), None),
    "Gwen": (None, None),
}

# Ladder by points: best 2, min_games 2, season 2026-03-12 to 2026-04-30 (both inclusive).
# Complete games in the season: G2 and G3 (on the first day), G6 (on the last day). G1 (before),
# G5 (the day after) and G4 (not complete) do not count.
#   Anne G2 63, G6 45 → 108;  Beth G2 34, G6 70 → 104;  Cath G3 57, G6 55 → 112;
#   Diana G3 43, G6 90 → 133;  Erik G2 33, G3 57 → 90;  Fay G3 7 (1 game: not qualified);  Gwen no game.
BY_POINTS = {"by": "points", "best": 2, "min_games": 2, "from": "2026-03-12", "to": "2026-04-30"}
POINTS_ENTRIES = [
    ("Diana", 2, 2, 133, True, 1),
    ("Cath", 2, 2, 112, True, 2),
    ("Anne", 2, 2, 108, True, 3),
    ("Beth", 2, 2, 104, True, 4),
    ("Erik", 2, 2, 90, True, 5),
    ("Fay", 1, 1, 7, False, None),
    ("Gwen", 0, 0, 0, False, None),
]
# Ladder by places: best 1, min_games 4, no season bounds: every complete game (G1, G2, G3, G5, G6).
# Places in a game: players with a lower final + ½ × the others with an equal final (the guest counts).
#   G1 (51 50 30 33): Anne 3, Beth 2, Diana 1, Cath 0.     G2 (33 63 34 34): Anne 3, Beth 1 + ½ = 1.5, Erik 0.
#   G3 (57 43 57 7): Cath 2.5, Erik 2.5, Diana 1, Fay 0.   G5 (55 70 70 65): Diana 2.5, Fay 2.5, Anne 1, Beth 0.
#   G6 (90 45 70 55): Diana 3, Beth 2, Cath 1, Anne 0.
#   Anne 4 games, best 3;  Beth 4 games, best 2;  Cath 3 games, best 2.5;  Diana 4 games, best 3;
#   Erik 2 games, best 2.5;  Fay 2 games, best 2.5;  Gwen none.
# Qualified (≥ 4 games) first: Anne and Diana share rank 1 (members' order), Beth 3 — though
# Cath, Erik and Fay score more, they come after her, unranked.
BY_PLACES = {"by": "places", "best": 1, "min_games": 4}
PLACES_ENTRIES = [
    ("Anne", 4, 1, 3, True, 1),
    ("Diana", 4, 1, 3, True, 1),
    ("Beth", 4, 1, 2, True, 3),
    ("Cath", 3, 1, 2.5, False, None),
    ("Erik", 2, 1, 2.5, False, None),
    ("Fay", 2, 1, 2.5, False, None),
    ("Gwen", 0, 0, 0, False, None),
]


# ---------------------------------------------------------------- building the club


def create_club(client, name: str, ladder: dict) -> dict:
    response = client.post(f"{API}/clubs", json={"name": name, "ladder": ladder})
    assert response.status_code == 201, response.json
    return response.json


def add_member(client, club: dict, name: str) -> dict:
    response = client.post(f"{API}/clubs/{club['id']}/members", json={"name": name}, headers=auth(club["admin_token"]))
    assert response.status_code == 201, response.json
    assert response.json["name"] == name
    return response.json


def game_document(label: str, ids: dict[str, str], club: dict) -> dict:
    """The game ``label`` of GAMES as a new club game (no rounds yet): the guest has no member."""
    date, preset, players, _ = GAMES[label]
    return {
        "format": "barbu-scorepad/game@1",
        "title": label,
        "date": date,
        "players": players,
        "first_declarer": 0,
        "preset": preset,
        "club": club["id"],
        "members": [ids.get(name) for name in players],
    }


def start_game(client, label: str, ids: dict[str, str], club: dict) -> dict:
    response = client.post(
        f"{API}/games", json=game_document(label, ids, club), headers={"X-Club-Token": club["admin_token"]}
    )
    assert response.status_code == 201, response.json
    return response.json


def play(client, game: dict, rounds: list[dict]) -> None:
    for rnd in rounds:
        response = client.post(f"{API}/games/{game['id']}/rounds", json=rnd, headers=auth(game["edit_token"]))
        assert response.status_code == 201, response.json


def build_club(client, name: str, ladder: dict, labels=tuple(GAMES)) -> tuple[dict, dict[str, str], dict[str, dict]]:
    """A club with MEMBERS and the games ``labels`` played through the API, in that order:
    (the club's answer, member id by name, the game's answer by label)."""
    club = create_club(client, name, ladder)
    ids = {member: add_member(client, club, member)["id"] for member in MEMBERS}
    games = {}
    for label in labels:
        games[label] = start_game(client, label, ids, club)
        play(client, games[label], GAMES[label][3])
    return club, ids, games


def member(client, club: dict, member_id: str, token: str | None = None):
    return client.get(f"{API}/clubs/{club['id']}/members/{member_id}", headers=auth(token or club["view_token"]))


def ladder(client, club: dict, token: str | None = None):
    return client.get(f"{API}/clubs/{club['id']}/ladder", headers=auth(token or club["view_token"]))


@pytest.fixture(scope="module")
def clubs(tmp_path_factory):
    """The two clubs (by points, by places), each with the six games; read only by the tests
    of this module (one database for the module)."""
    for app in fresh_app(tmp_path_factory.mktemp("club")):
        client = app.test_client()
        yield {
            "client": client,
            "points": build_club(client, "De Zwarte Koning", BY_POINTS),
            "places": build_club(client, "Le Roi Noir", BY_PLACES),
        }


# ---------------------------------------------------------------- the tests


def test_the_hand_worked_games_stand_as_worked(clubs):
    """The six games read back with the finals and ranks worked out by hand."""
    client = clubs["client"]
    _, _, games = clubs["points"]
    for label, game in games.items():
        standings = client.get(f"{API}/games/{game['id']}", headers=auth(game["view_token"])).json["standings"]
        assert (standings["final"], standings["rank"]) == (list(FINALS[label][0]), FINALS[label][1]), label
        assert standings["complete"] == (label != "G4")


@pytest.mark.parametrize("name", MEMBERS)
def test_a_members_statistics_are_the_hand_worked_ones(clubs, name):
    client = clubs["client"]
    club, ids, games = clubs["points"]
    response = member(client, club, ids[name])
    assert response.status_code == 200, response.json
    stats = response.json
    expected = EXPECTED[name]
    assert (stats["id"], stats["name"]) == (ids[name], name)
    for key in ("games", "complete_games", "wins", "total", "average", "by_contract", "doubles"):
        assert stats[key] == expected[key], key
    # history: newest first (by date; the two games of 2026-03-12 by creation), each with its final and rank
    game_ids = {game["id"]: label for label, game in games.items()}
    assert [game_ids[h["game_id"]] for h in stats["history"]] == expected["history"]
    for entry in stats["history"]:
        label = game_ids[entry["game_id"]]
        seat = GAMES[label][2].index(name)
        assert (entry["date"], entry["final"], entry["rank"]) == (
            GAMES[label][0],
            FINALS[label][0][seat],
            FINALS[label][1][seat],
        )
    assert stats["links"]["page"]


def test_the_average_is_rounded_half_away_from_zero_to_two_decimals():
    """The expected averages above, from their totals: 110 / 3 and 53 / 3 round up, 36.75 stays."""
    for name, total, games in (("Erik", 110, 3), ("Fay", 53, 3), ("Cath", 147, 4), ("Beth", 209, 4)):
        exact = (Decimal(total) / Decimal(games)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        assert float(exact) == EXPECTED[name]["average"]


@pytest.mark.parametrize("name", MEMBERS)
def test_nemesis_and_favourite_victim_are_the_hand_worked_ones(clubs, name):
    client = clubs["client"]
    club, ids, _ = clubs["points"]
    stats = member(client, club, ids[name]).json
    nemesis, victim = RIVALS[name]
    for key, rival in (("nemesis", nemesis), ("favourite_victim", victim)):
        if rival is None:
            assert stats[key] is None, key
        else:
            assert stats[key] == {"member": ids[rival[0]], "name": rival[0], "points": rival[1]}, key


def test_a_member_who_never_played_has_the_default_rating(clubs):
    client = clubs["client"]
    club, ids, _ = clubs["points"]
    rating = member(client, club, ids["Gwen"]).json["rating"]
    # openskill's Plackett–Luce defaults: μ 25, σ 25/3, ordinal μ − 3σ = 0
    assert rating["mu"] == pytest.approx(25.0)
    assert rating["sigma"] == pytest.approx(25 / 3)
    assert rating["ordinal"] == pytest.approx(0.0, abs=1e-9)
    assert rating["updating"] is False


def test_the_admin_token_reads_the_same_statistics(clubs):
    client = clubs["client"]
    club, ids, _ = clubs["points"]
    assert member(client, club, ids["Anne"], club["admin_token"]).json == member(client, club, ids["Anne"]).json


def test_the_other_club_with_the_same_games_gives_the_same_statistics(clubs):
    """The club by places holds its own copies of the games: its members' numbers are the same."""
    client = clubs["client"]
    club, ids, _ = clubs["places"]
    for name in MEMBERS:
        stats = member(client, club, ids[name]).json
        expected = EXPECTED[name]
        assert [stats[k] for k in ("games", "wins", "total", "average", "by_contract", "doubles")] == [
            expected[k] for k in ("games", "wins", "total", "average", "by_contract", "doubles")
        ], name


def entries(answer: dict, ids: dict[str, str]) -> list[tuple]:
    names = {member_id: name for name, member_id in ids.items()}
    rows = []
    for e in answer["entries"]:
        assert e["name"] == names[e["member"]]
        rows.append((e["name"], e["games"], e["counted"], e["score"], e["qualified"], e["rank"]))
    return rows


def test_the_ladder_by_points_over_the_season(clubs):
    client = clubs["client"]
    club, ids, _ = clubs["points"]
    response = ladder(client, club)
    assert response.status_code == 200, response.json
    answer = response.json
    assert (answer["by"], answer["best"], answer["min_games"]) == ("points", 2, 2)
    assert entries(answer, ids) == POINTS_ENTRIES
    assert all(isinstance(e["score"], int) for e in answer["entries"])


def test_the_ladder_by_places_qualified_first_with_shared_ranks(clubs):
    client = clubs["client"]
    club, ids, _ = clubs["places"]
    answer = ladder(client, club).json
    assert (answer["by"], answer["best"], answer["min_games"]) == ("places", 1, 4)
    assert entries(answer, ids) == PLACES_ENTRIES
    # whole scores are integers, halves are numbers with a fraction
    scores = {e["name"]: e["score"] for e in answer["entries"]}
    assert isinstance(scores["Anne"], int) and isinstance(scores["Cath"], float)


def test_the_club_lists_its_members_with_their_games(clubs):
    client = clubs["client"]
    club, ids, _ = clubs["points"]
    response = client.get(f"{API}/clubs/{club['id']}", headers=auth(club["view_token"]))
    assert response.status_code == 200, response.json
    answer = response.json
    assert (answer["id"], answer["name"]) == (club["id"], "De Zwarte Koning")
    assert answer["ladder"] == {"best": 2, "min_games": 2, "by": "points", "from": "2026-03-12", "to": "2026-04-30"}
    listed = {m["name"]: (m["id"], m["games"]) for m in answer["members"]}
    assert listed == {name: (ids[name], EXPECTED[name]["games"]) for name in MEMBERS}
    assert "admin_token" not in answer and "view_token" not in answer  # a view token sees no secret


# ---------------------------------------------------------------- the examples as club games

EXAMPLES = sorted((Path(__file__).parent / "data" / "examples").glob("*.json"))


def example_numbers(example: dict, seat: int) -> dict:
    """A member's numbers at ``seat`` of the example game alone, summed from the example's
    ``expected`` results (raw and doubles per round, the standings) and its recorded doubles."""
    game, expected = example["game"], example["expected"]
    by_contract: dict[str, dict] = {}
    for rnd, result in zip(game["rounds"], expected["rounds"], strict=True):
        line = by_contract.setdefault(rnd["contract"], {"rounds": 0, "declared": 0, "raw": 0, "doubles": 0})
        line["rounds"] += 1
        line["declared"] += result["declarer"] == seat
        line["raw"] += result["result"]["raw"][seat]
        line["doubles"] += result["result"]["doubles"][seat]
    pairs = [tuple(pair) for rnd in game["rounds"] for pair in rnd.get("doubles", [])]
    standings = expected["standings"]
    return {
        "games": 1,
        "complete_games": int(standings["complete"]),
        "wins": int(standings["complete"] and standings["rank"][seat] == 1),
        "total": standings["final"][seat],  # with the quota penalties of house-rules.json
        "average": float(standings["final"][seat]),
        "by_contract": by_contract,
        "doubles": {
            "given": sum(doubler == seat for doubler, _ in pairs),
            "received": sum(doubled == seat for _, doubled in pairs),
            "net": sum(r["result"]["doubles"][seat] for r in expected["rounds"]),
        },
    }


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_each_example_played_for_a_club_gives_its_members_the_examples_numbers(clubs, path):
    """The four examples (the tournament, house rules with splits, ×2/×4 doubles, an automatic
    redouble and quota penalties, Brader's 32 cards, the French form without doubles), each
    imported as a club game (a club of its own, in the module's database)."""
    client = clubs["client"]
    example = json.loads(path.read_text(encoding="utf-8"))
    club = create_club(client, "De Zwarte Koning", {"best": 1, "min_games": 1})
    players = example["game"]["players"]
    ids = {name: add_member(client, club, name)["id"] for name in players}
    document = {**example["game"], "club": club["id"], "members": [ids[name] for name in players]}
    response = client.post(f"{API}/games", json=document, headers={"X-Club-Token": club["admin_token"]})
    assert response.status_code == 201, response.json
    for seat, name in enumerate(players):
        stats = member(client, club, ids[name]).json
        assert {key: stats[key] for key in example_numbers(example, seat)} == example_numbers(example, seat), name
    ladder_scores = {e["name"]: e["score"] for e in ladder(client, club).json["entries"]}
    assert ladder_scores == dict(zip(players, example["expected"]["standings"]["final"], strict=True))


def test_an_automatic_redouble_is_not_given_a_recorded_one_is(clubs):
    """Preset declarer-doubles-only (only the declarer may be doubled; the declarer redoubles
    whoever doubled them without it being recorded). Anne declares:
      R1 No Tricks, tricks 3 4 3 3 → raw −6 −8 −6 −6; Beth doubles Anne, redoubled automatically:
         2 × (−6 + 8) → Anne +4, Beth −4. Recorded: Beth → Anne only.
      R2 No Queens, queens 1 1 1 1 → raw −6 each; Cath doubles Anne, Anne's redouble recorded:
         equal scores, nothing moves.
    Anne: given 1 (R2, recorded), received 2, net +4; Beth: given 1, received 0 (the automatic
    redouble is not recorded), net −4; Cath: given 1, received 1, net 0."""
    client = clubs["client"]
    club = create_club(client, "De Zwarte Koning", {})
    ids = {name: add_member(client, club, name)["id"] for name in ("Anne", "Beth", "Cath", "Diana")}
    document = {
        "players": ["Anne", "Beth", "Cath", "Diana"],
        "first_declarer": 0,
        "preset": "declarer-doubles-only",
        "club": club["id"],
        "members": [ids["Anne"], ids["Beth"], ids["Cath"], ids["Diana"]],
        "rounds": [
            {"contract": "no-tricks", "doubles": [[1, 0]], "outcome": {"tricks": [3, 4, 3, 3]}},
            {"contract": "no-queens", "doubles": [[2, 0], [0, 2]], "outcome": {"queens": [1, 1, 1, 1]}},
        ],
    }
    response = client.post(f"{API}/games", json=document, headers={"X-Club-Token": club["admin_token"]})
    assert response.status_code == 201, response.json
    expected = {
        "Anne": (
            {"given": 1, "received": 2, "net": 4},
            {"no-tricks": line(1, 1, -6, 4), "no-queens": line(1, 1, -6, 0)},
        ),
        "Beth": (
            {"given": 1, "received": 0, "net": -4},
            {"no-tricks": line(1, 0, -8, -4), "no-queens": line(1, 0, -6, 0)},
        ),
        "Cath": (
            {"given": 1, "received": 1, "net": 0},
            {"no-tricks": line(1, 0, -6, 0), "no-queens": line(1, 0, -6, 0)},
        ),
    }
    for name, (doubles, by_contract) in expected.items():
        stats = member(client, club, ids[name]).json
        assert (stats["doubles"], stats["by_contract"]) == (doubles, by_contract), name
