"""Clubs, their secretaries and members, evenings and tables.

Every row of the service belongs to one club, directly or through its parent;
`club.selectors` is the one place that decides who may see which club.
"""

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils import dateformat, timezone

from core.audit import audited


def new_table_token() -> str:
    """A secret for a table's phone link: unguessable, URL-safe (ruling T10's source)."""
    return secrets.token_urlsafe(24)


@audited("Club")
class Club(models.Model):
    """A card club: its name, address on the site, currency and whether the public sees it."""

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    currency = models.CharField(
        max_length=3,
        default="USD",
        validators=[RegexValidator(r"^[A-Z]{3}$", "An ISO 4217 code of three capitals.")],
        help_text="ISO 4217 code; stakes and ledgers are kept in this currency (ruling M1).",
    )
    is_public = models.BooleanField(
        default=True, help_text="Public clubs show their standings and evenings to anyone."
    )
    # A table's phone link is a bearer secret left on a card table: it dies this many hours
    # after the end of its evening's day, or after it was issued if later
    # (club.selectors.table_link_expires_at).
    table_link_hours = models.PositiveSmallIntegerField(
        default=6,
        validators=[MinValueValidator(1), MaxValueValidator(168)],
        help_text="Hours a table's phone link lives after the end of its evening's day.",
    )
    # The other side confirms (club/confirmations.py): a hand recorded from a table's
    # phone counts at once but stays unconfirmed until the side that did not record it
    # confirms it, or disputes it for the secretary to settle.
    confirm_hands = models.BooleanField(
        default=False,
        help_text="A hand recorded at a table waits for the other side to confirm it.",
    )
    secretaries = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="clubs", blank=True)
    # Directors run the club's tournaments (ladders, progressives, standings) and nothing
    # else; secretaries run everything, tournaments included (club.selectors).
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_clubs", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(currency__regex=r"^[A-Z]{3}$"), name="club_currency_iso"
            ),
            models.CheckConstraint(
                condition=models.Q(table_link_hours__gte=1, table_link_hours__lte=168),
                name="club_table_link_hours_range",
            ),
        ]

    def __str__(self):
        return self.name


@audited("Member")
class Member(models.Model):
    """A player on a club's roster: a member, or a guest brought for the evening."""

    club = models.ForeignKey(
        Club,
        on_delete=models.CASCADE,
        related_name="members",
        db_index=False,  # member_unique_name_per_club leads with it
    )
    name = models.CharField(max_length=80)
    is_guest = models.BooleanField(default=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="memberships",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            # Names identify players in cuts, logs and score sheets, so they are unique
            # within a club, whatever their case.
            models.UniqueConstraint("club", Lower("name"), name="member_unique_name_per_club"),
        ]

    def __str__(self):
        return self.name


# The version only counts the log's events (each one is in the log, and a hand's in its
# own history): a hand that moves it alone writes no history row of the evening.
@audited("Evening", counters=("version",))
class Evening(models.Model):
    """A club night played under one rule set at one stake per point (ruling M1)."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="evenings")
    title = models.CharField(max_length=120, blank=True)
    date = models.DateField()
    ruleset = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True)
    stake = models.DecimalField(
        max_digits=12,
        decimal_places=2,
        default=0,
        validators=[MinValueValidator(0)],
        help_text="Stake per point in the club's currency (ruling M1).",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # The table-formation engine's state after the last event of the log (club.formation),
    # and how many events the log holds: devices send the version they saw, and a stale
    # one is refused with 409 rather than acting twice.
    state = models.JSONField(default=dict, blank=True)
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(stake__gte=0), name="evening_stake_gte_0"),
            models.CheckConstraint(
                condition=models.Q(status__in=["open", "closed"]), name="evening_status_valid"
            ),
        ]

    def __str__(self):
        # An untitled evening is named by its club and its date in words, as every public
        # page writes a date ("Somerset Club 27 November 2026").
        return self.title or f"{self.club} {dateformat.format(self.date, 'j F Y')}"

    @property
    def game_title(self) -> str:
        """The game in words, as pages show it ("Euchre (Somerset Club laws, 1888)"),
        never its rule set's key."""
        from scoring.rules import RULESETS

        rules = RULESETS.get(self.ruleset)
        return rules.title if rules is not None else self.ruleset


class PhoneLink(models.Model):
    """A table's phone link: the secret in its address (`token`), a bearer secret left on
    a card table, and what a fresh link leaves behind. An evening's table (`Table`) and a
    progressive's table by its number (tournaments.models.TournamentTable) are each one;
    `club.services.phone_link_renew` gives either a fresh one."""

    token = models.CharField(max_length=64, unique=True, default=new_table_token, editable=False)
    # When the current token was issued (a fresh link resets it), and the token it replaced,
    # kept only so that a phone still holding it is told why it no longer works.
    link_issued_at = models.DateTimeField(default=timezone.now, editable=False)
    replaced_token = models.CharField(
        max_length=64, unique=True, null=True, blank=True, default=None, editable=False
    )

    class Meta:
        abstract = True


@audited("Table")
class Table(PhoneLink):
    """A table of an evening. Its token is the secret in the link a player's phone uses."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tables")
    evening = models.ForeignKey(
        Evening,
        on_delete=models.CASCADE,
        related_name="tables",
        db_index=False,  # table_unique_number leads with it
    )
    number = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["evening", "number"]
        constraints = [
            models.UniqueConstraint("evening", "number", name="table_unique_number"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="table_number_gte_1"),
        ]

    def __str__(self):
        return f"Table {self.number} ({self.evening})"


class EveningEvent(models.Model):
    """One entry of an evening's log: every action, in order (docs/evening-log.md).

    The log is the evening's record: replaying it on an empty database reproduces the
    evening exactly (`manage.py replay_evening`). Cut events carry the cards cut, even
    when the service drew them (ruling T10), so a replay needs no randomness.
    """

    evening = models.ForeignKey(
        Evening,
        on_delete=models.CASCADE,
        related_name="events",
        db_index=False,  # eveningevent_unique_seq leads with it
    )
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=30)
    data = models.JSONField()  # the event exactly as logged, "type" included
    decisions = models.JSONField(default=list)  # what the laws made of it, law by law
    # Generated by the service (a rubber's end when its last hand is recorded); a replay
    # regenerates it rather than applying it twice.
    automatic = models.BooleanField(default=False)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    by_table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["evening", "seq"]
        constraints = [
            models.UniqueConstraint("evening", "seq", name="eveningevent_unique_seq"),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="eveningevent_seq_gte_1"),
        ]

    def __str__(self):
        return f"{self.evening} #{self.seq} {self.type}"


@audited("Cut")
class Cut(models.Model):
    """A cut, with every card cut and what it decided (ruling T10)."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="cuts")
    event = models.OneToOneField(EveningEvent, on_delete=models.CASCADE, related_name="cut")
    purpose = models.CharField(max_length=30)
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    cards = models.JSONField()  # {"Ann": "JS", "Bob": "10H"}, or the cards thrown in order
    drawn_by_service = models.BooleanField(default=False)
    decided = models.JSONField(default=list)  # the decisions' texts, each naming its law
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["evening", "event__seq"]

    def __str__(self):
        return f"Cut for {self.purpose} ({self.evening})"


class HandConfirmation(models.Model):
    """The other side's word on a hand recorded from a table's phone, when the club asks
    for it (`Club.confirm_hands`): the hand counts at once (the game goes on), and stays
    unconfirmed until the other side confirms it, or disputes it with its own version for
    the secretary to settle by a correction with a reason (law 5, ruling E9).

    The table's procedure, not the laws: scoring's Hand knows nothing of it
    (club/confirmations.py writes it, from scoring's signals)."""

    class State(models.TextChoices):
        UNCONFIRMED = "unconfirmed", "unconfirmed"
        CONFIRMED = "confirmed", "confirmed"
        DISPUTED = "disputed", "disputed"
        SETTLED = "settled", "settled"

    hand = models.OneToOneField(
        "scoring.Hand", on_delete=models.CASCADE, related_name="confirmation"
    )
    rubber = models.ForeignKey(
        "scoring.Rubber",
        on_delete=models.CASCADE,
        related_name="confirmations",
        db_index=False,  # the index on (rubber, state) leads with it
    )
    state = models.CharField(max_length=12, choices=State.choices, default=State.UNCONFIRMED)
    # Which side put the hand down ("NS", "EW"; Call-Ace: the maker's name), and who may
    # confirm or dispute it: the other side, or (Call-Ace) the players other than the maker.
    recorded_by = models.CharField(max_length=80)
    confirmers = models.JSONField(default=list)
    recorded_version = models.JSONField()
    answered_by = models.CharField(max_length=80, blank=True)
    disputed_version = models.JSONField(null=True, blank=True)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    settled_version = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["rubber", "state"])]

    def __str__(self):
        return f"hand {self.hand_id}: {self.state}"


class ApiToken(models.Model):
    """The token one login through the API gave (`Authorization: Token <key>`): a secretary's,
    a tournament director's or staff's. club/secretary_tokens.py issues and checks them.

    Only the key's SHA-256 is kept, so the table does not hand out working keys to whoever
    reads it. A token ends when it is logged out, when its account's password changes and
    API_TOKEN_DAYS after its login. A logout and a password change saved through the model
    are written here, with their moment (`ended_at`, `ended_because`); a password changed
    behind the model's back (an UPDATE) is still seen, by the `password_stamp` no longer
    matching the account's hash, and the end of its days is arithmetic. A re-hash of the
    same password (Django's, after a hasher upgrade) moves the stamp along and ends nothing.
    The row stays a year after the token's days (an account's last ended ones only,
    `secretary_tokens.REASONS_KEPT_PER_ACCOUNT`) so that a client sending it is told in
    words why it ended.
    """

    class EndedBecause(models.TextChoices):
        LOGGED_OUT = "logged_out", "logged out"
        PASSWORD_CHANGED = "password_changed", "the account's password changed"
        REPLACED = "replaced", "a newer login replaced it"

    digest = models.CharField(max_length=64, primary_key=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    created = models.DateTimeField(default=timezone.now, db_index=True)
    password_stamp = models.CharField(max_length=64)
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_because = models.CharField(
        max_length=20, choices=EndedBecause.choices, blank=True, default=""
    )

    class Meta:
        verbose_name = "API token"
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(ended_at__isnull=True) & models.Q(ended_because=""))
                | (models.Q(ended_at__isnull=False) & ~models.Q(ended_because="")),
                name="api_token_ended_with_a_reason",
            ),
        ]

    def __str__(self):
        return f"{self.user} {self.created:%Y-%m-%d %H:%M}"
