// No round lost (progressive enhancement; without it the form is a plain POST).
// - Drafts: the round being entered is kept on the phone (localStorage, per game and round
//   number) on every tap, and put back when the same form comes back (reload, locked
//   phone, closed browser); cleared once the round is saved.
// - Outbox: a save that cannot reach the server (offline, lost answer, server error) is kept
//   and shown as "waiting to send", then sent again when the connection returns. Every
//   round carries an idempotency key (client_key) made here when its form first appears:
//   a retry of a save that did arrive gets the stored round back, never a second one.
// - Conflicts: when the game changed meanwhile (another phone saved that round, an undo),
//   the waiting round is not dropped: the scorer sees what they entered and what the server
//   has, and saves it as the next round, checks it in the form, or discards it.
// Nothing here scores or decides legality: the server's engine does.
(function () {
  "use strict";
  var DRAFT = "scorepad:draft:";
  var OUTBOX = "scorepad:outbox";
  var RETRY_MS = 15000;
  var busy = false;
  var pending = null; // the entry of the save htmx is sending now

  // ---- Storage ------------------------------------------------------------------------
  function read(key, fallback) {
    try { var v = localStorage.getItem(key); return v ? JSON.parse(v) : fallback; } catch (e) { return fallback; }
  }
  function write(key, value) {
    try {
      if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* storage full or forbidden: the form still works */ }
  }
  function outbox() { return read(OUTBOX, []); }
  function saveOutbox(list) { write(OUTBOX, list.length ? list : null); }
  function update(key, change) {
    var list = outbox();
    list.forEach(function (entry) { if (entry.key === key) change(entry); });
    saveOutbox(list);
    render();
  }
  function drop(key) { saveOutbox(outbox().filter(function (e) { return e.key !== key; })); render(); }
  function draftKey(action, number) { return DRAFT + action + "|" + number; }

  // 128 random bits as hex (crypto.randomUUID needs HTTPS; a club's LAN may not have it).
  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  function fill(template, values) {
    return (template || "").replace(/\{(\w+)\}/g, function (_, k) { return k in values ? values[k] : ""; });
  }

  // ---- The form -----------------------------------------------------------------------
  function queueForm(root) {
    return root && root.querySelector ? root.querySelector("form.round-form[data-queue]") : null;
  }
  function identity(form) {
    return { action: form.getAttribute("action"), number: form.elements.number.value, contract: form.elements.contract.value };
  }
  function fieldsOf(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    return fields;
  }
  // Which count rows entry.js filled in by itself (so it may change them again).
  function autoRows(form) {
    return Array.prototype.map.call(form.querySelectorAll(".count-row[data-auto='1'] input"), function (i) { return i.name; })
      .filter(function (name, i, all) { return all.indexOf(name) === i; });
  }

  function saveDraft(form) {
    var id = identity(form);
    write(draftKey(id.action, id.number), {
      contract: id.contract, key: form.elements.client_key.value, at: Date.now(),
      fields: fieldsOf(form).filter(function (f) { return f[0] !== "csrf_token"; }), auto: autoRows(form)
    });
  }

  function restore(form, draft) {
    var skip = { csrf_token: 1, contract: 1, number: 1, client_key: 1 };
    draft.fields.forEach(function (f) {
      if (skip[f[0]]) return;
      Array.prototype.forEach.call(form.querySelectorAll("input"), function (input) {
        if (input.name !== f[0]) return;
        if (input.type === "radio" || input.type === "checkbox") { if (input.value === f[1]) input.checked = true; }
        else input.value = f[1];
      });
    });
    (draft.auto || []).forEach(function (name) {
      var input = form.querySelector("input[name='" + name + "']");
      var row = input && input.closest(".count-row");
      if (row) row.dataset.auto = "1";
    });
  }

  // A form (re)appears: give it its key, put back a draft of the same round and contract,
  // or, if that round is already waiting to send, say so instead of offering it twice.
  function prepare(root) {
    var section = root && root.querySelector && (root.id === "round_form" ? root : root.querySelector("#round_form[data-queue-action]"));
    if (section && blocked(section)) return;
    var form = queueForm(root);
    if (!form) { if (section) offerResume(section); return; }
    var id = identity(form);
    var draft = read(draftKey(id.action, id.number), null);
    var keyField = form.elements.client_key;
    if (!keyField.value) keyField.value = (draft && draft.key) || newKey();
    var fresh = !form.querySelector("input:checked");
    if (draft && draft.contract === id.contract && fresh) {
      restore(form, draft);
      form.dataset.restored = "1";
      // Let entry.js and the settlement preview see the restored entry.
      form.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }

  // Step 1 (the contract buttons) of a round with a draft: lead back to it.
  function offerResume(section) {
    var draft = read(draftKey(section.dataset.queueAction, section.dataset.number), null);
    var link = draft && section.querySelector("a[data-contract='" + draft.contract + "']");
    if (!link || section.querySelector(".draft-resume")) return;
    var t = texts();
    var note = el("p", "note draft-resume", fill(t.resume, { n: section.dataset.number, contract: link.textContent.trim() }) + " ");
    var go = el("a", "btn btn-small btn-primary", t["continue"]);
    go.href = link.getAttribute("href");
    note.appendChild(go);
    var heading = section.querySelector("h2");
    if (heading) heading.after(note); else section.prepend(note);
  }

  function blocked(section) {
    var number = section.dataset.number;
    var waiting = outbox().some(function (e) {
      return e.action === section.dataset.queueAction && String(e.number) === String(number);
    });
    if (waiting === (section.dataset.blocked === "1")) return waiting;
    section.dataset.blocked = waiting ? "1" : "";
    Array.prototype.forEach.call(section.children, function (child) { child.hidden = waiting; });
    if (waiting) {
      var note = document.createElement("p");
      note.className = "note outbox-blocked";
      note.textContent = fill(texts().blocked, { n: number });
      section.appendChild(note);
    } else {
      section.querySelectorAll(".outbox-blocked").forEach(function (note) { note.remove(); });
    }
    return waiting;
  }

  // ---- What the scorer entered, in words (for the waiting card) ------------------------
  function playerNames() {
    return Array.prototype.map.call(document.querySelectorAll("#score_table thead .player-name"), function (el) {
      return el.textContent.trim();
    });
  }
  function pointsOf(cells) {
    var names = playerNames();
    return Array.prototype.map.call(cells, function (cell, i) {
      return (names[i] || "") + " " + cell.textContent.trim();
    }).join(" · ");
  }
  function entryOf(form) {
    var id = identity(form);
    var title = form.querySelector("#form-title");
    var totals = form.querySelectorAll("#preview tr.strong td");
    return {
      key: form.elements.client_key.value, action: id.action, number: Number(id.number), contract: id.contract,
      title: title ? title.textContent.trim() : "", points: totals.length ? pointsOf(totals) : "",
      fields: fieldsOf(form), state: "waiting", message: "", at: Date.now()
    };
  }
  function enqueue(entry, state, message) {
    entry.state = state;
    entry.message = message || "";
    var list = outbox().filter(function (e) { return e.key !== entry.key; });
    list.push(entry);
    saveOutbox(list);
    write(draftKey(entry.action, entry.number), null); // the outbox holds it now
    render();
  }

  // ---- Sending --------------------------------------------------------------------------
  function csrf() {
    var meta = document.querySelector("meta[name='csrf-token']");
    return meta ? meta.content : "";
  }
  function textOf(html, selector) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var el = doc.querySelector(selector);
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }
  function onThisGame(entry) {
    var box = document.getElementById("outbox");
    return box && box.dataset.action === entry.action && document.getElementById("game_live");
  }
  function swapLive(html) {
    if (window.htmx && document.getElementById("game_live")) {
      window.htmx.swap("#game_live", html, { swapStyle: "outerHTML" });
    }
  }

  // The game as the server has it now (after a conflict), without the conflict's message:
  // the outbox card says it, next to the round it is about.
  function refreshLive(entry) {
    return fetch(entry.action.replace(/\/rounds$/, ""), { credentials: "same-origin" })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var live = new DOMParser().parseFromString(html, "text/html").getElementById("game_live");
        if (live) swapLive(live.outerHTML);
        render();
      }, function () {});
  }

  function send(entry) {
    var body = new URLSearchParams();
    var token = csrf();
    entry.fields.forEach(function (f) { body.append(f[0], f[0] === "csrf_token" && token ? token : f[1]); });
    update(entry.key, function (e) { e.state = "sending"; });
    return fetch(entry.action, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": token || "" }
    }).then(function (response) {
      return response.text().then(function (html) {
        var status = response.status;
        if (status >= 200 && status < 300) {
          drop(entry.key);
          if (onThisGame(entry)) swapLive(html);
          say(fill(texts().sent, { n: entry.number }));
        } else if (status === 409) {
          update(entry.key, function (e) { e.state = "conflict"; e.message = textOf(html, ".flash-error"); });
          if (onThisGame(entry)) return refreshLive(entry);
        } else if (status >= 500) {
          update(entry.key, function (e) { e.state = "waiting"; });
        } else {
          var message = textOf(html, ".field-error, .flash-error") || textOf(html, "main") || ("HTTP " + status);
          update(entry.key, function (e) { e.state = "refused"; e.message = message; });
        }
      });
    }, function () {
      update(entry.key, function (e) { e.state = "waiting"; });
    });
  }

  // Send what is waiting, one round after another (oldest first).
  function flush() {
    if (busy || navigator.onLine === false) return;
    var next = outbox().filter(function (e) { return e.state === "waiting" || e.state === "sending"; })
      .sort(function (a, b) { return a.at - b.at; })[0];
    if (!next) return;
    busy = true;
    send(next).then(function () {
      busy = false;
      var again = outbox().some(function (e) { return e.key === next.key && e.state === "waiting"; });
      if (!again) flush();
    });
  }

  // ---- The outbox card ------------------------------------------------------------------
  function texts() {
    var box = document.getElementById("outbox");
    var t = {};
    if (!box) return t;
    Object.keys(box.dataset).forEach(function (k) {
      if (/^t[A-Z]/.test(k)) t[k.charAt(1).toLowerCase() + k.slice(2)] = box.dataset[k];
    });
    return t;
  }
  var sayTimer = null;
  function say(text) {
    var out = document.querySelector("#outbox .outbox-status");
    if (!out) return;
    out.textContent = text;
    clearTimeout(sayTimer);
    if (text) sayTimer = setTimeout(function () { out.textContent = ""; render(); }, 8000);
    render();
  }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }
  function button(text, action, key, primary) {
    var b = el("button", "btn btn-small" + (primary ? " btn-primary" : ""), text);
    b.type = "button";
    b.dataset.outbox = action;
    b.dataset.key = key;
    return b;
  }
  function nextNumber() {
    var section = document.querySelector("#round_form[data-number]");
    if (section) return Number(section.dataset.number);
    if (document.getElementById("final")) return null;
    return document.querySelectorAll("#score_table tbody tr[id^='round-']").length + 1;
  }
  function serverRound(number) {
    var row = document.getElementById("round-" + number);
    if (!row) return null;
    var contract = row.querySelector(".round-contract");
    return (contract ? contract.textContent.trim() + ": " : "") + pointsOf(row.querySelectorAll(".round-pts"));
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
    mine.appendChild(el("dd", "", [fill(t.round, { n: entry.number }), entry.points].filter(Boolean).join(" · ")));
    compare.appendChild(mine);
    if (entry.state === "conflict") {
      var theirs = el("div");
      theirs.appendChild(el("dt", "", t.server));
      var dd = el("dd", "", serverRound(entry.number) || fill(t.serverNone, { n: entry.number }));
      theirs.appendChild(dd);
      compare.appendChild(theirs);
    }
    li.appendChild(compare);
    var buttons = el("div", "outbox-actions");
    var next = nextNumber();
    if (entry.state === "conflict" && next) buttons.appendChild(button(fill(t.sendAs, { n: next }), "send-as", entry.key, true));
    if (entry.state === "conflict" && !next) li.appendChild(el("p", "muted", t.complete));
    if (next) buttons.appendChild(button(t.review, "review", entry.key, entry.state === "refused"));
    buttons.appendChild(button(t.discard, "discard", entry.key));
    li.appendChild(buttons);
    return li;
  }

  function render() {
    var box = document.getElementById("outbox");
    if (!box) return;
    var t = texts();
    var mine = outbox().filter(function (e) { return e.action === box.dataset.action; });
    var list = box.querySelector(".outbox-list");
    list.textContent = "";
    mine.forEach(function (entry) { list.appendChild(card(entry, t)); });
    box.hidden = mine.length === 0 && !box.querySelector(".outbox-status").textContent;
    var section = document.querySelector("#round_form[data-queue-action]");
    if (section) blocked(section);
  }

  // ---- Events ---------------------------------------------------------------------------
  function onForm(event) {
    var form = event.target.closest && event.target.closest("form.round-form[data-queue]");
    if (form) setTimeout(function () { if (form.isConnected) saveDraft(form); }, 0); // after entry.js filled in
  }
  document.addEventListener("change", onForm);
  document.addEventListener("input", onForm);
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("form.round-form[data-queue] [data-shortcut], [data-order-reset]")) onForm(event);
    var b = event.target.closest && event.target.closest("[data-outbox]");
    if (!b) return;
    var key = b.dataset.key;
    var entry = outbox().filter(function (e) { return e.key === key; })[0];
    if (!entry) return;
    var action = b.dataset.outbox;
    if (action === "try") {
      update(key, function (e) { e.state = "waiting"; });
      flush();
    } else if (action === "discard") {
      if (window.confirm(texts().discardConfirm)) { drop(key); say(""); render(); }
    } else if (action === "send-as") {
      var next = nextNumber();
      update(key, function (e) {
        e.state = "waiting"; e.message = ""; e.number = next;
        e.fields = e.fields.map(function (f) { return f[0] === "number" ? ["number", String(next)] : f; });
      });
      flush();
    } else if (action === "review") {
      var number = nextNumber();
      write(draftKey(entry.action, number), { contract: entry.contract, key: entry.key, at: Date.now(),
        fields: entry.fields.filter(function (f) { return f[0] !== "csrf_token"; }), auto: [] });
      drop(key);
      window.location.assign(entry.action + "/new?contract=" + encodeURIComponent(entry.contract) + "#round_form");
    }
  });

  // The round form's own save (htmx): remember what was sent; keep it if it does not arrive.
  // (htmx may report the end of the request on an ancestor once the form is swapped out:
  // the request is recognised by its XMLHttpRequest.)
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (form.matches && form.matches("form.round-form[data-queue]") && (event.detail.requestConfig || {}).verb !== "get") {
      saveDraft(form);
      pending = { entry: entryOf(form), xhr: event.detail.xhr };
    }
  });
  function mine(event) {
    if (!pending || event.detail.xhr !== pending.xhr) return null;
    var entry = pending.entry;
    pending = null;
    return entry;
  }
  function failed(entry) {
    enqueue(entry, "waiting");
    setTimeout(flush, 1000); // perhaps only the answer was lost: the key makes a retry safe
  }
  function onFailure(event) { var entry = mine(event); if (entry) failed(entry); }
  document.addEventListener("htmx:sendError", onFailure);
  document.addEventListener("htmx:timeout", onFailure);
  document.addEventListener("htmx:afterRequest", function (event) {
    var entry = mine(event);
    if (!entry) return;
    var xhr = event.detail.xhr;
    var status = xhr ? xhr.status : 0;
    if (status === 0 || status >= 500) failed(entry);
    else if (status >= 200 && status < 300) write(draftKey(entry.action, entry.number), null);
    else if (status === 409) {
      enqueue(entry, "conflict", textOf(xhr.responseText, ".flash-error"));
      // htmx has shown the game as it is now; the message moves to the outbox card.
      document.querySelectorAll("#game_live > .flash-error").forEach(function (flash) { flash.remove(); });
    }
  });

  document.addEventListener("htmx:load", function (event) { prepare(event.detail.elt); render(); });
  document.addEventListener("DOMContentLoaded", function () { prepare(document); render(); flush(); });
  window.addEventListener("online", flush);
  window.addEventListener("storage", function (event) { if (event.key === OUTBOX) render(); });
  document.addEventListener("visibilitychange", function () {
    var form = queueForm(document);
    if (document.visibilityState === "hidden" && form) saveDraft(form);
    else if (document.visibilityState === "visible") flush();
  });
  setInterval(flush, RETRY_MS);
})();
