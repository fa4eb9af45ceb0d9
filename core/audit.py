"""Audit history: every change to the club's records, kept by database triggers.

django-pghistory installs PostgreSQL triggers on the tracked tables (hands, rubbers,
settlements, tables, members, cuts, evenings, tournaments, their players and rounds),
so every insert, update and delete is recorded, bulk ones and raw SQL included: a
change cannot bypass it. Each request's changes are grouped under a context naming
who made them, where, and (for corrections and reopenings) why.

The triggers exist on PostgreSQL, the production database; the laptop default
(SQLite) keeps no trigger history, only the service's own records of corrections.
"""

import contextlib

from django.db import connection


def audited(name: str, *, derived: tuple[str, ...] = ()):
    """A model decorator: database triggers record every insert, update and delete of
    the model in a `<name>History` table (reachable as `obj.history`).

    `derived` names columns the service recomputes from other audited rows (running
    totals): they are left out of the history, and an update that changes only them
    records nothing.
    """
    import pghistory

    exclude = list(derived) or None
    return pghistory.track(
        pghistory.InsertEvent(),
        pghistory.UpdateEvent(condition=pghistory.AnyChange(exclude=exclude)),
        pghistory.DeleteEvent(),
        exclude=exclude,
        model_name=f"{name}History",
        obj_field=pghistory.ObjForeignKey(related_name="history"),
    )


def audit_context(**metadata):
    """Group the changes made inside under one audit context with this metadata (who,
    why); a no-op where the database keeps no trigger history."""
    if connection.vendor != "postgresql":
        return contextlib.nullcontext()
    import pghistory

    return pghistory.context(**metadata)


class AuditMiddleware:
    """Every write request's changes are recorded with the user, or the table whose
    phone made them, and the address."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in {"GET", "HEAD", "OPTIONS"}:
            return self.get_response(request)
        user = getattr(request, "user", None)
        who = user.username if user is not None and user.is_authenticated else None
        with audit_context(user=who, url=request.path):
            return self.get_response(request)


def register_history_admin(admin_site, app_label: str) -> None:
    """A read-only admin page for each audit history model of an app."""
    from django.apps import apps
    from django.contrib import admin

    class HistoryAdmin(admin.ModelAdmin):
        list_display = ["pgh_created_at", "pgh_label", "pgh_obj", "pgh_context"]
        list_filter = ["pgh_label"]

        def has_add_permission(self, request):
            return False

        def has_change_permission(self, request, obj=None):
            return False

        def has_delete_permission(self, request, obj=None):
            return False

    for model in apps.get_app_config(app_label).get_models():
        if model.__name__.endswith("History") and not admin_site.is_registered(model):
            admin_site.register(model, HistoryAdmin)


class RecordWho:
    """A DRF permission that always allows, and names the caller in the audit context.

    It runs after authentication (so a token's user is known), which the middleware
    cannot see; a table's phone is named by its table.
    """

    def has_permission(self, request, view):
        if connection.vendor == "postgresql" and request.method not in {"GET", "HEAD", "OPTIONS"}:
            import pghistory

            user = request.user.username if request.user.is_authenticated else None
            table = getattr(request.auth, "number", None)
            pghistory.context(user=user, table=table)  # adds to the request's context
        return True

    def has_object_permission(self, request, view, obj):
        return True
