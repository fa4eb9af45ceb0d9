// What the secretary typed in a form that posts the whole page (a late correction of a
// hand, or the reason for taking one off, on the rubber's page) survives his login
// running out. The form carries data-keep-typed (its rubber); when it is sent, its fields
// are kept in this tab's sessionStorage under that rubber, the form and its hand. A post
// answered by the login page did nothing, and logging in again leads back to the page
// with `resume` in its address (scoring/views_secretary.py): the form for the same hand
// is filled in again as it was sent. Any other showing of the page (the change made, or
// refused and shown by the server with what was sent) forgets what was kept.
(function () {
  "use strict";

  var PREFIX = "cardclub-typed:";

  function scope(form) {
    return PREFIX + form.dataset.keepTyped + ":";
  }

  function storageKey(form) {
    var hand = form.elements.number ? form.elements.number.value : "";
    return scope(form) + form.id + ":" + hand;
  }

  function store() {
    try {
      return window.sessionStorage;
    } catch (e) {
      return null; // storage refused (a private window's settings): nothing is kept
    }
  }

  // The fields a person fills in: not the form's hidden ones (its token, the hand's number).
  function typedFields(form) {
    return Array.prototype.filter.call(form.elements, function (field) {
      return field.name && ["hidden", "submit", "button", "reset"].indexOf(field.type) < 0;
    });
  }

  // Put the values sent back into the form (a URLSearchParams, as the form sent them).
  // A field given another value than it shows is opened to view if it was folded away.
  function restore(form, sent) {
    var seen = {};
    typedFields(form).forEach(function (field) {
      var values = sent.getAll(field.name);
      var before = field.type === "checkbox" || field.type === "radio" ? field.checked : field.value;
      if (field.type === "checkbox" || field.type === "radio") {
        field.checked = values.indexOf(field.value) >= 0;
      } else if (field.tagName === "SELECT" && field.multiple) {
        Array.prototype.forEach.call(field.options, function (option) {
          option.selected = values.indexOf(option.value) >= 0;
        });
      } else {
        var nth = seen[field.name] || 0; // the nth field of a name takes the nth value
        seen[field.name] = nth + 1;
        field.value = nth < values.length ? values[nth] : "";
      }
      var after = field.type === "checkbox" || field.type === "radio" ? field.checked : field.value;
      var folded = field.closest("details");
      if (after !== before && folded) folded.open = true;
    });
    // The version of the hand the typed correction was of, not the one the page now
    // shows: a hand a phone corrected meanwhile is refused, and said so, rather than
    // overwritten with what was typed on the hand as it was (club.recording.hand_correct).
    var version = form.elements.changed_at;
    if (version && sent.has("changed_at")) version.value = sent.get("changed_at");
  }

  function start() {
    var storage = store();
    var forms = document.querySelectorAll("form[data-keep-typed]");
    if (!storage || !forms.length) return;
    var resuming = new URLSearchParams(location.search).has("resume");
    Array.prototype.forEach.call(forms, function (form) {
      if (!resuming) {
        // Shown again after a change made or refused: what was kept is done with.
        Object.keys(storage).forEach(function (key) {
          if (key.indexOf(scope(form)) === 0) storage.removeItem(key);
        });
        return;
      }
      var kept = storage.getItem(storageKey(form));
      if (kept !== null) restore(form, new URLSearchParams(kept));
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var storage = store();
    if (!storage || !form.matches || !form.matches("form[data-keep-typed]")) return;
    storage.setItem(storageKey(form), new URLSearchParams(new FormData(form)).toString());
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
