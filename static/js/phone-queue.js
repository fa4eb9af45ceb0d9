// The phone's queue of hands (docs/architecture.md, "The phone's queue and the expected hand
// number").
//
// Each hand entered on a table's phone (and each answer of the other side: a hand
// confirmed or disputed; each correction and take-back of the last hand) goes first
// into a queue kept in the browser's storage (localStorage, per table), with an
// Idempotency-Key made here, then is sent from there, oldest first, one at a time. While the network is gone the page says
// plainly how many hands are not sent yet; they go out by themselves when it returns
// (and after a reload: the queue is kept). A hand leaves the queue only once the
// service has answered it: recorded (2xx), or refused with its reason (400, 409 for a
// hand recorded already or a rubber over: every page with the queue answers a refusal
// so, as the API does; the answer, the table's live part, is shown); not when the
// service was busy or asked the phone to wait (a 409 with Retry-After, too many requests
// from the table: 429), when it goes again later. A retry of a hand
// whose answer was lost carries the same key, so the service answers it from the first:
// never recorded twice (a take-back names its hand, and is never made twice either).
//
// A refusal is shown by the answer's live part, the form refilled as it was typed; the next
// answer replaces it. So a refusal the player may not have seen (its hand had waited in the
// queue, through a lost connection, a busy server or a reload, or another went out after
// it) is also kept in a list beside the queue, in storage per table, until the player
// dismisses it: which hand, what was entered, that it was not recorded, and the service's
// words why.
//
// A link that dies with something waiting (the table given a fresh card, the evening
// closed) can send none of it: the dead link's page lists each as not recorded, with its
// reason, and the queue is emptied; nothing is dropped unsaid nor kept for ever.
//
// While a take-back or a correction of a hand waits in the queue, its form does not offer
// to send it again: the button is put away and the form says the change is waiting, until
// it leaves the queue (made, refused or dropped).
//
// The link open in two tabs of one phone (its card scanned twice): the tabs share the
// queue, so one tab sends at a time, the one holding the lease in storage (`hold`) and,
// where the browser has them, the link's Web Lock (`exclusively`), and
// each entry goes out once, from whichever tab is free, at once. The other tabs say what
// waits, and bring their page up to date when an entry leaves the queue (`refreshTable`);
// what the sending tab sent and had made is said in each (`showDelivered`, the list shared
// in storage).
// A page restored by the browser's Back button (its back/forward cache) does the same.
//
// Reloaded with no network, the page is the copy the phone's service worker kept
// (static/js/phone-worker.js, registered by static/js/phone-offline.js: docs/architecture.md,
// "A reload with no network"), which says it is one; this script runs in it as in the live
// page: it lists what waits here and sends it when the connection returns. Where no worker
// runs (plain http), such a reload shows the browser's own page until the network returns.
(function () {
  "use strict";

  var RETRY_MS = 3000;
  // A request the service has not answered in this time is given up and treated as the
  // network failing: what it carried stays in the queue and goes again, with the same
  // Idempotency-Key, so one that did land is answered from the first, never made twice.
  var REQUEST_TIMEOUT_MS = 15000;
  // What is waiting, by kind, one and several.
  var WAITING = {
    record: ["hand", "hands"], correct: ["hand", "hands"], answer: ["answer", "answers"],
    take_back: ["take-back", "take-backs"]
  };
  var KEPT_REFUSALS = 20;
  var storageKey = "cardclub-phone-queue:" + location.pathname;
  var refusedKey = "cardclub-phone-refused:" + location.pathname;
  // Which tab of this phone sends the queue, and until when (Date.now(), shared by the
  // tabs): {tab, until}. Two tabs each sending the oldest entry sent one hand twice at
  // once, the second answered 409 (its key still running) and its tab waiting RETRY_MS.
  var leaseKey = "cardclub-phone-sending:" + location.pathname;
  // Past the lease's time (a request's limit, or the wait before the next try), another
  // tab takes the queue over: this one was closed or put to sleep meanwhile.
  var LEASE_SPARE_MS = 2000;
  var tab = newKey();
  var sending = false;
  var timer = null;
  // The page is going away (its `pagehide` heard): it sends nothing more and takes no
  // lease. A tab closed just as the link's lock was granted to it (a hand entered a moment
  // before) once wrote a lease after letting the queue go, and no request followed: the
  // other tab waited out the lease (REQUEST_TIMEOUT_MS and more) before sending the hand.
  var leaving = false;
  var unsaid = []; // refusals listed and not yet said to a screen reader
  // What this phone sent and the service made since the queue last started from empty,
  // when it had waited or went with others (each answer replaces the live part, which
  // says the last one alone): said beside the queue once it is empty (showDelivered).
  var delivered = [];
  // The other tabs of this link on this phone are told what was sent and made (the list,
  // in storage, each time it changes): whichever tab sent it, each says it (showDelivered).
  var sentKey = "cardclub-phone-sent:" + location.pathname;
  // Why the last request brought no answer while the phone was online: "timeout" (none in
  // REQUEST_TIMEOUT_MS), "lost" (the request failed: the service or the Wi-Fi dropped it),
  // or null once an answer came. Offline, navigator.onLine says so itself.
  var unanswered = null;
  // The connection came back (the `online` event) while a request was out: should that
  // request fail, it failed on the connection that was lost, and what waits goes again at
  // once rather than after RETRY_MS.
  var backOnline = false;
  // The table as the service last showed it (the page, an answer, the sheet's poll): the
  // rubber its entry form is for and the number of the next hand it will record there.
  var shown = null;
  // When the newest answer the page shows was sent (a poll's) or came back (a hand's): a
  // poll sent before it is older than what is shown (fresher).
  var shownSince = 0;

  function clock() {
    return window.performance ? performance.now() : Date.now();
  }

  // Why what waits has not gone yet, as it is now: with no connection, it waits for one;
  // connected but unanswered (a slow or lost network, the service down), it is being
  // tried again, which the connection's return would not change; else it is going now.
  function whyWaiting() {
    if (navigator.onLine === false) {
      return "No connection: they are kept on this phone and sent as soon as the " +
        "connection returns.";
    }
    if (unanswered === "timeout") {
      return "The service has not answered in " + REQUEST_TIMEOUT_MS / 1000 + " seconds; " +
        "trying again. They are kept on this phone meanwhile.";
    }
    if (unanswered) {
      return "The service has not answered yet; trying again. They are kept on this phone " +
        "meanwhile.";
    }
    return "Sending now; they are kept on this phone until the service has them.";
  }

  // The same for one change waiting (a correction, a take-back), after its name.
  function whenSent() {
    if (navigator.onLine === false) return "it goes by itself as soon as the connection returns";
    if (unanswered) return "the service has not answered yet, and it is being tried again";
    return "it is being sent now";
  }

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

  // Everything still in the queue has waited: the player may no longer be looking when it
  // goes out, so a refusal of it is kept in the list.
  function markWaited() {
    var queue = load();
    if (!queue.length) return;
    save(queue.map(function (entry) { entry.waited = true; return entry; }));
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
    showWaitingChanges();
    followQueue();
    var box = document.getElementById("phone-queue");
    if (!box) return;
    var queue = load();
    if (!queue.length) {
      box.hidden = true;
      box.textContent = "";
      return;
    }
    var names = queue.map(function (entry) { return entry.label; }).join(", ");
    // "2 hands", "1 answer", "1 take-back"; several kinds together, just the number.
    var kinds = queue.map(function (entry) { return WAITING[entry.kind] || WAITING.record; });
    var same = kinds.every(function (kind) { return kind === kinds[0]; });
    var what = same ? " " + kinds[0][queue.length === 1 ? 0 : 1] : "";
    box.hidden = false;
    box.textContent =
      "Not sent yet: " + queue.length + what + " waiting" +
      " (" + names + "). " +
      (problem || whyWaiting());
    showRecordedSince(box, queue);
  }

  // The table as a page of the service shows it: the rubber its entry form is for (its
  // live part's data-rubber) and the number of the next hand recorded in it (one after its
  // data-recorded), or null where it shows no rubber. Read from the live part, not from the
  // entry form: a page whose rubber is over (another phone's hand ended it, or the round's
  // last fixed deal) has no entry form, and a hand waiting here for a number recorded then
  // is still said (showRecordedSince).
  function tableIn(root) {
    var live = root.querySelector("#table-live");
    if (!live || !live.dataset.rubber) return null;
    var recorded = parseInt(live.dataset.recorded, 10);
    return recorded >= 0 ? { rubber: live.dataset.rubber, next: recorded + 1 } : null;
  }

  // A hand waiting here whose number the table has recorded since (another phone at the
  // table entered it first: the sheet's poll shows it) is said at once on the queue's
  // line, so the players can look at the sheet before it goes. It is still sent as it is,
  // and refused then (409, a hand is recorded once), never recorded twice. A hand already
  // sent once may be the one the sheet shows, its answer lost on the way: said so.
  function showRecordedSince(box, queue) {
    var old = box.querySelector("[data-testid=recorded-since]");
    if (old) old.remove();
    if (!shown) return;
    var words = queue.filter(function (entry) {
      var data = new URLSearchParams(entry.body);
      return entry.kind === "record" && entry.number < shown.next &&
        (data.get("rubber") || "") === shown.rubber;
    }).map(function (entry) {
      var hand = entry.label;
      if (entry.tried) {
        return capitalised(hand) + " is on the sheet already: recorded by this phone, if " +
          "its answer was lost on the way, or by another phone at this table. Look at the " +
          "sheet: if it was another phone, the " + hand + " waiting here is refused when " +
          "it is sent, not recorded twice.";
      }
      return capitalised(hand) + " is on the sheet already: another phone at this table " +
        "recorded it since it was entered here. Look at the sheet before it goes: the " +
        hand + " waiting here is refused when it is sent, not recorded twice; if the " +
        "sheet's " + hand + " is not what was played, correct it once this one is answered " +
        "(law 5, ruling E9).";
    });
    if (!words.length) return;
    var note = document.createElement("p");
    note.dataset.testid = "recorded-since";
    note.className = "recorded-since";
    note.textContent = words.join(" ");
    box.append(note);
  }

  // --- the next hand follows the queue --------------------------------------------------

  // A Call-Ace deal after which the same dealer deals again (scoring/rules/call_ace.py,
  // deal_passes): both sides revoked (law 42), or void with its maker (laws 6, 50).
  function keepsDealer(data) {
    // The phone's void choice: "faced" keeps the dealer, "no_trump" passes the deal; "on",
    // a page's single box from before the choice was split, by its maker.
    const voided = data.get("void");
    return data.get("revoke") === "both" || voided === "faced" ||
      (voided === "on" && !!data.get("maker"));
  }

  // The next hand's number and dealer as the table will have them once what waits here
  // has gone out: the entry form's title and its `expected_number`, the heading's "X deals
  // hand N" and the seat marked as dealing follow the hands waiting (and take-backs: a
  // hand taken back makes its number the next again), not the number the page was brought
  // with, which counts only the hands the service has. Worked out afresh each time from
  // what the page brought (kept on the form as `data-brought`) and the queue.
  function followQueue() {
    var form = document.querySelector("form[data-phone-queue][data-kind=record]");
    var expected = form && form.querySelector("input[name=expected_number]");
    if (!expected) return;
    if (!expected.dataset.brought) expected.dataset.brought = expected.value;
    var brought = parseInt(expected.dataset.brought, 10) || 1;
    var rubber = form.querySelector("input[name=rubber]");
    rubber = rubber ? rubber.value : "";
    var next = brought;
    var passes = 0;
    // Whether each hand waiting here passed the deal on, by its number: a hand taken back
    // gives back only the pass it made (none after a Call-Ace deal its dealer deals again).
    var passed = {};
    load().forEach(function (entry) {
      var data = new URLSearchParams(entry.body);
      if ((data.get("rubber") || "") !== rubber) return;
      if (entry.kind === "record" && entry.number >= next) {
        next = entry.number + 1;
        passed[entry.number] = !keepsDealer(data);
        if (passed[entry.number]) passes += 1;
      } else if (entry.kind === "take_back") {
        var taken = parseInt(data.get("take_back"), 10);
        if (taken && taken < next) {
          next = taken;
          // A hand the page brought: whether it passed the deal, as the service said on
          // its take-back's form when it was queued (data-passes-deal).
          var gave = taken in passed ? passed[taken] : entry.passesDeal !== false;
          if (gave) passes -= 1;
        }
      }
    });
    expected.value = String(next);
    Array.prototype.forEach.call(document.querySelectorAll("[data-next-label]"),
      function (label) { label.textContent = String(next); });
    var dealer = document.querySelector("[data-testid=dealer][data-dealers]");
    if (!dealer) return;
    var names;
    try {
      names = JSON.parse(dealer.dataset.dealers);
    } catch (e) {
      return;
    }
    if (!names.length) return;
    var at = ((parseInt(dealer.dataset.dealerAt, 10) + passes) % names.length + names.length) %
      names.length;
    // The sentence the page brought (templates/club/_table_heading.html), for that hand:
    // the heading's own number moved on by what waits here. The heading may be newer than
    // the entry form (a poll brings it up to date while a player types: freshenAround).
    var number = (parseInt(dealer.dataset.next, 10) || brought) + (next - brought);
    dealer.textContent = names[at] + " deals " + dealer.dataset.handLabel + " " + number +
      "; the deal passes to the left (" + dealer.dataset.dealerLaw + ").";
    Array.prototype.forEach.call(document.querySelectorAll("[data-seat-at]"), function (seat) {
      var deals = parseInt(seat.dataset.seatAt, 10) === at;
      seat.classList.toggle("deals", deals);
      var badge = seat.querySelector(".badge");
      if (badge) badge.hidden = !deals;
    });
  }

  // --- a take-back, a correction or an answer waiting is not offered again -------------

  // The change a take-back's, a correction's or an answer's form makes, or would make: its
  // kind, its rubber and the hand's number (the take-back's button value, the correction's
  // field, the hand answered: its confirmation and its dispute are one answer).
  function changeOf(kind, data) {
    var field = { take_back: "take_back", correct: "correct", answer: "number" }[kind];
    var number = field ? data.get(field) : null;
    return number ? kind + ":" + (data.get("rubber") || "") + ":" + number : null;
  }

  function formChange(form) {
    var data = new URLSearchParams(new FormData(form));
    var button = form.querySelector("button[name=take_back]");
    if (button) data.set(button.name, button.value);
    return changeOf(form.dataset.kind, data);
  }

  // The entry in the queue making the same change as this form, if one waits.
  function waitingFor(form, queue) {
    var change = formChange(form);
    if (!change) return null;
    return (queue || load()).filter(function (entry) {
      return entry.kind === form.dataset.kind &&
        changeOf(entry.kind, new URLSearchParams(entry.body)) === change;
    })[0] || null;
  }

  // While a take-back, a correction or the other side's answer to hand N waits in the
  // queue, its form's buttons are not offered (a second tap, on a slow network, would
  // queue it again, to be refused once the first is made: "taken back already", "already
  // confirmed", said in red of what was done); in their place the form says it is waiting.
  // Once it leaves the queue (made, refused, dropped) the button is offered again, on
  // whatever form the page then shows.
  function showWaitingChanges() {
    var queue = load();
    showTakenBack(queue);
    showLaterWaiting(queue);
    var forms = document.querySelectorAll(
      "form[data-phone-queue][data-kind=take_back], form[data-phone-queue][data-kind=correct]," +
      " form[data-phone-queue][data-kind=answer]"
    );
    Array.prototype.forEach.call(forms, function (form) {
      var entry = waitingFor(form, queue);
      var buttons = form.querySelectorAll("button:not([type=button])");
      var note = form.querySelector("[data-testid=change-waiting]");
      if (!buttons.length) return;
      if (!entry) {
        if (form.dataset.waiting) {
          Array.prototype.forEach.call(buttons, function (button) {
            button.hidden = false;
            button.disabled = false;
          });
          delete form.dataset.waiting;
        }
        if (note) note.remove();
        return;
      }
      form.dataset.waiting = "1";
      Array.prototype.forEach.call(buttons, function (button) {
        button.hidden = true;
        button.disabled = true; // nor sent by the Enter key in one of its fields
      });
      if (!note) {
        note = document.createElement("p");
        note.className = "alert pending";
        note.dataset.testid = "change-waiting";
        note.setAttribute("role", "status");
        buttons[buttons.length - 1].after(note);
      }
      note.textContent = capitalised(entry.label) + " waiting to be sent: " + whenSent() +
        "; the sheet shows it once it is made.";
    });
  }

  // While the take-back of hand N waits, hand N is not offered for correction (a
  // correction queued behind it would be refused, the hand gone; one sent first would be
  // taken back with it): its correction's panel is put away and the page says the hand is
  // being taken back, until the take-back leaves the queue (refused: the panel is back).
  function showTakenBack(queue) {
    var forms = document.querySelectorAll("form[data-phone-queue][data-kind=correct]");
    Array.prototype.forEach.call(forms, function (form) {
      var panel = form.closest("details") || form;
      var data = new URLSearchParams(new FormData(form));
      var change = data.get("correct") ? "take_back:" + (data.get("rubber") || "") + ":" +
        data.get("correct") : null;
      var held = panel.previousElementSibling &&
        panel.previousElementSibling.dataset.testid === "correction-held"
        ? panel.previousElementSibling : null;
      var entry = change && queue.filter(function (each) {
        return each.kind === "take_back" &&
          changeOf(each.kind, new URLSearchParams(each.body)) === change;
      })[0];
      if (!entry) {
        if (panel.dataset.heldFor) {
          panel.hidden = false;
          delete panel.dataset.heldFor;
        }
        if (held) held.remove();
        return;
      }
      panel.dataset.heldFor = change;
      panel.hidden = true;
      if (!held) held = heldNote(panel, "correction-held");
      var hand = handWord(form) + " " + data.get("correct");
      held.textContent = capitalised(hand) + " is being taken back, so it is not offered " +
        "for correction: its take-back waits to be sent (" + whenSent() + "). Should the " +
        "take-back be refused, its correction is offered here again (law 5, ruling E9).";
    });
  }

  // The note put before a panel put away while something waits in the queue, saying why.
  function heldNote(panel, testid) {
    var note = document.createElement("p");
    note.className = "alert pending small";
    note.dataset.testid = testid;
    note.setAttribute("role", "status");
    panel.before(note);
    return note;
  }

  // While a later hand of the same rubber, entered on this phone, waits in its queue (the
  // network gone, or its answer not yet back), the last hand the page shows is not offered
  // for correction nor taken back: sent after that hand, either would be refused ("a later
  // hand has been recorded", law 5, ruling E9), leaving the table to ask the secretary.
  // Both panels are put away and the page says why, until that hand leaves the queue
  // (recorded: the page then offers it; refused: the panels are back).
  function showLaterWaiting(queue) {
    var forms = document.querySelectorAll("form[data-phone-queue][data-kind=correct]");
    Array.prototype.forEach.call(forms, function (form) {
      var panel = form.closest("details") || form;
      var takeBack = panel.parentElement &&
        panel.parentElement.querySelector("details[data-testid=take-back]");
      var panels = takeBack ? [panel, takeBack] : [panel];
      var data = new URLSearchParams(new FormData(form));
      var number = parseInt(data.get("correct"), 10);
      var rubber = data.get("rubber") || "";
      var later = number ? queue.filter(function (entry) {
        return entry.kind === "record" && entry.number > number &&
          (new URLSearchParams(entry.body).get("rubber") || "") === rubber;
      })[0] : null;
      var held = panel.parentElement &&
        panel.parentElement.querySelector("[data-testid=later-hand-waiting]");
      if (!later) {
        panels.forEach(function (each) {
          if (!each.dataset.heldLater) return;
          delete each.dataset.heldLater;
          each.hidden = !!each.dataset.heldFor; // its own take-back may still hold it
        });
        if (held) held.remove();
        return;
      }
      panels.forEach(function (each) {
        each.dataset.heldLater = "1";
        each.hidden = true;
      });
      if (!held) held = heldNote(panel, "later-hand-waiting");
      var hand = handWord(form) + " " + number;
      held.textContent = capitalised(hand) + " is not offered for correction or take-back " +
        "while " + later.label + ", entered on this phone, waits to be sent (" + whenSent() +
        "): sent after it, the change would be refused. Once " + later.label + " is " +
        "recorded, " + hand + " may be changed only by the secretary, and " + later.label +
        " is the one offered here for correction or take-back (law 5, ruling E9).";
    });
  }

  // --- the hands refused after waiting -------------------------------------------------

  function loadRefused() {
    try {
      return JSON.parse(localStorage.getItem(refusedKey) || "[]");
    } catch (e) {
      return [];
    }
  }

  function saveRefused(list) {
    if (!list.length) {
      localStorage.removeItem(refusedKey);
      return;
    }
    localStorage.setItem(refusedKey, JSON.stringify(list.slice(-KEPT_REFUSALS)));
  }

  // What did not happen to a refused entry: a take-back was not made, the rest not recorded.
  function notDone(refused) {
    return refused.kind === "take_back" ? "was not made" : "was not recorded";
  }

  function capitalised(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  // A label's or a legend's own words, without its fields and its notes, cut before an
  // explanation after a colon, and a label's law in brackets at its end dropped: "Played
  // alone (law 3)", "Played alone". Only a citation at the end: a side's words keep a
  // substitute's brackets, "E-W Edith (for Hugh) & Iris" (law 18). A legend is cut before
  // any bracket ("Makers (who made the trump)", "Makers"): it names no one.
  function ownWords(node) {
    if (!node) return "";
    var copy = node.cloneNode(true);
    var inner = copy.querySelectorAll("input, select, textarea, p, details");
    Array.prototype.forEach.call(inner, function (node) { node.remove(); });
    var words = copy.textContent.replace(/\s+/g, " ").trim();
    if (node.tagName === "LEGEND") return words.split(/ \(|: /)[0].trim();
    return words.split(": ")[0].replace(/\s*\((?:laws?|rulings?) [^()]*\)$/i, "").trim();
  }

  // A field's name as the form shows it: its label, after its group's legend where the
  // label alone does not say what it is ("honours, held by").
  function fieldName(field) {
    var label = ownWords(field.closest("label"));
    var fieldset = field.closest("fieldset");
    var legend = fieldset ? ownWords(fieldset.querySelector("legend")) : "";
    if (!legend) return label;
    if (!label) return legend;
    var first = legend.split(" ")[0].toLowerCase();
    if (label.toLowerCase().indexOf(first) >= 0) return label;
    return legend + ", " + label.charAt(0).toLowerCase() + label.slice(1);
  }

  // What was entered in a hand's form, in the form's own words, the fields left as they
  // were (nothing chosen, none, 0) left out: "makers: N-S Ann & Bob; tricks taken by the
  // makers: 3".
  function described(form) {
    var parts = [];
    var groups = {};
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.disabled || field.type === "hidden" || field.type === "submit" ||
          field.type === "button") return;
      if (field.type === "radio" || field.type === "checkbox") {
        if (!field.checked) return;
        var several = form.querySelectorAll("input[name='" + field.name + "']").length > 1;
        if (!several) { // a tick box of its own: its words say it ("played alone")
          parts.push(fieldName(field));
          return;
        }
        var fieldset = field.closest("fieldset");
        var name = fieldset ? ownWords(fieldset.querySelector("legend")) : "";
        if (!(field.name in groups)) {
          groups[field.name] = { name: name, values: [] };
          parts.push(groups[field.name]);
        }
        groups[field.name].values.push(ownWords(field.closest("label")));
        return;
      }
      var value = field.tagName === "SELECT"
        ? (field.value === "" ? "" : field.options[field.selectedIndex].text.trim())
        : field.value.trim();
      if (value === "" || (value === "0" && !field.required)) return;
      parts.push(fieldName(field) + ": " + value);
    });
    return parts.map(function (part) {
      var text = typeof part === "string" ? part
        : (part.name ? part.name + ": " : "") + part.values.join(", ");
      // "Tricks taken..." reads on in a sentence as "tricks taken..."; "N-S ..." stays.
      return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
    }).join("; ");
  }

  // The refusal an answer carries, in the service's words (its live part's role=alert,
  // which a live part has for a refusal alone; parsed inertly), without the "Not
  // recorded." the list says itself; null when the answer is not a refusal.
  function refusalIn(html, status) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var found = page.querySelector("#table-live [role=alert]");
    if (found) {
      return found.textContent.replace(/\s+/g, " ").trim()
        .replace(/^Not (recorded|taken back)\.\s*/, "");
    }
    return status >= 400 ? "The club's server refused it without saying why." : null;
  }

  // A box of the queue's, right after it (outside the live part, so no answer swapped in
  // hides it), made hidden the first time it is asked for, the same on every page that
  // has the queue: the element `tag` with the id (and test id) `id`; null without a queue.
  function boxBesideQueue(tag, id, className) {
    var queue = document.getElementById("phone-queue");
    if (!queue) return null;
    var box = document.createElement(tag);
    box.id = id;
    box.className = className + " no-print";
    box.dataset.testid = id;
    box.hidden = true;
    queue.after(box);
    return box;
  }

  // The list's box (boxBesideQueue).
  function refusedBox() {
    var box = document.getElementById("phone-refused");
    if (box) return box;
    box = boxBesideQueue("section", "phone-refused", "alert error");
    if (!box) return null;
    box.setAttribute("aria-labelledby", "phone-refused-title");
    var title = document.createElement("p");
    title.id = "phone-refused-title";
    var list = document.createElement("ul");
    list.className = "refused-list";
    // New refusals are said at once to a screen reader (by a live region always there,
    // outside the box, which may just be shown); the list is not said again each time.
    var news = document.createElement("p");
    news.id = "phone-refused-news";
    news.className = "visually-hidden";
    news.setAttribute("role", "alert");
    var all = document.createElement("button");
    all.type = "button";
    all.className = "secondary";
    all.dataset.testid = "dismiss-all-refused";
    all.textContent = "Dismiss all";
    all.addEventListener("click", function () {
      saveRefused([]);
      showRefused();
    });
    box.append(title, list, all);
    box.after(news);
    return box;
  }

  function refusedItem(refused) {
    var item = document.createElement("li");
    item.dataset.key = refused.key;
    item.dataset.testid = "refused-hand";
    var what = document.createElement("p");
    var which = document.createElement("strong");
    which.textContent = capitalised(refused.label);
    what.append(which,
      (refused.what ? " (" + refused.what + ")" : "") + " " + notDone(refused) + ".");
    var why = document.createElement("p");
    why.textContent = refused.why;
    var dismiss = document.createElement("button");
    dismiss.type = "button";
    dismiss.className = "secondary";
    dismiss.dataset.testid = "dismiss-refused";
    dismiss.textContent = "Dismiss";
    dismiss.setAttribute("aria-label",
      "Dismiss: " + refused.label + " " + notDone(refused).replace(/^was /, ""));
    dismiss.addEventListener("click", function () {
      var next = item.nextElementSibling || item.previousElementSibling;
      saveRefused(loadRefused().filter(function (other) { return other.key !== refused.key; }));
      showRefused();
      var focus = next && next.querySelector("button");
      if (focus) focus.focus();
    });
    item.append(what, why, dismiss);
    return item;
  }

  // Draw the list as stored, items added and taken away one by one.
  function showRefused() {
    var box = refusedBox();
    if (!box) return;
    var refused = loadRefused();
    var list = box.querySelector("ul");
    var wanted = {};
    refused.forEach(function (entry) { wanted[entry.key] = true; });
    Array.prototype.forEach.call(list.querySelectorAll("li"), function (item) {
      if (!wanted[item.dataset.key]) item.remove();
    });
    refused.forEach(function (entry) {
      var shown = list.querySelector("li[data-key='" + entry.key + "']");
      if (!shown) list.append(refusedItem(entry));
    });
    box.hidden = !refused.length;
    var title = box.querySelector("#phone-refused-title");
    var heading = document.createElement("strong");
    heading.textContent = "Not recorded: " + refused.length +
      (refused.length === 1 ? " refusal" : " refusals") + " from the club's server.";
    title.replaceChildren(heading,
      " Enter again what belongs on the sheet, and dismiss each once the table has seen it.");
    box.querySelector("[data-testid=dismiss-all-refused]").hidden = refused.length < 2;
  }

  // The refusals listed since the queue last stopped, said together once it stops (sent
  // out, or waiting again), so that one said does not cut off the one before.
  function sayRefused() {
    var news = document.getElementById("phone-refused-news");
    if (!news || !unsaid.length) return;
    news.textContent = unsaid.map(function (entry) {
      return capitalised(entry.label) + " " + notDone(entry) + ". " + entry.why;
    }).join(" ");
    unsaid = [];
  }

  // --- what was sent and made ----------------------------------------------------------

  // What was made of an entry sent: a hand recorded, a change made, an answer given.
  function madeWords(entry, replayed) {
    var made = entry.kind === "record" ? "recorded" : "done";
    return entry.label + (replayed
      ? " (" + made + " once: its first answer was lost on the way, and sent again it " +
        "was answered from the first)"
      : "");
  }

  // Once the queue is empty, the entries it sent that had waited (or went out together)
  // and were made, in the order sent, said in one line beside the queue's box (outside
  // the live part, which the next answer replaces): "Kept on this phone, then sent and
  // recorded: hand 2, hand 3, hand 4." Refused ones are in the
  // list of refusals instead. The line stays until the next entry is queued.
  function showDelivered() {
    var box = document.getElementById("phone-sent");
    if (!box) {
      box = boxBesideQueue("p", "phone-sent", "alert ok");
      if (!box) return;
      box.setAttribute("role", "status");
    }
    if (!delivered.length || load().length) {
      box.hidden = true;
      box.textContent = "";
      return;
    }
    var kinds = delivered.map(function (each) { return each.kind; });
    var made = kinds.every(function (kind) { return kind === "record"; }) ? "recorded" : "done";
    box.textContent = "Kept on this phone, then sent and " + made + ": " +
      delivered.map(function (each) { return each.words; }).join(", ") + ".";
    box.hidden = false;
  }

  function shareDelivered() {
    try {
      localStorage.setItem(sentKey, JSON.stringify(delivered));
    } catch (e) {
      // Storage full: this tab says it still; the others do not.
    }
  }

  function remember(entry, why) {
    var refused = loadRefused();
    if (refused.some(function (other) { return other.key === entry.key; })) return;
    var kept = {
      key: entry.key, label: entry.label, kind: entry.kind, what: entry.what || "", why: why
    };
    refused.push(kept);
    saveRefused(refused);
    unsaid.push(kept);
    showRefused();
  }

  // Swap in an answer's live part. What a player is typing in one of the page's forms
  // (the next hand, entered while the one before was on its way; a correction, a dispute)
  // is carried into the same form of the answer, and the field being typed in keeps the
  // focus: an answer never wipes what is being typed (keepTyped).
  function swapLive(html) {
    var live = document.getElementById("table-live");
    if (!live) return;
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector("#table-live");
    if (!fresh) return;
    var typed = typedForms(live);
    var active = document.activeElement;
    var focused = active && active.form && live.contains(active) && active.name
      ? { form: identity(active.form), field: fieldKey(active) } : null;
    markBrought(fresh);
    keepTyped(fresh, typed);
    shown = tableIn(holder) || shown;
    shownSince = clock();
    live.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
    if (focused) refocus(fresh, focused);
  }

  // A form's identity from one answer to the next: its kind and its hidden fields (the
  // rubber, the hand it corrects, takes back or answers), but not the next hand's number,
  // which every hand recorded moves on: the next hand's form of a rubber is one form.
  function identity(form) {
    var parts = [form.dataset.kind || ""];
    Array.prototype.forEach.call(form.elements, function (field) {
      if (field.type !== "hidden" || field.name === "csrfmiddlewaretoken" ||
          field.name === "expected_number") return;
      parts.push(field.name + "=" + field.value);
    });
    return parts.join("&");
  }

  // The fields a player fills in, each with its key: its name and, for a choice, its value;
  // for the rest, which of the fields of that name it is.
  function fillable(form) {
    var seen = {};
    return Array.prototype.filter.call(form.elements, function (field) {
      return field.name && ["hidden", "submit", "button", "reset"].indexOf(field.type) < 0;
    }).map(function (field) {
      var nth = seen[field.name] || 0;
      seen[field.name] = nth + 1;
      return { field: field, key: fieldKey(field, nth) };
    });
  }

  function fieldKey(field, nth) {
    if (field.type === "checkbox" || field.type === "radio") return field.name + "=" + field.value;
    if (nth === undefined) {
      var same = field.form ? field.form.querySelectorAll("[name='" + field.name + "']") : [field];
      nth = Array.prototype.indexOf.call(same, field);
    }
    return field.name + "#" + nth;
  }

  // Whether a field is no longer as the page brought it.
  function changed(field) {
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      // The choice the page brought: the option marked selected, else the first.
      var brought = Array.prototype.filter.call(field.options, function (option) {
        return option.defaultSelected;
      }).pop() || field.options[0];
      return brought ? field.selectedIndex !== brought.index : false;
    }
    return field.value !== field.defaultValue;
  }

  // What a form holds once it is queued is no longer typed and not sent: it is the
  // form's own again (a correction, a dispute, a take-back's reason are not emptied).
  // The entry form emptied for the next hand once one is queued: every box unticked, every
  // choice and number as a fresh form has them (a count's `data-blank`, "0"). Not its
  // reset(): a form brought back with a refused hand holds that hand as its defaults, and
  // would offer it again, filled in, for the next hand while this one waits.
  function blank(form) {
    form.reset();
    fillable(form).forEach(function (each) {
      var field = each.field;
      if (field.type === "checkbox" || field.type === "radio") {
        field.checked = field.defaultChecked = false;
      } else if (field.tagName === "SELECT") {
        Array.prototype.forEach.call(field.options, function (option, index) {
          option.selected = option.defaultSelected = index === 0;
        });
      } else if (field.type !== "hidden") {
        field.value = field.defaultValue = field.dataset.blank || "";
      }
    });
  }

  function sent(form) {
    fillable(form).forEach(function (each) {
      var field = each.field;
      if (field.type === "checkbox" || field.type === "radio") {
        field.defaultChecked = field.checked;
      } else if (field.tagName === "SELECT") {
        Array.prototype.forEach.call(field.options, function (option) {
          option.defaultSelected = option.selected;
        });
      } else {
        field.defaultValue = field.value;
      }
    });
  }

  // What was typed in each form of the live part and not sent, by the form's identity.
  function typedForms(live) {
    var typed = {};
    Array.prototype.forEach.call(live.querySelectorAll("form[data-phone-queue]"), function (form) {
      var fields = fillable(form).filter(function (each) { return changed(each.field); });
      if (!fields.length) return;
      typed[identity(form)] = fields.map(function (each) {
        var field = each.field;
        return {
          key: each.key, radio: field.type === "radio", checkbox: field.type === "checkbox",
          checked: field.checked, value: field.value
        };
      });
    });
    return typed;
  }

  // Put what was typed into the same form of the answer's live part, opening whatever
  // folds a field given back (an irregularity, the correction's panel, a dispute).
  function keepTyped(fresh, typed) {
    Array.prototype.forEach.call(fresh.querySelectorAll("form[data-phone-queue]"), function (form) {
      var kept = typed[identity(form)];
      if (!kept) return;
      var fields = {};
      fillable(form).forEach(function (each) { fields[each.key] = each.field; });
      kept.forEach(function (was) {
        var field = fields[was.key];
        if (!field) return;
        if (was.radio || was.checkbox) field.checked = was.checked;
        else field.value = was.value;
        for (var fold = field.closest("details"); fold; fold = fold.parentElement.closest("details")) {
          fold.open = true;
        }
      });
    });
  }

  function refocus(fresh, focused) {
    Array.prototype.some.call(fresh.querySelectorAll("form[data-phone-queue]"), function (form) {
      if (identity(form) !== focused.form) return false;
      return fillable(form).some(function (each) {
        if (each.key !== focused.field) return false;
        each.field.focus({ preventScroll: true });
        return true;
      });
    });
  }

  // Whether a player has typed in or chosen something in one of the page's hand forms
  // and not sent it: a field no longer as the page brought it.
  function typedIn(live) {
    return Object.keys(typedForms(live)).length > 0;
  }

  // Whether a player is busy with the live part's forms: something typed and not sent, or
  // a panel opened or closed since the page brought it (a correction, a take-back, a
  // dispute, the irregularities; not the sheet's own "Why").
  function busyWith(live) {
    if (typedIn(live)) return true;
    return Array.prototype.some.call(live.querySelectorAll("details"), function (fold) {
      return !fold.closest("#table-sheet") && fold.open !== (fold.dataset.broughtOpen === "1");
    });
  }

  // The last hand as the page brought it into its correction form (each field's value as
  // brought, not as typed): another phone's correction of it changes it.
  function corrections(root) {
    var forms = root.querySelectorAll("form[data-phone-queue][data-kind=correct]");
    return Array.prototype.map.call(forms, function (form) {
      return identity(form) + "|" + fillable(form).map(function (each) {
        var field = each.field;
        if (field.type === "checkbox" || field.type === "radio") {
          return each.key + ":" + field.defaultChecked;
        }
        if (field.tagName === "SELECT") {
          return each.key + ":" + Array.prototype.map.call(field.options, function (option) {
            return option.defaultSelected ? "1" : "";
          }).join(",");
        }
        return each.key + ":" + field.defaultValue;
      }).join("&");
    }).join("\n");
  }

  // Mark each panel as the page brought it, open or closed (busyWith), where not yet marked.
  function markBrought(root) {
    Array.prototype.forEach.call(root.querySelectorAll("details:not([data-brought-open])"),
      function (fold) { fold.dataset.broughtOpen = fold.open ? "1" : ""; });
  }

  // The sheet's poll brings the whole table; only the sheet is swapped, so the forms are
  // never changed under a player's fingers. But when the table has moved on (the rubber
  // over, the next one cut for, the evening closed: data-phase; or another phone at the
  // table recorded or took back a hand: data-next-number; or corrected the last hand, as
  // its correction form brings it), the forms shown belong to the
  // table as it was: "The rubber is over" would stay, with no form for the new rubber's
  // first hand; the form would offer hand 2 and the dealer of hand 2 once hand 2 was
  // recorded, and hand 3 entered in it would be refused as hand 2 already recorded. Then
  // the whole live part is brought up to date, unless a player is busy with its forms
  // (then what is sent is refused in words if the table has moved on, and the answer
  // brings the page up to date).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.shouldSwap || !detail.elt || detail.elt.id !== "table-sheet") return;
    var holder = document.createElement("div");
    holder.innerHTML = detail.serverResponse;
    var fresh = holder.querySelector("#table-live");
    if (!fresh) return;
    // What the table has recorded since, said at once of a hand waiting here for a number
    // now taken, even while the forms stay as they are.
    var table = tableIn(holder);
    if (table && (!shown || table.rubber !== shown.rubber || table.next !== shown.next)) {
      shown = table;
      var box = document.getElementById("phone-queue");
      if (box && !box.hidden) showRecordedSince(box, load());
    }
    var live = document.getElementById("table-live");
    if (!live || sending || load().length) return;
    // A refusal shown (its hand in the form as it was sent) stays until the player acts on
    // it: a hand's own fault (law 102 ticked without a lone hand) is still to be put right
    // whatever the other phone does. A refusal about the hand's number ("hand 6 is already
    // recorded ... the next is hand 7: send it again") no longer holds once another phone
    // has recorded or taken back a hand since: it goes, and the page says how the table
    // has moved on, the form kept as it is.
    var refusing = live.querySelector("[data-testid=phone-error]");
    var samePhase = fresh.dataset.phase === live.dataset.phase;
    var sameNext = fresh.dataset.nextNumber === live.dataset.nextNumber;
    var ofTheNumber = refusing && refusing.dataset.field === "expected_number";
    if (busyWith(live) || (refusing && samePhase)) {
      if (ofTheNumber && !(samePhase && sameNext)) refusing.remove();
      showMovedOn(live, fresh, detail.serverResponse);
      freshenAround(live, fresh);
      return;
    }
    if (samePhase && sameNext && corrections(fresh) === corrections(live)) {
      freshenAround(live, fresh);
      return;
    }
    detail.shouldSwap = false;
    swapLive(detail.serverResponse);
  });

  // What the poll brings that a player's forms do not hold, brought up to date around
  // them, whatever is typed kept where it is: the heading (the seats, with a substitute the
  // secretary seated or a player gone; who deals the next hand, law 28 and the evening's
  // deal law), the words naming each side in the forms ("E-W Edith (for Hugh) & Iris"),
  // and the last hand's panels when the last hand is another (recorded, corrected or taken
  // back by another phone), unless a player is busy with them.
  function freshenAround(live, fresh) {
    var heading = live.querySelector("[data-table-heading]");
    var newHeading = fresh.querySelector("[data-table-heading]");
    if (heading && newHeading && heading.innerHTML !== newHeading.innerHTML) {
      heading.replaceWith(newHeading.cloneNode(true));
    }
    var freshForms = {};
    Array.prototype.forEach.call(fresh.querySelectorAll("form[data-phone-queue]"), function (form) {
      freshForms[identity(form)] = form;
    });
    Array.prototype.forEach.call(live.querySelectorAll("form[data-phone-queue]"), function (form) {
      var other = freshForms[identity(form)];
      if (other) freshenLabels(form, other);
    });
    var last = live.querySelector("[data-last-hand]");
    var newLast = fresh.querySelector("[data-last-hand]");
    if (last && newLast && last.dataset.lastHand !== newLast.dataset.lastHand &&
        !busyWith(last)) {
      var copy = newLast.cloneNode(true);
      markBrought(copy);
      last.replaceWith(copy);
    }
  }

  // The words of each choice of a form (its label's, around the box) as the poll brings
  // them, the box itself, ticked or not, kept in its place.
  function freshenLabels(form, other) {
    var boxes = {};
    fillable(other).forEach(function (each) { boxes[each.key] = each.field; });
    fillable(form).forEach(function (each) {
      var field = each.field;
      var label = field.closest("label");
      var twin = boxes[each.key];
      var newLabel = twin && twin.closest("label");
      if (!label || !newLabel || field.parentNode !== label || twin.parentNode !== newLabel ||
          label.querySelectorAll("input, select, textarea").length !== 1 ||
          newLabel.querySelectorAll("input, select, textarea").length !== 1 ||
          label.textContent === newLabel.textContent) return;
      var before = true;
      Array.prototype.slice.call(label.childNodes).forEach(function (node) {
        if (node !== field) node.remove();
      });
      Array.prototype.forEach.call(newLabel.childNodes, function (node) {
        if (node === twin) {
          before = false;
        } else if (before) {
          label.insertBefore(node.cloneNode(true), field);
        } else {
          label.append(node.cloneNode(true));
        }
      });
    });
  }

  // While a player types, the forms stay as the page brought them even when the table has
  // moved on (another phone recorded or took back a hand, the rubber ended): the form
  // would offer a hand already recorded, with its number and dealer as they were. So the
  // page says so at once, above the form, and offers the table as it is now, what is
  // typed kept (swapLive: the next hand's form is one form whatever its number); the
  // player, who knows which hand is being typed, decides. Nothing is sent meanwhile, and a
  // hand sent from the old form is refused (hand_already_recorded), never recorded twice.
  // The note goes once the table is again as the form has it.
  function showMovedOn(live, fresh, html) {
    var old = live.querySelector("[data-testid=table-moved-on]");
    var before = parseInt(live.dataset.nextNumber, 10);
    var after = parseInt(fresh.dataset.nextNumber, 10);
    var samePhase = fresh.dataset.phase === live.dataset.phase;
    if (samePhase && before === after) {
      if (old) old.remove();
      return;
    }
    var form = live.querySelector("form[data-phone-queue][data-kind=record]");
    var hand = handWord(form || live);
    var said;
    var offer;
    if (samePhase && after > before && form) {
      var which = after - before === 1 ? hand + " " + before
        : hand + "s " + before + " to " + (after - 1);
      said = "Another phone at this table has recorded " + which + " since this form was " +
        "shown: the sheet below has it. This form is still for " + hand + " " + before +
        ", and sent as it is it would be refused, " + hand + " " + before + " being " +
        "recorded already; if the sheet's is not what was played, correct it (law 5, " +
        "ruling E9). If what is typed here is the next " + hand + ", " + hand + " " + after +
        ", show the table as it is now: what is typed is kept.";
      offer = "Show " + hand + " " + after + ", keeping what is typed";
    } else if (samePhase && form) {
      said = "Another phone at this table has taken back a " + hand + " since this form " +
        "was shown: the next is " + hand + " " + after + " again, and this form, still for " +
        hand + " " + before + ", would be refused as it is. Show the table as it is now: " +
        "what is typed is kept.";
      offer = "Show " + hand + " " + after + ", keeping what is typed";
    } else {
      said = "The table has moved on since this page was shown (the sheet below has it): " +
        "what is typed here may be refused as it is. Show the table as it is now: what is " +
        "typed is kept where it still has a place.";
      offer = "Show the table as it is now";
    }
    var note = old || document.createElement("div");
    if (!old) {
      note.className = "alert pending";
      note.dataset.testid = "table-moved-on";
      note.setAttribute("role", "status");
      if (form) form.before(note);
      else live.prepend(note);
    }
    var words = document.createElement("p");
    words.textContent = said;
    var button = document.createElement("button");
    button.type = "button";
    button.dataset.testid = "show-table-now";
    button.textContent = offer;
    button.addEventListener("click", function () {
      swapLive(html);
      showQueue();
    });
    note.replaceChildren(words, button);
  }

  // --- a poll's answer never brings back an older table ---------------------------------

  // The sheet's poll and the answers to what the phone sends cross on the way: a poll sent
  // before a hand's answer came back may be answered after it, with the table as it was
  // before the hand (the sheet without it, the form for the number just recorded, the
  // hands waiting for the other side's word as they were then). So each poll is stamped
  // when it leaves, and its answer is dropped when the page has shown an answer since it
  // left (a hand's, or a poll's sent after it): the next poll, sent after, brings what
  // changed meanwhile. Listened for on the poll's own element: the answer that replaced
  // the live part took it off the page, where htmx still swaps in the answer's part out of
  // band (#table-confirm) and the document hears nothing of it.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!elt || elt.id !== "table-sheet" || !event.detail.xhr) return;
    event.detail.xhr.phoneSentAt = clock();
    pollOut = true;
    refreshWanted = false; // this one brings the table as it is now
    elt.addEventListener("htmx:beforeSwap", fresher);
  });

  function fresher(event) {
    var detail = event.detail;
    if (!detail.shouldSwap || !detail.xhr || detail.xhr.phoneSentAt === undefined) return;
    if (detail.xhr.phoneSentAt < shownSince) {
      detail.shouldSwap = false;
      return;
    }
    shownSince = Math.max(shownSince, detail.xhr.phoneSentAt);
  }

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

  // Send the queue again in a while: RETRY_MS, or longer when the service said so. The
  // tab sending keeps the queue meanwhile.
  function later(ms) {
    sayRefused();
    var wait = Math.max(ms || 0, RETRY_MS);
    if (holding()) hold(wait + LEASE_SPARE_MS);
    if (timer) return;
    timer = setTimeout(function () {
      timer = null;
      flush();
    }, wait);
  }

  // --- one tab of the phone sends at a time ---------------------------------------------

  function lease() {
    try {
      return JSON.parse(localStorage.getItem(leaseKey) || "null");
    } catch (e) {
      return null;
    }
  }

  function holding() {
    var held = lease();
    return !!held && held.tab === tab;
  }

  // The lease another tab holds and has not let go of, or null.
  function heldElsewhere() {
    var held = lease();
    return held && held.tab !== tab && held.until > Date.now() ? held : null;
  }

  // This tab sends the queue for the next `ms`. Two tabs taking it at the same moment
  // both send, where the browser has no Web Locks (`exclusively`): the service answers the
  // second 409 (its key running) and it goes again.
  function hold(ms) {
    if (leaving) return;
    localStorage.setItem(leaseKey, JSON.stringify({ tab: tab, until: Date.now() + ms }));
  }

  function letGo() {
    if (holding()) localStorage.removeItem(leaseKey);
  }

  // SEND(done) run in one tab at a time. The lease above is read and written by each tab
  // on its own: two tabs taking it at the same instant (a third let it go, and both heard
  // it) each read it before the other's write reached them, and both sent the same hand,
  // the second answered 409 and its player told of a refusal of a hand recorded.
  // Where the browser has Web Locks (a secure context: https, localhost), SEND waits for
  // the link's lock, which the browser gives one tab at a time, and is held until `done`;
  // SEND reads the queue only once it holds it. Where it has none (plain http on the
  // club's Wi-Fi) the lease alone decides, as before.
  function exclusively(send) {
    if (!navigator.locks) {
      send(function () {});
      return;
    }
    sending = true; // one request for the lock at a time from this tab
    navigator.locks.request(leaseKey, function () {
      sending = false;
      return new Promise(function (done) { send(done); });
    }).catch(function () { // the lock refused (the page going away): tried again later
      sending = false;
      later();
    });
  }

  // The page's live part asked for now, as the sheet's poll asks for it (the same
  // request, the same handling: the forms brought up to date unless a player is busy).
  // Wanted until a request of the sheet leaves: with one on its way (which may have left
  // before what changed), htmx would drop it, so it is asked for once that one is
  // answered (`again`), or once the sheet it brought is ready for it (htmx:afterSettle).
  var refreshWanted = false;
  var pollOut = false;

  function refreshTable() {
    var sheet = document.getElementById("table-sheet");
    if (!sheet || !window.htmx) return;
    refreshWanted = true;
    if (!pollOut) window.htmx.trigger(sheet, "phone-refresh");
  }

  // A request of the sheet's is over (answered, failed or given up). Heard on the
  // document: htmx says it of the element the answer replaced on an element still on
  // the page; known by its stamp (phoneSentAt).
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (!xhr || xhr.phoneSentAt === undefined) return;
    pollOut = false;
    if (refreshWanted) setTimeout(refreshTable, 0); // once htmx has let go of the request
  });

  // The refusal a page of the service says in words (its role=alert), parsed inertly.
  function alertIn(html) {
    var found = new DOMParser().parseFromString(html, "text/html").querySelector("[role=alert]");
    return found ? found.textContent.trim() : "";
  }

  // Send the oldest hand; on an answer, drop it and go on with the next.
  function flush() {
    if (sending) return;
    var dead = deadLinkWords(document);
    if (dead) abandon(dead); // this page is a dead link's: nothing goes out on it
    var queue = load();
    if (!queue.length) {
      letGo();
      showQueue();
      showDelivered();
      sayRefused();
      return;
    }
    // Another tab of this phone is sending it: it goes from there, and this tab brings its
    // page up to date as each leaves (the storage event). Should that tab go, its lease
    // given up or run out, this one takes over.
    var other = heldElsewhere();
    if (other) {
      showQueue();
      later(other.until - Date.now());
      return;
    }
    exclusively(sendOldest);
  }

  // Send the queue's oldest entry, as it is now (under the lock, another tab may have sent
  // what this one saw waiting); `done` once its answer is dealt with.
  function sendOldest(done) {
    if (leaving) {
      done();
      return;
    }
    var queue = load();
    if (!queue.length) {
      done();
      // The queue emptied meanwhile: another tab sent what this one saw waiting. A poll
      // answered while this tab waited for the lock left the live part as it was (nothing
      // is swapped under a tab about to send: htmx:beforeSwap), so the table is asked for
      // again now, and the page offers the next hand without waiting for the next poll.
      refreshTable();
      flush(); // said so
      return;
    }
    hold(REQUEST_TIMEOUT_MS + LEASE_SPARE_MS);
    var entry = queue[0];
    sending = true;
    backOnline = false;
    busy(true);
    // Sent while connected, it may reach the service even if no answer comes back.
    if (navigator.onLine !== false && !entry.tried) {
      entry.tried = true;
      save(queue);
    }
    var timedOut = false;
    var request = timed(entry.url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "Idempotency-Key": entry.key,
        "X-CSRFToken": csrfToken(),
        "HX-Request": "true"
      },
      body: withoutFormToken(entry.body)
    }, function () { timedOut = true; });
    showQueue();
    request.promise.then(function (response) {
      unanswered = null;
      // The service answered: a page kept on the phone is live again (phone-offline.js).
      document.dispatchEvent(new CustomEvent("phone:answered"));
      // Too many requests from this table (429): nothing was recorded; the hand stays,
      // and goes again by itself once the wait the service gives (Retry-After) is over.
      if (response.status === 429) {
        var wait = parseInt(response.headers.get("Retry-After"), 10) || 0;
        return response.text().then(function (text) {
          sending = false;
          busy(false);
          markWaited();
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
        markWaited();
        showQueue("The club's server is busy; trying again.");
        later();
        return;
      }
      if (response.headers.get("HX-Refresh")) {
        // The table's link is dead (replaced by a new card, the evening closed, ...):
        // nothing waiting can go on it. Each is listed as not recorded, with the dead
        // page's words why, and the page reloads to show them with that page.
        return response.text().then(function (text) {
          abandon(deadLinkWords(new DOMParser().parseFromString(text, "text/html")) ||
            "This table's link no longer works.");
          location.reload();
        });
      }
      if (response.status === 403) {
        // Refused before anything was done: the browser's CSRF cookie is gone or stale
        // (cleared, or the page restored without it). The hand stays; the page is asked
        // for again, which gives the browser a fresh cookie, and the hand goes again after
        // RETRY_MS, as every other try does: a phone refused so again and again would
        // otherwise post without a pause. (Not `then(later)`: the page's answer is no wait.)
        sending = false;
        busy(false);
        markWaited();
        showQueue("The phone had to renew its page; sending again.");
        var again = function () { later(); };
        timed(location.pathname, { credentials: "same-origin" }).promise.then(again, again);
        return;
      }
      return response.text().then(function (text) {
        drop(entry);
        sending = false;
        busy(false);
        var html = (response.headers.get("Content-Type") || "").indexOf("text/html") === 0;
        // Refused: kept in the list when the player may not have seen it; the answer's
        // live part says it too, until the next answer replaces it.
        // A refusal answered while a player was typing something else is listed too: the
        // form it comes back in keeps what is being typed (swapLive).
        var why = refusalIn(html ? text : "", response.status);
        var live = document.getElementById("table-live");
        var typing = live ? typedIn(live) : false;
        if (why !== null && (entry.waited || load().length || typing)) remember(entry, why);
        if (why === null && response.ok && (entry.waited || load().length || delivered.length)) {
          delivered.push({
            kind: entry.kind,
            words: madeWords(entry, response.headers.get("Idempotent-Replayed") === "true")
          });
          shareDelivered();
        }
        if (html) swapLive(text);
        showQueue();
        flush();
      });
    }).catch(function () {
      sending = false; // no connection, or no answer in time: the hand stays in the queue
      busy(false);
      markWaited();
      unanswered = timedOut ? "timeout" : "lost";
      showQueue();
      var again = backOnline && !timedOut && navigator.onLine !== false;
      backOnline = false;
      if (!again) later();
      return again;
    }).then(function (again) {
      request.done();
      done(); // the link's lock let go first, then the hand goes again
      if (again === true) flush();
    }, function () {
      request.done();
      done();
    });
  }

  // A request given up after REQUEST_TIMEOUT_MS without its answer (headers and body):
  // its promise then fails as a lost connection does, and `onTimeout` is told first.
  // `done` stops the clock once the answer has been dealt with.
  function timed(url, options, onTimeout) {
    var controller = window.AbortController ? new AbortController() : null;
    var clock = controller ? setTimeout(function () {
      if (onTimeout) onTimeout();
      controller.abort();
    }, REQUEST_TIMEOUT_MS) : null;
    if (controller) options.signal = controller.signal;
    return {
      promise: fetch(url, options),
      done: function () { if (clock) clearTimeout(clock); }
    };
  }

  // The form's CSRF token is left out of what is sent: the header carries the browser's
  // token as it is now (a renewed cookie makes the form's stale), and every sending of one
  // hand is then the same body, as its Idempotency-Key requires.
  function withoutFormToken(body) {
    var data = new URLSearchParams(body);
    data.delete("csrfmiddlewaretoken");
    return data.toString();
  }

  // The words of a dead link's page (club/table_dead.html): why the link no longer works
  // and whom to ask for a new card; null for any other page.
  function deadLinkWords(page) {
    var dead = page.querySelector("[data-link-dead]");
    if (!dead) return null;
    return [dead.querySelector("[role=alert]"), dead.querySelector("[data-testid=dead-link-ask]")]
      .map(function (node) { return node ? node.textContent.replace(/\s+/g, " ").trim() : ""; })
      .filter(Boolean).join(" ");
  }

  // Everything waiting in the queue can no longer be sent on this link: each goes to the
  // list of refusals (which hand, what was entered, why), for the players to enter again
  // on the page of the table's new card, and the queue is emptied. Never dropped unsaid.
  function abandon(why) {
    load().forEach(function (entry) { remember(entry, why); });
    save([]);
  }

  function drop(entry) {
    save(load().filter(function (other) { return other.key !== entry.key; }));
  }

  // What the page calls a hand ("hand", "deal"): the word before the number in the title
  // of the form for the next one.
  function handWord(form) {
    var title = form.querySelector(".form-title") || document.querySelector(".form-title");
    var word = title && title.firstChild && title.firstChild.nodeType === Node.TEXT_NODE
      ? title.firstChild.textContent.trim().toLowerCase() : "";
    return word || "hand";
  }

  // The button pressed is part of what is sent (a confirmation's "by").
  function enqueue(form, submitter) {
    var data = new URLSearchParams(new FormData(form));
    if (submitter && submitter.name) data.set(submitter.name, submitter.value);
    var queue = load();
    if (!queue.length) { // a new sending: the words of the last one go, in every tab
      delivered = [];
      shareDelivered();
      showDelivered();
    }
    var label;
    if (form.dataset.kind === "record") {
      // Hands entered while earlier ones wait are meant to follow them.
      var number = parseInt(data.get("expected_number"), 10) || 1;
      queue.forEach(function (entry) {
        if (entry.kind === "record" && entry.number >= number) number = entry.number + 1;
      });
      data.set("expected_number", String(number));
      label = handWord(form) + " " + number;
    } else if (form.dataset.kind === "answer") {
      label = (submitter && submitter.dataset.queueLabel) || form.dataset.queueLabel;
    } else if (form.dataset.kind === "take_back") {
      label = (submitter && submitter.dataset.queueLabel) ||
        "take-back of " + handWord(form) + " " + data.get("take_back");
    } else {
      label = "correction of " + handWord(form) + " " + data.get("correct");
    }
    queue.push({
      key: newKey(),
      url: form.action,
      body: data.toString(),
      kind: form.dataset.kind,
      number: form.dataset.kind === "record" ? parseInt(data.get("expected_number"), 10) : null,
      label: label,
      what: described(form),
      // A take-back's hand passed the deal on, or was one its dealer deals again (Call-Ace
      // laws 6, 42, 50): the dealer shown while it waits goes back only as far as it went.
      passesDeal: form.dataset.kind === "take_back" ? form.dataset.passesDeal !== "0" : undefined,
      // Put behind what has waited already (a request that hung past its time limit, a
      // lost connection, a busy server), it waits too: its refusal may come long after it
      // was entered, when the players no longer look, so it is kept in the list.
      waited: queue.some(function (entry) { return entry.waited; }) || undefined
    });
    save(queue);
    if (form.dataset.kind === "record") blank(form);
    else sent(form);
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
    // Nor is a take-back, a correction or an answer the same as one still waiting (its
    // buttons are not offered meanwhile: showWaitingChanges).
    if (form.dataset.kind !== "record" && waitingFor(form)) {
      showWaitingChanges();
      return;
    }
    form.dataset.queuedAt = String(now);
    enqueue(form, event.submitter);
  });

  window.addEventListener("online", function () {
    if (sending) backOnline = true; // a request out: on its failure, sent again at once
    flush();
  });
  // The words of what waits follow the connection: lost, they say it waits for it.
  window.addEventListener("offline", function () { showQueue(); });
  // A part of the page swapped in by htmx (the live part, the sheet's poll) may bring the
  // form of a change still waiting.
  document.addEventListener("htmx:afterSettle", function () {
    if (refreshWanted) refreshTable();
    markBrought(document);
    showWaitingChanges();
    followQueue();
  });
  // Another tab of the same table's page dismissed or added a refusal, queued an entry or
  // sent one (its queue is this one), had one made (what it sent, said here too), or let
  // the queue go with entries still in it.
  window.addEventListener("storage", function (event) {
    if (event.key === refusedKey) showRefused();
    if (event.key === storageKey) {
      showQueue();
      showDelivered(); // put away once something waits again
      if (left(event.oldValue, event.newValue)) refreshTable();
    }
    if (event.key === sentKey) {
      try {
        delivered = JSON.parse(event.newValue || "[]") || [];
      } catch (e) {
        delivered = [];
      }
      showDelivered();
    }
    if (event.key === leaseKey && !event.newValue && load().length) flush();
  });

  // Whether an entry of the queue as it was is not in it as it is: answered.
  function left(before, after) {
    var keys = function (value) {
      try {
        return (JSON.parse(value || "[]") || []).map(function (entry) { return entry.key; });
      } catch (e) {
        return [];
      }
    };
    var now = keys(after);
    return keys(before).some(function (key) { return now.indexOf(key) < 0; });
  }

  // A tab closed, or left for another page, sends nothing more: another takes the queue.
  window.addEventListener("pagehide", function () {
    leaving = true;
    letGo();
  });
  // Restored by the Back button from the browser's back/forward cache, the page is as it
  // was left: the table, the next hand's form and the queue's line as they were then.
  // Brought up to date, and what waits is sent.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    leaving = false;
    showRefused();
    showQueue();
    refreshTable();
    flush();
  });
  document.addEventListener("DOMContentLoaded", function () {
    shown = tableIn(document);
    markBrought(document);
    markWaited(); // left from before the page was (re)loaded
    showRefused();
    showQueue();
    flush();
  });
})();
