// Round entry conveniences (progressive enhancement; the form works without this file).
// Nothing here scores or decides legality: the settlement preview and every check come
// from the server's engine. This file only fills in what follows from the scorer's taps
// (the last count, zeros once a count is complete, the fourth domino place), applies the
// doubles shortcuts to the cells the server rendered as usable, and says why a cell is off.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function fireChange(el) { el.dispatchEvent(new Event("change", { bubbles: true })); }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) { return key in values ? values[key] : ""; });
  }

  // Counts: one row of number chips per player
  function rowValue(row) {
    var checked = row.querySelector("input:checked");
    return checked ? Number(checked.value) : null;
  }
  function setRow(row, value) {
    row.querySelectorAll("input").forEach(function (input) {
      input.checked = value !== null && Number(input.value) === value;
    });
  }
  // The rows the scorer tapped count; the others are filled from what remains: the last
  // player's count once three are given, zeros once the total is reached.
  function fillCounts(fieldset) {
    var total = Number(fieldset.dataset.sum);
    var rows = Array.prototype.slice.call(fieldset.querySelectorAll(".count-row"));
    var tapped = rows.filter(function (r) { return r.dataset.tapped === "1" && rowValue(r) !== null; });
    var sum = tapped.reduce(function (s, r) { return s + rowValue(r); }, 0);
    rows.forEach(function (row) {
      if (tapped.indexOf(row) >= 0) { row.dataset.auto = ""; return; }
      var want = null;
      if (tapped.length === rows.length - 1 && sum <= total) want = total - sum;
      else if (sum === total) want = 0;
      if (row.dataset.auto === "1" || rowValue(row) === null) {
        setRow(row, want);
        row.dataset.auto = want === null ? "" : "1";
      }
    });
    showSum(fieldset);
  }
  function showSum(fieldset) {
    var out = fieldset.querySelector(".sum-note output");
    var total = Number(fieldset.dataset.sum);
    var sum = 0, filled = 0;
    fieldset.querySelectorAll(".count-row").forEach(function (row) {
      var v = rowValue(row);
      if (v !== null) { sum += v; filled += 1; }
      var mark = row.querySelector(".count-auto");
      if (mark) mark.textContent = row.dataset.auto === "1" ? "(" + fieldset.dataset.noteFilled + ")" : "";
    });
    var values = { sum: sum, total: total, missing: total - sum, over: sum - total };
    var all = filled === Number(fieldset.dataset.seats);
    var text = "";
    if (sum > total) text = fill(fieldset.dataset.noteOver, values);
    else if (all && sum === total) text = fill(fieldset.dataset.noteDone, values);
    else if (filled) text = fill(fieldset.dataset.notePartial, values);
    out.textContent = text;
    out.classList.toggle("off", sum > total || (all && sum !== total));
    out.classList.toggle("ok", all && sum === total);
  }

  // Domino: the finishing order, one place after another
  function syncOrder(group) {
    var places = Array.prototype.slice.call(group.querySelectorAll(".place"));
    var chosen = places.map(function (place) {
      var c = place.querySelector("input:checked");
      return c ? c.value : null;
    });
    // A player already placed is not offered again in the other places.
    places.forEach(function (place, i) {
      place.querySelectorAll(".chip").forEach(function (chip) {
        var seat = chip.dataset.seat;
        chip.hidden = chosen.some(function (s, j) { return j !== i && s === seat; });
      });
    });
    var out = group.querySelector(".place-implied output");
    var implied = group.querySelector(".place-implied");
    if (!implied.dataset.original) implied.dataset.original = out.textContent;
    var given = chosen.filter(function (s) { return s !== null; });
    // The server says how many places are tapped before the last is implied, and how many seats there are.
    if (given.length === Number(group.dataset.givenPlaces)) {
      var seats = [];
      for (var s = 0; s < Number(group.dataset.seats); s++) if (given.indexOf(String(s)) < 0) seats.push(String(s));
      var chip = group.querySelector(".chip[data-seat='" + seats[0] + "'] span");
      out.textContent = fill(implied.dataset.text, { name: chip ? chip.textContent : "" });
      implied.classList.add("done");
    } else {
      out.textContent = implied.dataset.original;
      implied.classList.remove("done");
    }
    var reset = group.querySelector("[data-order-reset]");
    if (reset) reset.hidden = given.length === 0;
  }

  // The doubles grid
  function cells(form) { return Array.prototype.slice.call(form.querySelectorAll("input[name='doubles']")); }
  function cell(form, value) { return form.querySelector("input[name='doubles'][value='" + value + "']"); }

  // A redouble is usable only once its double is ticked; until then it says why when tapped.
  function syncRedoubles(form) {
    form.querySelectorAll("input[data-needs]").forEach(function (redouble) {
      var double = cell(form, redouble.dataset.needs);
      var allowed = !!(double && double.checked);
      if (!allowed) redouble.checked = false;
      if (allowed) redouble.removeAttribute("aria-disabled");
      else redouble.setAttribute("aria-disabled", "true");
    });
  }
  function say(form, text) {
    var out = form.querySelector(".grid-why output");
    if (out) out.textContent = text;
  }
  // Shortcuts act on one row (a doubler) and only on the cells the server rendered usable;
  // "family" ticks the cells the server listed in the button's data-cells.
  function shortcut(form, button) {
    var kind = button.dataset.shortcut, inputs = cells(form);
    if (kind === "clear") {
      inputs.forEach(function (i) { i.checked = false; });
    } else {
      var mine = inputs.filter(function (i) { return i.value.split("-")[0] === button.dataset.row; });
      var family = (button.dataset.cells || "").split(" ");
      mine.forEach(function (input) {
        if (kind === "max") {
          var needs = input.dataset.needs;
          input.checked = needs ? !!(cell(form, needs) && cell(form, needs).checked) : true;
        } else if (kind === "family") {
          input.checked = family.indexOf(input.value) >= 0;
        }
      });
    }
    syncRedoubles(form);
    say(form, "");
    if (inputs.length) fireChange(inputs[0]);
  }

  function enhance(root) {
    if (!root.querySelectorAll) return;
    root.querySelectorAll("form.round-form").forEach(function (form) {
      syncRedoubles(form);
      form.querySelectorAll("[data-shortcut], .grid-shortcuts").forEach(function (el) { el.hidden = false; });
    });
    root.querySelectorAll("fieldset.counts").forEach(function (fieldset) {
      fieldset.querySelectorAll(".count-row").forEach(function (row) {
        if (rowValue(row) !== null && row.dataset.auto !== "1") row.dataset.tapped = "1";
      });
      showSum(fieldset);
    });
    root.querySelectorAll(".domino-order").forEach(syncOrder);
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    var form = target.closest && target.closest("form.round-form");
    if (!form) return;
    var row = target.closest(".count-row");
    if (row && event.isTrusted !== false) {
      row.dataset.tapped = "1";
      row.dataset.auto = "";
      fillCounts(row.closest("fieldset.counts"));
    }
    var order = target.closest(".domino-order");
    if (order) syncOrder(order);
    if (target.name === "doubles") { syncRedoubles(form); say(form, ""); }
  });

  document.addEventListener("click", function (event) {
    var target = event.target;
    var form = target.closest && target.closest("form.round-form");
    if (!form) return;
    var why = target.closest(".cell-off, input[aria-disabled='true']");
    if (why) {
      event.preventDefault();
      say(form, why.dataset.why || "");
      return;
    }
    var button = target.closest("[data-shortcut]");
    if (button) {
      event.preventDefault();
      shortcut(form, button);
      return;
    }
    var reset = target.closest("[data-order-reset]");
    if (reset) {
      var group = reset.closest(".domino-order");
      group.querySelectorAll("input").forEach(function (i) { i.checked = false; });
      syncOrder(group);
      var first = group.querySelector("input");
      if (first) { first.focus(); fireChange(first); }
    }
  });

  // After a save (or a put back) the live part comes back: lead with the saved round's
  // points and the next contract buttons, not wherever the long form happened to leave the page.
  // After an undo: the note that says which round was removed, its Put back button focused.
  document.addEventListener("htmx:afterSettle", function (event) {
    var root = event.detail.elt;
    if (!root || !root.querySelector) return;
    var undone = root.querySelector("[data-just-undone]");
    if (undone) {
      var button = undone.querySelector("button");
      (button || undone).focus({ preventScroll: true });
      undone.scrollIntoView({ block: "center" });
      return;
    }
    var saved = root.querySelector("[data-saved]");
    if (!saved) return;
    var title = saved.querySelector("h2[tabindex='-1']");
    if (title) title.focus({ preventScroll: true });
    (saved.matches("section") ? saved : saved.closest("section")).scrollIntoView({ block: "start" });
  });

  // After an edit the page opens on the changed row (#round-N; the CSS keeps a margin above
  // it) and the confirmation of what changed takes the focus. The fragment is dropped from
  // the address first: the browser's own fragment navigation would otherwise take the focus
  // back to the page once it has loaded (and a reload would jump to the row again).
  function confirmEdit() {
    var title = document.querySelector("[data-changed] h2[tabindex='-1']");
    if (!title) return;
    var row = location.hash && document.getElementById(location.hash.slice(1));
    if (row) {
      history.replaceState(history.state, "", location.pathname + location.search);
      row.scrollIntoView({ block: "start" });
    }
    title.focus({ preventScroll: true });
  }

  // Opened afresh (a table card scanned again, a reload, the home screen's link), a game under
  // way opens at the round to enter: the current round's box (the last round's points and the
  // totals) at the top of the window, the contract buttons (or the form's first step) under it.
  // When both do not fit, the buttons win and the box shows what room is left above them. The
  // browser's own restoring of a reload's scroll position is turned off for this page: it
  // would put the page back wherever it was left. Not when the address names a part of the
  // page (an edited row, #round_form) or a message leads the page (it stays in sight).
  function openAtTheRound() {
    var current = document.getElementById("current_round");
    var form = document.getElementById("round_form");
    if (!current || !form || location.hash || document.querySelector(".flash, [role='alert']")) return;
    var step = form.querySelector(".contract-buttons") || form.querySelector("fieldset, .form-actions") || form;
    if ("scrollRestoration" in history) history.scrollRestoration = "manual";
    var margin = 8;
    var top = current.getBoundingClientRect().top + window.scrollY - margin;
    var end = step.getBoundingClientRect().bottom + window.scrollY + margin;
    window.scrollTo(0, Math.max(0, end - top > window.innerHeight ? end - window.innerHeight : top));
  }

  document.addEventListener("htmx:load", function (event) { enhance(event.detail.elt); });
  // openAtTheRound first: confirmEdit drops the edited row's fragment from the address.
  document.addEventListener("DOMContentLoaded", function () { enhance(document); openAtTheRound(); confirmEdit(); });
})();
