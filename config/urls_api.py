"""The JSON API, version 1."""

from django.urls import path

from club import api as club_api
from club import api_confirm, api_evenings
from scoring import api as scoring_api
from tournaments import api as tournaments_api

urlpatterns = [
    path("auth/token/", club_api.TokenView.as_view(), name="api-token"),
    path("auth/logout/", club_api.LogoutView.as_view(), name="api-logout"),
    path("me/", club_api.MeView.as_view(), name="api-me"),
    path("clubs/", club_api.ClubListView.as_view(), name="api-clubs"),
    path("clubs/<slug:slug>/", club_api.ClubDetailView.as_view(), name="api-club"),
    path("clubs/<slug:slug>/members/", club_api.MemberListView.as_view(), name="api-members"),
    path(
        "clubs/<slug:slug>/members/<int:pk>/",
        club_api.MemberDetailView.as_view(),
        name="api-member",
    ),
    path(
        "clubs/<slug:slug>/players/<int:pk>/",
        club_api.PlayerRecordView.as_view(),
        name="api-player",
    ),
    path("rulesets/", scoring_api.RulesetsView.as_view(), name="api-rulesets"),
    path("scoresheets/score", scoring_api.ScoresheetScoreView.as_view(), name="api-score-sheet"),
    path("clubs/<slug:slug>/rubbers/", scoring_api.RubberListView.as_view(), name="api-rubbers"),
    path(
        "clubs/<slug:slug>/rubbers/<int:pk>/",
        scoring_api.RubberDetailView.as_view(),
        name="api-rubber",
    ),
    path(
        "clubs/<slug:slug>/rubbers/<int:pk>/hands/",
        scoring_api.RubberHandsView.as_view(),
        name="api-rubber-hands",
    ),
    path(
        "clubs/<slug:slug>/rubbers/<int:pk>/hands/<int:number>/",
        scoring_api.RubberHandDetailView.as_view(),
        name="api-rubber-hand",
    ),
    path(
        "clubs/<slug:slug>/rubbers/<int:pk>/hands/<int:number>/history/",
        scoring_api.HandHistoryView.as_view(),
        name="api-rubber-hand-history",
    ),
    path(
        "clubs/<slug:slug>/rubbers/<int:pk>/hands/<int:number>/remove/",
        scoring_api.RubberHandRemoveView.as_view(),
        name="api-rubber-hand-remove",
    ),
    path(
        "clubs/<slug:slug>/rubbers/<int:pk>/hands/<int:number>/confirm/",
        api_confirm.HandConfirmView.as_view(),
        name="api-rubber-hand-confirm",
    ),
    path(
        "clubs/<slug:slug>/rubbers/<int:pk>/hands/<int:number>/dispute/",
        api_confirm.HandDisputeView.as_view(),
        name="api-rubber-hand-dispute",
    ),
    path(
        "clubs/<slug:slug>/rubbers/<int:pk>/hands/<int:number>/settle/",
        api_confirm.HandSettleView.as_view(),
        name="api-rubber-hand-settle",
    ),
    path(
        "clubs/<slug:slug>/rubbers/<int:pk>/close/",
        scoring_api.RubberCloseView.as_view(),
        name="api-rubber-close",
    ),
    path(
        "clubs/<slug:slug>/tournaments/",
        tournaments_api.TournamentListView.as_view(),
        name="api-tournaments",
    ),
    path(
        "clubs/<slug:slug>/tournaments/<slug:tslug>/",
        tournaments_api.TournamentDetailView.as_view(),
        name="api-tournament",
    ),
    path(
        "clubs/<slug:slug>/tournaments/<slug:tslug>/standings/",
        tournaments_api.StandingsView.as_view(),
        name="api-standings",
    ),
    path(
        "clubs/<slug:slug>/tournaments/<slug:tslug>/players/",
        tournaments_api.TournamentPlayersView.as_view(),
        name="api-tournament-players",
    ),
    path(
        "clubs/<slug:slug>/tournaments/<slug:tslug>/players/<int:member>/leave/",
        tournaments_api.TournamentPlayerLeaveView.as_view(),
        name="api-tournament-player-leave",
    ),
    path(
        "clubs/<slug:slug>/tournaments/<slug:tslug>/players/<int:member>/bye/",
        tournaments_api.TournamentPlayerByeView.as_view(),
        name="api-tournament-player-bye",
    ),
    path(
        "clubs/<slug:slug>/tournaments/<slug:tslug>/rounds/",
        tournaments_api.RoundsView.as_view(),
        name="api-tournament-rounds",
    ),
    path(
        "clubs/<slug:slug>/tournaments/<slug:tslug>/tables/",
        tournaments_api.TournamentTablesView.as_view(),
        name="api-tournament-tables",
    ),
    path(
        "clubs/<slug:slug>/tournaments/<slug:tslug>/tables/<int:number>/new-link/",
        tournaments_api.TournamentTableNewLinkView.as_view(),
        name="api-tournament-table-new-link",
    ),
    path(
        "clubs/<slug:slug>/tournaments/<slug:tslug>/end/",
        tournaments_api.TournamentEndView.as_view(),
        name="api-tournament-end",
    ),
    path(
        "clubs/<slug:slug>/tournaments/<slug:tslug>/results-final/",
        tournaments_api.ResultsFinalView.as_view(),
        name="api-tournament-results-final",
    ),
    path(
        "clubs/<slug:slug>/tournaments/<slug:tslug>/recalculation/",
        tournaments_api.RecalculationView.as_view(),
        name="api-recalculation",
    ),
    path(
        "clubs/<slug:slug>/evenings/", api_evenings.EveningListView.as_view(), name="api-evenings"
    ),
    path(
        "clubs/<slug:slug>/evenings/<int:pk>/",
        api_evenings.EveningDetailView.as_view(),
        name="api-evening",
    ),
    path(
        "clubs/<slug:slug>/evenings/<int:pk>/events/",
        api_evenings.EveningEventsView.as_view(),
        name="api-evening-events",
    ),
    path(
        "clubs/<slug:slug>/evenings/<int:pk>/undo/",
        api_evenings.EveningUndoView.as_view(),
        name="api-evening-undo",
    ),
    path(
        "clubs/<slug:slug>/evenings/<int:pk>/log/",
        api_evenings.EveningLogView.as_view(),
        name="api-evening-log",
    ),
    path(
        "clubs/<slug:slug>/evenings/<int:pk>/tables/",
        api_evenings.EveningTablesView.as_view(),
        name="api-evening-tables",
    ),
    path(
        "clubs/<slug:slug>/evenings/<int:pk>/tables/<int:number>/hands/",
        api_evenings.TableHandsView.as_view(),
        name="api-table-hands",
    ),
    path(
        "clubs/<slug:slug>/evenings/<int:pk>/tables/<int:number>/rubbers/<int:rubber>/hands/<int:hand>/",
        api_evenings.TableHandCorrectView.as_view(),
        name="api-table-hand",
    ),
    path(
        "clubs/<slug:slug>/evenings/<int:pk>/tables/<int:number>/rubbers/<int:rubber>/hands/<int:hand>/remove/",
        api_evenings.TableHandRemoveView.as_view(),
        name="api-table-hand-remove",
    ),
    path(
        "clubs/<slug:slug>/evenings/<int:pk>/tables/<int:number>/close-sitting/",
        api_evenings.TableCloseSittingView.as_view(),
        name="api-table-close-sitting",
    ),
    path(
        "clubs/<slug:slug>/evenings/<int:pk>/tables/<int:number>/new-link/",
        api_evenings.TableNewLinkView.as_view(),
        name="api-table-new-link",
    ),
    path(
        "clubs/<slug:slug>/evenings/<int:pk>/close/",
        api_evenings.EveningCloseView.as_view(),
        name="api-evening-close",
    ),
    path(
        "clubs/<slug:slug>/evenings/<int:pk>/reopen/",
        api_evenings.EveningReopenView.as_view(),
        name="api-evening-reopen",
    ),
    path(
        "clubs/<slug:slug>/evenings/<int:pk>/ledger.csv",
        api_evenings.EveningLedgerCsvView.as_view(),
        name="api-evening-ledger-csv",
    ),
    path(
        "clubs/<slug:slug>/evenings/<int:pk>/hands.csv",
        api_evenings.EveningHandsCsvView.as_view(),
        name="api-evening-hands-csv",
    ),
]
