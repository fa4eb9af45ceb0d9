"""The tournaments' part of a club's backup (club/backup.py), registered when the app is
ready: their rows after the club's and the rubbers', and their places derived again.

A progressive's tables' phone links (`TournamentTable`) are not in the backup: each is a
bearer secret on a card, and a restored club's progressives are given fresh ones, a link
for every table number seated (`issue_table_links`), their cards to be printed again.
"""

from tournaments.models import (
    Round,
    RoundTable,
    StandingsVersion,
    Tournament,
    TournamentPlayer,
    TournamentTotal,
)
from tournaments.services import standings_rederive
from tournaments.table_links import table_links_issue

ROWS = [
    (Tournament, "club"),
    (TournamentPlayer, "tournament__club"),
    (Round, "tournament__club"),
    (RoundTable, "round__tournament__club"),
    (TournamentTotal, "tournament__club"),
    (StandingsVersion, "tournament__club"),
]
DERIVED = {(TournamentTotal, name) for name in ("rank", "tied", "head_to_head", "rounds_won")} | {
    (Tournament, "stake"),  # a backup from before the stake meant none (ruling P2): 0
    (Tournament, "results_final_at"),  # one from before results were declared final: not yet
    (Tournament, "ended_after_round"),  # one from before a director ended one: not ended
    (Tournament, "ended_at"),  # one from before an ending was dated: its ending undated
}


def derive_standings(club) -> None:
    """Every tournament's totals and places worked out again from the restored seats."""
    for tournament in Tournament.objects.filter(club=club):
        standings_rederive(tournament=tournament)


def issue_table_links(club) -> None:
    """A phone link for every table number each restored progressive has seated."""
    for tournament in Tournament.objects.filter(club=club, kind=Tournament.Kind.PROGRESSIVE):
        numbers = RoundTable.objects.filter(round__tournament=tournament).values_list(
            "number", flat=True
        )
        table_links_issue(tournament=tournament, numbers=sorted(set(numbers)))


def register() -> None:
    """Put the tournaments in every club's backup (from TournamentsConfig.ready())."""
    from club import backup

    backup.register(ROWS, derived=DERIVED, derive=derive_standings)
    backup.register([], derive=issue_table_links)
