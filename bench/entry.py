"""Round entry benchmark (issue 3): replay every round of every game in tests/data/examples
through the phone UI the way a quick scorer would, and count the taps.

Run by hand (not a test): ``.venv/bin/python bench/entry.py [EXAMPLES_DIR]``.

Playwright drives Debian's Chromium at phone size (390 x 844, touch) against the app served
from a thread on a throwaway SQLite file, with CSRF on. Each game is stored with no rounds;
then every round is entered by tapping: the contract button (unless the form is already up
because there is nothing to choose), the trump suit or starting rank when the example gives
one, the fewest outcome taps the form needs (entry.js fills the last count, and zeros once a
count is complete; domino asks for three places), the cheapest combination of doubles-grid
cells and shortcuts (a search over what each tap does to the cells the server rendered as
usable), and Save. Every tap is really performed; after each save the round's running totals
on the page must equal the example's ``expected`` ones, so a miscounted plan cannot pass.

Prints taps per round (clicks + keystrokes; keystrokes are 0: nothing is typed) per contract
and per game, median and max, the server time per save (ms, measured around the app), and
last the line ``taps per round: median M, max X``.
"""

from __future__ import annotations

import collections
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorepad import create_app  # noqa: E402
from scorepad.config import TestConfig  # noqa: E402
from scorepad.extensions import db  # noqa: E402
from scorepad.services import games  # noqa: E402

EXAMPLES = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "tests" / "data" / "examples"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
COUNTS = ("tricks", "queens", "hearts")


class SaveTimer:
    """WSGI middleware: the server time of each POST that saves a round (ms)."""

    def __init__(self, app):
        self.app, self.times = app, []

    def __call__(self, environ, start_response):
        timed = environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith("/rounds")
        started = time.perf_counter()
        body = list(self.app(environ, start_response))
        if timed:
            self.times.append((time.perf_counter() - started) * 1000)
        return body


class Scorer:
    """The phone and a tap counter: every tap goes through :meth:`tap`."""

    def __init__(self, page: Page):
        self.page, self.taps = page, 0

    def tap(self, selector: str) -> None:
        self.page.locator(selector).tap()
        self.taps += 1


# -- the cheapest doubles plan ---------------------------------------------------------------


def read_grid(page: Page) -> dict:
    """What the server rendered: usable cells, redouble cells (with the double they need),
    and for each row with a family shortcut the cells it ticks (its data-cells)."""
    return page.evaluate("""() => {
      const cells = Array.from(document.querySelectorAll("form.round-form input[name='doubles']"));
      return {
        cells: cells.map(c => c.value),
        needs: Object.fromEntries(cells.filter(c => c.dataset.needs).map(c => [c.value, c.dataset.needs])),
        family: Object.fromEntries(Array.from(document.querySelectorAll("[data-shortcut='family']"))
          .map(b => [b.dataset.row, b.dataset.cells.split(" ")])),
        max: Array.from(document.querySelectorAll("[data-shortcut='max']")).map(b => b.dataset.row),
      };
    }""")


def plan_doubles(grid: dict, target: set[str]) -> list[tuple[str, str]]:
    """The fewest taps from an empty grid to ``target``: breadth-first search over the
    grid states, each tap modelled as entry.js applies it (a cell toggles, a redouble only
    once its double is ticked; "max" sets a row to every usable cell, or for the declarer
    to every redouble whose double is ticked; "family" sets a row to the cells its button names; a
    removed double drops its redouble)."""
    cells, needs = grid["cells"], grid["needs"]

    def sync(state):
        return frozenset(c for c in state if c not in needs or needs[c] in state)

    def row(r):
        return [c for c in cells if c.split("-")[0] == r]

    moves = [("cell", c) for c in cells] + [("max", r) for r in grid["max"]] + [("family", r) for r in grid["family"]]
    start, goal = frozenset(), frozenset(target)
    seen = {start: []}
    queue = collections.deque([start])
    while queue:
        state = queue.popleft()
        if state == goal:
            return seen[state]
        for kind, arg in moves:
            if kind == "cell":
                if arg in needs and needs[arg] not in state:
                    continue  # refused with a message, nothing changes
                new = state ^ {arg}
            else:
                mine = row(arg)
                if kind == "max":
                    on = {c for c in mine if c not in needs or needs[c] in state}
                else:
                    on = set(mine) & set(grid["family"][arg])  # the cells the button's data-cells names
                new = (state - set(mine)) | on
            new = sync(new)
            if new not in seen:
                seen[new] = seen[state] + [(kind, arg)]
                queue.append(new)
    raise AssertionError(f"no way to tick {sorted(target)}")


# -- one round ---------------------------------------------------------------------------------


def count_taps(values: list[int]) -> list[int]:
    """The players whose count a quick scorer taps: the non-zero ones, or any three when all
    four took some (entry.js fills the last from what remains, zeros once it is complete)."""
    nonzero = [seat for seat, v in enumerate(values) if v]
    return nonzero[:3] if len(nonzero) == 4 else nonzero


def enter_round(scorer: Scorer, rnd: dict) -> None:
    page = scorer.page
    if page.locator("form.round-form").count() == 0:
        scorer.tap(f"a[data-contract='{rnd['contract']}']")
    form = "form.round-form"
    expect(page.locator(f"{form} input[name='contract']")).to_have_value(rnd["contract"])
    if "trump" in rnd:
        scorer.tap(f"{form} input[name='trump'][value='{rnd['trump']}']")
    if "start_rank" in rnd:
        scorer.tap(f"{form} input[name='start_rank'][value='{rnd['start_rank']}']")
    for part, value in (rnd.get("outcome") or {}).items():
        if part in COUNTS:
            for seat in count_taps(value):
                scorer.tap(f"{form} input[name='{part}-{seat}'][value='{value[seat]}']")
            shown = [page.locator(f"{form} input[name='{part}-{s}']:checked").get_attribute("value") for s in range(4)]
            assert shown == [str(v) for v in value], (part, shown, value)
        elif part == "order":
            for place, seat in enumerate(value[:3]):
                scorer.tap(f"{form} input[name='order-{place}'][value='{seat}']")
        elif part == "most":
            for seat in value:
                scorer.tap(f"{form} input[name='most'][value='{seat}']")
        else:
            scorer.tap(f"{form} input[name='{part}'][value='{value}']")
    target = {f"{a}-{b}" for a, b in rnd["doubles"]}
    if target:
        for kind, arg in plan_doubles(read_grid(page), target):
            if kind == "cell":
                scorer.tap(f"{form} input[name='doubles'][value='{arg}']")
            else:
                scorer.tap(f"{form} button[data-shortcut='{kind}'][data-row='{arg}']")
    ticked = set(page.locator(f"{form} input[name='doubles']:checked").evaluate_all("els => els.map(e => e.value)"))
    assert ticked == target, (ticked, target)


def save(scorer: Scorer, number: int) -> None:
    page = scorer.page
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/rounds")) as response:
        scorer.tap("form.round-form button.btn-primary[type='submit']")
    assert response.value.status == 200, response.value.text()[:500]
    # entry.js focuses the saved round (or the final standings) once htmx has settled.
    expect(page.locator("#last-title, #final-title").first).to_be_focused()


def running_shown(page: Page, number: int) -> list[int]:
    texts = page.locator(f"#round-{number} td .running").all_inner_texts()
    return [int(t.strip().replace("\u2212", "-")) for t in texts]


# -- the run -----------------------------------------------------------------------------------


def main() -> None:
    tmp = tempfile.TemporaryDirectory()

    class Config(TestConfig):
        SQLALCHEMY_DATABASE_URI = f"sqlite:///{tmp.name}/bench.sqlite3"
        WTF_CSRF_ENABLED = True

    app = create_app(Config)
    with app.app_context():
        db.create_all()
    timer = SaveTimer(app.wsgi_app)
    app.wsgi_app = timer
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"

    per_contract: dict[str, list[int]] = collections.defaultdict(list)
    per_game: dict[str, list[int]] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        device = {k: v for k, v in pw.devices["iPhone 13"].items() if k != "default_browser_type"}
        for path in sorted(EXAMPLES.glob("*.json")):
            print(path.name, file=sys.stderr)
            example = json.loads(path.read_text())
            game, expected = example["game"], example["expected"]
            with app.app_context():
                stored, _ = games.create_game({**game, "rounds": []})
                token = stored.edit_token
            context = browser.new_context(**{**device, "viewport": {"width": 390, "height": 844}})
            page = context.new_page()
            page.goto(f"{base}/g/{token}")
            scorer = Scorer(page)
            taps = []
            for index, rnd in enumerate(game["rounds"]):
                before = scorer.taps
                enter_round(scorer, rnd)
                save(scorer, index + 1)
                assert running_shown(page, index + 1) == expected["rounds"][index]["result"]["running"], (
                    path.name,
                    index + 1,
                )
                taps.append(scorer.taps - before)
                print(f"  round {index + 1} {rnd['contract']}: {taps[-1]} taps", file=sys.stderr)
                per_contract[rnd["contract"]].append(taps[-1])
            per_game[path.stem] = taps
            context.close()
        browser.close()
    server.shutdown()

    def line(name, values):
        return f"  {name:<20} rounds {len(values):>3}  median {statistics.median(values):>4g}  max {max(values):>3}"

    print("Taps per round (clicks + keystrokes; keystrokes: 0), by contract:")
    for contract, values in sorted(per_contract.items()):
        print(line(contract, values))
    print("By game:")
    for name, values in per_game.items():
        print(line(name, values))
    times = sorted(timer.times)
    print(
        f"Server time per save: median {statistics.median(times):.1f} ms, "
        f"p90 {times[int(0.9 * (len(times) - 1))]:.1f} ms, max {times[-1]:.1f} ms ({len(times)} saves)"
    )
    everything = [t for values in per_game.values() for t in values]
    print(f"taps per round: median {statistics.median(everything):g}, max {max(everything)}")


if __name__ == "__main__":
    main()
