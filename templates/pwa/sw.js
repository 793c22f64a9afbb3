// Barbu Scorepad service worker, version {{ version }}.
// Static files: cache-first (their URLs carry a content hash). Pages: network-first, the
// last copy or the offline page when the network is gone. Never cached: anything but GET,
// htmx fragment requests, the API.
"use strict";
const VERSION = "{{ version }}";
const STATIC_CACHE = "static-" + VERSION;
const PAGE_CACHE = "pages-" + VERSION;
const OFFLINE_URL = "{{ offline }}";
const PRECACHE = {{ precache | tojson }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(STATIC_CACHE)
      .then((cache) => cache.addAll([...PRECACHE, OFFLINE_URL]))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  // A new version takes over: drop the caches of older versions, control open pages.
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys
        .filter((key) => key !== STATIC_CACHE && key !== PAGE_CACHE)
        .map((key) => caches.delete(key))))
      .then(() => self.clients.claim())
  );
});

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
