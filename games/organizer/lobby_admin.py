"""Games being gathered, for the site's operators: read-only lists. Organizers
run their own from the site's pages (games/web/lobbies.py). The links' secrets
(a lobby's join token, an invitation's token) are not shown."""

from django.contrib import admin

from games.models import Invitation, Lobby, Person
from games.organizer.admin import OwnFiltersOnly, ReadOnlyAdmin


class InvitationInline(admin.TabularInline):
    model = Invitation
    fields = ("name", "email", "via", "status", "sends", "last_sent_at", "answered_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Lobby)
class LobbyAdmin(OwnFiltersOnly, ReadOnlyAdmin):
    list_display = ("name", "organizer_email", "players", "status", "created_at", "game")
    list_filter = ("status",)
    search_fields = ("name", "organizer_email")
    fields = (
        "name",
        "organizer_name",
        "organizer_email",
        "players",
        "status",
        "join_open",
        "random_order",
        "start_at",
        "created_at",
        "started_at",
        "game",
    )
    readonly_fields = fields
    inlines = [InvitationInline]


@admin.register(Person)
class PersonAdmin(OwnFiltersOnly, ReadOnlyAdmin):
    """Choices a person made across games, and "never invite me again"."""

    list_display = ("email", "language", "timezone", "daily_hour", "no_invitations_at")
    search_fields = ("email",)
    fields = list_display
    readonly_fields = fields
