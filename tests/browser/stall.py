"""Headless Chromium's frame stall, and how a long game goes on past it.

In CI, about one long game in five (the 28-round games of test_full_game and test_presets,
late in a 19-minute run with one shared browser) saw headless Chromium stop producing frames:
the page still ran scripts (Playwright's locators resolved against it), but no tap could see
its element "stable", ``requestAnimationFrame`` never called back and a screenshot timed out.
The stalled page never recovered, and a second game on a fresh page stalled again often enough
to fail a run. It has not been reproduced on a person's phone, in a new-user trial, or with a
fresh browser in isolation; no script of ours loops (there is no observer or loop in static/js).

So a long game is played by :func:`play_rounds`: when a step times out AND the page is proven
to produce no frames (:func:`frames_stalled`), the scorer's page is opened again on a browser of
its own (what a person does: reload) and the game goes on from the round after the last one the
server holds. A timeout on a page that still draws is a real failure and fails the test, as
does any wrong value; and at most :data:`MOST_REOPENS` reopenings are allowed in one game.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from flask import Flask
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from scorepad.services import games

#: How long a page has to call back one animation frame before it is called stalled (ms).
FRAME_PROBE_MS = 5_000
#: Reopenings allowed in one game: a page that stalls more often than this fails the test.
MOST_REOPENS = 2


def frames_stalled(page: Page) -> bool:
    """True when ``page`` produces no animation frame within :data:`FRAME_PROBE_MS`
    (``requestAnimationFrame`` does not call back): the stall described above."""
    # False on the first call, true on the next: the next animation frame's (polling "raf").
    probe = "() => { if (window.__frameProbe) { delete window.__frameProbe; return true; } window.__frameProbe = 1; }"
    try:
        page.wait_for_function(probe, polling="raf", timeout=FRAME_PROBE_MS)
    except PlaywrightTimeoutError:
        return True
    return False


def scorer_url(url: str) -> str:
    """The scorer's page (``…/g/<token>``) of any URL under it (a pushed round-form URL)."""
    match = re.match(r"(.*/g/[A-Za-z0-9_-]+)", url)
    assert match, f"not a scorer's URL: {url}"
    return match.group(1)


def play_rounds(
    page: Page,
    count: int,
    step: Callable[[Page, int], None],
    saved: Callable[[str], int],
    reopen: Callable[[], Page],
) -> Page:
    """Run ``step(page, index)`` for the rounds ``index`` 0 … ``count`` − 1 of a game on the
    scorer's ``page``; returns the page the game ended on.

    ``saved(url)`` is how many rounds the server holds for the game of the scorer's ``url``
    (read from the database, not the page); ``reopen()`` is a fresh phone page on a browser of
    its own. A step's :class:`PlaywrightTimeoutError` is raised unless the page has stopped
    producing frames (:func:`frames_stalled`); then the scorer's page is opened on ``reopen()``
    and the game goes on from round ``saved(url)`` (a round whose save landed is not entered
    twice), at most :data:`MOST_REOPENS` times."""
    index = 0
    reopens = 0
    while index < count:
        try:
            step(page, index)
        except PlaywrightTimeoutError as failure:
            if reopens >= MOST_REOPENS or not frames_stalled(page):
                raise
            reopens += 1
            url = scorer_url(page.url)
            failure.add_note(f"frames stalled at round {index + 1}: reopened ({reopens})")
            page = reopen()
            page.goto(url)
            index = saved(url)
            continue
        index += 1
    return page


def rounds_on_server(app: Flask) -> Callable[[str], int]:
    """``saved`` for :func:`play_rounds`: how many rounds ``app``'s database holds for the game
    of a scorer's URL (found by its edit token, as the page is)."""

    def saved(url: str) -> int:
        found = None
        with app.app_context():
            found = games.find_by_token(url.rsplit("/g/", 1)[1])
            assert found is not None, f"no game for {url}"
            return len(found[0].rounds)

    return saved
