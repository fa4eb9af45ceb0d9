"""Public pages of a club's rubbers, included under /clubs/<slug>/rubbers/."""

from django.urls import path

from scoring import views, views_secretary

urlpatterns = [
    path("<int:pk>/", views.rubber_detail, name="rubber-detail"),
    # The secretary's late correction or removal of a hand, with a reason (ruling E9).
    path("<int:pk>/change/", views_secretary.rubber_change, name="rubber-change"),
]
