"""Public pages of a club (no login)."""

from django.urls import include, path

from club import views, views_player, views_room

urlpatterns = [
    path("<slug:slug>/", views.club_home, name="club-home"),
    path("<slug:slug>/evenings/<int:pk>/", views.evening_results, name="evening-results"),
    path("<slug:slug>/evenings/<int:pk>/room/", views_room.evening_room, name="evening-room"),
    path(
        "<slug:slug>/evenings/<int:pk>/room/live/",
        views_room.evening_room_live,
        name="evening-room-live",
    ),
    path("<slug:slug>/players/", views_player.player_index, name="player-index"),
    path("<slug:slug>/players/<int:pk>/", views.player_detail, name="player-detail"),
    path("<slug:slug>/rubbers/", include("scoring.urls_public")),
    path("<slug:slug>/tournaments/", include("tournaments.urls_public")),
]
