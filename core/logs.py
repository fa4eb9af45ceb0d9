"""Table links kept out of the logs.

A table's phone link (`/t/<token>/`, an evening's; `/p/<token>/`, a progressive's) is a
bearer secret: whoever has it records hands at that table (docs/architecture.md, "The
table's phone link"). Django's request log names the path of every refused or failed
request ("Bad Request: /t/<token>/hand/", a phone's refused hand), runserver's and
gunicorn's access logs name every request, and a phone's htmx requests carry the link in
their Referer. A log is read by more people, kept longer and copied further than a
card on a table, so the token is replaced there by an ellipsis: the line still says
which kind of link, which page and what happened.
"""

import logging
import re

# A link's token (club.models.new_table_token: 32 URL-safe characters; a progressive's a
# UUID) after /t/ or /p/, wherever it stands: a path, a full address, a Referer.
LINK = re.compile(r"(/[tp]/)[A-Za-z0-9_-]{16,}")
HIDDEN = r"\1…"

# The loggers that name a request's address: Django's (a refused, failed or served
# request; a post refused for want of its CSRF token, "Forbidden (CSRF cookie not set.):
# /t/<token>/hand/", a phone whose cookie was cleared: a logger of its own, which its
# parent's filter does not reach) and gunicorn's (its access log, and its error log's bad
# requests).
LOGGERS = (
    "django.request", "django.security.csrf", "django.server", "gunicorn.access",
    "gunicorn.error",
)  # fmt: skip


def hide_links(text: str) -> str:
    """`text` with every table link's token replaced by an ellipsis."""
    return LINK.sub(HIDDEN, text)


class HideTableLinks(logging.Filter):
    """Rewrites a record's message with the links' tokens hidden (never drops one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        hidden = hide_links(message)
        if hidden != message:
            record.msg, record.args = hidden, None
        return True


def hide_links_in_logs() -> None:
    """Put the filter on each logger that names a request's address, once. A filter on
    the logger, not a handler, so every handler it has (and a test's) sees the message
    hidden; Django's settings.LOGGING is left as it is, handlers and levels alike."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, HideTableLinks) for f in logger.filters):
            logger.addFilter(HideTableLinks())
