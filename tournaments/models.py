"""Tournaments (club ladders and progressive tournaments) and their standings.

Standings are per player totals with their rank (`TournamentTotal`), brought up to
date by a Celery task for just the players whose hands changed (`StandingsDirty` is
the outbox of such changes) and ranked again in the same transaction. Each such
transaction publishes a version (`StandingsVersion`: its number, kind and timing),
which the public pages and their caches are keyed on.
"""

import uuid

from django.db import models

from club.models import PhoneLink
from core.audit import audited
from scoring.models import RULESET_CHOICES


# The standings' version counts the recalculations, each of which is a StandingsVersion
# row of its own: a recalculation that moves it alone writes no history row of the
# tournament (one a recalculation, where a season has hundreds of thousands).
@audited("Tournament", counters=("standings_version",))
class Tournament(models.Model):
    """A competition on top of the evenings: a ladder over a season, or a progressive."""

    class Kind(models.TextChoices):
        LADDER = "ladder", "Club ladder"
        PROGRESSIVE = "progressive", "Progressive tournament"

    club = models.ForeignKey(
        "club.Club",
        on_delete=models.CASCADE,
        related_name="tournaments",
        db_index=False,  # tournament_unique_slug_per_club leads with it
    )
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    ruleset = models.CharField(max_length=40, choices=RULESET_CHOICES, blank=True)
    # Off: its standings, its room and a progressive's rounds' rubbers are for the club's
    # officers alone (tournaments.selectors.PUBLIC_STANDINGS says so to the director).
    is_public = models.BooleanField(default=True)
    # Metric keys in order of precedence (tournaments.metrics.METRICS), the director's choice.
    precedence = models.JSONField(default=list)
    # Ladder: the evenings of the season; every rubber and sitting played in them counts.
    evenings = models.ManyToManyField("club.Evening", blank=True, related_name="tournaments")
    # Progressive: the movement seating each round, the rounds planned, deals per round
    # (None: a rubber), and the last round whose results count (None: all).
    movement = models.CharField(max_length=20, blank=True)
    rounds_planned = models.PositiveSmallIntegerField(null=True, blank=True)
    deals_per_round = models.PositiveSmallIntegerField(null=True, blank=True)
    standings_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # Progressive: the stake per point each round's table plays for (ruling P2; 0: none).
    stake = models.DecimalField(max_digits=12, decimal_places=2, default=0)
    # Progressive: when its director declared its results final, once its last round was
    # played out (None: not yet). Until then each table of the last round may still
    # correct its last deal from its phone, no deal following it (law 5, ruling E9); after
    # it only the director (or the club's secretary) corrects, with a reason
    # (tournaments.table_links, tournaments.corrections).
    results_final_at = models.DateTimeField(null=True, blank=True)
    # Progressive: the round its director ended it after, once every table of that round had
    # its result (None: not ended), with no number of rounds planned or before the rounds
    # planned were all seated (players gone, the hall closing). Its own field, not
    # `rounds_planned` written over: the API and the history keep what was planned apart
    # from what the director did (tournaments.rounds.tournament_end; docs/movements.md).
    ended_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # When he ended it (None: not ended, or ended before this was kept): the version of the
    # ending his page's "Reopen" sends back, as `results_final_at` is the declaration's, so
    # an ending taken back and made again after the same round is another ending, and a
    # reopen posted again from a page drawn before it is refused (tournaments.rounds).
    ended_at = models.DateTimeField(null=True, blank=True)
    standings_version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint("club", "slug", name="tournament_unique_slug_per_club"),
            models.CheckConstraint(
                condition=models.Q(kind__in=["ladder", "progressive"]), name="tournament_kind"
            ),
            # A progressive is ended by its director before its planned last round, if any.
            models.CheckConstraint(
                condition=models.Q(ended_after_round__isnull=True)
                | models.Q(rounds_planned__isnull=True)
                | models.Q(ended_after_round__lt=models.F("rounds_planned")),
                name="tournament_ended_before_planned",
            ),
        ]

    def __str__(self):
        return self.name

    @property
    def last_round(self) -> int | None:
        """A progressive's last round: the round its director ended it after, or else the
        number planned (None: neither, and a further round may still be seated)."""
        return self.ended_after_round or self.rounds_planned


@audited("TournamentPlayer")
class TournamentPlayer(models.Model):
    """A player entered in a progressive tournament, from the round he arrived (or, entered
    again after leaving, the round he came back for) to the round he left (late arrivals
    and departures change nothing already played)."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="players",
        db_index=False,  # tournamentplayer_once leads with it
    )
    member = models.ForeignKey("club.Member", on_delete=models.PROTECT, related_name="+")
    joined_round = models.PositiveSmallIntegerField(default=1)
    left_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # Rounds he sits out at his own request (a bye the director records), so the movement
    # seats the others; the movement's own byes are in each round's seating.
    bye_rounds = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["tournament", "member__name"]
        constraints = [
            models.UniqueConstraint("tournament", "member", name="tournamentplayer_once"),
        ]

    def __str__(self):
        return f"{self.member} in {self.tournament}"


@audited("Round")
class Round(models.Model):
    """A round of a progressive tournament: its seating, from the movement, and its rubbers."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="rounds",
        db_index=False,  # round_unique_number leads with it
    )
    number = models.PositiveSmallIntegerField()
    seating = models.JSONField(default=dict)  # the movement's RoundSeating.to_dict()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint("tournament", "number", name="round_unique_number"),
        ]

    def __str__(self):
        return f"Round {self.number} of {self.tournament}"


@audited("RoundTable")
class RoundTable(models.Model):
    """One table of a round and the rubber (or fixed deals) played at it."""

    round = models.ForeignKey(
        Round,
        on_delete=models.CASCADE,
        related_name="tables",
        db_index=False,  # roundtable_unique_number leads with it
    )
    number = models.PositiveSmallIntegerField()
    rubber = models.OneToOneField(
        "scoring.Rubber", on_delete=models.PROTECT, related_name="round_table"
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint("round", "number", name="roundtable_unique_number"),
        ]

    def __str__(self):
        return f"Table {self.number}, {self.round}"


@audited("TournamentTable")
class TournamentTable(PhoneLink):
    """A progressive tournament's table by its number, for the whole tournament, and the
    phone link its players record their deals with (tournaments.table_links).

    The link belongs to the table's number, not to one round's table (`RoundTable`): the
    card with its QR code stands on the physical table while the movement moves the
    players, so table 3's link records at whatever round table 3 is playing now, and
    the card is printed once for the evening. A player who moves on takes no link with
    him that the card's next players need; one who keeps the page open on his phone sees
    the table's number and its new players, and a card copied or lost is replaced by a
    fresh link (the old one then says it was replaced), as an evening's table's is.
    """

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="table_links",
        db_index=False,  # tournamenttable_unique_number leads with it
    )
    number = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint("tournament", "number", name="tournamenttable_unique_number"),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="tournamenttable_number_gte_1"
            ),
        ]

    def __str__(self):
        return f"Table {self.number} of {self.tournament}"


class TournamentTotal(models.Model):
    """A player's running totals in a tournament: one column per metric SQL computes."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="totals",
        db_index=False,  # tournamenttotal_once leads with it
    )
    member = models.ForeignKey("club.Member", on_delete=models.CASCADE, related_name="+")
    points = models.IntegerField(default=0)
    net_rubber_points = models.IntegerField(default=0)
    rubbers_played = models.IntegerField(default=0)
    rubbers_won = models.IntegerField(default=0)
    rounds_won = models.IntegerField(default=0)
    games_won = models.IntegerField(default=0)
    marches = models.IntegerField(default=0)
    lone_hands = models.IntegerField(default=0)
    euchres = models.IntegerField(default=0)
    honours = models.IntegerField(default=0)
    stake_won = models.DecimalField(max_digits=14, decimal_places=2, default=0)
    hands = models.IntegerField(default=0)
    # Computed only for players tied on every metric before it in the precedence list.
    head_to_head = models.IntegerField(default=0)
    # The place by the tournament's precedence list, shared by players equal on all of
    # it (tied: shown "=3"); set by SQL in every recalculation (tournaments.ranking.standings_rank).
    # Deliberately not indexed: rows are rewritten after every hand, and updates that
    # touch no indexed column stay on their page (PostgreSQL's HOT updates; the table
    # leaves room for them, migration 0004). A page sorts a tournament's rows by it.
    rank = models.PositiveIntegerField(default=0)
    tied = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint("tournament", "member", name="tournamenttotal_once"),
        ]

    def __str__(self):
        return f"{self.member} in {self.tournament}"


class StandingsDirty(models.Model):
    """The outbox: a player whose totals in a tournament must be brought up to date.

    Written in the same transaction as the hand that changed them, so no change is
    lost when the broker is down; the recalculation task (or the periodic sweep)
    consumes it.
    """

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,  # standingsdirty_once leads with it
    )
    # Not indexed: nothing reads the outbox by player, and a queue that the worker
    # empties within a second is scanned at once when a member's deletion clears it.
    # Every recorded hand writes a row a player and tournament (eight, for a hand that
    # counts in two ladders): an index entry fewer on each.
    member = models.ForeignKey(
        "club.Member", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    # Renewed by every change: a recalculation removes the row only if the token is still
    # the one it read, so a change committed while it ran is never lost.
    token = models.UUIDField(default=uuid.uuid4)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint("tournament", "member", name="standingsdirty_once"),
        ]

    def __str__(self):
        return f"{self.member} in {self.tournament} needs recalculation"


class StandingsVersion(models.Model):
    """A published recalculation of a tournament's standings: the totals and ranks in
    `TournamentTotal` as that transaction left them (pages are cached per number)."""

    class Kind(models.TextChoices):
        INCREMENTAL = "incremental", "Incremental"
        FULL = "full", "Full"

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="standings_versions",
        db_index=False,  # standingsversion_unique leads with it
    )
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices)
    precedence = models.JSONField(default=list)
    players_recomputed = models.PositiveIntegerField(default=0)
    duration_ms = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "-number"]
        constraints = [
            models.UniqueConstraint("tournament", "number", name="standingsversion_unique"),
        ]

    def __str__(self):
        return f"Standings v{self.number} of {self.tournament}"
