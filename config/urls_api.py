"""The JSON API, version 1."""

from django.urls import path

from club import api as club_api

urlpatterns = [
    path("auth/token/", club_api.TokenView.as_view(), name="api-token"),
    path("me/", club_api.MeView.as_view(), name="api-me"),
    path("clubs/", club_api.ClubListView.as_view(), name="api-clubs"),
    path("clubs/<slug:slug>/", club_api.ClubDetailView.as_view(), name="api-club"),
    path("clubs/<slug:slug>/members/", club_api.MemberListView.as_view(), name="api-members"),
    path(
        "clubs/<slug:slug>/members/<int:pk>/",
        club_api.MemberDetailView.as_view(),
        name="api-member",
    ),
]
