// The live scoreboard and the share box; the pages work without this file (the board then
// reloads itself every half minute, the link is shown as text).
(function () {
  "use strict";
  if (window.scorepadBoard) return; // included by the page and by the share box
  window.scorepadBoard = true;

  // A poll whose answer has the ETag the board already shows changed nothing: the server
  // said 304 and the browser handed htmx its cached copy. Skip the swap, so nothing
  // flickers, scrolls or loses focus.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || !/_live$/.test(target.id)) return; // a game board's or an event board's live part
    var etag = event.detail.xhr.getResponseHeader("ETag");
    if (etag && target.dataset.etag && etag.replace(/^W\//, "").replace(/"/g, "") === target.dataset.etag) {
      event.detail.shouldSwap = false;
    }
  });

  // "Copy link": shown only where the Clipboard API exists; the link stays selectable text.
  function setupCopy(root) {
    if (!navigator.clipboard) return;
    root.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.hidden = false;
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) return;
    var feedback = button.closest(".share-board").querySelector(".share-feedback");
    navigator.clipboard.writeText(button.dataset.copy).then(function () {
      if (feedback) feedback.textContent = button.dataset.copied;
    }, function () {
      if (feedback) feedback.textContent = button.dataset.failed;
    });
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { setupCopy(document); });
  } else {
    setupCopy(document);
  }
})();
