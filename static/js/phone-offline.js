// A table's phone page reloaded with no network (docs/architecture.md, "The phone at the
// table"). Registers the phone's service worker (static/js/phone-worker.js, at the address
// in this script's data-worker) where the browser allows one (a secure context: https, or
// localhost); elsewhere (plain http over the club's Wi-Fi) the page works as without it.
// The worker keeps a copy of this page and answers a reload with it when the network
// fails, or does not answer in a few seconds (a weak Wi-Fi that hangs); the queue's hands
// are in localStorage (static/js/phone-queue.js), which the copy's script reads as the live
// page's does. A copy says so (`phone-kept`), why, and when it was kept, until the service
// answers the page again (its poll, a hand sent): the page is live then. The load the
// worker gave up waiting for, answered at last, brings the poll at once (the worker's
// message), rather than at the poll's next turn.
(function () {
  "use strict";

  var script = document.currentScript;

  function twoDigits(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function sayKept() {
    var line = document.getElementById("phone-kept");
    var when = Number(document.documentElement.dataset.keptAt);
    if (!line || !when) return;
    var at = new Date(when);
    // The network failed, or it did not answer the page in the worker's time.
    var unanswered = document.documentElement.dataset.keptWhy === "unanswered";
    line.textContent = (unanswered ? "The connection did not answer" : "No connection") +
      ": this is this table's page as it was at " +
      twoDigits(at.getHours()) + ":" + twoDigits(at.getMinutes()) + ", kept on this phone. " +
      "Hands entered here are kept on this phone too and go by themselves when the " +
      "connection " + (unanswered ? "answers." : "returns.");
    line.hidden = false;
    // Any answer of the service (status 0 is none: the network failed) brings the live
    // page back: the poll swaps its live part in, the queue sends what waits. A hand's
    // answer (phone-queue.js says it: `phone:answered`) is one too: its live part swapped
    // in may take away the sheet whose poll was on its way, whose answer then reaches no
    // element on the page, and the copy's line stayed until the next poll.
    function live(event) {
      var xhr = event.detail && event.detail.xhr;
      if (event.type === "htmx:afterRequest" && (!xhr || !xhr.status)) return;
      line.hidden = true;
      delete document.documentElement.dataset.keptAt;
      delete document.documentElement.dataset.keptWhy;
      document.removeEventListener("htmx:afterRequest", live);
      document.removeEventListener("phone:answered", live);
    }
    document.addEventListener("htmx:afterRequest", live);
    document.addEventListener("phone:answered", live);
  }

  // The worker's word that this copy's page was answered by the service after all: the
  // sheet's poll is asked for now, and its answer makes the page live (sayKept).
  function answeredAtLast(event) {
    var sheet = document.getElementById("table-sheet");
    if (!(event.data && event.data.phoneAnswered) || !document.documentElement.dataset.keptAt) {
      return;
    }
    if (sheet && window.htmx) window.htmx.trigger(sheet, "phone-refresh");
  }

  function register() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext || !script) return;
    navigator.serviceWorker.addEventListener("message", answeredAtLast);
    var worker = script.dataset.worker;
    navigator.serviceWorker.register(worker).then(function () {
      // Loaded through the worker, this page's copy and files were kept as they came.
      if (navigator.serviceWorker.controller) return null;
      return navigator.serviceWorker.ready.then(function (registration) {
        var files = Array.prototype.map.call(
          document.querySelectorAll("script[src], link[rel=stylesheet][href]"),
          function (element) { return element.src || element.href; }
        );
        registration.active.postMessage({page: location.pathname, files: files});
      });
    }).catch(function () {
      // No worker (private mode, storage full): the page works as without it.
    });
  }

  document.addEventListener("DOMContentLoaded", sayKept);
  register();
})();
