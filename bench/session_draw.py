"""The time of drawing one session of a night drawn as it runs
(:func:`scorepad.scoring.session_draw.draw_session`), in process, no server: a night whose
sessions are drawn one at a time, each from the players then present (a few arriving late,
a few leaving), timed at the draw of the last session: at random and by the standings (a
drawn order). Per night size, the median and the slowest of ``--draws`` nights (seeds 0, 1,
…) and the repeats the last session adds. Run by hand: `.venv/bin/python bench/session_draw.py`.
Target (issue 27): a session for 200 present players after 5 sessions in ≤ 1 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from scorepad.scoring.session_draw import draw_session, repeats_added

#: Nights measured: (players present at the last draw, sessions drawn before it).
NIGHTS = [(200, 5), (40, 5), (13, 5)]


def night(present: int, before: int, rng: random.Random, by_standings: bool) -> tuple[float, int]:
    """Draw ``before`` sessions one at a time (two players late for session 2, one leaving
    after session 3), then time the next: milliseconds, repeats it adds."""
    listed = present - 2
    drawn: tuple = ()
    gone: set[int] = set()
    elapsed = 0.0
    added = 0
    for number in range(1, before + 2):
        if number == 2:
            listed += 2
        if number == 4:
            gone = {0}
            listed += 1  # and one more late, so that `present` players are there at the end
        here = [p for p in range(listed) if p not in gone]
        standings = rng.sample(here, len(here)) if by_standings and number > 1 else None
        start = time.perf_counter()
        session = draw_session(listed, here, drawn, rng, standings=standings)
        elapsed = (time.perf_counter() - start) * 1000
        added = repeats_added(drawn, [list(t.players) for t in session.tables])
        drawn = (*drawn, session)
    return elapsed, added


def main() -> None:
    """Print one line per night size and draw: median and max milliseconds, repeats seen."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--draws", type=int, default=10, help="nights per size")
    args = parser.parse_args()
    for present, before in NIGHTS:
        for by_standings in (False, True):
            times, repeats = [], set()
            for seed in range(args.draws):
                ms, added = night(present, before, random.Random(seed), by_standings)
                times.append(ms)
                repeats.add(added)
            how = "by standings" if by_standings else "at random"
            print(
                f"{present} present, session {before + 1} {how}: median {statistics.median(times):.1f} ms,"
                f" max {max(times):.1f} ms, repeats added {min(repeats)}–{max(repeats)}"
            )


if __name__ == "__main__":
    main()
