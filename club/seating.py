"""The seats at an evening's table as a rubber's hands must respect them: the dealer's choice
of seat (ruling T12) carried over to the rubber it was made for; at Bridge, the side that
declares the trump (the dealer's)."""

from django.db.models import F

from club import evenings
from core.errors import UserError
from scoring.models import Rubber
from scoring.services import SEAT_MEMBER_IDS, players_of


def rubber_reseat(*, rubber: Rubber, seats: dict[str, str]) -> Rubber:
    """Give a locked rubber that has no hand yet the sides the dealer's chosen seats make:
    N-S against E-W (ruling T4). After its first hand the seats are fixed (law 11: "having
    once made his selection, he must abide by it")."""
    if rubber.hand_count:
        raise UserError(
            "The dealer chooses a seat before the first deal; this rubber has hands already.",
            field="seat",
            law="ruling T12",
        )
    rubber.players = {"NS": [seats["N"], seats["S"]], "EW": [seats["E"], seats["W"]]}
    rubber.save(update_fields=["players"])
    placed = {name: (position, side) for position, (name, side) in
              enumerate(players_of(rubber.rules, rubber.players))}  # fmt: skip
    seat_rows = list(rubber.seats.select_related("member"))
    # Positions are unique within a rubber: move them all out of the way first.
    rubber.seats.update(position=F("position") + len(seat_rows))
    for row in seat_rows:
        row.position, row.side = placed[row.member.name]
        row.save(update_fields=["position", "side"])
    # The seats' members as read with the rubber are in the old order now.
    vars(rubber).pop(SEAT_MEMBER_IDS, None)
    return rubber


#: Elwell's heading over the law that only the dealer's side declares the trump.
DECLARING = "Bridge laws, Declaring Trumps"


def check_declaring_side(rubber: Rubber, data, number: int) -> None:
    """Bridge: the dealer makes the trump or passes the declaration to his partner; an
    adversary's declaration is no declaration, the dealer claiming a new deal or going on
    as if none were made (Bridge laws, Declaring Trumps). So at an evening's table, its
    seats cut (ruling T4) and its first dealer known, hand `number` of the rubber in play
    is declared by its dealer's side: one entered as the other side's is refused, naming
    the dealer. (A rubber kept on a scoresheet or at a progressive's table names no dealer.)
    """
    if rubber.rules.key != "bridge-elwell-1907" or not (rubber.evening_id and rubber.table_id):
        return
    if rubber.status != Rubber.Status.IN_PROGRESS:
        return  # the table may have cut for a new rubber since: its dealer is that one's
    declarer = data.get("declarer") if isinstance(data, dict) else None
    if declarer not in ("NS", "EW"):
        return  # the rule set refuses it in its own words
    table = evenings.evening_state(rubber.evening).table(rubber.table.number)
    seats = table.seats if table is not None else None
    if not seats or table.dealer not in table.playing:
        return
    if rubber.players != {"NS": [seats["N"], seats["S"]], "EW": [seats["E"], seats["W"]]}:
        return  # not the rubber the table's seats and first dealer are of
    order = list(table.playing)  # N, E, S, W: the deal passes to the left each hand
    at = (order.index(table.dealer) + number - 1) % len(order)
    side = ("NS", "EW")[at % 2]
    if declarer != side:
        words = {"NS": "N-S", "EW": "E-W"}
        partners = " & ".join(rubber.players[side])
        raise UserError(
            f"{order[at]} deals hand {number}, so {words[side]} "
            f"({partners}) declare the trump: the dealer makes it or passes the declaration "
            f"to his partner, and a declaration by {words[declarer]}, the adversaries, is no "
            f"declaration ({DECLARING}).",
            field="hand.declarer",
            law=DECLARING,
        )
