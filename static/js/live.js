// Polling with ETags: each live region sends the version it shows, so an unchanged
// version costs the server a 304 and the page nothing. CSRF token for htmx posts.
document.addEventListener("htmx:configRequest", function (event) {
  var target = event.detail.target;
  var current = target && (target.dataset.etag ? target : target.querySelector("[data-etag]"));
  if (current && current.dataset.etag && event.detail.verb === "get") {
    event.detail.headers["If-None-Match"] = current.dataset.etag;
  }
  // The browser's token, not the one the form was rendered with: logging in again (in
  // another tab, after the session ran out) gives a new token, and a form the page has
  // held since would be refused (403) without a word.
  var csrf = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  if (csrf && event.detail.verb !== "get") {
    var token = decodeURIComponent(csrf[1]);
    event.detail.headers["X-CSRFToken"] = token;
    var sent = event.detail.formData;
    if (sent && sent.has("csrfmiddlewaretoken")) {
      event.detail.parameters.csrfmiddlewaretoken = token;
    }
  }
});

// The secretary's session ran out (or he logged out in another tab): every poll and
// button of the page is answered by the login page (the header X-Login-Page), which has
// none of the page's live parts. Nothing is swapped, so nothing typed is lost; the page
// says that nothing was done and offers to log in again in another tab. The next request
// answered by the page itself takes the notice away.
(function () {
  function notice() {
    return document.getElementById("logged-out");
  }
  function show(xhr) {
    if (notice()) return;
    var login = new URL(xhr.responseURL || "/accounts/login/", location.href);
    login.search = "?next=" + encodeURIComponent(location.pathname + location.search);
    var box = document.createElement("div");
    box.id = "logged-out";
    box.className = "alert error logged-out";
    box.setAttribute("role", "alert");
    box.dataset.testid = "logged-out";
    var link = document.createElement("a");
    link.href = login.pathname + login.search;
    link.target = "_blank";
    link.rel = "noopener";
    link.textContent = "Log in again";
    var strong = document.createElement("strong");
    strong.textContent = "You are logged out: nothing was done. ";
    box.append(
      strong,
      "Your login has run out, or you logged out on another page. ",
      link,
      " (in a new tab), then come back here: this page goes on by itself and keeps what you typed."
    );
    var main = document.querySelector("main") || document.body;
    main.insertBefore(box, main.firstChild);
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr && event.detail.xhr.getResponseHeader("X-Login-Page")) {
      event.detail.shouldSwap = false;
      event.detail.isError = false;
    }
    // A refusal the page shows in its own live part though its status is an error (the
    // board's 429, too many requests: its words and the forms as they were typed).
    if (event.detail.xhr && event.detail.xhr.getResponseHeader("X-Live-Refusal")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || !xhr.status) return; // no answer at all: the network, not the login
    if (xhr.getResponseHeader("X-Login-Page")) {
      show(xhr);
    } else if (notice()) {
      notice().remove();
    }
  });
})();

// Live regions are morphed (idiomorph, vendored beside htmx), never replaced: only what
// changed is updated, so the field being typed in keeps its focus. A field someone has
// typed in or chosen from and not yet sent keeps what it holds, whatever the update
// says; a <details> the reader opened stays open. The server answers a form that was
// carried out with "X-Live-Done": that form's fields are sent and are reset before the
// board it answered is morphed in; a refused form keeps what was typed, to be put right.
(function () {
  var edited = new WeakSet();
  var chosen = new WeakMap(); // an edited <select>'s choice, kept across its morph
  function mark(event) {
    var field = event.target;
    if (field && field.form !== undefined && field.type !== "hidden") edited.add(field);
  }
  document.addEventListener("input", mark, true);
  document.addEventListener("change", mark, true);

  // A form's refusal with an id (the board's, #board-refusal) stays through the polls that
  // follow, until the next form's answer: a poll's board carries none, and on a busy
  // evening, every hand at any table changing the board, the morph took it away within a
  // second and a half, before it was read. (With its id, idiomorph never morphs it into
  // another element: it is kept where it stands or removed.) So is an element with an id
  // marked data-poll-keeps (the board's notice of what the laws made of its last action,
  // its question about a look-alike name); one marked data-poll-keeps="typed" (the board's
  // undo form) only while a field in it is being typed in: what he typed is not taken
  // from under him, and pressed, it is answered with the refusal of a board out of date.
  var polling = false; // the swap under way is a poll's
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    polling = !!config && config.verb === "get";
  });

  function useIdiomorph() {
    if (!window.Idiomorph) return;
    var callbacks = window.Idiomorph.defaults.callbacks;
    callbacks.beforeNodeRemoved = function (node) {
      if (!polling || !node.id || !node.classList) return;
      var keeps = node.classList.contains("refusal") ? "" : node.getAttribute("data-poll-keeps");
      if (keeps === "" || (keeps === "typed" && typedIn(node))) return false;
    };
    function typedIn(node) {
      if (node.contains(document.activeElement)) return true;
      return Array.prototype.some.call(node.querySelectorAll("input, textarea, select"), function (field) {
        return edited.has(field);
      });
    }
    // An edited <input> is still morphed, so the server can mark it (aria-invalid, a
    // class), but keeps its value and ticks; an edited <textarea>, whose value lives in its
    // text, is left whole. An edited <select> takes the server's options, which offer only
    // what the evening now allows (a player who has since joined a table is no longer a
    // candidate), and keeps the choice made in it while it is still offered; a choice no
    // longer offered gives way to the server's.
    callbacks.beforeNodeMorphed = function (oldNode) {
      if (!edited.has(oldNode)) return;
      if (oldNode.tagName === "SELECT") {
        chosen.set(
          oldNode,
          Array.prototype.filter
            .call(oldNode.options, function (option) {
              return option.selected;
            })
            .map(function (option) {
              return option.value;
            })
        );
        return;
      }
      if (oldNode.tagName !== "INPUT") return false;
    };
    callbacks.afterNodeMorphed = function (oldNode) {
      if (!chosen.has(oldNode)) return;
      var values = chosen.get(oldNode);
      chosen.delete(oldNode);
      var options = Array.prototype.slice.call(oldNode.options);
      var offered = options.filter(function (option) {
        return values.indexOf(option.value) >= 0;
      });
      if (!offered.length) {
        // What he chose is no longer offered: the list is the server's again, as it says.
        edited.delete(oldNode);
        options.forEach(function (option) {
          option.selected = option.defaultSelected;
        });
        if (!oldNode.multiple && !options.some(function (o) { return o.defaultSelected; })) {
          oldNode.selectedIndex = options.length ? 0 : -1;
        }
        return;
      }
      options.forEach(function (option) {
        option.selected = offered.indexOf(option) >= 0 && (oldNode.multiple || option === offered[0]);
      });
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

// A form's answer that refuses it (a post not marked X-Live-Done) brings the refusal into
// view and focuses it (tabindex=-1 in _refusal.html; its role=alert is read out): pressed
// at the foot of a long board, it was drawn thousands of pixels above what he saw, and he
// thought nothing had happened. What was typed stays (above). A poll's answer never moves
// the page: only a form's answer is looked at here.
document.addEventListener("htmx:afterSwap", function (event) {
  var detail = event.detail;
  var config = detail.requestConfig;
  if (!config || config.verb === "get" || !detail.xhr) return;
  if (detail.xhr.getResponseHeader("X-Live-Done")) return;
  var region = detail.target && detail.target.isConnected ? detail.target : null;
  var refusal = region && region.querySelector(".refusal[role=alert]");
  if (!refusal) return;
  refusal.focus({ preventScroll: true });
  refusal.scrollIntoView({ block: "nearest" });
});
