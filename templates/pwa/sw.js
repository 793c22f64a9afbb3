// Barbu Scorepad service worker, version {{ version }}.
// Static files: cache-first (their URLs carry a content hash). Pages: network-first, the
// last copy or the offline page when the network is gone. Never cached: anything but GET,
// htmx fragment requests, the API.
//
// A new version must not lose what a phone stored for offline use (a game page, its round
// form, the outbox's page; the outbox's rounds themselves are in localStorage): stored
// pages live in one cache whose name never changes; only the static files' cache is per
// version. A stored page loads the static files of the version that served it (hashed
// URLs), so when a version installs it fetches every stored page again (online, as it is
// then) to load its own files, and when it takes over it keeps, in its own cache, the
// older files a stored page still loads (one it could not fetch again) before it deletes
// the older caches.
"use strict";
const VERSION = "{{ version }}";
const STATIC_CACHE = "static-" + VERSION;
const PAGE_CACHE = "pages";
const OFFLINE_URL = "{{ offline }}";
const PRECACHE = {{ precache | tojson }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(STATIC_CACHE)
      .then((cache) => cache.addAll([...PRECACHE, OFFLINE_URL]))
      .then(keepPages)
      .then(refreshPages)
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  // A new version takes over: keep the stored pages and what they load, drop the rest of
  // the older versions' caches, control open pages.
  event.waitUntil(
    keepPages()
      .then(keepWhatPagesLoad)
      .then(() => caches.keys())
      .then((keys) => Promise.all(keys
        .filter((key) => key !== STATIC_CACHE && key !== PAGE_CACHE)
        .map((key) => caches.delete(key))))
      .then(() => self.clients.claim())
  );
});

// Each stored page fetched again, so it loads this version's static files. One that cannot
// be fetched now (offline, a server error) keeps its copy; one that is gone (404, 410: a
// game deleted) is dropped. Never fails the install.
async function refreshPages() {
  const pages = await caches.open(PAGE_CACHE);
  await Promise.all((await pages.keys()).map(async (request) => {
    try {
      const response = await fetch(request.url, { credentials: "same-origin", cache: "no-cache", redirect: "manual" });
      if (response.ok) await pages.put(request, response);
      else if (response.status === 404 || response.status === 410) await pages.delete(request);
    } catch (error) { /* offline: the copy stays, and keepWhatPagesLoad keeps its files */ }
  }));
}

// Versions before this one kept pages in a cache per version ("pages-<version>"): copied
// into the lasting one (a page in it already is newer), at install and again at activation
// (the older worker stores pages until then).
async function keepPages() {
  const pages = await caches.open(PAGE_CACHE);
  for (const key of (await caches.keys()).filter((name) => name.startsWith("pages-"))) {
    const old = await caches.open(key);
    for (const request of await old.keys()) {
      if (!(await pages.match(request))) await pages.put(request, await old.match(request));
    }
  }
}

// The static files the stored pages load (src, href, data-css: any quoted URL under
// /static/) that this version's cache lacks, copied into it from the older caches.
async function keepWhatPagesLoad() {
  const pages = await caches.open(PAGE_CACHE);
  const mine = await caches.open(STATIC_CACHE);
  const pattern = /["'](\/static\/[^"'?#]+)/g;
  const wanted = new Set();
  for (const request of await pages.keys()) {
    const page = await pages.match(request);
    const html = page ? await page.text() : "";
    for (const match of html.matchAll(pattern)) wanted.add(new URL(match[1], request.url).href);
  }
  for (const url of wanted) {
    if (await mine.match(url)) continue;
    const older = await caches.match(url);
    if (older) await mine.put(url, older);
  }
}

async function cacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) (await caches.open(STATIC_CACHE)).put(request, response.clone());
  return response;
}

// Offline, a page not stored itself falls back to the game page it belongs to: e.g. the
// address of a round form (/g/<token>/rounds/new?contract=…, pushed by htmx) opens the
// stored game page, which shows the rounds waiting to send (js/offline/).
function fallbacks(request) {
  const url = new URL(request.url);
  const game = url.pathname.match(/^\/g\/[^/]+/);
  return [url.origin + url.pathname, game ? url.origin + game[0] : null, OFFLINE_URL].filter(Boolean);
}

async function networkFirst(request) {
  try {
    const response = await fetch(request);
    if (response.ok) (await caches.open(PAGE_CACHE)).put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await caches.match(request);
    if (cached) return cached;
    for (const url of fallbacks(request)) {
      const stored = await caches.match(url);
      if (stored) return stored;
    }
    return Response.error();
  }
}

// A page loaded before this worker controlled it (the first visit of the site: the worker
// installs once the page has loaded) did not come through networkFirst, so it is not stored:
// the page asks for it (js/pwa.js) and it is fetched again and stored as networkFirst would
// (a page of this site, not the API's nor a static file, answered 200 without a redirect).
// Answers whether it stored the page; the page is told once it is stored (js/pwa.js).
async function storePage(address) {
  const url = new URL(address, self.location.origin);
  url.hash = "";
  const offline = new URL(OFFLINE_URL, self.location.origin);
  if (url.origin !== self.location.origin || url.href === offline.href) return false;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/static/")) return false;
  try {
    const response = await fetch(url.href, {
      credentials: "same-origin", redirect: "manual", headers: { Accept: "text/html" },
    });
    if (!response.ok) return false;
    await (await caches.open(PAGE_CACHE)).put(url.href, response);
    return true;
  } catch (error) { return false; /* offline already: nothing to store */ }
}

self.addEventListener("message", (event) => {
  const address = event.data && event.data.store;
  if (typeof address !== "string") return;
  event.waitUntil(storePage(address).then((stored) => {
    if (stored && event.source) event.source.postMessage({ stored: address });
  }));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.headers.get("HX-Request") || url.pathname.startsWith("/api/")) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(networkFirst(request));
  }
});
