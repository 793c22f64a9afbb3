"""The time of a club night's seating draw (:func:`scorepad.scoring.seating_draw.draw_seating`),
in process, no server: per night size, the median and the slowest of ``--draws`` draws (seeds
0, 1, …) and their repeat meetings. Run by hand: `.venv/bin/python bench/seating.py`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from scorepad.scoring.night import MAX_SESSIONS
from scorepad.scoring.seating import repeat_count
from scorepad.scoring.seating_draw import draw_seating

#: Nights measured: (players, sessions). 40 players is the largest night the annealing serves.
NIGHTS = [(40, MAX_SESSIONS), (39, MAX_SESSIONS), (11, MAX_SESSIONS), (7, MAX_SESSIONS), (200, MAX_SESSIONS)]


def main() -> None:
    """Print one line per night: players × sessions, median and max milliseconds, repeats seen."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--draws", type=int, default=20, help="draws per night size")
    args = parser.parse_args()
    for players, sessions in NIGHTS:
        times, repeats = [], set()
        for seed in range(args.draws):
            start = time.perf_counter()
            seating = draw_seating(players, sessions, random.Random(seed))
            times.append((time.perf_counter() - start) * 1000)
            repeats.add(repeat_count(seating))
        print(
            f"{players} × {sessions}: median {statistics.median(times):.1f} ms, max {max(times):.1f} ms,"
            f" repeats {min(repeats)}–{max(repeats)}"
        )


if __name__ == "__main__":
    main()
