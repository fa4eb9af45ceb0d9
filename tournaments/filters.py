"""Query filters for the standings (django-filter): one place that reads `?player=`."""

import django_filters

from tournaments.models import TournamentTotal

PLAYER_MAX = 80  # as the public page reads it


class StandingsFilter(django_filters.FilterSet):
    """The standings' rows a request asks for: every ranked row, or those of one player
    found by name (his place stays his place in the whole standings)."""

    player = django_filters.CharFilter(
        field_name="member__name",
        lookup_expr="icontains",
        max_length=PLAYER_MAX,
        label="Player",
        help_text="only the players whose name contains this (any case): finding one player's "
        "line; the ranks are still those of the whole standings",
    )

    class Meta:
        model = TournamentTotal
        fields = ["player"]
