// Polling with ETags: each live region sends the version it shows, so an unchanged
// version costs the server a 304 and the page nothing. CSRF token for htmx posts.
document.addEventListener("htmx:configRequest", function (event) {
  var target = event.detail.target;
  var current = target && (target.dataset.etag ? target : target.querySelector("[data-etag]"));
  if (current && current.dataset.etag && event.detail.verb === "get") {
    event.detail.headers["If-None-Match"] = current.dataset.etag;
  }
  var csrf = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  if (csrf && event.detail.verb !== "get") {
    event.detail.headers["X-CSRFToken"] = decodeURIComponent(csrf[1]);
  }
});

// Live regions are morphed (idiomorph, vendored beside htmx), never replaced: only what
// changed is updated, so the field being typed in keeps its focus. A field someone has
// typed in or chosen from and not yet sent keeps what it holds, whatever the update
// says; a <details> the reader opened stays open. The server answers a form that was
// carried out with "X-Live-Done": that form's fields are sent and are reset before the
// board it answered is morphed in; a refused form keeps what was typed, to be put right.
(function () {
  var edited = new WeakSet();
  function mark(event) {
    var field = event.target;
    if (field && field.form !== undefined && field.type !== "hidden") edited.add(field);
  }
  document.addEventListener("input", mark, true);
  document.addEventListener("change", mark, true);

  function useIdiomorph() {
    if (!window.Idiomorph) return;
    var callbacks = window.Idiomorph.defaults.callbacks;
    // An edited <input> is still morphed, so the server can mark it (aria-invalid, a
    // class), but keeps its value and ticks; an edited <select> or <textarea>, whose
    // value lives in its children or its text, is left whole.
    callbacks.beforeNodeMorphed = function (oldNode) {
      if (edited.has(oldNode) && oldNode.tagName !== "INPUT") return false;
    };
    callbacks.beforeAttributeUpdated = function (name, node) {
      if (name === "open" && node.tagName === "DETAILS") return false;
      if (edited.has(node) && (name === "value" || name === "checked")) return false;
    };
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", useIdiomorph);
  } else {
    useIdiomorph();
  }

  // A poll sent before a form was answered brings the page as it was before the form:
  // swapped in after the form's answer, it would take back what the form did (its
  // notice of what the laws made of it) until the next poll. It is dropped; the next
  // poll asks with the version the form's answer shows.
  var answered = 0; // when the last form's answer was swapped in
  document.addEventListener("htmx:beforeRequest", function (event) {
    event.detail.xhr.liveSentAt = performance.now();
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    if (!config) return;
    if (config.verb !== "get") {
      answered = performance.now();
    } else if (event.detail.xhr.liveSentAt < answered) {
      event.detail.shouldSwap = false;
    }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var config = detail.requestConfig;
    if (!config || config.verb === "get" || !detail.xhr.getResponseHeader("X-Live-Done")) return;
    var form = config.elt && config.elt.closest ? config.elt.closest("form") : null;
    if (!form) return;
    // A form may answer for another (the arrivals question answers the arrivals form).
    var resets = form.dataset.resets && document.getElementById(form.dataset.resets);
    [form, resets].forEach(function (done) {
      if (!done) return;
      done.reset();
      Array.prototype.forEach.call(done.elements, function (field) {
        edited.delete(field);
      });
    });
  });
})();
