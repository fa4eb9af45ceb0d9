"""A round of fixed deals whose rubber was won before its deals ran out settles at the
difference of the sides' points (ruling P2), as its seats' stake won has had it since
tournaments 0011; its stored settlement kept the rubber's value times the stake (M1), so
the rubber's ledger in the API said otherwise. Such rubbers' settlements are written again
from their hands' points (scoring.rules.fixed_deals.fixed_deals_ledger's arithmetic, by
seat)."""

from django.db import migrations


def forwards(apps, schema_editor):
    from scoring.rules.base import money
    from scoring.rules.fixed_deals import fixed_deals_totals

    Rubber = apps.get_model("scoring", "Rubber")
    Hand = apps.get_model("scoring", "Hand")
    RubberPlayer = apps.get_model("scoring", "RubberPlayer")
    Settlement = apps.get_model("scoring", "Settlement")
    for rubber in Rubber.objects.filter(deal_limit__isnull=False, status="complete"):
        points = Hand.objects.filter(rubber=rubber).order_by("number").values_list(
            "points", flat=True
        )
        totals = fixed_deals_totals(list(points))
        other = {"NS": "EW", "EW": "NS"}
        seats = RubberPlayer.objects.filter(rubber=rubber, side__in=["NS", "EW"])
        Settlement.objects.filter(rubber=rubber).delete()
        Settlement.objects.bulk_create(
            Settlement(
                rubber=rubber,
                member_id=seat.member_id,
                amount=money(totals[seat.side] - totals[other[seat.side]], rubber.stake),
            )
            for seat in seats
        )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0013_explanation_lines_in_words"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
