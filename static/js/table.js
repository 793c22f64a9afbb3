// At the table: the screen stays on while a game is open (Screen Wake Lock), a short vibration
// confirms a saved round, and a finished game's result is shared with the phone's share sheet.
// Each works only where the browser has it (feature-detected; nothing is logged where it has
// not), and the first two are the player's choice on this device (#table_settings, stored in
// localStorage). The page works without this file: the settings and the Share button stay hidden.
(function () {
  "use strict";
  var STORED = { "wake-lock": "scorepad.wakeLock", vibrate: "scorepad.vibrate" };
  var SUPPORTED = {
    "wake-lock": !!navigator.wakeLock && typeof navigator.wakeLock.request === "function",
    vibrate: typeof navigator.vibrate === "function"
  };
  var VIBRATION_MS = 40; // a tap felt, not a buzz

  // localStorage may be missing or refuse (private modes, storage off): then the defaults hold.
  function stored(name) {
    try { return window.localStorage.getItem(STORED[name]); } catch (e) { return null; }
  }
  function store(name, on) {
    try { window.localStorage.setItem(STORED[name], on ? "on" : "off"); } catch (e) { /* kept for this page only */ }
  }
  function enabled(name) { return SUPPORTED[name] && stored(name) !== "off"; }
  function gamePage() { return !!document.querySelector("[data-table-settings]"); }

  // The screen stays on
  // The browser releases the lock whenever the page is hidden (another app, the screen off):
  // it is asked for again each time the page is visible.
  var lock = null;
  var asking = false;
  function keepAwake() {
    if (lock || asking || !enabled("wake-lock") || document.visibilityState !== "visible" || !gamePage()) return;
    asking = true;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      asking = false;
      lock = sentinel;
      sentinel.addEventListener("release", function () { if (lock === sentinel) lock = null; });
      if (!enabled("wake-lock")) letSleep(); // turned off while it was being asked for
    }, function () {
      asking = false; // refused (battery saver, a policy): the screen sleeps as usual
    });
  }
  function letSleep() {
    var sentinel = lock;
    lock = null;
    if (sentinel) sentinel.release().catch(function () { /* released already */ });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") keepAwake();
  });

  // A short vibration when a round is saved
  // The round form's own save through htmx (a 2xx answer); the request is recognised by its
  // XMLHttpRequest, as offline/main.js does (the form may be swapped out by then).
  var saving = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    // (The settlement preview is asked for by an element inside the form, not the form.)
    if (form.matches && form.matches("form.round-form") && (event.detail.requestConfig || {}).verb === "post") {
      saving = event.detail.xhr;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!saving || event.detail.xhr !== saving) return;
    saving = null;
    var status = event.detail.xhr.status;
    if (status >= 200 && status < 300 && enabled("vibrate")) navigator.vibrate(VIBRATION_MS);
  });

  // The settings
  function setupSettings(root) {
    var section = root.querySelector && root.querySelector("[data-table-settings]");
    if (!section) return;
    var shown = false;
    section.querySelectorAll("[data-setting]").forEach(function (input) {
      var name = input.dataset.setting;
      if (!SUPPORTED[name]) return;
      input.checked = enabled(name);
      input.closest("[data-setting-box]").hidden = false;
      shown = true;
    });
    section.hidden = !shown;
  }
  document.addEventListener("change", function (event) {
    var input = event.target.closest && event.target.closest("input[data-setting]");
    if (!input || !SUPPORTED[input.dataset.setting]) return;
    store(input.dataset.setting, input.checked);
    if (input.dataset.setting === "wake-lock") {
      if (input.checked) keepAwake(); else letSleep();
    }
  });

  // Share the result
  // The phone's share sheet (navigator.share) with the text, the board's link and, where it
  // takes files, the result card (fetched beforehand: the share must follow the tap at once);
  // else the text and link copied. Neither exists outside a secure context (plain http on a
  // LAN): the button then stays hidden and the card's link remains.
  var cards = new WeakMap(); // button → the card as a File
  function canCopy() { return !!(navigator.clipboard && navigator.clipboard.writeText); }
  function setupShare(root) {
    if (!root.querySelectorAll) return;
    root.querySelectorAll("button[data-share]").forEach(function (button) {
      if (!navigator.share && !canCopy()) return;
      button.closest("[data-share-box]").hidden = false;
      if (!navigator.share || !navigator.canShare || !window.File || !window.fetch) return;
      fetch(button.dataset.shareCard, { credentials: "same-origin" }).then(function (response) {
        return response.ok ? response.blob() : null;
      }).then(function (blob) {
        if (!blob) return;
        var file = new File([blob], button.dataset.shareFilename, { type: "image/png" });
        if (!navigator.canShare({ files: [file] })) return;
        cards.set(button, file);
        button.setAttribute("data-share-card-ready", ""); // the image goes with the next tap

      }).catch(function () { /* offline: the text and link alone */ });
    });
  }
  function say(button, text) {
    var feedback = button.closest("section").querySelector("[data-share-feedback]");
    if (feedback) feedback.textContent = text;
  }
  function copy(button) {
    var data = button.dataset;
    if (!canCopy()) { say(button, data.failed); return; }
    navigator.clipboard.writeText(data.shareText + "\n" + data.shareUrl).then(function () {
      say(button, data.copied);
    }, function () {
      say(button, data.failed);
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-share]");
    if (!button) return;
    var data = button.dataset;
    if (!navigator.share) { copy(button); return; }
    var shared = { title: data.shareTitle, text: data.shareText, url: data.shareUrl };
    var card = cards.get(button);
    if (card) shared.files = [card];
    navigator.share(shared).catch(function (error) {
      if (error && error.name === "AbortError") return; // the player closed the share sheet
      copy(button);
    });
  });

  // Play again: one tap starts one game (a second tap while the first is on its way would start
  // another); the button is usable again if the page comes back from the browser's history.
  document.addEventListener("submit", function (event) {
    var button = event.target.querySelector && event.target.querySelector("button[data-rematch]");
    if (button) setTimeout(function () { button.disabled = true; }, 0); // after the form is sent
  });
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("button[data-rematch]").forEach(function (button) { button.disabled = false; });
  });

  function setup(root) {
    setupSettings(root);
    setupShare(root);
    keepAwake();
  }
  document.addEventListener("htmx:load", function (event) {
    if (event.detail.elt !== document.body) setupShare(event.detail.elt); // the live part, swapped in
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { setup(document); });
  } else {
    setup(document);
  }
})();
