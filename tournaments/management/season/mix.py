"""What a generated season is made of: its mix of games, stakes and pace, the members' names,
and the report of what was written."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from scoring.rules import BRIDGE, CALL_ACE, EUCHRE

# The service's own functions, so that a generated hand's rows are exactly the rows
# recording it through the API would write.


SIDES = ("NS", "EW")

#: Share of the season's evenings played under each rule set: mostly Euchre.
EVENING_MIX = ((EUCHRE, 0.78), (BRIDGE, 0.12), (CALL_ACE, 0.10))
#: Weight of an evening's hands by rule set (a Bridge hand takes three Euchre hands' time).
EVENING_WEIGHT = {EUCHRE.key: 1.0, BRIDGE.key: 0.4, CALL_ACE.key: 1.0}
#: Hands one table plays in an evening, on average.
TABLE_HANDS = {EUCHRE.key: 100, BRIDGE.key: 36, CALL_ACE.key: 90}
#: Minutes a hand takes at the table, on average.
HAND_MINUTES = {EUCHRE.key: 2.5, BRIDGE.key: 6.5, CALL_ACE.key: 2.8}
STAKES = {EUCHRE.key: Decimal("0.25"), BRIDGE.key: Decimal("0.01"), CALL_ACE.key: Decimal("0.05")}
#: On a Euchre evening, the chance that one table sits down to Call-Ace instead.
CALL_ACE_TABLE = 0.15
#: A hand is corrected by the players (law 5) or later by the secretary (ruling E9).
FREE_CORRECTION = 0.003
REFEREE_CORRECTION = 0.001
#: Progressive tournaments: one per this many evenings (at least one when possible).
PROGRESSIVE_EVERY = 60
PROGRESSIVE_ROUNDS = 4
PROGRESSIVE_TABLES = 6
FIRST_EVENING = dt.date(2020, 1, 8)  # a Wednesday; the club meets weekly
#: Hands buffered before a chunk is written.
CHUNK_HANDS = 20_000

# Rosters read better as prose than as a column of quoted names.
FIRST_NAMES = (  # noqa: SIM905
    "Abigail Ada Agnes Albert Alice Amos Ann Archibald Arthur Beatrice Bertha Caleb "
    "Carrie Charles Clara Cora Cyrus Daniel Dora Edith Edmund Edna Eliza Elmer Emma "
    "Ernest Esther Ethel Eugene Fanny Flora Florence Frank George Grace Harriet Harvey "
    "Hattie Helen Henry Herbert Horace Ida Isaac Jacob James Jane Jennie John Josephine "
    "Julia Laura Lillian Louisa Lucy Mabel Margaret Martha Mary Matilda Maud Minnie "
    "Nathan Nellie Oliver Oscar Pearl Phoebe Ralph Rose Ruth Samuel Sarah Silas Stella "
    "Susan Theodore Thomas Walter Warren Wilbur Willis"
).split()
SURNAMES = (  # noqa: SIM905
    "Abbott Adams Alden Appleton Bacon Bancroft Barrett Bigelow Bowditch Bradford "
    "Brewster Brooks Cabot Chandler Coffin Coolidge Crowninshield Cushing Dana Davenport "
    "Dexter Eliot Endicott Everett Fairbanks Forbes Gardner Gray Hale Hancock Higginson "
    "Holmes Hooper Howe Hunnewell Jackson Jeffries Lawrence Lee Lodge Lowell Lyman Mason "
    "Minot Morse Otis Paine Parkman Peabody Perkins Phillips Pickering Prescott Putnam "
    "Quincy Revere Rice Russell Saltonstall Sargent Sears Sewall Shaw Shattuck Thayer "
    "Thorndike Ticknor Wadsworth Ware Warren Weld Wendell Wheelwright Whitney "
    "Wigglesworth Winslow Winthrop"
).split()


@dataclass
class SeasonReport:
    """What `season_make` wrote, and how long each part took (seconds)."""

    club: str
    seed: int
    members: int = 0
    evenings: int = 0
    tables: int = 0
    rubbers: int = 0
    hands: int = 0
    hand_scores: int = 0
    corrections: int = 0
    tournaments: list[dict] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    bulk: str = ""
