// The "kept on this phone" card (#outbox): each round waiting to send, sending, refused, or
// in conflict. A conflict (the game changed meanwhile: another phone saved that round, an
// undo) shows what the scorer entered next to what the server has, and offers to save it
// as the next round, check it in the form, or discard it.
(function (O) {
  "use strict";
  var el = O.el;
  var fill = O.fill;

  function playerNames() {
    return Array.prototype.map.call(document.querySelectorAll("#score_table thead .player-name"), function (node) {
      return node.textContent.trim();
    });
  }
  // Each player's points in words: "Anne −10 · Béatrice 0 …".
  O.pointsOf = function (cells) {
    var names = playerNames();
    return Array.prototype.map.call(cells, function (cell, i) {
      return (names[i] || "") + " " + cell.textContent.trim();
    }).join(" · ");
  };

  var sayTimer = null;
  O.say = function (text) {
    var out = document.querySelector("#outbox .outbox-status");
    if (!out) return;
    out.textContent = text;
    clearTimeout(sayTimer);
    if (text) sayTimer = setTimeout(function () { out.textContent = ""; O.render(); }, 8000);
    O.render();
  };
  function button(text, action, key, primary) {
    var b = el("button", "btn btn-small" + (primary ? " btn-primary" : ""), text);
    b.type = "button";
    b.dataset.outbox = action;
    b.dataset.key = key;
    return b;
  }
  // The number of the round the page would save next (null once the game is complete).
  O.nextNumber = function () {
    var section = document.querySelector("#round_form[data-number]");
    if (section) return Number(section.dataset.number);
    if (document.getElementById("final")) return null;
    return document.querySelectorAll("#score_table tbody tr[id^='round-']").length + 1;
  };
  function serverRound(number) {
    var row = document.getElementById("round-" + number);
    if (!row) return null;
    var contract = row.querySelector(".round-contract");
    return (contract ? contract.textContent.trim() + ": " : "") + O.pointsOf(row.querySelectorAll(".round-pts"));
  }

  function card(entry, t) {
    var li = el("li", "outbox-item outbox-" + entry.state);
    li.dataset.key = entry.key;
    var head = el("p", "outbox-head");
    head.appendChild(el("strong", "", entry.title || fill(t.round, { n: entry.number })));
    var state = entry.state === "conflict" ? t.conflict : entry.state === "refused" ? t.refused
      : entry.state === "sending" ? t.sending : t.waiting;
    head.appendChild(el("span", "outbox-state", state));
    li.appendChild(head);
    if (entry.state === "waiting" || entry.state === "sending") {
      if (entry.points) li.appendChild(el("p", "outbox-points", entry.points));
      li.appendChild(el("p", "muted", t.waitingHelp));
      var actions = el("div", "outbox-actions");
      actions.appendChild(button(t.try, "try", entry.key));
      li.appendChild(actions);
      return li;
    }
    if (entry.message) li.appendChild(el("p", "outbox-message", entry.message));
    var compare = el("dl", "outbox-compare");
    var mine = el("div");
    mine.appendChild(el("dt", "", t.entered));
    // What was entered, as the server said it in its refusal (contract, declarer, outcome,
    // points: a line each); before it could say (an older card), the form's title and points.
    var entered = el("dd");
    var lines = entry.entered && entry.entered.length ? entry.entered
      : [[fill(t.round, { n: entry.number }), entry.points].filter(Boolean).join(" · ")];
    lines.forEach(function (line) { entered.appendChild(el("span", "outbox-line", line)); });
    mine.appendChild(entered);
    compare.appendChild(mine);
    if (entry.state === "conflict") {
      var theirs = el("div");
      theirs.appendChild(el("dt", "", t.server));
      theirs.appendChild(el("dd", "", serverRound(entry.number) || fill(t.serverNone, { n: entry.number })));
      compare.appendChild(theirs);
    }
    li.appendChild(compare);
    var buttons = el("div", "outbox-actions");
    var next = O.nextNumber();
    if (entry.state === "conflict" && next) buttons.appendChild(button(fill(t.sendAs, { n: next }), "send-as", entry.key, true));
    if (entry.state === "conflict" && !next) li.appendChild(el("p", "muted", t.complete));
    if (next) buttons.appendChild(button(t.review, "review", entry.key, entry.state === "refused"));
    buttons.appendChild(button(t.discard, "discard", entry.key));
    li.appendChild(buttons);
    return li;
  }

  // Draw this game's waiting rounds (and hide the next round's form while one waits). The
  // card's style sheet (offline.css) loads the first time it shows.
  O.render = function () {
    var box = document.getElementById("outbox");
    if (!box) return;
    var t = O.texts();
    var mine = O.outbox().filter(function (e) { return e.action === box.dataset.action; });
    var list = box.querySelector(".outbox-list");
    list.textContent = "";
    mine.forEach(function (entry) { list.appendChild(card(entry, t)); });
    box.hidden = mine.length === 0 && !box.querySelector(".outbox-status").textContent;
    if (!box.hidden && !document.querySelector("link[href='" + box.dataset.css + "']")) {
      var css = el("link");
      css.rel = "stylesheet";
      css.href = box.dataset.css;
      document.head.appendChild(css);
    }
    var section = document.querySelector("#round_form[data-queue-action]");
    if (section) O.blocked(section);
  };
})(window.scorepadOffline);
