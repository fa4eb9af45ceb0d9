from django.contrib import admin
from rest_framework.authtoken.models import TokenProxy

from club import secretary_tokens
from club.models import (
    ApiToken,
    Club,
    Cut,
    Evening,
    EveningEvent,
    HandConfirmation,
    Member,
    Table,
)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "currency", "is_public", "table_link_hours", "confirm_hands"]
    search_fields = ["name", "slug"]
    filter_horizontal = ["secretaries"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "is_guest"]
    list_filter = ["club", "is_guest"]
    search_fields = ["name"]


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = ["__str__", "club", "date", "ruleset", "stake", "status"]
    list_filter = ["club", "ruleset", "status"]
    date_hierarchy = "date"


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "club", "evening", "number"]
    list_filter = ["club"]
    readonly_fields = ["token"]


@admin.register(EveningEvent)
class EveningEventAdmin(admin.ModelAdmin):
    list_display = ["__str__", "type", "automatic", "by_user", "created_at"]
    list_filter = ["evening__club", "type"]
    readonly_fields = ["evening", "seq", "type", "data", "decisions", "automatic", "by_user",
                       "by_table"]  # fmt: skip

    def has_change_permission(self, request, obj=None):
        return False  # the log is the record: it is replayed, never edited


@admin.register(Cut)
class CutAdmin(admin.ModelAdmin):
    list_display = ["__str__", "purpose", "table_number", "drawn_by_service", "created_at"]
    list_filter = ["evening__club", "purpose"]


@admin.register(HandConfirmation)
class HandConfirmationAdmin(admin.ModelAdmin):
    """The other side's answer to a hand (issue #14): read here, settled on the board."""

    list_display = ["hand", "state", "recorded_by", "answered_by", "settled_by", "changed_at"]
    list_filter = ["state", "rubber__club"]
    raw_id_fields = ["hand", "rubber", "settled_by"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """The API's tokens, one a login (club/secretary_tokens.py): read here, and deleted
    here to end one at once (its holder is then told it is not known). Tokens are issued
    only by a login; the key is shown once, to its holder, and not kept."""

    list_display = ["user", "created", "expires", "state"]
    list_select_related = ["user"]
    search_fields = ["user__username"]
    date_hierarchy = "created"
    list_filter = ["ended_because"]
    fields = ["user", "created", "expires", "state", "ended_at", "ended_because"]
    readonly_fields = fields

    @admin.display(description="ends of age")
    def expires(self, token):
        return secretary_tokens.token_expires(token)

    @admin.display(description="state")
    def state(self, token):
        try:
            secretary_tokens.token_user_check(token)
        except secretary_tokens.TokenEnded as ended:
            return ended.message
        return "live"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


# DRF's token table is no longer read (club.ApiToken replaced it): not offered to staff.
if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)

from core.audit import register_history_admin  # noqa: E402

register_history_admin(admin.site, "club")
