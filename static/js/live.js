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
