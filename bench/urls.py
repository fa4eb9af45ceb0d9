"""The service's URLs, plus a trivial view: the floor a Django page cannot go below
under the same gunicorn, middleware and settings (the public standings page is
measured as a fraction of it)."""

from django.http import HttpResponse
from django.urls import include, path


def trivial(request):
    """As little as a Django view can do: no database, no cache, no template."""
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [
    path("bench/trivial/", trivial, name="bench-trivial"),
    path("", include("config.urls")),
]
