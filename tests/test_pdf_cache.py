"""The sheet PDF's cache and render bound (issue 12, "PDF floods"): a game state's PDF is
rendered once and then served from the shared folder; a saved round gives a new PDF; with
every render slot taken the answer is 503 with ``Retry-After``.

The slots and locks are files (scorepad/web/pdf_cache.py); these tests take them themselves
with ``fcntl.flock``, as another worker process would. A request that needs no render answers
while every slot is held, which proves it did not render (a render needs a slot): no timing.
"""

import contextlib
import fcntl
import os
from pathlib import Path

import pytest

from scorepad.scoring import BUILTIN, preset_to_dict
from scorepad.services import presets
from scorepad.web.pdf_cache import prune
from tests.conftest import fresh_app
from tests.test_api import NEW_GAME, WORKED_NO_QUEENS, WORKED_TOTAL, create, post_round
from tests.test_sheet import pdf_facts, points

pytestmark = pytest.mark.pdf

RENDERS = 2


@pytest.fixture
def app(tmp_path):
    """The app with its PDF folder in ``tmp_path/sheets``, two render slots and no wait for one."""
    yield from fresh_app(tmp_path, PDF_CACHE_DIR=str(tmp_path / "sheets"), PDF_RENDERS=RENDERS, PDF_WAIT=0)


def pdfs(app) -> list[Path]:
    return sorted(Path(app.config["PDF_CACHE_DIR"]).glob("*.pdf"))


@contextlib.contextmanager
def held(*paths: Path):
    """Hold the lock files ``paths`` (as a worker rendering would), made if missing."""
    fds = []
    try:
        for path in paths:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT)
            fds.append(fd)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield
    finally:
        for fd in fds:
            os.close(fd)


def every_slot(app) -> list[Path]:
    return [Path(app.config["PDF_CACHE_DIR"]) / "slots" / f"{n}.lock" for n in range(RENDERS)]


def total_line(body: str) -> list[str]:
    """The last four cells of the sheet's Total line (the players' totals), as pdftotext lays them out."""
    return next(line for line in body.splitlines() if line.lstrip().startswith("Total")).split()[-4:]


def test_a_second_request_for_the_same_state_is_served_from_the_cache_without_rendering(app, client):
    game = create(client, NEW_GAME)
    url = f"/s/{game['view_token']}/sheet.pdf"
    first = client.get(url)
    assert first.status_code == 200
    [cached] = pdfs(app)
    assert cached.read_bytes() == first.data
    before = cached.stat()
    # Every slot taken: a render could not start, yet the same PDF comes, from the same file.
    with held(*every_slot(app)):
        again = client.get(url)
        scorer = client.get(f"/s/{game['edit_token']}/sheet.pdf")  # the edit token prints the same page
    assert again.status_code == 200 and scorer.status_code == 200
    assert again.data == first.data == scorer.data
    after = cached.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert pdfs(app) == [cached]


def test_each_page_of_the_same_state_is_its_own_entry(app, client):
    game = create(client, NEW_GAME)
    url = f"/s/{game['view_token']}/sheet.pdf"
    for query in ("", "?paper=letter", "?blank=1"):
        assert client.get(url + query).status_code == 200
    german = client.get(url, headers={"Accept-Language": "de"})
    assert german.status_code == 200
    assert len(pdfs(app)) == 4  # A4, Letter, blank, German: all of the same state, all kept


def test_a_saved_round_gives_a_new_one_page_pdf_with_its_points(app, client, tmp_path):
    game = create(client, NEW_GAME)
    url = f"/s/{game['view_token']}/sheet.pdf"
    before = client.get(url)
    [old] = pdfs(app)
    assert post_round(client, game, WORKED_NO_QUEENS).status_code == 201
    after = client.get(url)
    assert after.status_code == 200
    [new] = pdfs(app)
    assert new.name != old.name  # the old state's PDF went when the new one was written
    pages, _, body = pdf_facts(after.data, tmp_path)
    assert pages == 1
    # barbu-rules.md's worked example: Anne −12, Beth 24, Cath −12, Diana −24.
    assert total_line(body) == [points(v) for v in WORKED_TOTAL]
    assert total_line(pdf_facts(before.data, tmp_path)[2]) != total_line(body)


def test_new_notes_of_the_saved_preset_give_a_new_pdf(app, client, tmp_path):
    """A saved preset's notes are printed but live in the preset's row, not the game's."""
    with app.app_context():
        saved = presets.create_preset(preset_to_dict(BUILTIN["tournament"]), notes="Old house rule.")
        public_id = saved.public_id
    game = create(client, {**NEW_GAME, "preset": public_id})
    url = f"/s/{game['view_token']}/sheet.pdf"
    assert "Old house rule." in pdf_facts(client.get(url).data, tmp_path)[2]
    with app.app_context():
        presets.update_preset(presets.find_preset(public_id), preset_to_dict(BUILTIN["tournament"]), "New rule.")
    body = pdf_facts(client.get(url).data, tmp_path)[2]
    assert "New rule." in body and "Old house rule." not in body


def test_with_every_render_slot_taken_an_uncached_pdf_is_refused_with_retry_after(app, client):
    game = create(client, NEW_GAME)
    url = f"/s/{game['view_token']}/sheet.pdf"
    with held(*every_slot(app)):
        page = client.get(url, headers={"Accept-Language": "de"})
        api = client.get(url, headers={"Accept": "application/json"})
    assert page.status_code == 503 and api.status_code == 503
    assert page.headers["Retry-After"] == "5" and api.headers["Retry-After"] == "5"
    assert "Versuche es in ein paar Sekunden noch einmal." in page.get_data(as_text=True)
    # The page offers the same address again, besides the way back to the start.
    assert f'<a class="btn btn-primary" href="{url}?">Erneut versuchen</a>' in page.get_data(as_text=True)
    assert api.json["error"] == "Many score sheets are being printed right now. Try again in a few seconds."
    assert pdfs(app) == []
    # The slots free again, the same request renders.
    assert client.get(url).status_code == 200
    assert len(pdfs(app)) == 1


def test_a_pdf_being_rendered_for_another_request_is_not_rendered_again(app, client):
    game = create(client, NEW_GAME)
    url = f"/s/{game['view_token']}/sheet.pdf"
    assert client.get(url).status_code == 200
    [cached] = pdfs(app)
    cached.unlink()
    # Another request is rendering this very PDF (it holds the lock named after it): this one
    # waits for that file rather than taking one of the free slots, and with no wait allowed,
    # gives up.
    with held(cached.parent / "locks" / f"{cached.name}.lock"):
        waiting = client.get(url)
    assert waiting.status_code == 503
    assert pdfs(app) == []


def test_the_folder_is_kept_within_its_bound_oldest_written_first(tmp_path):
    folder = tmp_path / "sheets"
    (folder / "locks").mkdir(parents=True)
    for age, name in enumerate(["1-a-x.pdf", "2-a-x.pdf", "3-a-x.pdf", "4-a-x.pdf"]):
        path = folder / name
        path.write_bytes(b"%PDF" + b"." * 996)  # 1000 bytes each
        os.utime(path, (10_000 - age * 100, 10_000 - age * 100))  # 4 is the oldest
    prune(folder, max_bytes=3500)
    # 4000 bytes > 3500: the oldest go until at most three quarters (2625 bytes) are left.
    assert sorted(p.name for p in folder.glob("*.pdf")) == ["1-a-x.pdf", "2-a-x.pdf"]
    prune(folder, max_bytes=3500)
    assert len(list(folder.glob("*.pdf"))) == 2
