"""Every URL pattern the service serves, for the tests that go through them all (the
permission matrix's coverage, the hostile methods on every route)."""

from django.urls import get_resolver


def url_patterns() -> list[str]:
    """Each route's whole pattern ("api/v1/clubs/<slug:slug>/"), includes walked."""
    routes: list[str] = []

    def walk(patterns, prefix=""):
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                routes.append(prefix + str(pattern.pattern))

    walk(get_resolver().url_patterns)
    return routes
