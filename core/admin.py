from django.contrib import admin

from core.models import IdempotencyRecord, WorkerHeartbeat


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin):
    list_display = ["worker", "at", "task_id"]


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "created_at"]
    exclude = ["body"]
