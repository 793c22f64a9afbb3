// Small progressive enhancements; every page works without this file.
// Kept out of the templates so a strict Content-Security-Policy can forbid inline scripts.
// Nothing here decides what is legal or scores anything: the server (the engine) does.
(function () {
  "use strict";

  // New content from htmx (a swapped block): focus its first invalid field (422), or show
  // why the server refused it (409, 422: [data-refusal]).
  // Round entry (counts, domino order, doubles grid) is enhanced by entry.js.
  document.addEventListener("htmx:load", function (event) {
    var root = event.detail.elt;
    var invalid = root.querySelector && root.querySelector("[aria-invalid='true'], [data-refusal]");
    if (!invalid || root === document.body) return;
    if (invalid.matches("input, select, textarea")) invalid.focus();
    else invalid.scrollIntoView({ block: "center" });
  });

  // New game: name the first-declarer choices after the players as they are typed.
  // The server names them after the typed players on a re-render; "Player N" is the fallback.
  document.addEventListener("input", function (event) {
    var seat = event.target.dataset && event.target.dataset.seat;
    if (seat === undefined) return;
    var label = document.querySelector("[data-seat-label='" + seat + "']");
    if (!label) return;
    if (!label.dataset.original) label.dataset.original = label.textContent;
    label.textContent = event.target.value.trim() || label.dataset.original;
  });

})();
