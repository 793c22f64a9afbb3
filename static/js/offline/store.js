// No round lost (progressive enhancement; without it the form is a plain POST). This file
// and the others of static/js/offline/ are bundled for the scorer's page in this order:
// store.js (storage and small helpers), drafts.js (the round being entered), card.js (the
// "kept on this phone" card, with a conflict's comparison), outbox.js (sending), main.js
// (events). They share one object, window.scorepadOffline. Nothing here scores or decides
// legality: the server's engine does. Every URL comes from a data-* attribute the server
// renders (url_for): the round form's action and the outbox's data-new-url.
(function (O) {
  "use strict";
  var OUTBOX = O.OUTBOX = "scorepad:outbox";

  O.read = function (key, fallback) {
    try { var v = localStorage.getItem(key); return v ? JSON.parse(v) : fallback; } catch (e) { return fallback; }
  };
  O.write = function (key, value) {
    try {
      if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* storage full or forbidden: the form still works */ }
  };
  // The rounds waiting to send, of every game (oldest first by `at`).
  O.outbox = function () { return O.read(OUTBOX, []); };
  O.saveOutbox = function (list) { O.write(OUTBOX, list.length ? list : null); };
  O.update = function (key, change) {
    var list = O.outbox();
    list.forEach(function (entry) { if (entry.key === key) change(entry); });
    O.saveOutbox(list);
    O.render();
  };
  O.drop = function (key) { O.saveOutbox(O.outbox().filter(function (e) { return e.key !== key; })); O.render(); };
  O.draftKey = function (action, number) { return "scorepad:draft:" + action + "|" + number; };

  // 128 random bits as hex (crypto.randomUUID needs HTTPS; a club's LAN may not have it).
  O.newKey = function () {
    return Array.prototype.map.call(crypto.getRandomValues(new Uint8Array(16)), function (b) {
      return (b + 256).toString(16).slice(1);
    }).join("");
  };
  O.fill = function (template, values) {
    return (template || "").replace(/\{(\w+)\}/g, function (_, k) { return k in values ? values[k] : ""; });
  };
  // The outbox card's texts (data-t-* of #outbox, translated by the server).
  O.texts = function () {
    var box = document.getElementById("outbox");
    var t = {};
    if (!box) return t;
    Object.keys(box.dataset).forEach(function (k) {
      if (/^t[A-Z]/.test(k)) t[k.charAt(1).toLowerCase() + k.slice(2)] = box.dataset[k];
    });
    return t;
  };
  O.el = function (tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  };
  // The text of a parsed page's first element matching selector; a refused save's reason is
  // the first element the server marked [data-refusal] (the status says 409 or 422).
  O.textOf = function (doc, selector) {
    var node = doc.querySelector(selector);
    return node ? node.textContent.replace(/\s+/g, " ").trim() : "";
  };
  // A refused save's round as the server says it (the title, then a line a part of the
  // outcome and the points: [data-entered] of the 409's page), or an empty list.
  O.enteredOf = function (doc) {
    return Array.prototype.map.call(doc.querySelectorAll("[data-entered] [data-line]"), function (node) {
      return node.textContent.replace(/\s+/g, " ").trim();
    });
  };
  // A 409's state in the outbox: "conflict" (the game changed meanwhile: the round may be saved
  // under the next number) or "refused" when the table's club night is closed (nothing can be
  // saved there: data-refusal="closed", scorepad/views/rounds.py conflict_page).
  O.conflictState = function (doc) {
    return doc.querySelector("[data-refusal='closed']") ? "refused" : "conflict";
  };
})(window.scorepadOffline = {});
