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
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(script.dataset.sw).catch(function () {});
  });
})();
