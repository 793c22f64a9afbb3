// The events that drive drafts.js, card.js and outbox.js: taps on the round form, the
// outbox card's buttons, the form's own save through htmx, coming back online.
(function (O) {
  "use strict";
  var pending = null; // the entry of the save htmx is sending now

  function onForm(event) {
    var form = event.target.closest && event.target.closest("form.round-form[data-queue]");
    if (form) setTimeout(function () { if (form.isConnected) O.saveDraft(form); }, 0); // after entry.js filled in
  }
  document.addEventListener("change", onForm);
  document.addEventListener("input", onForm);
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("form.round-form[data-queue] [data-shortcut], [data-order-reset]")) onForm(event);
    var b = event.target.closest && event.target.closest("[data-outbox]");
    if (!b) return;
    var key = b.dataset.key;
    var entry = O.outbox().filter(function (e) { return e.key === key; })[0];
    if (!entry) return;
    var action = b.dataset.outbox;
    if (action === "try") {
      O.update(key, function (e) { e.state = "waiting"; });
      O.flush();
    } else if (action === "discard") {
      if (window.confirm(O.texts().discardConfirm)) { O.drop(key); O.say(""); }
    } else if (action === "send-as") {
      // Another save, with its own key: the old one may be spent (a round undone since) and
      // the server refuses a key sent with a different round.
      var next = O.nextNumber(), fresh = O.newKey();
      O.update(key, function (e) {
        e.state = "waiting"; e.number = next; e.key = fresh; // (a waiting card shows no message)
        e.fields = e.fields.map(function (f) {
          return f[0] === "number" ? ["number", String(next)] : f[0] === "client_key" ? ["client_key", fresh] : f;
        });
      });
      O.flush();
    } else if (action === "review") {
      // The next round's form for the same contract, filled in with what was entered (a new key: as above).
      O.write(O.draftKey(entry.action, O.nextNumber()), { contract: entry.contract, at: Date.now(),
        fields: entry.fields.filter(function (f) { return f[0] !== "csrf_token"; }), auto: [] });
      O.drop(key);
      window.location.assign(document.getElementById("outbox").dataset.newUrl + "?contract=" +
        encodeURIComponent(entry.contract) + "#round_form");
    }
  });

  // The round form's own save (htmx): remember what was sent; keep it if it does not arrive.
  // (htmx may report the end of the request on an ancestor once the form is swapped out:
  // the request is recognised by its XMLHttpRequest.)
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (form.matches && form.matches("form.round-form[data-queue]") && (event.detail.requestConfig || {}).verb !== "get") {
      O.saveDraft(form);
      pending = { entry: O.entryOf(form), xhr: event.detail.xhr };
    }
  });
  function mine(event) {
    if (!pending || event.detail.xhr !== pending.xhr) return null;
    var entry = pending.entry;
    pending = null;
    return entry;
  }
  function failed(entry) {
    O.enqueue(entry, "waiting");
    setTimeout(O.flush, 1000); // perhaps only the answer was lost: the key makes a retry safe
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
    else if (status >= 200 && status < 300) O.write(O.draftKey(entry.action, entry.number), null);
    else if (status === 409) {
      var answer = new DOMParser().parseFromString(xhr.responseText, "text/html");
      entry.entered = O.enteredOf(answer);
      O.enqueue(entry, O.conflictState(answer), O.textOf(answer, "[data-refusal]"));
      // htmx has shown the game as it is now; the message and what was entered move to the outbox card.
      document.querySelectorAll("#game_live > [data-refusal], #game_live > [data-entered]").forEach(function (node) {
        node.remove();
      });
    }
  });

  document.addEventListener("htmx:load", function (event) { O.prepare(event.detail.elt); O.render(); });
  document.addEventListener("DOMContentLoaded", function () { O.prepare(document); O.render(); O.flush(); });
  window.addEventListener("online", O.flush);
  window.addEventListener("storage", function (event) { if (event.key === O.OUTBOX) O.render(); });
  document.addEventListener("visibilitychange", function () {
    var form = O.queueForm(document);
    if (document.visibilityState === "hidden" && form) O.saveDraft(form);
    else if (document.visibilityState === "visible") O.flush();
  });
  setInterval(O.flush, 15000);
})(window.scorepadOffline);
