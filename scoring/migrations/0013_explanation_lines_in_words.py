"""A hand's explanation lines name the sides in words, as the sheet's Play column does and
as `scoring.rules.base.side_name` names them everywhere: "law 2: N-S make, three tricks:
1", not "law 2: makers NS, three tricks: 1"; "(N-S 9, E-W 2, ...)", not "(NS 9, EW 2,
...)". The rule sets write them so now; the lines stored with the Euchre and Bridge hands
recorded before are reworded here, their laws and rulings kept, so that a sheet does not
read one way up to a hand and another after it (a correction rewrites the later hands'
lines), and the pages and the API never show the internal labels. Call-Ace lines name
players, not sides, and are left as they are. A backup taken before restores with the
new lines: the import scores the hands again (club/backup_scoring.py).

The rewording is written out here, not imported, so that this migration keeps meaning
what it meant when the code moves on: the lines before it named a side only as "NS" or
"EW", and Euchre's law 2 lines as "makers NS, ..." and "makers NS euchred, two tricks:
...". tests/scoring/test_lines_in_words.py holds it to the rule sets' own new lines.
"""

import re

from django.db import migrations

RULESETS = ("euchre-somerset-1888", "bridge-elwell-1907")
CHUNK = 2000
_SIDES = {"NS": "N-S", "EW": "E-W"}
_SIDE = re.compile(r"\b(NS|EW)\b")
_EUCHRED = re.compile(r"^law 2: makers (N-S|E-W) euchred, (\w+ tricks?): ")
_MADE = re.compile(r"^law 2: makers (N-S|E-W), ")


def reword(line: str) -> str:
    """One stored line as the rule sets now write it."""
    line = _SIDE.sub(lambda side: _SIDES[side.group(1)], line)
    line = _EUCHRED.sub(r"law 2: \1 make, \2 (euchred): ", line)
    return _MADE.sub(r"law 2: \1 make, ", line)


def forwards(apps, schema_editor):
    from core.audit import audit_context

    Hand = apps.get_model("scoring", "Hand")
    hands = Hand.objects.filter(rubber__ruleset__in=RULESETS).only("pk", "lines").order_by("pk")
    with audit_context(reason="scoring 0013: the explanation lines name the sides in words"):
        last = 0
        # A chunk at a time, by key: the table is written between the reads.
        while batch := list(hands.filter(pk__gt=last)[:CHUNK]):
            last = batch[-1].pk
            changed = []
            for hand in batch:
                lines = [reword(line) if isinstance(line, str) else line for line in hand.lines]
                if lines != hand.lines:
                    hand.lines = lines
                    changed.append(hand)
            Hand.objects.bulk_update(changed, ["lines"])


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0012_lone_hands_not_lost"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
