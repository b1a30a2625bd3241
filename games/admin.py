"""The organizer's side. Games are created with the form below (or the
``creategame`` command); state changes only through ``games.services``."""

from django import forms
from django.contrib import admin, messages
from django.utils.html import format_html

from games import links, services
from games.engine import EngineError
from games.models import Game, GameEvent, OutboxEmail, Seat, Submission


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "name", "email", "timezone", "language", "link_version", "link")
    readonly_fields = ("index", "link_version", "link")
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description="Seat link")
    def link(self, seat):
        return format_html('<a href="{}">open</a>', links.seat_url(seat)) if seat.pk else "—"


class NewGameForm(forms.ModelForm):
    players = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text='One player per line, clockwise from seat 0: "Name <email>" '
        "optionally followed by a timezone, e.g. Alice <alice@example.org> Europe/Paris.",
    )
    edition = forms.TypedChoiceField(choices=[(2, "2nd edition"), (1, "1st edition")], coerce=int)
    first_sheriff = forms.IntegerField(min_value=0, initial=0)
    royal_goods = forms.BooleanField(required=False)
    seven_card_hand = forms.BooleanField(required=False)
    remove_ten = forms.BooleanField(required=False, label="Remove 10 cards")
    seed = forms.CharField(required=False, help_text="Hex; leave empty for a secret random seed.")

    class Meta:
        model = Game
        fields = ("name", "organizer_email")

    def clean_players(self):
        try:
            return [
                services.parse_player(line)
                for line in self.cleaned_data["players"].splitlines()
                if line.strip()
            ]
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("name", "status", "round_and_phase", "version", "created_at")
    list_filter = ("status",)
    search_fields = ("name", "seats__email", "seats__name")
    readonly_fields = (
        "status",
        "version",
        "seed_sha256",
        "config",
        "created_at",
        "finished_at",
        "phase_deadline",
        "round_and_phase",
    )
    inlines = [SeatInline]

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = NewGameForm
        return super().get_form(request, obj, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return (
                "name",
                "organizer_email",
                "players",
                "edition",
                "first_sheriff",
                "royal_goods",
                "seven_card_hand",
                "remove_ten",
                "seed",
            )
        return (
            "name",
            "organizer_email",
            "status",
            "round_and_phase",
            "version",
            "config",
            "seed_sha256",
            "phase_deadline",
            "created_at",
            "finished_at",
        )

    def get_inlines(self, request, obj):
        return [SeatInline] if obj else []

    @admin.display(description="Round / phase")
    def round_and_phase(self, game):
        state = game.state or {}
        phase = (state.get("phase") or {}).get("kind", "—")
        return f"{state.get('round', '—')} / {phase}"

    def save_model(self, request, obj, form, change):
        if change:
            Game.objects.filter(pk=obj.pk).update(
                name=obj.name, organizer_email=obj.organizer_email
            )
            return
        data = form.cleaned_data
        config = {
            k: data[k]
            for k in ("edition", "first_sheriff", "royal_goods", "seven_card_hand", "remove_ten")
        }
        try:
            game = services.create_game(
                name=data["name"],
                players=data["players"],
                config=config,
                seed=data["seed"] or None,
                organizer_email=data["organizer_email"],
            )
        except EngineError as error:
            messages.error(request, error.message)
            raise
        obj.pk = game.pk
        obj.refresh_from_db()

    def save_related(self, request, form, formsets, change):
        if change:
            super().save_related(request, form, formsets, change)


@admin.register(OutboxEmail)
class OutboxEmailAdmin(admin.ModelAdmin):
    list_display = ("key", "to", "status", "attempts", "created_at", "sent_at", "last_error")
    list_filter = ("status",)
    search_fields = ("key", "to")
    readonly_fields = [f.name for f in OutboxEmail._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "type", "created_at")
    list_filter = ("type",)
    readonly_fields = ("game", "seq", "type", "data", "created_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("game", "seat", "accepted", "error_code", "created_at")
    list_filter = ("accepted",)
    readonly_fields = [f.name for f in Submission._meta.fields]

    def has_add_permission(self, request):
        return False
