"""The secretary's pages (login required)."""

from django.urls import path

from club import views

urlpatterns = [
    path("", views.secretary_home, name="secretary-home"),
]
