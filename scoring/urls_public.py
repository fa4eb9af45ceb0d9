"""Public pages of a club's rubbers, included under /clubs/<slug>/rubbers/."""

from django.urls import path

from scoring import views

urlpatterns = [
    path("<int:pk>/", views.rubber_detail, name="rubber-detail"),
]
