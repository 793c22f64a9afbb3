// Drafts: the round being entered is kept on the phone (localStorage, per game and round
// number) on every tap, and put back when the same form comes back (reload, locked phone,
// closed browser); cleared once the round is saved. Every round carries an idempotency key
// (client_key) made here when its form first appears: a retry of a save that did arrive
// gets the stored round back, never a second one.
(function (O) {
  "use strict";
  O.queueForm = function (root) {
    return root && root.querySelector ? root.querySelector("form.round-form[data-queue]") : null;
  };
  function identity(form) {
    return { action: form.getAttribute("action"), number: form.elements.number.value, contract: form.elements.contract.value };
  }
  O.identity = identity;
  O.fieldsOf = function (form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    return fields;
  };
  // Which count rows entry.js filled in by itself (so it may change them again).
  function autoRows(form) {
    return Array.prototype.map.call(form.querySelectorAll(".count-row[data-auto='1'] input"), function (i) { return i.name; })
      .filter(function (name, i, all) { return all.indexOf(name) === i; });
  }

  O.saveDraft = function (form) {
    var id = identity(form);
    O.write(O.draftKey(id.action, id.number), {
      contract: id.contract, key: form.elements.client_key.value, at: Date.now(),
      fields: O.fieldsOf(form).filter(function (f) { return f[0] !== "csrf_token"; }), auto: autoRows(form)
    });
  };

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
  O.prepare = function (root) {
    var section = root && root.querySelector && (root.id === "round_form" ? root : root.querySelector("#round_form[data-queue-action]"));
    if (section && O.blocked(section)) return;
    var form = O.queueForm(root);
    if (!form) { if (section) offerResume(section); return; }
    var id = identity(form);
    var draft = O.read(O.draftKey(id.action, id.number), null);
    var keyField = form.elements.client_key;
    if (!keyField.value) keyField.value = (draft && draft.key) || O.newKey();
    var fresh = !form.querySelector("input:checked");
    if (draft && draft.contract === id.contract && fresh) {
      restore(form, draft);
      form.dataset.restored = "1";
      // Let entry.js and the settlement preview see the restored entry.
      form.dispatchEvent(new Event("change", { bubbles: true }));
    }
  };

  // Step 1 (the contract buttons) of a round with a draft: lead back to it.
  function offerResume(section) {
    var draft = O.read(O.draftKey(section.dataset.queueAction, section.dataset.number), null);
    var link = draft && section.querySelector("a[data-contract='" + draft.contract + "']");
    if (!link || section.querySelector(".draft-resume")) return;
    var t = O.texts();
    var note = O.el("p", "note draft-resume", O.fill(t.resume, { n: section.dataset.number, contract: link.textContent.trim() }) + " ");
    var go = O.el("a", "btn btn-small btn-primary", t["continue"]);
    go.href = link.getAttribute("href");
    note.appendChild(go);
    var heading = section.querySelector("h2");
    if (heading) heading.after(note); else section.prepend(note);
  }

  // The next round's section while one of its rounds waits to send: hidden behind a note.
  O.blocked = function (section) {
    var number = section.dataset.number;
    var waiting = O.outbox().some(function (e) {
      return e.action === section.dataset.queueAction && String(e.number) === String(number);
    });
    if (waiting === (section.dataset.blocked === "1")) return waiting;
    section.dataset.blocked = waiting ? "1" : "";
    Array.prototype.forEach.call(section.children, function (child) { child.hidden = waiting; });
    if (waiting) {
      section.appendChild(O.el("p", "note outbox-blocked", O.fill(O.texts().blocked, { n: number })));
    } else {
      section.querySelectorAll(".outbox-blocked").forEach(function (note) { note.remove(); });
    }
    return waiting;
  };
})(window.scorepadOffline);
