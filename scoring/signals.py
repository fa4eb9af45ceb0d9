"""What scoring tells the rest of the project, as domain events (Django signals).

Scoring is the laws: it knows nothing of evenings or standings. Each signal is sent
inside the transaction of the write it reports, after the rows are written, so a
receiver's own writes (the evening's log, the standings' outbox) commit or roll back
with the hand; a receiver that raises a UserError refuses the whole change.

Every signal is sent with `sender=Rubber` and the locked `rubber`; `via` is whatever
the caller passed to the scoring service (the door: who, from which table, at which
version of the evening), handed to the receivers untouched.
"""

from django.dispatch import Signal

# A rubber's figures were rewritten (a hand recorded, corrected or removed, a sitting
# closed, a rubber abandoned): `member_ids`, its players. The standings' outbox listens.
rubber_changed = Signal()

# A rubber (Call-Ace: a sitting) was begun: `member_ids`, its players. The players'
# pages listen (club/player_cache.py): the rubber is on them before its first hand.
rubber_started = Signal()

# A hand was recorded: `hand` (the Hand row), `data` (the hand as given), `via`.
hand_recorded = Signal()

# A hand was corrected: `hand`, `number`, `data`, `reason`, `was_complete` (the rubber
# was finished before), `won_before` (as for `hand_removed`), `via`.
hand_corrected = Signal()

# The last hand was taken off: `removed` (the RemovedHand row), `number`, `reason`, `via`,
# `won_before` (the side that had won the table before it was taken off, its seats'
# `round_won` as scoring.rollup wrote them, or None). A progressive refuses it once the
# round's players have moved on (tournaments.receivers).
hand_removed = Signal()

# A hand recorded or corrected has just won the rubber (sent after hand_recorded or
# hand_corrected): `via`.
rubber_finished = Signal()
