"""Public tournament pages, included under /clubs/<slug>/tournaments/."""

from django.urls import path

from tournaments import views

urlpatterns = [
    path("<slug:tslug>/", views.tournament_standings, name="tournament-standings"),
    path(
        "<slug:tslug>/standings/",
        views.tournament_standings_fragment,
        name="tournament-standings-fragment",
    ),
]
