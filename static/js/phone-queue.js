// The phone's queue of hands (docs/architecture.md, "The phone at the table").
//
// Each hand entered on a table's phone (and each answer of the other side: a hand
// confirmed or disputed) goes first into a queue kept in the browser's
// storage (localStorage, per table), with an Idempotency-Key made here, then is sent
// from there, oldest first, one at a time. While the network is gone the page says
// plainly how many hands are not sent yet; they go out by themselves when it returns
// (and after a reload: the queue is kept). A hand leaves the queue only once the
// service has answered it: recorded, or refused with its reason (the answer, the
// table's live part, is shown); not when the service was busy or asked the phone to wait
// (too many requests from the table: 429), when it goes again later. A retry of a hand
// whose answer was lost carries the same key, so the service answers it from the first:
// never recorded twice.
(function () {
  "use strict";

  var RETRY_MS = 3000;
  var storageKey = "cardclub-phone-queue:" + location.pathname;
  var sending = false;
  var timer = null;

  function load() {
    try {
      return JSON.parse(localStorage.getItem(storageKey) || "[]");
    } catch (e) {
      return [];
    }
  }

  function save(queue) {
    localStorage.setItem(storageKey, JSON.stringify(queue));
  }

  // A random key without crypto.randomUUID, which a page served over the club's own
  // Wi-Fi (plain http) does not have.
  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return "hand-" + Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function csrfToken() {
    var match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function showQueue(problem) {
    var box = document.getElementById("phone-queue");
    if (!box) return;
    var queue = load();
    if (!queue.length) {
      box.hidden = true;
      box.textContent = "";
      return;
    }
    var names = queue.map(function (entry) { return entry.label; }).join(", ");
    var answers = queue.filter(function (entry) { return entry.kind === "answer"; }).length;
    var what = !answers ? (queue.length === 1 ? " hand" : " hands")
      : answers === queue.length ? (queue.length === 1 ? " answer" : " answers") : "";
    box.hidden = false;
    box.textContent =
      "Not sent yet: " + queue.length + what + " waiting" +
      " (" + names + "). " +
      (problem || "They are kept on this phone and sent as soon as the connection returns.");
  }

  function swapLive(html) {
    var live = document.getElementById("table-live");
    if (!live) return;
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector("#table-live");
    if (!fresh) return;
    live.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
  }

  // Whether a player has typed in or chosen something in one of the page's hand forms
  // and not sent it: a field no longer as the page brought it.
  function typedIn(live) {
    return Array.prototype.some.call(live.querySelectorAll("form[data-phone-queue]"), function (form) {
      return Array.prototype.some.call(form.elements, function (field) {
        if (field.type === "hidden" || field.type === "submit") return false;
        if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
        if (field.tagName === "SELECT") {
          // The choice the page brought: the option marked selected, else the first.
          var brought = Array.prototype.filter.call(field.options, function (option) {
            return option.defaultSelected;
          }).pop() || field.options[0];
          return brought ? field.selectedIndex !== brought.index : false;
        }
        return field.value !== field.defaultValue;
      });
    });
  }

  // The sheet's poll brings the whole table; only the sheet is swapped, so the forms are
  // never changed under a player's fingers. But when the table has moved to another stage
  // (the rubber over, the next one cut for, the evening closed: data-phase), the forms
  // shown belong to the stage before: "The rubber is over" would stay, with no form for
  // the new rubber's first hand, until the page was reloaded. Then the whole live part is
  // brought up to date, unless something typed in its forms is still to be sent.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.shouldSwap || !detail.elt || detail.elt.id !== "table-sheet") return;
    var live = document.getElementById("table-live");
    if (!live || sending || load().length || typedIn(live)) return;
    var holder = document.createElement("div");
    holder.innerHTML = detail.serverResponse;
    var fresh = holder.querySelector("#table-live");
    if (!fresh || fresh.dataset.phase === live.dataset.phase) return;
    detail.shouldSwap = false;
    swapLive(detail.serverResponse);
  });

  // The sheet's poll also brings the hands waiting for the other side (#table-confirm,
  // out of band). While a player is answering one there (a dispute opened, or a field of
  // it changed) they are left as they are, or the dispute being typed would close and
  // lose what was typed when the other phone records the next hand; the answer, once
  // sent, brings the whole live part up to date.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.target || detail.target.id !== "table-confirm") return;
    if (detail.target.querySelector("details.answer[open]") || typedIn(detail.target)) {
      detail.shouldSwap = false;
    }
  });

  // While a hand is on its way the queue's box carries the class htmx gives an element
  // with a request in flight, so whatever waits for the page to settle waits for it too.
  function busy(on) {
    var box = document.getElementById("phone-queue");
    if (box) box.classList.toggle("htmx-request", on);
  }

  // Send the queue again in a while: RETRY_MS, or longer when the service said so.
  function later(ms) {
    if (timer) return;
    timer = setTimeout(function () {
      timer = null;
      flush();
    }, Math.max(ms || 0, RETRY_MS));
  }

  // The refusal a page of the service says in words (its role=alert), parsed inertly.
  function alertIn(html) {
    var found = new DOMParser().parseFromString(html, "text/html").querySelector("[role=alert]");
    return found ? found.textContent.trim() : "";
  }

  // Send the oldest hand; on an answer, drop it and go on with the next.
  function flush() {
    if (sending) return;
    var queue = load();
    if (!queue.length) {
      showQueue();
      return;
    }
    var entry = queue[0];
    sending = true;
    busy(true);
    fetch(entry.url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "Idempotency-Key": entry.key,
        "X-CSRFToken": csrfToken(),
        "HX-Request": "true"
      },
      body: withoutFormToken(entry.body)
    }).then(function (response) {
      // Too many requests from this table (429): nothing was recorded; the hand stays,
      // and goes again by itself once the wait the service gives (Retry-After) is over.
      if (response.status === 429) {
        var wait = parseInt(response.headers.get("Retry-After"), 10) || 0;
        return response.text().then(function (text) {
          sending = false;
          busy(false);
          showQueue((alertIn(text) || "Too many requests from this table.") +
            " What is waiting is kept on this phone and sent by itself then.");
          later(wait * 1000);
        });
      }
      // Busy (a lock not granted in time, the same key still running) or a server
      // error: nothing was recorded; keep the hand and try again.
      if (response.status >= 500 || response.headers.get("Retry-After")) {
        sending = false;
        busy(false);
        showQueue("The club's server is busy; trying again.");
        later();
        return;
      }
      if (response.headers.get("HX-Refresh")) { // the table's link is dead: show why
        drop(entry);
        location.reload();
        return;
      }
      if (response.status === 403) {
        // Refused before anything was done: the browser's CSRF cookie is gone or stale
        // (cleared, or the page restored without it). The hand stays; the page is asked
        // for again, which gives the browser a fresh cookie, and the hand goes again.
        sending = false;
        busy(false);
        showQueue("The phone had to renew its page; sending again.");
        fetch(location.pathname, { credentials: "same-origin" }).then(later, later);
        return;
      }
      return response.text().then(function (text) {
        drop(entry);
        sending = false;
        busy(false);
        if ((response.headers.get("Content-Type") || "").indexOf("text/html") === 0) {
          swapLive(text);
        }
        showQueue();
        flush();
      });
    }).catch(function () {
      sending = false; // no connection: the hand stays in the queue
      busy(false);
      showQueue();
      later();
    });
  }

  // The form's CSRF token is left out of what is sent: the header carries the browser's
  // token as it is now (a renewed cookie makes the form's stale), and every sending of one
  // hand is then the same body, as its Idempotency-Key requires.
  function withoutFormToken(body) {
    var data = new URLSearchParams(body);
    data.delete("csrfmiddlewaretoken");
    return data.toString();
  }

  function drop(entry) {
    save(load().filter(function (other) { return other.key !== entry.key; }));
  }

  // The button pressed is part of what is sent (a confirmation's "by").
  function enqueue(form, submitter) {
    var data = new URLSearchParams(new FormData(form));
    if (submitter && submitter.name) data.set(submitter.name, submitter.value);
    var queue = load();
    var label;
    if (form.dataset.kind === "record") {
      // Hands entered while earlier ones wait are meant to follow them.
      var number = parseInt(data.get("expected_number"), 10) || 1;
      queue.forEach(function (entry) {
        if (entry.kind === "record" && entry.number >= number) number = entry.number + 1;
      });
      data.set("expected_number", String(number));
      label = "hand " + number;
      var next = document.querySelector("[data-next-label]");
      if (next) next.textContent = String(number + 1);
      var expected = form.querySelector("input[name=expected_number]");
      if (expected) expected.value = String(number + 1);
    } else if (form.dataset.kind === "answer") {
      label = (submitter && submitter.dataset.queueLabel) || form.dataset.queueLabel;
    } else {
      label = "correction of hand " + data.get("correct");
    }
    queue.push({
      key: newKey(),
      url: form.action,
      body: data.toString(),
      kind: form.dataset.kind,
      number: form.dataset.kind === "record" ? parseInt(data.get("expected_number"), 10) : null,
      label: label
    });
    save(queue);
    if (form.dataset.kind === "record") form.reset();
    showQueue();
    flush();
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-phone-queue]")) return;
    event.preventDefault();
    // A second tap on the same button is not a second hand (the form was just emptied).
    var now = Date.now();
    if (form.dataset.queuedAt && now - Number(form.dataset.queuedAt) < 1500) return;
    form.dataset.queuedAt = String(now);
    enqueue(form, event.submitter);
  });

  window.addEventListener("online", flush);
  document.addEventListener("DOMContentLoaded", function () {
    showQueue();
    flush();
  });
})();
