// Presets: on the new-game form, choosing a preset with default players fills in the
// player names (only fields still empty or still holding the previous preset's names).
// Optional: without it, /games/new?preset=<id> prefills them on the server.
(function () {
  "use strict";

  function defaultsOf(select) {
    var option = select.options[select.selectedIndex];
    return option && option.dataset.players ? JSON.parse(option.dataset.players) : [];
  }

  document.addEventListener("DOMContentLoaded", function () {
    var select = document.querySelector("select[data-default-players]");
    if (!select) return;
    var previous = defaultsOf(select);
    select.addEventListener("change", function () {
      var names = defaultsOf(select);
      document.querySelectorAll("input[data-seat]").forEach(function (input) {
        var seat = Number(input.dataset.seat);
        var untouched = input.value.trim() === "" || input.value === (previous[seat] || "");
        if (untouched && names.length === 4) {
          input.value = names[seat];
          input.dispatchEvent(new Event("input", { bubbles: true }));  // renames the first-declarer chips
        }
      });
      previous = names;
    });
  });
})();
