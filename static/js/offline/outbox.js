// The outbox: a save that cannot reach the server (offline, lost answer, server error) is
// kept and shown as "waiting to send", then sent again when the connection returns. It is
// sent as the plain form would be (no htmx): the server answers 303 to the game page, or
// the game page with 409 (the game changed) or 422 (refused), whose reason is the first
// [data-refusal] element. The page's live part is then replaced by the server's.
(function (O) {
  "use strict";
  var busy = false;

  // A round as the outbox keeps it: its form's fields and how the card describes it.
  O.entryOf = function (form) {
    var id = O.identity(form);
    var title = form.querySelector("#form-title");
    var totals = form.querySelectorAll("#preview tr.strong td");
    return {
      key: form.elements.client_key.value, action: id.action, number: Number(id.number),
      contract: id.contract, title: title ? title.textContent.trim() : "", points: totals.length ? O.pointsOf(totals) : "",
      fields: O.fieldsOf(form), state: "waiting", message: "", at: Date.now()
    };
  };
  O.enqueue = function (entry, state, message) {
    entry.state = state;
    entry.message = message || "";
    var list = O.outbox().filter(function (e) { return e.key !== entry.key; });
    list.push(entry);
    O.saveOutbox(list);
    O.write(O.draftKey(entry.action, entry.number), null); // the outbox holds it now
    O.render();
  };

  function onThisGame(entry) {
    var box = document.getElementById("outbox");
    return box && box.dataset.action === entry.action && document.getElementById("game_live");
  }
  // The game as the server has it now, from a page it answered, without the page's refusal
  // message: the outbox card says it, next to the round it is about.
  function showLive(doc) {
    var live = doc.getElementById("game_live");
    if (!live || !window.htmx || !document.getElementById("game_live")) return;
    live.querySelectorAll(":scope > [data-refusal], :scope > [data-entered]").forEach(function (node) { node.remove(); });
    window.htmx.swap("#game_live", live.outerHTML, { swapStyle: "outerHTML" });
  }

  function send(entry) {
    var body = new URLSearchParams();
    var meta = document.querySelector("meta[name='csrf-token']");
    var token = meta ? meta.content : "";
    entry.fields.forEach(function (f) { body.append(f[0], f[0] === "csrf_token" && token ? token : f[1]); });
    O.update(entry.key, function (e) { e.state = "sending"; });
    return fetch(entry.action, {
      method: "POST", body: body, credentials: "same-origin", headers: { "X-CSRFToken": token }
    }).then(function (response) {
      return response.text().then(function (html) {
        var status = response.status;
        var doc = new DOMParser().parseFromString(html, "text/html");
        if (status >= 200 && status < 300) {
          O.drop(entry.key);
          if (onThisGame(entry)) showLive(doc);
          O.say(O.fill(O.texts().sent, { n: entry.number }));
        } else if (status === 409) {
          O.update(entry.key, function (e) {
            e.state = O.conflictState(doc); e.message = O.textOf(doc, "[data-refusal]"); e.entered = O.enteredOf(doc);
          });
          if (onThisGame(entry)) { showLive(doc); O.render(); }
        } else if (status >= 500) {
          O.update(entry.key, function (e) { e.state = "waiting"; });
        } else {
          var message = O.textOf(doc, "[data-refusal]") || O.textOf(doc, "main") || ("HTTP " + status);
          O.update(entry.key, function (e) { e.state = "refused"; e.message = message; });
        }
      });
    }, function () {
      O.update(entry.key, function (e) { e.state = "waiting"; });
    });
  }

  // Send what is waiting, one round after another (oldest first).
  O.flush = function flush() {
    if (busy || navigator.onLine === false) return;
    var next = O.outbox().filter(function (e) { return e.state === "waiting" || e.state === "sending"; })
      .sort(function (a, b) { return a.at - b.at; })[0];
    if (!next) return;
    busy = true;
    send(next).then(function () {
      busy = false;
      var again = O.outbox().some(function (e) { return e.key === next.key && e.state === "waiting"; });
      if (!again) flush();
    });
  };
})(window.scorepadOffline);
