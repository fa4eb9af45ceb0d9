"""Two explanation lines speak of a player without "his": law 50's "an adversary abandoned
their hand against N-S's lone hand" (Euchre, ruling E5) and law 27's "... scores nothing
this deal: their partner held the wrong number of cards" (Call-Ace, ruling C4), as the
rule sets now write them. The lines stored with the hands recorded before are reworded
here, their laws and rulings and figures kept, as 0013 reworded the sides' names: a sheet
reads the same before and after a correction rewrites its later hands. A backup taken
before restores with the new lines: the import scores the hands again.

The rewording is written out here, not imported, so that this migration keeps meaning what
it meant when the code moves on. Only the hands that can hold such a line are read: Euchre
hands with law 50, Call-Ace deals with a player's wrong number of cards (law 27).
tests/scoring/test_lines_in_words.py holds it to the rule sets' own new lines.
"""

from django.db import migrations

EUCHRE, CALL_ACE = "euchre-somerset-1888", "call-ace-foster-1905"
CHUNK = 2000
OLD_NEW = (
    ("law 50: an adversary abandoned his hand against ", "law 50: an adversary abandoned their hand against "),
    (": his partner held the wrong number of cards (ruling C4)", ": their partner held the wrong number of cards (ruling C4)"),
)  # fmt: skip


def reword(line: str) -> str:
    """One stored line as the rule sets now write it."""
    for old, new in OLD_NEW:
        line = line.replace(old, new)
    return line


def forwards(apps, schema_editor):
    from django.db.models import Q

    from core.audit import audit_context

    Hand = apps.get_model("scoring", "Hand")
    hands = (
        Hand.objects.filter(
            Q(rubber__ruleset=EUCHRE, data__law50=True)
            | Q(rubber__ruleset=CALL_ACE, data__has_key="wrong_cards")
        )
        .only("pk", "lines")
        .order_by("pk")
    )
    with audit_context(reason="scoring 0015: the explanation lines speak without 'his'"):
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
        ("scoring", "0014_fixed_deal_settlements"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
