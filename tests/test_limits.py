"""The limits on games started and presets saved (scorepad/web/limits.py, issue 12): budgets
per device and per address, a burst window and a day, counted atomically. The clock is the
app's CLOCK setting, so each test says what time it is (no sleeps); every number below is
worked from the configuration by hand."""

import html as html_lib
import json
import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from scorepad.extensions import db
from scorepad.models import LimitCounter, StoredGame, StoredPreset
from scorepad.scoring import BUILTIN, preset_to_dict
from scorepad.services import common, games, limits
from scorepad.web.limits import GAME_STARTS, limit

GAME = {"players": ["Anne", "Bert", "Carla", "Dirk"], "preset": "tournament", "first_declarer": 0}
FORM = {"title": "", "first_declarer": "0", "preset": "tournament"} | {
    f"players-{seat}": name for seat, name in enumerate(GAME["players"])
}
PRESET = {"preset": preset_to_dict(BUILTIN["brader"])}
CLUB = "192.0.2.10"  # the club's Wi-Fi: every phone and script behind it has this address


def at(app, *when: int) -> list[datetime]:
    """Set the app's clock to ``datetime(*when)`` UTC; the list returned moves it (``[0] = ...``)."""
    now = [datetime(*when, tzinfo=UTC)]
    app.config["CLOCK"] = lambda: now[0]
    return now


def phones(app, count: int) -> list:
    """``count`` clients from the club's address, each a phone that started a game before
    (so its cookie carries its device id)."""
    clients = []
    for _ in range(count):
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = CLUB
        assert client.post("/games/new", data=FORM).status_code == 303
        clients.append(client)
    return clients


def script(app):
    """A client from the club's address that sends no cookie (a script on the API)."""
    client = app.test_client(use_cookies=False)
    client.environ_base["REMOTE_ADDR"] = CLUB
    return client


def counts(app) -> dict[str, int]:
    """The counters of the windows open now, as {bucket without whose it is: count}, summed
    (over devices, for the device's buckets)."""
    with app.app_context():
        now = int(common.clock().timestamp())
        rows = db.session.scalars(
            select(LimitCounter).where(LimitCounter.window_start <= now, LimitCounter.window_end > now)
        )
        found: dict[str, int] = {}
        for row in rows:
            kind = row.bucket.rsplit(":", 1)[0]
            found[kind] = found.get(kind, 0) + row.count
        return found


def stored(app, model=StoredGame) -> int:
    with app.app_context():
        return db.session.query(model).count()


def test_a_club_of_new_phones_starts_150_games_in_a_minute(app):
    """Defaults: the address's burst for devices that never stored anything is 150 first games
    a minute (issue 12 asks for at least 120), its day 1000. One phone started a game at 19:58;
    at 20:00:15, 150 phones new to the app start their first game each; the 151st new phone is
    refused, 45 s before the minute's window ends. The phone that played before is not: an
    established device counts in its own buckets only."""
    now = at(app, 2026, 11, 30, 19, 58, 0)
    (regular,) = phones(app, 1)
    now[0] = datetime(2026, 11, 30, 20, 0, 15, tzinfo=UTC)
    assert phones(app, 150)
    late = app.test_client()
    late.environ_base["REMOTE_ADDR"] = CLUB
    refused = late.post("/games/new", data=FORM)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "45"
    assert (
        "150 games were started from this network, the most allowed within 1 minute; try again in 45 seconds."
        in html_lib.unescape(refused.get_data(as_text=True))
    )
    assert regular.post("/games/new", data=FORM).status_code == 303
    assert stored(app) == 1 + 150 + 1
    # Each phone's first game counted in the address's "new" buckets (the regular's at 19:58 in
    # another minute); the regular's second game in its device's only.
    assert counts(app) == {
        "games:address-new:60": 150,
        "games:address-new:86400": 151,
        "games:device:60": 151,
        "games:device:86400": 152,
    }
    # The next minute, new phones start games again.
    now[0] = datetime(2026, 11, 30, 20, 1, 0, tzinfo=UTC)
    assert late.post("/games/new", data=FORM).status_code == 303


def test_cookies_minted_by_failed_forms_cannot_lock_an_established_phone_out(app):
    """The probe's attack, with a day of 300 for the address (defaults otherwise). A phone
    started a game at 19:59. From 20:00 a script behind the same address gets device cookies
    for free (a new-game form with errors: 422, nothing stored) and starts games on the API
    with them: 30 per cookie (the device's burst), 5 cookies fill the address's "new" burst of
    150 and a 6th cookie is refused; at 20:01 another 150 fill the day's 300 (1 of it the
    phone's first game, so the last of these is refused). The phone still starts games; a
    phone new to the app waits for the day's end (what remains possible), 3 h 59 min."""
    app.config["MAX_GAMES_PER_ADDRESS"] = 300
    now = at(app, 2026, 11, 30, 19, 59, 0)
    (phone,) = phones(app, 1)

    def minted():
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = CLUB
        answer = client.post("/games/new", data={**FORM, "players-0": ""})
        assert answer.status_code == 422
        assert "session=" in answer.headers["Set-Cookie"]
        return client

    now[0] = datetime(2026, 11, 30, 20, 0, 0, tzinfo=UTC)
    cookies = [minted() for _ in range(6)]
    statuses = [client.post("/api/v1/games", json=GAME).status_code for client in cookies for _ in range(30)]
    assert statuses == [201] * 150 + [429] * 30
    assert phone.post("/games/new", data=FORM).status_code == 303
    now[0] = datetime(2026, 11, 30, 20, 1, 0, tzinfo=UTC)
    cookies = [minted() for _ in range(5)]
    statuses = [client.post("/api/v1/games", json=GAME).status_code for client in cookies for _ in range(30)]
    assert statuses == [201] * 149 + [429]
    assert phone.post("/games/new", data=FORM).status_code == 303
    newcomer = app.test_client()
    newcomer.environ_base["REMOTE_ADDR"] = CLUB
    refused = newcomer.post("/games/new", data=FORM)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == str(3 * 3600 + 59 * 60)
    assert stored(app) == 1 + 150 + 1 + 149 + 1
    assert counts(app)["games:address-new:86400"] == 300


def test_a_script_without_a_cookie_cannot_lock_the_club_phones_out(app):
    """Defaults: a script on the API from the club's address starts games until refused:
    its own bucket's burst, 150. The club's phones, with their device ids, still start games;
    so does a new phone (a page without a device yet: a bucket of its own too)."""
    now = at(app, 2026, 11, 30, 19, 59, 0)
    club = phones(app, 3)
    now[0] = datetime(2026, 11, 30, 20, 0, 0, tzinfo=UTC)
    abuser = script(app)
    statuses = []
    while not statuses or statuses[-1] == 201:
        statuses.append(abuser.post("/api/v1/games", json=GAME).status_code)
    assert statuses == [201] * 150 + [429]
    for phone in club:
        assert phone.post("/games/new", data=FORM).status_code == 303
    assert phones(app, 1)  # a new phone
    # And the script gets no further by day: 1000 a day, counted apart (151 minutes' worth would be
    # needed); the next minute it has its burst again.
    now[0] = datetime(2026, 11, 30, 20, 1, 0, tzinfo=UTC)
    assert abuser.post("/api/v1/games", json=GAME).status_code == 201
    assert counts(app)["games:address-api:86400"] == 151


def test_a_phone_meets_its_own_burst_long_before_the_address(app):
    """Defaults: one phone (or a script keeping its cookie) starts 30 games in a minute, then
    is refused; the other phones behind the same address are not."""
    now = at(app, 2026, 11, 30, 19, 59, 0)
    busy, other = phones(app, 2)
    now[0] = datetime(2026, 11, 30, 20, 0, 50, tzinfo=UTC)
    assert [busy.post("/games/new", data=FORM).status_code for _ in range(31)] == [303] * 30 + [429]
    refused = busy.post("/games/new", data=FORM)
    assert refused.headers["Retry-After"] == "10"
    assert "This device has started 30 games, the most allowed within 1 minute" in html_lib.unescape(
        refused.get_data(as_text=True)
    )
    assert other.post("/games/new", data=FORM).status_code == 303
    # The phones' first games (19:59) counted in the address's day; this minute's in the devices' only.
    assert counts(app) == {"games:address-new:86400": 2, "games:device:60": 31, "games:device:86400": 33}


def test_the_wait_is_that_of_the_window_that_frees_up_last(app):
    """A device at both its burst (1) and its day (1): the day's window ends at midnight,
    an hour after 23:00, so the client is told an hour, not the burst's minute."""
    app.config["MAX_GAMES_PER_DEVICE_BURST"] = 1
    app.config["MAX_GAMES_PER_DEVICE"] = 1
    at(app, 2026, 11, 30, 23, 0, 0)
    client = app.test_client()
    assert client.post("/api/v1/games", json=GAME).status_code == 201  # no device: the API makes none
    assert client.post("/games/new", data=FORM).status_code == 303  # the page makes this browser's device
    refused = client.post("/api/v1/games", json=GAME)  # the API with the browser's cookie: its device counts
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "3600"
    assert refused.get_json()["error"] == (
        "This device has started 1 game, the most allowed within 1 day; finish or reuse it, or try again in 1 hour."
    )


def test_a_refused_or_failed_request_spends_nothing(app):
    """Device burst 2. Forms with errors (422) store nothing and count nothing; a refusal by
    the device's burst does not spend the address's budget either."""
    app.config["MAX_GAMES_PER_DEVICE_BURST"] = 2
    at(app, 2026, 11, 30, 20, 0, 0)
    client = app.test_client()
    for _ in range(3):
        assert client.post("/games/new", data={**FORM, "players-0": ""}).status_code == 422
        assert client.post("/api/v1/games", json={"players": ["Anne"]}).status_code == 422
    assert [client.post("/games/new", data=FORM).status_code for _ in range(3)] == [303, 303, 429]
    assert stored(app) == 2
    # The first form (a page) gave the browser its device id, but the device stored nothing until
    # its first game, which counted in the address's "new" buckets too; the second, from an
    # established device, in its own only; the refused third in none.
    assert counts(app) == {
        "games:device:60": 2,
        "games:device:86400": 2,
        "games:address-new:60": 1,
        "games:address-new:86400": 1,
    }


def test_a_request_that_starts_many_games_counts_once(app):
    """A club night's tables are started by one request (issue #14): ``limit(GAME_STARTS)``
    counts that request once. With a burst of 2 per device, two nights of 20 tables pass."""
    app.config["MAX_GAMES_PER_DEVICE_BURST"] = 2

    def night():
        from scorepad.web.device import creator

        for _ in range(20):
            games.create_game(dict(GAME), **creator())
        return "", 201

    app.add_url_rule("/test/night", "night", limit(GAME_STARTS)(night), methods=["POST"])
    at(app, 2026, 11, 30, 20, 0, 0)
    client = app.test_client()
    assert [client.post("/test/night").status_code for _ in range(3)] == [201, 201, 429]
    assert stored(app) == 40


def test_the_api_and_the_phones_save_presets_from_separate_budgets(app):
    """Presets per address, 2 a day; per device, 5 a day. A script without a cookie saves 2 and
    is refused. A phone behind the same address saves its first as a device that stored
    nothing yet (1 of the address's "new" 2), then 3 more as an established device, counted
    in its own day only, and a 5th on the API with its cookie; the 6th is its device's limit.
    A second new phone takes the "new" bucket's 2nd; a third is refused."""
    app.config["MAX_PRESETS_PER_ADDRESS"] = 2
    app.config["MAX_PRESET_SAVES_PER_DEVICE"] = 5
    at(app, 2026, 11, 30, 18, 0, 0)
    abuser = script(app)
    assert [abuser.post("/api/v1/presets", json=PRESET).status_code for _ in range(3)] == [201, 201, 429]
    newcomers = [app.test_client() for _ in range(3)]
    for phone in newcomers:
        phone.environ_base["REMOTE_ADDR"] = CLUB
    phone = newcomers[0]
    text = json.dumps(PRESET["preset"])
    imported = [phone.post("/presets/import", data={"text": text}).status_code for _ in range(4)]
    assert imported == [303, 303, 303, 303]
    assert [phone.post("/api/v1/presets", json=PRESET).status_code for _ in range(2)] == [201, 429]
    refused = phone.post("/api/v1/presets", json=PRESET)
    assert refused.get_json()["error"] == (
        "This device has saved 5 presets, the most allowed within 1 day; try again in 6 hours."
    )
    assert [client.post("/presets/import", data={"text": text}).status_code for client in newcomers[1:]] == [303, 429]
    assert stored(app, StoredPreset) == 2 + 5 + 1


def test_counters_of_ended_windows_are_deleted(app):
    now = at(app, 2026, 11, 30, 23, 59, 30)
    client = script(app)
    assert client.post("/api/v1/games", json=GAME).status_code == 201
    assert counts(app) == {"games:address-api:60": 1, "games:address-api:86400": 1}
    now[0] = datetime(2026, 12, 1, 0, 0, 10, tzinfo=UTC)  # a new minute and a new day
    assert client.post("/api/v1/games", json=GAME).status_code == 201
    with app.app_context():
        windows = sorted((row.window_start, row.window_end) for row in db.session.scalars(select(LimitCounter)))
    midnight = int(datetime(2026, 12, 1, tzinfo=UTC).timestamp())
    assert windows == [(midnight, midnight + 60), (midnight, midnight + 86400)]


def test_windows_are_fixed_minutes_and_utc_days():
    now = datetime(2026, 11, 30, 20, 0, 15, tzinfo=UTC)
    minute = int(datetime(2026, 11, 30, 20, 0, tzinfo=UTC).timestamp())
    day = int(datetime(2026, 11, 30, tzinfo=UTC).timestamp())
    assert limits.fixed_window(now, timedelta(minutes=1)) == (minute, minute + 60)
    assert limits.fixed_window(now, timedelta(hours=24)) == (day, day + 86400)


# -- concurrency ---------------------------------------------------------------------------


def race(app, url: str, body: dict, attempts: int) -> list[int]:
    """``attempts`` requests to ``url`` at once, from as many threads (each its own app context,
    session and database connection), released together: their statuses, sorted."""
    start = threading.Barrier(attempts)
    statuses: list[int] = []
    done = threading.Lock()

    def attempt() -> None:
        client = script(app)
        start.wait(timeout=120)
        status = client.post(url, json=body).status_code
        with done:
            statuses.append(status)

    threads = [threading.Thread(target=attempt) for _ in range(attempts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(statuses)


@pytest.mark.parametrize(
    "url, body, setting, model",
    [
        ("/api/v1/games", GAME, "MAX_GAMES_PER_ADDRESS", StoredGame),
        ("/api/v1/presets", PRESET, "MAX_PRESETS_PER_ADDRESS", StoredPreset),
    ],
    ids=["games", "presets"],
)
def test_concurrent_requests_at_the_limit_store_exactly_the_limit(app, url, body, setting, model):
    """40 requests at once from one address, 25 allowed a day: exactly 25 are stored, 15
    refused, and the counter says 25 (counting then inserting let 610 of 600 through)."""
    app.config[setting] = 25
    at(app, 2026, 11, 30, 20, 0, 0)
    assert race(app, url, body, 40) == [201] * 25 + [429] * 15
    assert stored(app, model) == 25
    kind = url.rsplit("/", 1)[1]
    assert counts(app)[f"{kind}:address-api:86400"] == 25


def test_the_wait_is_said_in_the_pages_language(app):
    app.config["MAX_GAMES_PER_ADDRESS_BURST"] = 0
    at(app, 2026, 11, 30, 20, 0, 15)
    refused = script(app).post("/api/v1/games", json=GAME, headers={"Accept-Language": "de"})
    assert refused.get_json()["error"] == (
        "Aus diesem Netz wurden 0 Partien begonnen, mehr geht innerhalb von 1 Minute nicht; "
        "versuche es in 45 Sekunden wieder."
    )


@pytest.mark.parametrize(
    "shared, other",
    [
        (["2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe", "2001:db8:1:2:abcd::7"], "2001:db8:1:3::1"),
        (["192.0.2.10", "::ffff:192.0.2.10", "::ffff:c000:20a"], "192.0.2.11"),
    ],
    ids=["ipv6-64", "ipv4-mapped"],
)
def test_an_address_counts_by_its_network(app, shared, other):
    """Address burst 2. An IPv6 client counts by its /64 (it can take any address in it), an
    IPv4-mapped IPv6 address as the IPv4 one: three addresses of one are one budget (2 pass,
    the third refused); the next /64 (or address) has its own."""
    app.config["MAX_GAMES_PER_ADDRESS_BURST"] = 2
    at(app, 2026, 11, 30, 20, 0, 0)

    def start_from(address: str) -> int:
        client = app.test_client(use_cookies=False)
        client.environ_base["REMOTE_ADDR"] = address
        return client.post("/api/v1/games", json=GAME).status_code

    assert [start_from(address) for address in shared] == [201, 201, 429]
    assert start_from(other) == 201


def test_the_new_game_form_keeps_what_was_typed_when_refused(app):
    """Address burst 1: a new phone starts a game; a second new phone's form is refused with
    429, the message at the top and its players' names kept; a form with errors at the limit
    still says what is wrong (422), as any time."""
    app.config["MAX_GAMES_PER_ADDRESS_BURST"] = 1
    at(app, 2026, 11, 30, 20, 0, 20)
    assert phones(app, 1)
    second = app.test_client()
    second.environ_base["REMOTE_ADDR"] = CLUB
    typed = {**FORM, "players-0": "Zoë", "players-1": "Yann", "players-2": "Xavi", "players-3": "Wim"}
    refused = second.post("/games/new", data=typed)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "40"
    page = html_lib.unescape(refused.get_data(as_text=True))
    assert "1 game was started from this network, the most allowed within 1 minute; try again in 40 seconds." in page
    for name in ("Zoë", "Yann", "Xavi", "Wim"):
        assert f'value="{name}"' in page
    assert second.post("/games/new", data={**typed, "players-0": ""}).status_code == 422
    assert stored(app) == 1
