"""manage.py make_season: fill the database with a seeded, realistic season (for benchmarks)."""

from django.core.management.base import BaseCommand, CommandError

from core.progress import progress_bar
from tournaments.management.season import season_make


class Command(BaseCommand):
    help = (
        "Generate a club season: members, weekly evenings (mostly Euchre, some Bridge and "
        "Call-Ace), tables, rubbers and hands scored by the rule sets, ladders and progressive "
        "tournaments, a few corrections; then recalculate every tournament's standings. "
        "On PostgreSQL the scoring tables are locked while it loads: use a benchmark or "
        "demonstration database."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=2000)
        parser.add_argument("--evenings", type=int, default=300)
        parser.add_argument("--hands", type=int, default=1_000_000)
        parser.add_argument("--seed", type=int, default=1888)
        parser.add_argument("--club", default="season-club", help="slug of a new (or empty) club")
        parser.add_argument(
            "--no-lines",
            action="store_true",
            help="store an empty explanation for each hand (faster; pages show none)",
        )
        parser.add_argument(
            "--keep-constraints",
            action="store_true",
            help="PostgreSQL: load with foreign keys and indexes in place (much slower)",
        )
        parser.add_argument(
            "--no-standings", action="store_true", help="skip the standings recalculation"
        )

    def handle(self, *args, **options):
        # A bar on a terminal only (a run piped or logged, as bench/run.py's, prints none).
        bar = progress_bar(
            total=options["hands"], unit="hands", desc="Playing the season", file=self.stderr,
            scale=True,
        )  # fmt: skip
        try:
            with bar:
                report = season_make(
                    club_slug=options["club"],
                    players=options["players"],
                    evenings=options["evenings"],
                    hands=options["hands"],
                    seed=options["seed"],
                    lines=not options["no_lines"],
                    drop_constraints=not options["keep_constraints"],
                    recalculate=not options["no_standings"],
                    progress=bar.update,
                )
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        out = self.stdout.write
        out(
            f"Club {report.club!r} (seed {report.seed}): {report.members:,} members, "
            f"{report.evenings:,} evenings, {report.tables:,} tables, {report.rubbers:,} rubbers, "
            f"{report.hands:,} hands, {report.hand_scores:,} hand scores, "
            f"{report.corrections:,} corrections; written by {report.bulk}."
        )
        for t in report.tournaments:
            out(f"  standings of {t['slug']}: {t['players']:,} players in {t['seconds']:.2f} s")
        timings = ", ".join(f"{name} {secs:.1f} s" for name, secs in report.timings.items())
        out(f"Timings: {timings}.")
        rate = report.hands / report.timings["generate and write"]
        out(self.style.SUCCESS(f"{report.hands:,} hands at {rate:,.0f} a second."))
