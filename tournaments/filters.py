"""Query filters for the standings (django-filter): one place that reads `?player=`."""

import django_filters
from django import forms

from core.echo import CutWhenRefused
from tournaments.models import TournamentTotal

PLAYER_MAX = 80  # as the public page reads it


class StandingsSearch(CutWhenRefused, forms.Form):
    """The filter's form: a name searched for past its limit is refused in words, as every
    text is (core.text.too_long), not in Django's."""

    typed_words = {"player": "the name searched for"}


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
        form = StandingsSearch
