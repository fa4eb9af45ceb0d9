from django.contrib import admin

from tournaments.models import (
    Round,
    RoundTable,
    StandingsDirty,
    StandingsVersion,
    Tournament,
    TournamentPlayer,
    TournamentTable,
    TournamentTotal,
)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "kind", "ruleset", "is_public", "standings_version"]
    list_filter = ["club", "kind"]
    filter_horizontal = ["evenings"]


@admin.register(TournamentPlayer)
class TournamentPlayerAdmin(admin.ModelAdmin):
    list_display = ["__str__", "joined_round", "left_round"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "created_at"]


@admin.register(RoundTable)
class RoundTableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "rubber"]


@admin.register(TournamentTable)
class TournamentTableAdmin(admin.ModelAdmin):
    """A progressive's table by its number, with its phone link (a bearer secret: shown,
    never edited here; the director's page gives a fresh one)."""

    list_display = ["__str__", "tournament", "number", "link_issued_at"]
    list_filter = ["tournament"]
    readonly_fields = ["token", "replaced_token", "link_issued_at"]


@admin.register(TournamentTotal)
class TournamentTotalAdmin(admin.ModelAdmin):
    list_display = ["__str__", "points", "rubbers_won", "net_rubber_points"]
    list_filter = ["tournament"]


@admin.register(StandingsDirty)
class StandingsDirtyAdmin(admin.ModelAdmin):
    list_display = ["__str__", "created_at"]


@admin.register(StandingsVersion)
class StandingsVersionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "kind", "players_recomputed", "duration_ms", "created_at"]
    list_filter = ["tournament"]


from core.audit import register_history_admin  # noqa: E402

register_history_admin(admin.site, "tournaments")
