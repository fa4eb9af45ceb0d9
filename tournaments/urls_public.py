"""Public tournament pages, included under /clubs/<slug>/tournaments/."""

from django.urls import path

from tournaments import views, views_room

urlpatterns = [
    path("<slug:tslug>/", views.tournament_standings, name="tournament-standings"),
    path(
        "<slug:tslug>/standings/",
        views.tournament_standings_fragment,
        name="tournament-standings-fragment",
    ),
    path("<slug:tslug>/room/", views_room.tournament_room, name="tournament-room"),
    path("<slug:tslug>/room/live/", views_room.tournament_room_live, name="tournament-room-live"),
]
