"""HTML pages: the site's home, a club's public home, the secretary's home, login."""

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils.decorators import method_decorator
from django.views.decorators.debug import sensitive_post_parameters

from club.ratelimit import rate_limited
from club.selectors import clubs_managed_by, clubs_visible_to


def home(request):
    """The site's front page: the clubs the visitor may see."""
    return render(request, "home.html", {"clubs": clubs_visible_to(user=request.user)})


def club_home(request, slug):
    """A club's public home: its evenings (private clubs only for their secretaries)."""
    club = clubs_visible_to(user=request.user).filter(slug=slug).first()
    if club is None:
        raise Http404("No such club.")
    evenings = club.evenings.order_by("-date", "-id")[:30]
    return render(request, "club/home.html", {"club": club, "evenings": evenings})


@login_required
def secretary_home(request):
    """The secretary's start page: his clubs and their open evenings."""
    clubs = clubs_managed_by(user=request.user).prefetch_related("evenings")
    return render(request, "club/secretary_home.html", {"clubs": clubs})


@method_decorator(sensitive_post_parameters(), name="dispatch")
@method_decorator(rate_limited(scope="login", rate=10, per=60), name="post")
class LoginView(auth_views.LoginView):
    """Django's login page, rate limited per address (10 attempts a minute)."""
