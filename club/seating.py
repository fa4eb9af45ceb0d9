"""The dealer's choice of seat (ruling T12) carried over to the rubber it was made for."""

from django.db.models import F

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
