"""The secretary's pages (login required)."""

from django.urls import path

from club import views, views_board, views_cards, views_confirm, views_people
from tournaments import views_director, views_table

urlpatterns = [
    path("", views.secretary_home, name="secretary-home"),
    path("evenings/<int:pk>/", views_board.board, name="evening-board"),
    path("evenings/<int:pk>/board/", views_board.board_fragment, name="evening-board-fragment"),
    path("evenings/<int:pk>/action/", views_board.board_action, name="evening-board-action"),
    path("evenings/<int:pk>/sheet/", views_board.evening_sheet, name="evening-sheet"),
    path("evenings/<int:pk>/table-cards/", views_cards.table_cards, name="evening-table-cards"),
    path("clubs/<slug:slug>/people/", views_people.people, name="club-people"),
    path(
        "clubs/<slug:slug>/tournaments/new/",
        views_director.tournament_new,
        name="tournament-new",
    ),
    path("evenings/<int:pk>/settle/", views_confirm.board_settle, name="evening-board-settle"),
    path("tournaments/<int:pk>/", views_director.director, name="tournament-director"),
    path(
        "tournaments/<int:pk>/progress/",
        views_director.progress,
        name="tournament-director-progress",
    ),
    path("tournaments/<int:pk>/act/", views_director.act, name="tournament-director-act"),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/tables/<int:number>/",
        views_table.round_table,
        name="tournament-table",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/sheets/",
        views_table.round_sheets,
        name="tournament-round-sheets",
    ),
    path(
        "tournaments/<int:pk>/table-cards/",
        views_director.table_cards,
        name="tournament-table-cards",
    ),
    path(
        "tournaments/<int:pk>/tables/<int:number>/qr.svg",
        views_director.table_qr,
        name="tournament-table-qr",
    ),
    path(
        "evenings/<int:pk>/tables/<int:number>/qr.svg",
        views_board.table_qr,
        name="table-qr",
    ),
]
