// Small progressive enhancements; every page works without this file.
// Kept out of the templates so a strict Content-Security-Policy can forbid inline scripts.
// Nothing here decides what is legal or scores anything: the server (the engine) does.
(function () {
  "use strict";

  // New content from htmx (a swapped block): enhance it and focus its first invalid field (422).
  document.addEventListener("htmx:load", function (event) {
    var root = event.detail.elt;
    enhance(root);
    var invalid = root.querySelector && root.querySelector("[aria-invalid='true'], .field-error, .flash-error");
    if (!invalid || root === document.body) return;
    if (invalid.matches("input, select, textarea")) invalid.focus();
    else invalid.scrollIntoView({ block: "center" });
  });

  // A redouble cell of the doubles grid is usable only when its double is ticked.
  function syncRedoubles(form) {
    form.querySelectorAll("input[data-needs]").forEach(function (redouble) {
      var double = form.querySelector("input[name='doubles'][value='" + redouble.dataset.needs + "']");
      var allowed = !!(double && double.checked);
      if (!allowed) redouble.checked = false;
      redouble.disabled = !allowed;
    });
  }

  // Show the running sum of a group of counts next to the number it must reach.
  function showSum(fieldset) {
    var out = fieldset.querySelector(".sum-note output");
    if (!out) return;
    var sum = 0, filled = 0;
    fieldset.querySelectorAll("input[type='number']").forEach(function (input) {
      if (input.value !== "" && !isNaN(input.valueAsNumber)) { sum += input.valueAsNumber; filled += 1; }
    });
    var target = Number(fieldset.dataset.sum);
    out.textContent = filled ? sum + " / " + target : "";
    out.classList.toggle("off", filled === 4 && sum !== target);
  }

  function enhance(root) {
    root.querySelectorAll("form.round-form").forEach(syncRedoubles);
    root.querySelectorAll("fieldset[data-sum]").forEach(showSum);
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest("form.round-form");
    if (form && event.target.name === "doubles") syncRedoubles(form);
  });
  document.addEventListener("input", function (event) {
    var group = event.target.closest("fieldset[data-sum]");
    if (group) showSum(group);
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

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
})();
