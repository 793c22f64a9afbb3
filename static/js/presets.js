// The new-game form.
// Presets: choosing a preset with default players fills in the player names (only fields
// still empty or still holding the previous preset's names). Optional: without it,
// /games/new?preset=<id> prefills them on the server.
// The players' date: as the form is sent, its hidden fields get the phone's local date
// (YYYY-MM-DD of the phone's calendar, not toISOString's UTC day) and IANA time zone, which
// the sheet, the exports and the file names use. Without it the server dates the game.
(function () {
  "use strict";

  function defaultsOf(select) {
    var option = select.options[select.selectedIndex];
    return option && option.dataset.players ? JSON.parse(option.dataset.players) : [];
  }

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function stampDate(form) {
    var now = new Date();
    var date = form.querySelector("input[name='date']");
    var zone = form.querySelector("input[name='timezone']");
    if (date) date.value = now.getFullYear() + "-" + pad(now.getMonth() + 1) + "-" + pad(now.getDate());
    if (zone) {
      try {
        zone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
      } catch (e) {
        zone.value = "";  // no Intl: the date alone still counts
      }
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var dated = document.querySelector("form[data-local-date]");
    if (dated) dated.addEventListener("submit", function () { stampDate(dated); });
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
