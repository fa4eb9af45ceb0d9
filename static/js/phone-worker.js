// The table's phone's service worker (docs/architecture.md, "A reload with no network").
//
// Served at /t/phone-worker.js and /p/phone-worker.js (club.views_phone_worker), so each
// copy's scope is its own kind of table link; registered by static/js/phone-offline.js
// from a table's phone page, for a player not logged in, in a secure context only (https,
// or localhost on a laptop and in the tests): over plain http on a LAN it never runs and
// the page works as without it.
//
// Network first, always. A navigation to a table's phone page (/t/<token>/, /p/<token>/)
// goes to the service; its answer is what the phone shows. A page the service marks as
// one it may keep (X-Phone-Copy: keep: a live link's whole page, to a player not logged
// in) replaces the copy of that address, and only of that one; an answer 4xx (the link
// dead, unknown) deletes it, so a dead link's page is never shown over a live one nor a
// live one's copy once the link died. Only when the network fails, or does not answer
// within NETWORK_WAIT_MS (a club's weak Wi-Fi hangs rather than fails), does the worker
// answer with the copy, marked on its <html> element with when it was kept (data-kept-at)
// and, for a network that did not answer, so (data-kept-why="unanswered"), which the page
// says in words. The request it gave up waiting for goes on: its answer, when it comes,
// replaces the copy as above, and the page is told (a message), to bring itself up to
// date. With no copy kept, the reload waits for the network as without the worker. A copy
// is kept for the exact address: never served for another link.
//
// The static files (/static/...) a phone page loads are kept the same way, network first,
// on every fetch and when a page not yet loaded through the worker names them
// (phone-offline.js's message). Nothing else is touched: no POST, no poll or API answer,
// no other page; a request the worker does not answer goes to the network as without it.
"use strict";

var PAGES = "cardclub-phone-pages-v1";
var FILES = "cardclub-phone-files-v1";
var PHONE_PAGE = /^\/[tp]\/[^/]+\/$/;
// How long a phone page's load waits for the service before the kept copy answers. A club's
// weak Wi-Fi often hangs rather than fails: the browser waits a minute or more before it
// gives up, and the player stares at a white page meanwhile. The service answers a phone
// page in well under a second, and a slow Wi-Fi that works brings it in one or two; four
// seconds leaves room for that, and is short enough for a player at the table to wait.
var NETWORK_WAIT_MS = 4000;
// The pages (clients) this worker answered with a copy: they load the files kept with it
// at once, not waiting on the network that did not answer their page (a worker restarted
// meanwhile has forgotten them: their files then go to the network first, as any page's).
var copies = new Set();

self.addEventListener("install", function (event) {
  self.skipWaiting(); // a new version of this file takes over at once
  // Where the browser can (static routing), what the worker never answers goes straight to
  // the network without waking it: the hands posted, the polls, everything but a page's
  // load and its static files. Elsewhere the fetch handler lets them go by.
  if (event.addRoutes) {
    event.waitUntil(event.addRoutes([
      {condition: {requestMethod: "GET", requestMode: "navigate"}, source: "fetch-event"},
      {condition: {requestMethod: "GET", urlPattern: "/static/*"}, source: "fetch-event"},
      {condition: {urlPattern: "/*"}, source: "network"}
    ]).catch(function () { return null; }));
  }
});

self.addEventListener("activate", function (event) {
  // Caches of an older version of this file are dropped.
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("cardclub-phone-") === 0 && name !== PAGES && name !== FILES;
    }).map(function (name) { return caches.delete(name); }));
  }));
});

function pageKey(url) {
  return url.origin + url.pathname;
}

// Keep the service's answer for a phone page: replace the copy by a page it may keep,
// delete it on an answer saying the link no longer opens the page (4xx); a busy or broken
// service's answer (5xx) or a logged-in visitor's page leaves the copy as it was.
function keep(key, response) {
  return caches.open(PAGES).then(function (cache) {
    if (response.status >= 400 && response.status < 500) return cache.delete(key);
    if (response.status !== 200 || response.headers.get("X-Phone-Copy") !== "keep") return null;
    return response.text().then(function (html) {
      return cache.put(key, new Response(html, {
        headers: {
          "Content-Type": response.headers.get("Content-Type") || "text/html; charset=utf-8",
          "X-Phone-Kept-At": String(Date.now())
        }
      }));
    });
  });
}

function keptPage(key) {
  return caches.open(PAGES).then(function (cache) {
    return cache.match(key);
  });
}

// The copy of a phone page, marked as one: the page's script says so, when it was kept, and
// WHY ("offline": the network failed; "unanswered": it did not answer in NETWORK_WAIT_MS).
function copyOf(event, kept, why) {
  var when = kept.headers.get("X-Phone-Kept-At") || "";
  if (event.resultingClientId) copies.add(event.resultingClientId);
  return kept.text().then(function (html) {
    var marked = html.replace(
      /<html\b/i, '<html data-kept-at="' + when + '" data-kept-why="' + why + '"'
    );
    return new Response(marked, {headers: {"Content-Type": kept.headers.get("Content-Type")}});
  });
}

function page(event, url) {
  var key = pageKey(url);
  var servedCopy = false;
  var answered = fetch(event.request).then(function (response) {
    return {response: response, kept: keep(key, response.clone())};
  });
  // The worker lives on until the network's answer is kept, served or not.
  event.waitUntil(answered.then(function (got) {
    return got.kept.then(function () {
      // The page shown is the copy: the live one is there now, the page brings itself up
      // to date (phone-offline.js).
      if (servedCopy) {
        return self.clients.get(event.resultingClientId).then(function (client) {
          if (client) client.postMessage({phoneAnswered: true});
        });
      }
      return null;
    });
  }).catch(function () { return null; }));
  var timer = null;
  var over = false; // the network answered, or failed, before the wait was out
  var network = answered.then(function (got) {
    over = true;
    clearTimeout(timer);
    return got.response;
  }, function () {
    over = true;
    clearTimeout(timer);
    return keptPage(key).then(function (kept) {
      if (!kept) return Response.error(); // nothing kept: the browser's own page, as before
      servedCopy = true;
      return copyOf(event, kept, "offline");
    });
  });
  // No answer in time: the copy, if one is kept; else the network is waited for, as before.
  var unanswered = new Promise(function (resolve) {
    timer = setTimeout(resolve, NETWORK_WAIT_MS);
  }).then(function () {
    return keptPage(key);
  }).then(function (kept) {
    if (!kept || over) return network;
    servedCopy = true;
    return copyOf(event, kept, "unanswered");
  });
  return Promise.race([network, unanswered]);
}

function file(event) {
  if (!copies.has(event.clientId)) return fetchFile(event);
  // A page answered by its copy loads the files kept with it, at once.
  return caches.open(FILES).then(function (cache) {
    return cache.match(event.request, {ignoreVary: true});
  }).then(function (kept) {
    return kept || fetchFile(event);
  });
}

function fetchFile(event) {
  var request = event.request;
  return fetch(request).then(function (response) {
    if (response.status === 200) {
      var copy = response.clone();
      event.waitUntil(caches.open(FILES).then(function (cache) { return cache.put(request, copy); }));
    }
    return response;
  }, function (error) {
    return caches.open(FILES).then(function (cache) {
      return cache.match(request, {ignoreVary: true});
    }).then(function (kept) {
      if (kept) return kept;
      throw error;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && PHONE_PAGE.test(url.pathname)) {
    event.respondWith(page(event, url));
  } else if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(file(event));
  }
});

// A phone page loaded before the worker controlled it (its first visit) names itself and
// its static files: they are fetched and kept now, so that its next load, offline, finds them.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (!data.page) return;
  var url = new URL(data.page, self.location.origin);
  if (url.origin !== self.location.origin || !PHONE_PAGE.test(url.pathname)) return;
  var files = (data.files || []).filter(function (address) {
    var file = new URL(address, self.location.origin);
    return file.origin === self.location.origin && file.pathname.indexOf("/static/") === 0;
  });
  event.waitUntil(Promise.all([
    // Without the phone's cookies: the copy is the page as any player of the link sees it,
    // and the fetch sets none (the phone's own CSRF cookie, which its queue sends, is left
    // as it is: a fresh one set behind the page's back refused nothing it should have).
    fetch(url.href, {credentials: "omit"}).then(function (response) {
      return keep(pageKey(url), response);
    }),
    caches.open(FILES).then(function (cache) {
      return Promise.all(files.map(function (address) {
        return cache.match(address).then(function (kept) {
          return kept || cache.add(address);
        });
      }));
    })
  ]).catch(function () { return null; })); // offline meanwhile: kept at the next load
});
