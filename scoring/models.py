"""Rubbers, games and hands as recorded, with the points each player scored kept beside them.

The rule sets in `scoring.rules` decide every figure; these rows keep what was
recorded (a hand's raw data, exactly as the scoresheet format has it) and,
denormalised, what the rule set made of it, so standings sum stored points and
never re-score a hand. A Call-Ace sitting is stored as a Rubber whose rule set is
`call-ace-foster-1905`; its hands are the sitting's deals.
"""

from django.conf import settings
from django.db import models

from core.audit import audited
from scoring.rules import GAMES

#: The rule sets a rubber, evening or tournament may be played under: the registered games.
RULESET_CHOICES = [(key, game.title) for key, game in GAMES.items()]


# The summary and the count are worked out again from the hands (whose own history keeps
# every change): a hand that moves them alone writes no history row of the rubber; one
# that ends it does (status, winner, value, completed_at).
@audited("Rubber", counters=("summary", "hand_count"))
class Rubber(models.Model):
    """A rubber of Euchre or Bridge, or a sitting of Call-Ace, and its running result."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        COMPLETE = "complete", "Complete"
        # Its table broke up before it was won (law 21): its hands stand, it settles nothing.
        ABANDONED = "abandoned", "Abandoned"

    club = models.ForeignKey(
        "club.Club",
        on_delete=models.CASCADE,
        related_name="rubbers",
        db_index=False,  # the index on (club, status) leads with it
    )
    evening = models.ForeignKey(
        "club.Evening", null=True, blank=True, on_delete=models.CASCADE, related_name="rubbers"
    )
    table = models.ForeignKey(
        "club.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="rubbers"
    )
    ruleset = models.CharField(max_length=40, choices=RULESET_CHOICES)
    options = models.JSONField(default=dict, blank=True)
    # As the rule set normalised them: {"NS": [a, b], "EW": [c, d]}, or a list for Call-Ace.
    players = models.JSONField()
    stake = models.DecimalField(max_digits=12, decimal_places=2, default=0)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    winner = models.CharField(max_length=80, blank=True)
    value = models.IntegerField(null=True, blank=True)
    # The rule set's summary after the last hand: games, current game, rubber totals.
    summary = models.JSONField(default=dict, blank=True)
    hand_count = models.PositiveIntegerField(default=0)
    # A progressive round played as a fixed number of deals rather than a rubber.
    deal_limit = models.PositiveSmallIntegerField(null=True, blank=True)
    # Call-Ace: who deals the sitting's first deal. The deal passes in regular rotation to
    # the left (law 3), from one sitting to the next at the same table; blank: the table's
    # dealer, the first jack's (law 1), as sittings begun before it was kept.
    first_dealer = models.CharField(max_length=80, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        # The evening is indexed by its foreign key.
        indexes = [models.Index(fields=["club", "status"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ruleset__in=list(GAMES)), name="rubber_known_ruleset"
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=["in_progress", "complete", "abandoned"]),
                name="rubber_status_valid",
            ),
            models.CheckConstraint(condition=models.Q(stake__gte=0), name="rubber_stake_gte_0"),
            # Ruling E4: a Euchre rubber is worth nothing to ten.
            models.CheckConstraint(
                condition=~models.Q(ruleset="euchre-somerset-1888")
                | models.Q(value__isnull=True)
                | models.Q(value__gte=0, value__lte=10),
                name="rubber_euchre_value_0_to_10",
            ),
            models.CheckConstraint(
                condition=models.Q(status="in_progress", completed_at__isnull=True)
                | models.Q(status__in=["complete", "abandoned"], completed_at__isnull=False),
                name="rubber_completed_at_iff_ended",
            ),
        ]

    def __str__(self):
        game = GAMES.get(self.ruleset)
        kind = game.rubber_label.capitalize() if game else "Rubber"
        return f"{kind} {self.pk}"  # its game in words beside it, where a page shows it

    @property
    def rules(self):
        """The pure rule set this rubber is scored by."""
        return GAMES[self.ruleset].rules

    @property
    def is_complete(self) -> bool:
        return self.status == self.Status.COMPLETE

    def round_decided(self) -> bool:
        """A round of fixed deals decided (ruling P1): all its deals played and one side
        ahead, which its seats' `round_won` says (scoring.rollup); its rubber stays in
        progress and takes no more deals. A query, unless the count says not yet."""
        if self.deal_limit is None or self.hand_count < self.deal_limit:
            return False
        return self.status == self.Status.IN_PROGRESS and (
            self.seats.filter(round_won=True).exists()
        )


# The per-rubber totals kept on each seat (scoring.rollup): derived from the rubber's
# hand scores, games and settlements (the sums), and from the rubber itself, so the
# audit history leaves them out.
SEAT_SUMS = (
    "points", "marches", "lone_hands", "euchres", "honours", "hands", "games_won", "stake_won",
)  # fmt: skip
SEAT_TOTALS = (*SEAT_SUMS, "evening", "finished", "won", "rubber_points", "round_won")
SEAT_COVERED = tuple(name for name in SEAT_TOTALS if name != "evening")  # the index's key has it


@audited("RubberPlayer", derived=SEAT_TOTALS)
class RubberPlayer(models.Model):
    """A member's place in a rubber: his side (Euchre, Bridge) or his seat (Call-Ace),
    and what the rubber has given him so far (the roll-up the standings sum)."""

    rubber = models.ForeignKey(
        Rubber,
        on_delete=models.CASCADE,
        related_name="seats",
        db_index=False,  # rubberplayer_unique_position leads with it
    )
    member = models.ForeignKey(
        "club.Member",
        on_delete=models.PROTECT,
        related_name="seats",
        db_index=False,  # rubberplayer_member_seats leads with it
    )
    side = models.CharField(max_length=2, blank=True)  # "NS", "EW"; blank for Call-Ace
    position = models.PositiveSmallIntegerField()  # order within the players as given

    # Roll-up, rewritten by scoring.rollup in the transaction of every change to the
    # rubber: the sums of his HandScore rows, the games his side won, his settlement.
    points = models.IntegerField(default=0)
    marches = models.IntegerField(default=0)
    lone_hands = models.IntegerField(default=0)
    euchres = models.IntegerField(default=0)
    honours = models.IntegerField(default=0)
    hands = models.IntegerField(default=0)
    games_won = models.IntegerField(default=0)
    stake_won = models.DecimalField(max_digits=14, decimal_places=2, default=0)
    # Copied from the rubber, so standings read the seats alone, without a join: its
    # evening (ladders count evenings), whether it is finished, whether this seat won
    # it, and its value to this seat: + won, - lost, 0 unfinished (rulings E4, B7).
    evening = models.ForeignKey(
        "club.Evening",
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
    )
    finished = models.BooleanField(default=False)
    won = models.BooleanField(default=False)
    rubber_points = models.IntegerField(default=0)
    # Whether his side won the table: the rubber, or a round of fixed deals, all its deals
    # played and his side ahead (ruling P1). The "rounds won" metric counts it.
    round_won = models.BooleanField(default=False)

    class Meta:
        ordering = ["rubber", "position"]
        indexes = [
            # The standings read a player's seats by member and evening (compute_totals,
            # head_to_head); every column they read is carried in the index, so PostgreSQL
            # answers from the index alone (an index-only scan), not from the seats'
            # rows scattered over the table (BENCHMARKS.md, 24 November, evening). The
            # cost: a hand's roll-up update of the seats is no longer a HOT update.
            # SQLite ignores `include`.
            models.Index(
                fields=["member", "evening"],
                include=["id", "rubber", "side", *SEAT_COVERED],
                name="rubberplayer_member_seats",
            )
        ]
        constraints = [
            models.UniqueConstraint("rubber", "member", name="rubberplayer_once_per_rubber"),
            models.UniqueConstraint("rubber", "position", name="rubberplayer_unique_position"),
            models.CheckConstraint(
                condition=models.Q(side__in=["NS", "EW", ""]), name="rubberplayer_side_valid"
            ),
        ]

    def __str__(self):
        return f"{self.member} ({self.side or self.position}) in {self.rubber}"


class Game(models.Model):
    """A finished game of a rubber, rebuilt from the hands whenever they are re-scored."""

    rubber = models.ForeignKey(
        Rubber,
        on_delete=models.CASCADE,
        related_name="games",
        db_index=False,  # game_unique_number leads with it
    )
    number = models.PositiveSmallIntegerField()
    winner = models.CharField(max_length=2)
    value = models.IntegerField(null=True, blank=True)  # Euchre: 1 or 2 (ruling E3)
    lap = models.IntegerField(default=0)  # Euchre: points carried on (ruling E2)
    scores = models.JSONField(default=dict)
    detail = models.JSONField(default=dict)  # the rule set's own description of the game

    class Meta:
        ordering = ["rubber", "number"]
        constraints = [
            models.UniqueConstraint("rubber", "number", name="game_unique_number"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="game_number_gte_1"),
            models.CheckConstraint(
                condition=models.Q(winner__in=["NS", "EW"]), name="game_winner_is_a_side"
            ),
        ]

    def __str__(self):
        return f"Game {self.number} of {self.rubber}"


@audited("Hand")
class Hand(models.Model):
    """One hand (Call-Ace: one deal) as recorded, and what the rule set scored for it."""

    rubber = models.ForeignKey(
        Rubber,
        on_delete=models.CASCADE,
        related_name="hands",
        db_index=False,  # hand_unique_number_per_rubber leads with it
    )
    number = models.PositiveSmallIntegerField()
    # The hand as recorded, in the scoresheet format (docs/scoresheet.md); after a
    # correction, the corrected hand (the original stays in HandCorrection).
    data = models.JSONField()
    # Tricks taken by the makers (Euchre, Call-Ace) or by North-South (Bridge); none for
    # a Call-Ace deal made void or decided by a revoke (laws 36-38, 42).
    tricks = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.JSONField()  # as HandResult.points
    lines = models.JSONField(default=list)  # the explanation, one string per law applied
    facts = models.JSONField(default=dict)
    game_won = models.CharField(max_length=2, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at_table = models.BooleanField(default=False)
    recorded_at = models.DateTimeField(auto_now_add=True)
    correction_count = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["rubber", "number"]
        constraints = [
            models.UniqueConstraint("rubber", "number", name="hand_unique_number_per_rubber"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="hand_number_gte_1"),
            models.CheckConstraint(
                condition=models.Q(tricks__gte=0, tricks__lte=13), name="hand_tricks_0_to_13"
            ),
        ]

    def __str__(self):
        return f"Hand {self.number} of {self.rubber}"


@audited("HandCorrection")
class HandCorrection(models.Model):
    """A correction of a recorded hand: the original stays visible beside it (ruling E9)."""

    class Kind(models.TextChoices):
        FREE = "free", "By the players, before the next hand (law 5)"
        REFEREE = "referee", "By the secretary, as the club's referee (ruling E9)"

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="corrections")
    previous_data = models.JSONField()
    previous_points = models.JSONField()
    data = models.JSONField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    reason = models.TextField(blank=True)
    law = models.CharField(max_length=60)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at_table = models.BooleanField(default=False)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind="free") | ~models.Q(reason=""),
                name="handcorrection_referee_needs_reason",
            ),
        ]

    def __str__(self):
        return f"Correction of {self.hand} ({self.kind})"


@audited("RemovedHand")
class RemovedHand(models.Model):
    """A hand taken off a rubber (the last one recorded, entered by mistake), kept on record."""

    rubber = models.ForeignKey(Rubber, on_delete=models.CASCADE, related_name="removed_hands")
    number = models.PositiveSmallIntegerField()
    data = models.JSONField()
    points = models.JSONField()
    reason = models.TextField(blank=True)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at_table = models.BooleanField(default=False)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["rubber", "at"]

    def __str__(self):
        return f"Hand {self.number} removed from {self.rubber}"


class HandScore(models.Model):
    """Denormalised: the points one player scored on one hand, for standings to sum.

    Euchre: his side's points; Bridge: his side's points below and above the line;
    Call-Ace: his own. `SELECT member_id, SUM(points) ... GROUP BY member_id` is a
    player's points won.
    """

    hand = models.ForeignKey(
        Hand,
        on_delete=models.CASCADE,
        related_name="scores",
        db_index=False,  # handscore_once_per_player leads with it
    )
    rubber = models.ForeignKey(Rubber, on_delete=models.CASCADE, related_name="hand_scores")
    member = models.ForeignKey(
        "club.Member",
        on_delete=models.PROTECT,
        related_name="hand_scores",
        db_index=False,  # the index on (member, rubber) leads with it
    )
    side = models.CharField(max_length=2, blank=True)
    points = models.IntegerField()
    # Countable facts of the hand from this player's side of it, for standings' metrics.
    # Euchre's sheet records a lone hand for the makers' side, so both partners count it.
    march = models.PositiveSmallIntegerField(default=0)  # his side (or he) took all five
    lone_made = models.PositiveSmallIntegerField(default=0)  # a lone hand that scored
    euchred = models.PositiveSmallIntegerField(default=0)  # he was among the makers euchred
    honours = models.IntegerField(default=0)  # Bridge: his side's honours and chicane (B3, B4)

    class Meta:
        constraints = [
            models.UniqueConstraint("hand", "member", name="handscore_once_per_player"),
            models.CheckConstraint(
                condition=models.Q(march__lte=1, lone_made__lte=1, euchred__lte=1),
                name="handscore_counts_are_flags",
            ),
        ]
        indexes = [models.Index(fields=["member", "rubber"])]

    def __str__(self):
        return f"{self.member}: {self.points} on {self.hand}"


@audited("Settlement")
class Settlement(models.Model):
    """What a player won (+) or lost (-) on a finished rubber or sitting (ruling M1, C5)."""

    rubber = models.ForeignKey(
        Rubber,
        on_delete=models.CASCADE,
        related_name="settlements",
        db_index=False,  # settlement_once_per_player leads with it
    )
    member = models.ForeignKey("club.Member", on_delete=models.PROTECT, related_name="settlements")
    amount = models.DecimalField(max_digits=14, decimal_places=2)

    class Meta:
        constraints = [
            models.UniqueConstraint("rubber", "member", name="settlement_once_per_player"),
        ]

    def __str__(self):
        return f"{self.member}: {self.amount} on {self.rubber}"
