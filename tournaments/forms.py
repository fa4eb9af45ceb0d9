"""The director's forms: a new ladder or progressive tournament, and the metrics' order.

The forms check only the shape of what was typed (a slug, a number in range, a choice
from the list); what the laws and the club allow is the services' to say
(`tournaments.services.tournament_create`), and their `UserError` is shown next to the
field it names.
"""

from django import forms

from club.models import Club, Evening
from core.echo import CutWhenRefused
from scoring.models import RULESET_CHOICES
from tournaments.metrics import METRICS
from tournaments.models import Tournament
from tournaments.movements import MOVEMENTS
from tournaments.selectors import PUBLIC_STANDINGS


def metric_choices() -> list[tuple[str, str]]:
    """The registered metrics as (key, title), for the precedence lists."""
    return [(key, metric.title) for key, metric in METRICS.items()]


def precedence_from(post) -> list[str]:
    """The metrics chosen in the numbered lists, in order, the blank ones left out."""
    return [key for key in post.getlist("precedence") if key]


class TournamentForm(CutWhenRefused, forms.Form):
    """A new tournament: what every tournament has, then a ladder's evenings, then a
    progressive's movement and round format. Refused, it is shown again with what was
    typed, each field cut to ECHO_MAX characters (core.echo)."""

    typed_words = {
        "name": "the tournament's name",
        "slug": "the tournament's address",
        "kind": "the kind of tournament",
        "precedence": "the metrics to rank by",
    }

    name = forms.CharField(max_length=120)
    slug = forms.SlugField(
        max_length=60,
        label="Address",
        help_text="Letters, digits and hyphens: the end of the public standings' address.",
    )
    kind = forms.ChoiceField(choices=Tournament.Kind.choices, widget=forms.RadioSelect)
    ruleset = forms.ChoiceField(
        choices=[("", "Any (a ladder counts its evenings' games)"), *RULESET_CHOICES],
        required=False,
        label="Rule set",
    )
    is_public = forms.BooleanField(
        required=False,
        initial=True,
        label="Public standings",
        help_text=PUBLIC_STANDINGS,
    )
    precedence = forms.MultipleChoiceField(
        choices=metric_choices,
        label="Ranked by",
        error_messages={"required": "Choose at least one metric to rank by."},
    )
    evenings = forms.ModelMultipleChoiceField(
        queryset=Evening.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Evenings counted (ladder)",
    )
    movement = forms.ChoiceField(
        choices=[("", "—"), *((key, m.title) for key, m in MOVEMENTS.items())],
        required=False,
        label="Movement (progressive)",
    )
    rounds_planned = forms.IntegerField(
        min_value=1, max_value=100, required=False, label="Rounds planned (progressive)"
    )
    deals_per_round = forms.IntegerField(
        min_value=1,
        max_value=100,
        required=False,
        label="Deals per round (progressive)",
        help_text="Blank: each table plays a rubber.",
    )

    stake = forms.DecimalField(
        min_value=0,
        max_digits=10,
        decimal_places=2,
        required=False,
        label="Stake per point (progressive)",
        help_text="In the club's currency, e.g. 0.25; blank: rounds settle nothing (ruling P2).",
    )

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["evenings"].queryset = club.evenings.order_by("-date", "-id")
