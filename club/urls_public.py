"""Public pages of a club (no login)."""

from django.urls import include, path

from club import views

urlpatterns = [
    path("<slug:slug>/", views.club_home, name="club-home"),
    path("<slug:slug>/evenings/<int:pk>/", views.evening_results, name="evening-results"),
    path("<slug:slug>/players/<int:pk>/", views.player_detail, name="player-detail"),
    path("<slug:slug>/rubbers/", include("scoring.urls_public")),
    path("<slug:slug>/tournaments/", include("tournaments.urls_public")),
]
