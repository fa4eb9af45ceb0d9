from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm

from core.echo import CutWhenRefused
from core.models import IdempotencyRecord, WorkerHeartbeat


class AdminLoginForm(CutWhenRefused, AdminAuthenticationForm):
    """The admin's login form; refused, the name typed is shown again cut to ECHO_MAX
    characters, as on the site's own login page (core/echo.py)."""


admin.site.login_form = AdminLoginForm


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin):
    list_display = ["worker", "at", "task_id"]


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "created_at"]
    exclude = ["body"]
