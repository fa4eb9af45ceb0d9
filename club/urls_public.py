"""Public pages of a club (no login)."""

from django.urls import path

from club import views

urlpatterns = [
    path("<slug:slug>/", views.club_home, name="club-home"),
]
