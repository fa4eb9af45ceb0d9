"""A Content-Security-Policy for the pages (production): only our own scripts, styles and
images; a worker only from our own scripts (the table's phone's, club.views_phone_worker).
The API docs page runs Swagger UI's inline start-up script, so it alone may."""

from django.conf import settings

POLICY = (
    "default-src 'self'; script-src 'self'; worker-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; "
    "base-uri 'self'; object-src 'none'"
)
DOCS_POLICY = POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace(
    "style-src 'self'", "style-src 'self' 'unsafe-inline'"
)


class ContentSecurityPolicyMiddleware:
    """Adds the policy to every response when settings.CSP_ENABLED (on in production)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if settings.CSP_ENABLED and "Content-Security-Policy" not in response:
            docs = request.path.startswith("/api/docs/")
            response["Content-Security-Policy"] = DOCS_POLICY if docs else POLICY
        return response
