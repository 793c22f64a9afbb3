// The new club night form.
// The date: the page opens with the server's today (UTC); the phone puts its own calendar date
// there instead while the organiser has not changed it, and sends its IANA time zone with the form.
// The players' box: "Players listed: n" follows what is typed or pasted (one name a line).
// Without JavaScript the server's date stands and the count shows after a send.
// The table cards' Print button prints the page (the browser's own Print works as well).
(function () {
  "use strict";

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function localDate() {
    var now = new Date();
    return now.getFullYear() + "-" + pad(now.getMonth() + 1) + "-" + pad(now.getDate());
  }

  function zone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (e) {
      return "";  // no Intl: the date alone still counts
    }
  }

  function count(text) {
    return text.split(/\r\n|\r|\n/).filter(function (line) { return line.trim() !== ""; }).length;
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-print]").forEach(function (button) {
      button.addEventListener("click", function () { window.print(); });
    });
    var form = document.querySelector("form[data-event-form]");
    if (!form) return;
    var date = form.querySelector("input[data-today]");
    if (date && date.value === date.dataset.today) date.value = localDate();
    form.addEventListener("submit", function () {
      var tz = form.querySelector("input[name='timezone']");
      if (tz) tz.value = zone();
    });
    var players = form.querySelector("textarea[name='players']");
    var shown = form.querySelector("[data-count]");
    if (!players || !shown) return;
    var update = function () {
      // A club's night: the members ticked as present count too (templates/club/_present_members.html).
      var ticked = form.querySelectorAll("input[name='present']:checked").length;
      shown.textContent = shown.dataset.count.replace("{n}", String(count(players.value) + ticked));
    };
    players.addEventListener("input", update);
    form.addEventListener("change", update);
  });
})();
