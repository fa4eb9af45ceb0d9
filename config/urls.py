"""URL map: public pages, the secretary's pages, the API under /api/v1/, admin, health."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.http import require_safe
from drf_spectacular.views import SpectacularSwaggerView

from club import views as club_views
from club import views_board, views_confirm, views_phone_worker
from config.ratelimit import login_throttled
from config.schema_view import SchemaView
from core.health import healthz
from tournaments import views_phone


@require_safe
def favicon(request):
    """Browsers ask for /favicon.ico whatever a page links (templates/base.html's icon):
    sent on to the site's icon, where a 404 was logged on each visit's first page. Not a
    permanent redirect: the icon's address changes with its content in production."""
    return redirect(static("favicon.svg"))


urlpatterns = [
    path("", club_views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    path("accounts/login/", club_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("secretary/", include("club.urls_secretary")),
    # The phones' service worker, at each link's path for its scope (club.views_phone_worker).
    path("t/phone-worker.js", views_phone_worker.phone_worker, name="table-phone-worker"),
    path("p/phone-worker.js", views_phone_worker.phone_worker, name="tournament-phone-worker"),
    path("t/<str:token>/", views_board.table_phone, name="table-phone"),
    path("t/<str:token>/hand/", views_board.table_record, name="table-record"),
    path("t/<str:token>/answer/", views_confirm.table_answer, name="table-answer"),
    # A progressive tournament's table, for the whole tournament (tournaments.table_links).
    path("p/<str:token>/", views_phone.table_phone, name="tournament-phone"),
    path("p/<str:token>/hand/", views_phone.table_phone_record, name="tournament-phone-record"),
    path("clubs/", include("club.urls_public")),
    path("api/v1/", include("config.urls_api")),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    # A page to read: GET and HEAD only. DRF's OPTIONS answer was rendered by the page's
    # HTML renderer, which has no template for it (a 500).
    path(
        "api/docs/",
        SpectacularSwaggerView.as_view(url_name="schema", http_method_names=["get", "head"]),
        name="api-docs",
    ),
    # The admin's own login, behind the same login throttle as the other doors (django-axes
    # guards it through the authentication backend).
    path("admin/login/", login_throttled(admin.site.login)),
    path("admin/", admin.site.urls),
]

# Under /api/, Django's own 400 and 404 answer in the API's one error shape (config.api).
handler400 = "config.api.bad_request"
handler404 = "config.api.not_found"
