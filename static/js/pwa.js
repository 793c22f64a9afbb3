// Register the service worker (scope: the whole site, where /sw.js is). Optional: the app works without it.
// When a new version takes over an open page (sw.js: skipWaiting + clients.claim), say so
// and offer a reload rather than reloading by itself: a round being entered is kept
// anyway (js/offline/), but the scorer chooses the moment.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script) return;
  var controlled = !!navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener("controllerchange", function () {
    if (!controlled) { controlled = true; return; } // the first install: nothing changed for the page
    var main = document.getElementById("main");
    if (!main || document.getElementById("sw-updated")) return;
    var note = document.createElement("p");
    note.id = "sw-updated";
    note.className = "flash";
    note.setAttribute("role", "status");
    note.textContent = script.dataset.updated + " ";
    var reload = document.createElement("button");
    reload.type = "button";
    reload.className = "btn btn-small";
    reload.textContent = script.dataset.reload;
    reload.addEventListener("click", function () { window.location.reload(); });
    note.appendChild(reload);
    main.insertBefore(note, main.firstChild);
  });
  // A page loaded without the service worker (the first visit) asks it to store the page, so
  // that it opens without a connection from then on (templates/pwa/sw.js storePage).
  var loadedUnderWorker = controlled;
  // Told once the page is stored (until then, a page asked for without a connection may
  // not be found: the cache's entry is being written).
  navigator.serviceWorker.addEventListener("message", function (event) {
    if (event.data && event.data.stored === location.href) document.documentElement.dataset.storedOffline = "";
  });
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(script.dataset.sw)
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (registration) {
        if (!loadedUnderWorker && registration.active) registration.active.postMessage({ store: location.href });
      })
      .catch(function () {});
  });

  // The offline page stands in for a page that could not be fetched and was not stored (its
  // address stays the page's): it tries again by itself, at once when the phone says it is
  // back online and every few seconds besides, and opens the page once the server answers.
  var offline = document.querySelector("[data-retry-every]");
  if (!offline || location.pathname === offline.dataset.offlinePath) return;
  var trying = false;
  function retry() {
    if (trying) return;
    trying = true;
    fetch(location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then(function (response) { if (response.status < 500) window.location.reload(); })
      .catch(function () {})
      .then(function () { trying = false; });
  }
  window.addEventListener("online", retry);
  window.setInterval(retry, Number(offline.dataset.retryEvery));
})();
