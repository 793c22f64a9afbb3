"""Speed and weight of the phone pages (issue 6), measured in Chromium against gunicorn with
the app's default config (gunicorn.conf.py) on loopback and a fresh SQLite file. Run by hand:
`.venv/bin/python bench/weight.py` (add `--no-lighthouse` to skip the Lighthouse runs).

1. First load of the game page (the scorer's page of a game with a few rounds) in a fresh
   phone-sized Chromium: bytes on the wire (CDP ``Network.loadingFinished``
   ``encodedDataLength``: compressed body plus headers) of the HTML, CSS and JS, each file
   listed with its Content-Encoding and Cache-Control; target ≤ 30 KB.
2. A repeat visit once the service worker is installed: how many static files came from the
   service worker and how many from the network (target: all from the service worker).
3. Lighthouse 12.8.2 (mobile, simulated throttling) on the home, game and board pages:
   performance (target ≥ 95), accessibility (100) and best practices (100), with the audits
   that cost points. Installs Lighthouse with npm into a temporary directory when
   LIGHTHOUSE (a lighthouse executable) is not given; Chromium is /usr/bin/chromium.

The last line reads `first load: N bytes compressed`.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from server import HOST, ROOT, start_gunicorn, stop_gunicorn  # bench/server.py

EXAMPLE = json.loads((ROOT / "tests" / "data" / "examples" / "tournament-full.json").read_text())
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LIGHTHOUSE_VERSION = "12.8.2"
TARGET_BYTES = 30 * 1024
COUNTED = {"Document", "Stylesheet", "Script"}  # "HTML, CSS, JS"


def call(port: int, method: str, path: str, body=None, headers=None):
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        payload = json.dumps(body).encode() if body is not None else None
        headers = {**(headers or {}), **({"Content-Type": "application/json"} if payload else {})}
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def start_server(workdir: Path) -> tuple[subprocess.Popen, int]:
    """gunicorn with gunicorn.conf.py (2 workers: enough for one browser) on a migrated
    SQLite file."""
    env = {"SECRET_KEY": "weight-bench", "WEB_CONCURRENCY": "2"}
    return start_gunicorn(f"sqlite:///{workdir / 'weight.sqlite3'}", env)


def make_game(port: int) -> dict:
    """A game with its first six rounds recorded (a page as it looks mid-evening)."""
    doc = {**EXAMPLE["game"], "rounds": EXAMPLE["game"]["rounds"][:6]}
    status, body = call(port, "POST", "/api/v1/games", doc)
    assert status == 201, body
    return json.loads(body)


class Network:
    """Responses of one page seen through CDP: URL, type, bytes on the wire, headers, and
    whether the service worker or the browser cache answered."""

    def __init__(self, cdp):
        self.requests: dict[str, dict] = {}
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.send("Network.enable")

    def _response(self, event):
        response = event["response"]
        headers = {k.lower(): v for k, v in response.get("headers", {}).items()}
        self.requests[event["requestId"]] = {
            "url": response["url"],
            "type": event.get("type", "Other"),
            "from_sw": bool(response.get("fromServiceWorker")),
            "from_cache": bool(response.get("fromDiskCache") or response.get("fromPrefetchCache")),
            "encoding": headers.get("content-encoding", "-"),
            "cache": headers.get("cache-control", "-"),
            "bytes": 0,
        }

    def _finished(self, event):
        if event["requestId"] in self.requests:
            self.requests[event["requestId"]]["bytes"] = int(event["encodedDataLength"])

    def reset(self):
        self.requests.clear()


def short(url: str, base: str) -> str:
    path = url[len(base) :] if url.startswith(base) else url
    return path if len(path) < 60 else path[:28] + "…" + path[-28:]


def measure_transfer(base: str, game: dict) -> int:
    from playwright.sync_api import sync_playwright

    scorer = game["links"]["scorer"]
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        # A persistent profile: service workers as on a phone (not an incognito context).
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            viewport={"width": 390, "height": 844},
            is_mobile=True,
            has_touch=True,
            device_scale_factor=3,
        )
        page = context.pages[0] if context.pages else context.new_page()
        network = Network(context.new_cdp_session(page))

        page.goto(scorer, wait_until="load")
        page.wait_for_load_state("networkidle")
        rows = sorted(network.requests.values(), key=lambda r: (r["type"], r["url"]))
        print("First load of the game page (fresh browser):")
        print(f"  {'type':<11} {'bytes':>7}  {'encoding':<8} {'cache-control':<38} url")
        total = 0
        for r in rows:
            mark = " " if r["type"] in COUNTED else "-"
            print(
                f" {mark}{r['type']:<11} {r['bytes']:>7}  {r['encoding']:<8} {r['cache'][:38]:<38}"
                f" {short(r['url'], base)}"
            )
            if r["type"] in COUNTED:
                total += r["bytes"]
        others = sum(r["bytes"] for r in rows if r["type"] not in COUNTED)
        print(
            f"  HTML+CSS+JS: {total} bytes ({total / 1024:.1f} KB, target ≤ {TARGET_BYTES // 1024} KB)"
            f"; other (images, manifest; '-' above): {others} bytes"
        )

        # Repeat visit: the service worker is installed and controls the page.
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")  # a function: the CSP forbids eval
        network.reset()
        page.goto(scorer, wait_until="load")
        page.wait_for_load_state("networkidle")
        statics = [r for r in network.requests.values() if "/static/" in r["url"]]
        from_sw = [r for r in statics if r["from_sw"]]
        from_net = [r for r in statics if not r["from_sw"] and not r["from_cache"]]
        from_cache = [r for r in statics if r["from_cache"] and not r["from_sw"]]
        print(
            f"Repeat visit: static files from the service worker: {len(from_sw)}, "
            f"from the browser cache: {len(from_cache)}, from the network: {len(from_net)}"
            + (" — " + ", ".join(short(r["url"], base) for r in from_net) if from_net else "")
        )
        print("  the page itself: fetched by the service worker from the network first (scores are never stale)")
        context.close()
    return total


def lighthouse_command() -> tuple[list[str], tempfile.TemporaryDirectory | None]:
    if os.environ.get("LIGHTHOUSE"):
        return [os.environ["LIGHTHOUSE"]], None
    if not shutil.which("npm"):
        sys.exit("npm is needed to install Lighthouse (or set LIGHTHOUSE=/path/to/lighthouse)")
    tmp = tempfile.TemporaryDirectory(prefix="lighthouse-")
    subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", f"lighthouse@{LIGHTHOUSE_VERSION}"],
        cwd=tmp.name,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return [str(Path(tmp.name) / "node_modules" / ".bin" / "lighthouse")], tmp


def lighthouse(command: list[str], url: str, out: Path) -> dict:
    subprocess.run(
        [
            *command,
            url,
            "--quiet",
            "--output=json",
            f"--output-path={out}",
            "--only-categories=performance,accessibility,best-practices",
            "--chrome-flags=--headless=new " + " ".join(CHROMIUM_ARGS),
        ],
        env={**os.environ, "CHROME_PATH": CHROMIUM},
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=180,
    )
    return json.loads(out.read_text())


def report_lighthouse(base: str, game: dict, workdir: Path) -> None:
    command, tmp = lighthouse_command()
    pages = {"home": base + "/", "game": game["links"]["scorer"], "board": game["links"]["board"]}
    targets = {"performance": 95, "accessibility": 100, "best-practices": 100}
    print("Lighthouse (mobile):")
    try:
        for name, url in pages.items():
            result = lighthouse(command, url, workdir / f"lh-{name}.json")
            scores = {k: round(result["categories"][k]["score"] * 100) for k in targets}
            metrics = result["audits"]
            print(
                f"  {name:<6} performance {scores['performance']:>3}  accessibility {scores['accessibility']:>3}  "
                f"best practices {scores['best-practices']:>3}   "
                f"(FCP {metrics['first-contentful-paint']['displayValue']}, "
                f"LCP {metrics['largest-contentful-paint']['displayValue']}, "
                f"TBT {metrics['total-blocking-time']['displayValue']}, "
                f"CLS {metrics['cumulative-layout-shift']['displayValue']})"
            )
            for category, target in targets.items():
                if scores[category] >= target:
                    continue
                for ref in result["categories"][category]["auditRefs"]:
                    audit = metrics[ref["id"]]
                    if ref.get("weight", 0) and audit.get("score") is not None and audit["score"] < 1:
                        print(f"      {category}: {audit['title']} ({audit.get('displayValue', audit['score'])})")
    finally:
        if tmp is not None:
            tmp.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-lighthouse", action="store_true", help="only the transfer and service-worker figures")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="weight-") as tmp:
        workdir = Path(tmp)
        process, port = start_server(workdir)
        base = f"http://{HOST}:{port}"
        try:
            game = make_game(port)
            total = measure_transfer(base, game)
            if not args.no_lighthouse:
                report_lighthouse(base, game, workdir)
        finally:
            stop_gunicorn(process)
    print(f"first load: {total} bytes compressed")


if __name__ == "__main__":
    main()
