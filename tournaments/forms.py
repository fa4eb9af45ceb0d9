"""The director's forms: a new ladder or progressive tournament, and the metrics' order.

The forms check only the shape of what was typed (a slug, a number in range, a choice
from the list); what the laws and the club allow is the services' to say
(`tournaments.services.tournament_create`), and their `UserError` is shown next to the
field it names.
"""

from django import forms
from django.core.exceptions import ValidationError

from club.models import Club, Evening
from core.amounts import in_digits
from core.echo import CutWhenRefused
from scoring.models import RULESET_CHOICES
from tournaments.metrics import DEFAULT_PRECEDENCE, FIXED_DEALS_PRECEDENCE, METRICS, applies
from tournaments.models import Tournament
from tournaments.movements import MOVEMENTS
from tournaments.selectors import PUBLIC_STANDINGS
from tournaments.services import STAKE_NOT_DIGITS, evening_words


def metric_choices(tournament: Tournament | None = None) -> list[tuple[str, str]]:
    """The registered metrics as (key, title), for the precedence lists: for a tournament,
    those that can ever rank it (its game's, and no rubber's at fixed deals: ruling P1)."""
    from scoring.rules.games import GAMES

    game = GAMES.get(tournament.ruleset) if tournament is not None else None
    fixed = bool(tournament.deals_per_round) if tournament is not None else False
    return [
        (key, metric.title)
        for key, metric in METRICS.items()
        if applies(metric, game=game.kind if game else "", fixed_deals=fixed)
    ]


def _titles(keys: list[str]) -> str:
    return ", ".join(METRICS[key].title.lower() for key in keys)


# What leaving every list blank ranks by (tournaments.metrics.default_precedence).
PRECEDENCE_BLANK = (
    f"All blank: a progressive of fixed deals is ranked by {_titles(FIXED_DEALS_PRECEDENCE)} "
    "(its rounds are won on points, not by rubbers: ruling P1); a ladder, or a progressive "
    f"played as rubbers, by {_titles(DEFAULT_PRECEDENCE)}."
)


def precedence_from(post) -> list[str]:
    """The metrics chosen in the numbered lists, in order, the blank ones left out."""
    return [key for key in post.getlist("precedence") if key]


class EveningsField(forms.ModelMultipleChoiceField):
    """The evenings a ladder counts, each named by its date and title (`evening_words`)."""

    def label_from_instance(self, obj) -> str:
        return evening_words(obj)


class WholeNumberField(forms.IntegerField):
    """A whole number in the digits 0 to 9, as every door takes one (core.inputs): Django's
    own field takes other scripts' digits ("٣" for 3) and a trailing ".0"."""

    def to_python(self, value):
        text = "" if value is None else str(value).strip()
        if text and not (text.isascii() and text.isdigit()):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


class StakeField(forms.DecimalField):
    """A stake per point in the digits 0 to 9 and a point (rulings P2, M1; core.amounts):
    Django's own field, like Python's Decimal, reads other scripts' digits (Arabic-Indic
    ones as 0.25), "1e3" as 1000 and "1_000"."""

    def to_python(self, value):
        if isinstance(value, str) and not value.isascii():
            raise ValidationError(STAKE_NOT_DIGITS, code="invalid")
        stake = super().to_python(value)  # no amount at all: refused in Django's way
        if stake is not None and isinstance(value, str) and not in_digits(value):
            raise ValidationError(STAKE_NOT_DIGITS, code="invalid")  # "1e3", "1_000"
        return stake


def _number_words(what: str, *, low: int, high: int, blank: str) -> dict[str, str]:
    """Django's refusals of a whole number, in words naming the field: `what` (its name
    in a sentence), the range, and what leaving it blank means."""
    words = (
        f"{what} must be a whole number from {low} to {high}, written in the digits 0 to 9; "
        f"blank: {blank}."
    )
    return {"invalid": words, "min_value": words, "max_value": words}


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

    name = forms.CharField(
        max_length=120,
        error_messages={"required": "Give the tournament a name: it heads its standings."},
    )
    slug = forms.SlugField(
        max_length=60,
        label="Address",
        help_text="Letters, digits and hyphens: the end of the public standings' address.",
        error_messages={
            "required": "Give the tournament an address: letters, digits and hyphens.",
            "invalid": (
                "The address may hold only letters a to z, digits and hyphens (or "
                "underscores), no spaces: it ends the public standings' address."
            ),
        },
    )
    kind = forms.ChoiceField(
        choices=Tournament.Kind.choices,
        widget=forms.RadioSelect,
        error_messages={
            "required": "Choose the kind of tournament: a club ladder or a progressive.",
            "invalid_choice": "Choose the kind of tournament: a club ladder or a progressive.",
        },
    )
    ruleset = forms.ChoiceField(
        choices=[("", "Any (a ladder counts its evenings' games)"), *RULESET_CHOICES],
        required=False,
        label="Rule set",
        error_messages={"invalid_choice": "Choose the rule set from the list."},
    )
    is_public = forms.BooleanField(
        required=False,
        initial=True,
        label="Public standings",
        help_text=PUBLIC_STANDINGS,
    )
    precedence = forms.MultipleChoiceField(
        choices=metric_choices,
        required=False,
        label="Ranked by",
        help_text=PRECEDENCE_BLANK,
        error_messages={
            "required": "Choose at least one metric to rank by.",
            "invalid_choice": "Choose each metric to rank by from its list.",
        },
    )
    evenings = EveningsField(
        queryset=Evening.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Evenings counted (ladder)",
        error_messages={"invalid_choice": "Choose the evenings counted from the club's list."},
    )
    movement = forms.ChoiceField(
        choices=[("", "—"), *((key, m.title) for key, m in MOVEMENTS.items())],
        required=False,
        label="Movement (progressive)",
        error_messages={"invalid_choice": "Choose the movement from the list."},
    )
    rounds_planned = WholeNumberField(
        min_value=1,
        max_value=100,
        required=False,
        label="Rounds planned (progressive)",
        error_messages=_number_words(
            "The rounds planned",
            low=1,
            high=100,
            blank="the tournament ends when the director seats no more rounds",
        ),
    )
    deals_per_round = WholeNumberField(
        min_value=1,
        max_value=100,
        required=False,
        label="Deals per round (progressive)",
        help_text="Blank: each table plays a rubber.",
        error_messages=_number_words(
            "The deals per round (ruling P1)",
            low=1,
            high=100,
            blank="each table plays a rubber",
        ),
    )

    stake = StakeField(
        min_value=0,
        max_digits=10,
        decimal_places=2,
        required=False,
        label="Stake per point (progressive)",
        help_text="In the club's currency, e.g. 0.25; blank: rounds settle nothing (ruling P2).",
        error_messages={
            "invalid": "The stake per point is an amount such as 0.25; blank: the rounds settle "
            "nothing (ruling P2).",
            "min_value": "The stake per point cannot be below nought; 0 or blank: the rounds "
            "settle nothing (ruling P2).",
            "max_decimal_places": "The stake per point is kept in the currency's minor units: "
            "at most two decimal places (ruling M1).",
            "max_digits": "The stake per point is at most 99999999.99 (ruling M1).",
            "max_whole_digits": "The stake per point is at most 99999999.99 (ruling M1).",
        },
    )

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["evenings"].queryset = club.evenings.order_by("-date", "-id")

    def clean(self):
        """A progressive's rule set and movement asked for together, in the page's words
        (the service, which every door calls, stops at the first and names the API's keys)."""
        values = super().clean()
        if values.get("kind") != Tournament.Kind.PROGRESSIVE:
            return values
        if "ruleset" in values and not values["ruleset"]:
            self.add_error("ruleset", "A progressive tournament is played under one rule set.")
        if "movement" in values and not values["movement"]:
            self.add_error(
                "movement",
                "Choose the movement that seats the rounds (a progressive is played in rounds).",
            )
        return values
