"""Reads for rubbers: the scoresheet of a stored rubber, in the scoresheet format's shape."""

from django.db.models import Model, Prefetch, QuerySet

from scoring.models import Hand, HandCorrection, Rubber


def rubbers_of(*, club: Model, hidden: QuerySet | None, table=None) -> QuerySet[Rubber]:
    """A club's rubbers (`club`: a club.Club, referred to by foreign key only), newest
    first, without the `hidden` ones (the ids of those the caller may not read: club
    .selectors.rubbers_hidden_from; None, all); a table's token sees only its table's."""
    rubbers = Rubber.objects.filter(club=club).select_related("evening", "table")
    if hidden is not None:
        rubbers = rubbers.exclude(pk__in=hidden)
    if table is not None:
        rubbers = rubbers.filter(table=table)
    return rubbers.order_by("-created_at", "-id")


# The role a person who changed a club's records under an account is named by when he has
# no full name. Three kinds of account change hands: the club's secretary, one of its
# tournaments' directors (at a progressive's tables) and the site's staff; all three act
# as the club's referee (ruling E9; docs/laws-scoring.md, "The referee's correction").
# Which of them it was, scoring cannot ask: who is a secretary or a director is the
# club's and the tournaments' to say, and scoring imports neither; "the secretary" was
# untrue of the other two.
REFEREE = "the club's referee"


def public_name(user) -> str | None:
    """How a person who changed a club's records is named on public pages and in the
    API: his full name, else the role every account that changes hands holds (`REFEREE`).
    Never his login name, half of what logging in as him takes (docs/security.md)."""
    if user is None:
        return None
    return user.get_full_name().strip() or REFEREE


def correction_as_dict(correction: HandCorrection) -> dict:
    """A correction as the API shows it, the original beside the corrected hand (ruling E9)."""
    return {
        "at": correction.at.isoformat(),
        "kind": correction.kind,
        "law": correction.law,
        "reason": correction.reason,
        "by": public_name(correction.by_user),
        "at_table": correction.at_table,
        "original": correction.previous_data,
        "original_points": correction.previous_points,
        "corrected": correction.data,
    }


def hand_as_dict(hand: Hand, *, rubber: Rubber, corrections=None) -> dict:
    """One stored hand in the scoresheet's output shape, with its corrections (read here
    unless the caller has them: a hand just recorded has none)."""
    if corrections is None:
        corrections = hand.corrections.all()
    corrections = list(corrections)
    last = hand.number == rubber.hand_count
    return {
        "number": hand.number,
        "hand": hand.data,
        "points": hand.points,
        "lines": hand.lines,
        "game_won": hand.game_won or None,
        "rubber_complete": bool(last and rubber.is_complete and rubber.rules.partnership),
        "facts": hand.facts,
        "recorded_at": hand.recorded_at.isoformat(),
        "corrected": hand.correction_count > 0,
        # The version of the hand a correction names (club.recording.hand_correct).
        "changed_at": max((c.at for c in corrections), default=hand.recorded_at).isoformat(),
        "corrections": [correction_as_dict(c) for c in corrections],
    }


def rubber_scoresheet(*, rubber: Rubber) -> dict:
    """The rubber as stored: its hands with their points and explanations, the games
    (laps and values for Euchre; below and above the line for Bridge), the rubber's
    totals and value, per-player totals (Call-Ace) and the ledger once it is over.

    Built from the stored rows alone, never by re-scoring, so it shows exactly what
    standings sum.
    """
    rules = rubber.rules
    hands = rubber.hands.order_by("number").prefetch_related(
        Prefetch(
            "corrections", queryset=HandCorrection.objects.select_related("by_user").order_by("at")
        )
    )
    ledger = None
    if rubber.is_complete:
        ledger = {s.member.name: str(s.amount) for s in rubber.settlements.select_related("member")}
    summary = rubber.summary
    if rubber.status == Rubber.Status.ABANDONED:  # never over, whatever its hands say
        summary = {**summary, "rubber": {**summary["rubber"], "complete": False}}
    return {
        "id": rubber.pk,
        "ruleset": rubber.ruleset,
        "title": rules.title,
        "options": rubber.options,
        "players": rubber.players,
        "stake": str(rubber.stake),
        "status": rubber.status,
        "evening": rubber.evening_id,
        "table": rubber.table.number if rubber.table_id else None,
        rules.hands_key: [hand_as_dict(h, rubber=rubber) for h in hands],
        **summary,
        "ledger": ledger,
        "round": _fixed_deals(rubber),
    }


def _fixed_deals(rubber: Rubber) -> dict | None:
    """What decides a progressive's round of fixed deals (rulings P1, P2), as its seats'
    roll-up keeps it (scoring/rollup.py) and the standings sum it: the deals to play and
    played, each side's points, the side that won the round once it is over, and each
    player's money at the difference of the sides' points. None for a rubber played out.
    """
    if rubber.deal_limit is None:
        return None
    seats = list(rubber.seats.select_related("member").order_by("position"))
    points = {seat.side: seat.points for seat in seats if seat.side}
    winner = next((seat.side for seat in seats if seat.round_won), None)
    over = winner is not None
    return {
        "deals": rubber.deal_limit,
        "played": rubber.hand_count,
        "points": points,
        # Won (P1), or the rubber won before its deals ran out, level on points: then its
        # winner won the round (rollup's round_won).
        "over": over,
        "winner": winner,
        "money": {seat.member.name: str(seat.stake_won) for seat in seats} if over else None,
    }


def hand_history(*, hand: Hand) -> list[dict]:
    """Every change the database recorded to this hand (core/audit.py), oldest first,
    with who made it, from where and why; empty where the database keeps no triggers."""
    from scoring.models import HandHistory

    events = HandHistory.objects.filter(pgh_obj_id=hand.pk).select_related("pgh_context")
    return [
        {
            "at": event.pgh_created_at.isoformat(),
            "change": event.pgh_label,
            "hand": event.data,
            "points": event.points,
            "by": (event.pgh_context.metadata.get("user") if event.pgh_context else None),
            "url": (event.pgh_context.metadata.get("url") if event.pgh_context else None),
            "reason": (event.pgh_context.metadata.get("reason") if event.pgh_context else None),
        }
        for event in events.order_by("pgh_created_at", "pgh_id")
    ]
