"""The Web Push outbox in the admin, read-only (games.push): for each push, the device
it went to, how it went, and how many copies may have arrived (``in_doubt``). Never
its payload: it carries the seat's link."""

from django.contrib import admin

from games.models import OutboxPush, PushSubscription
from games.organizer import labels
from games.organizer.admin import RecordAdmin


@admin.register(OutboxPush)
class OutboxPushAdmin(RecordAdmin):
    DELIVERY = ("game", "seat", "device", "kind", "status", "attempts", "possible_duplicates")
    list_display = (*DELIVERY, "created", "accepted")
    list_filter = ("status", "kind")
    list_select_related = ("game", "seat", "subscription")
    search_fields = ("game__name",)
    fields = (*DELIVERY, "last_error", "next_attempt", "created", "accepted")

    @admin.display(description="Device")
    def device(self, push):
        try:
            found = push.subscription  # none, or deleted after the push was owed
        except PushSubscription.DoesNotExist:
            found = None
        return f"{found.device or 'a device'} of {found.email}" if found else "gone"

    @admin.display(description="Possible duplicates", ordering="in_doubt")
    def possible_duplicates(self, push):
        """Sent again without knowing whether an earlier attempt arrived: the same Topic
        and tag make the device show one notification for both."""
        return push.in_doubt

    @admin.display(description="Taken by the push service", ordering="accepted_at")
    def accepted(self, push):
        return labels.moment(push.accepted_at, push.game.deadline_timezone)

    @admin.display(description="Next attempt")
    def next_attempt(self, push):
        return labels.moment(push.next_attempt_at, push.game.deadline_timezone)
