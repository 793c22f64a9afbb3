"""Configuration classes; the environment overrides the defaults."""

import os
from datetime import timedelta


def database_url(url: str | None) -> str | None:
    """Point PostgreSQL URLs at the psycopg 3 driver (Heroku-style hosts still say postgres://)."""
    if not url:
        return None
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _flag(name: str) -> bool:
    """An on/off environment variable: 1, true, yes or on (any case) is on."""
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


class Config:
    # The default only suits development; any deployment must set SECRET_KEY.
    SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-not-secret")
    # None means "SQLite file in the instance folder"; create_app fills in the absolute path.
    SQLALCHEMY_DATABASE_URI = database_url(os.environ.get("DATABASE_URL"))
    # No pool_pre_ping: it costs a round trip (SELECT 1) per request. A pooled PostgreSQL
    # connection is checked without one instead (scorepad/database.py: a connection the server
    # closed, as at a restart, is replaced before use). The pool's sizes per process (a
    # gevent process serves many requests at once; deploy/'s sync workers one each, 2 + 1):
    # DB_POOL_SIZE kept open, DB_MAX_OVERFLOW more opened under load and closed after.
    SQLALCHEMY_ENGINE_OPTIONS = (
        {}
        if (SQLALCHEMY_DATABASE_URI or "sqlite:").startswith("sqlite:")
        else {
            "pool_size": int(os.environ.get("DB_POOL_SIZE", "5")),
            "max_overflow": int(os.environ.get("DB_MAX_OVERFLOW", "10")),
        }
    )
    # Score sheets are small; anything bigger is a mistake or abuse.
    MAX_CONTENT_LENGTH = 256 * 1024
    WTF_CSRF_ENABLED = True
    WTF_CSRF_TIME_LIMIT = None  # a game can last an evening; don't expire tokens mid-game
    WTF_CSRF_HEADERS = ["X-CSRFToken", "X-CSRF-Token"]
    # The session cookie carries this device's id (it owns the presets it saves) and its
    # recent games: keep it as long as browsers allow (Chrome caps cookies at 400 days).
    PERMANENT_SESSION_LIFETIME = timedelta(days=400)
    # A game started without a date is dated today in its time zone by this clock: None is the
    # system's; a test sets a function returning an aware datetime (scorepad.services.common.clock).
    CLOCK = None
    # A club night's draws (seating, seat order, first declarers) come from this: None is the
    # system's random source; a test sets a function returning a random.Random (scorepad.services.nights.night_random).
    EVENT_RANDOM = None
    # A club's ratings are replayed inside the save that changed them when at most this many
    # complete games follow (a game finishing: one); a longer replay runs after the answer (scorepad.services.rating).
    RATING_INLINE_REPLAY = 30
    LANGUAGES = ["en", "de", "nl", "fr"]
    BABEL_DEFAULT_LOCALE = "en"

    # Security (scorepad/security.py).
    # The session cookie is HttpOnly and SameSite=Lax always, and Secure whenever the request
    # came over HTTPS; SESSION_COOKIE_SECURE=1 makes it Secure always.
    SESSION_COOKIE_SECURE = _flag("SESSION_COOKIE_SECURE")
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    # How many reverse proxies in front of the app set X-Forwarded-For/-Proto/-Host (0: none,
    # the headers are ignored). Behind one proxy that terminates TLS, set TRUSTED_PROXIES=1.
    TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))
    # Redirect plain HTTP to HTTPS (only once TLS is set up; off for a phone on the local network).
    FORCE_HTTPS = _flag("FORCE_HTTPS")
    # Limits on what one client stores (scorepad/web/limits.py).
    # So one client cannot fill the database nor lock others out, games started are counted per
    # device (the session cookie's id) and per client address (an IPv6 client by its /64), in a
    # burst window and a day (fixed windows: a clock minute, a UTC day); past any count, 429
    # with Retry-After until that window ends. One request counts once, whatever it creates (a
    # club night's tables, issue #14). A device that has stored something (a game it started, a
    # preset it owns: "established") counts in its own buckets only, never in its address's, so
    # nothing else at that address can lock it out. The rest (a phone's first game, a device
    # id that never stored anything, the API) also counts in its address's buckets: "new"
    # (pages, the API with a browser's cookie) or "api" (the API without a cookie, scripts).
    # Picked so a real club never meets them, and an abuser meets its device's burst first:
    # - a club night of 20 tables started from the director's laptop within a minute (before
    #   club nights exist, one game each): 20 of the device's burst of 30;
    # - a tournament day run from that laptop, 40 tables and 4 rounds: 160 of its day's 200;
    # - a club night where every table's phone is new, behind the club's one Wi-Fi address:
    #   40 first games are 40 of the address's burst of 150 (issue #12 asks for at least 120 a
    #   minute), 40 of its day's 1000; their later games (Rematch) count per phone only.
    # What remains possible: a script at the club's address can spend its "new" bucket (with
    # cookies of its own, which cost nothing to get) and so delay phones that have never
    # stored anything there, until the window ends; it cannot delay established phones. Each
    # device it establishes costs one count of a "new" bucket (games' or presets'), so one
    # address establishes at most 1000 + 300 devices a day, and what it stores is bounded by
    # (established devices) x (a device's day: 200 games, 100 presets).
    LIMIT_BURST_WINDOW = timedelta(minutes=1)
    LIMIT_WINDOW = timedelta(hours=24)
    MAX_GAMES_PER_DEVICE_BURST = int(os.environ.get("MAX_GAMES_PER_DEVICE_BURST", "30"))
    MAX_GAMES_PER_DEVICE = int(os.environ.get("MAX_GAMES_PER_DEVICE", "200"))
    MAX_GAMES_PER_ADDRESS_BURST = int(os.environ.get("MAX_GAMES_PER_ADDRESS_BURST", "150"))
    MAX_GAMES_PER_ADDRESS = int(os.environ.get("MAX_GAMES_PER_ADDRESS", "1000"))
    # Club nights (scorepad.web.limits.EVENT_STARTS): one request starts up to 300
    # games (50 tables x 6 sessions), so nights count apart from games, with smaller numbers: a
    # director creates one or two a night (a retry, a second room), a club's laptop a few a day.
    MAX_EVENTS_PER_DEVICE_BURST = int(os.environ.get("MAX_EVENTS_PER_DEVICE_BURST", "10"))
    MAX_EVENTS_PER_DEVICE = int(os.environ.get("MAX_EVENTS_PER_DEVICE", "30"))
    MAX_EVENTS_PER_ADDRESS_BURST = int(os.environ.get("MAX_EVENTS_PER_ADDRESS_BURST", "20"))
    MAX_EVENTS_PER_ADDRESS = int(os.environ.get("MAX_EVENTS_PER_ADDRESS", "100"))
    # Saved presets: at most this many kept by one device (a count of its rows: deleting one
    # frees its place), this many saved by one device in LIMIT_WINDOW (the API with a
    # browser's cookie keeps no owner, so the count of rows alone would not bound it), and this
    # many saved from one client address (per way in, as games; an established device not) in
    # LIMIT_WINDOW. A club saves a handful of house rules; 300 a day is a script.
    MAX_PRESETS_PER_DEVICE = int(os.environ.get("MAX_PRESETS_PER_DEVICE", "100"))
    MAX_PRESET_SAVES_PER_DEVICE = int(os.environ.get("MAX_PRESET_SAVES_PER_DEVICE", "100"))
    MAX_PRESETS_PER_ADDRESS = int(os.environ.get("MAX_PRESETS_PER_ADDRESS", "300"))
    # Sheet PDFs (scorepad/web/pdf_cache.py): at most PDF_RENDERS rendered at once on the machine
    # (one per core); a request waits up to PDF_WAIT seconds for a slot, then gets 503. Rendered
    # PDFs are kept in PDF_CACHE_DIR (default: instance/sheets), shared by every worker.
    PDF_RENDERS = int(os.environ.get("PDF_RENDERS", os.cpu_count() or 1))
    PDF_WAIT = float(os.environ.get("PDF_WAIT", "10"))
    PDF_CACHE_DIR = os.environ.get("PDF_CACHE_DIR") or None

    # Hosts and links (scorepad/web/hosts.py).
    # The address people reach the app at (https://scores.club.example, http://192.168.1.20:8000,
    # or with the path the server mounts the app under): every absolute link (API links and
    # Location, the share page and its QR code) starts with it, never with the request's Host
    # header. Unset: links use the request's host, which is then a trusted one.
    PUBLIC_URL = os.environ.get("PUBLIC_URL") or None
    # Host names (or addresses) served besides loopback, this machine's addresses and host
    # name, and PUBLIC_URL's host: comma-separated; ".club.example" trusts its subdomains
    # too; "*" serves any host (behind a proxy that checks it). Others get 400. (Not Flask's
    # own TRUSTED_HOSTS setting, which stays unset: see scorepad/web/hosts.py.)
    TRUSTED_HOST_NAMES = os.environ.get("TRUSTED_HOSTS", "")

    # Compression of pages, fragments and JSON (Flask-Compress; static files: web/assets.py).
    # Brotli before zstd: on the game page's HTML, level 6 is ~14% smaller than zstd's
    # default level 3 and takes ~1 ms (bench/weight.py).
    COMPRESS_ALGORITHM = ["br", "zstd", "gzip", "deflate"]
    COMPRESS_BR_LEVEL = 6


class TestConfig(Config):
    TESTING = True
    SECRET_KEY = "test"
    SQLALCHEMY_DATABASE_URI = "sqlite://"
    WTF_CSRF_ENABLED = False
