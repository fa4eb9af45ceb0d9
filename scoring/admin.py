from django.contrib import admin

from scoring.models import (
    Game,
    Hand,
    HandCorrection,
    HandScore,
    RemovedHand,
    Rubber,
    RubberPlayer,
    Settlement,
)


class RubberPlayerInline(admin.TabularInline):
    model = RubberPlayer
    extra = 0


@admin.register(Rubber)
class RubberAdmin(admin.ModelAdmin):
    list_display = ["__str__", "club", "evening", "status", "winner", "value", "hand_count"]
    list_filter = ["club", "ruleset", "status"]
    inlines = [RubberPlayerInline]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["__str__", "rubber", "number", "tricks", "game_won", "correction_count"]
    list_filter = ["rubber__club"]


@admin.register(HandCorrection)
class HandCorrectionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "kind", "law", "by_user", "at"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "winner", "value", "lap"]


@admin.register(HandScore)
class HandScoreAdmin(admin.ModelAdmin):
    list_display = ["__str__", "member", "side", "points"]


@admin.register(Settlement)
class SettlementAdmin(admin.ModelAdmin):
    list_display = ["__str__", "member", "amount"]


@admin.register(RubberPlayer)
class RubberPlayerAdmin(admin.ModelAdmin):
    list_display = ["__str__", "member", "side", "position"]


@admin.register(RemovedHand)
class RemovedHandAdmin(admin.ModelAdmin):
    list_display = ["__str__", "reason", "by_user", "at"]


from core.audit import register_history_admin  # noqa: E402

register_history_admin(admin.site, "scoring")
