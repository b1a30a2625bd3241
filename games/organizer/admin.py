"""The organizer's side of the Django admin: games, and what happened in them.
Games are created with games.organizer.game_form (or the ``creategame``
command); state changes only through the writes of ``games.core``: the change page's
"Controls" panel posts to ``GameAdmin.control_view`` (games.organizer.control_panels),
which calls the organizer controls with the version the page was rendered for.
The records (emails, events, moves, deliveries) are read-only. games/apps.py
imports this module in ``ready()`` to register the admins."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.db import models
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html

from games.core import game_setup
from games.engine import EngineError
from games.models import (
    DeliveryEvent,
    Game,
    GameEvent,
    InboundMessage,
    OutboxEmail,
    RecordOpening,
    Seat,
    Submission,
)
from games.organizer import labels, records
from games.organizer.control_panels import OrganizerControls
from games.organizer.game_form import (
    PROVISIONAL_PILES,
    GameSettingsForm,
    NewGameForm,
    SeatForm,
)
from games.present.game_fields import PILE_FIELDS, TIMING_FIELDS


class SeatInline(admin.TabularInline):
    """The seats, numbered from 1. No seat links here: an organizer who also plays
    must not open another player's table ("Resend email" sends a player theirs)."""

    model = Seat
    form = SeatForm
    extra = 0
    fields = ("number", "name", "email", "timezone", "language", "reply_from_anyone")
    # A new person at a seat goes through "Replace a player", which revokes the old links.
    readonly_fields = ("number", "name", "email")
    can_delete = False
    # Admin text inputs are 20em wide: two of them would push the table past a laptop's width.
    formfield_overrides = {
        models.CharField: {"widget": forms.TextInput(attrs={"size": 18})},
    }

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description="Seat")
    def number(self, seat):
        return seat.index + 1


class OwnFiltersOnly:
    """A list is filtered by its own filters only (and ``extra_lookups``). Django
    lets a list's address filter on any field of its model (``?state__icontains=``):
    asked one yes-or-no question at a time, that would tell every hand and the seed
    of a game in play to whoever can see the list."""

    extra_lookups = ()

    def lookup_allowed(self, lookup, value, request=None):
        field = lookup.split(LOOKUP_SEP, 1)[0]
        allowed = {*self.extra_lookups, *_filter_names(self.get_list_filter(request))}
        return field in allowed and super().lookup_allowed(lookup, value, request)


def _filter_names(list_filter) -> set:
    """The first field (or parameter) of each of a list's filters."""
    names = set()
    for item in list_filter:
        if isinstance(item, (list, tuple)):
            item = item[0]
        if isinstance(item, type) and issubclass(item, admin.SimpleListFilter):
            names.add(item.parameter_name)
        elif isinstance(item, str):
            names.add(item.split(LOOKUP_SEP, 1)[0])
    return names


@admin.register(Game)
class GameAdmin(OrganizerControls, OwnFiltersOnly, admin.ModelAdmin):
    empty_value_display = labels.NONE
    list_display = ("name", "status", "round_and_phase", "deadline", "created")
    list_filter = ("status",)
    search_fields = ("name", "seats__email", "seats__name")
    readonly_fields = ("settings", "fingerprint", "created", "finished")
    inlines = [SeatInline]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats")

    def get_form(self, request, obj=None, **kwargs):
        kwargs["form"] = NewGameForm if obj is None else GameSettingsForm
        return super().get_form(request, obj, **kwargs)

    def get_fieldsets(self, request, obj=None):
        if obj is None:
            return (
                (
                    None,
                    {
                        "fields": (
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
                    },
                ),
                (
                    "Black Market",
                    {
                        "fields": ("black_market", *PILE_FIELDS.values()),
                        "description": format_html(
                            "Each pile holds two cards, the higher value on top. Left blank, "
                            "a pile takes the provisional values ({}): no printed card has "
                            "been checked yet.",
                            PROVISIONAL_PILES,
                        ),
                    },
                ),
                (
                    "Deadlines",
                    {
                        "fields": TIMING_FIELDS,
                        "description": 'Durations are in minutes and apply with "A duration '
                        'per phase"; the daily time (in the deadline time zone) applies with '
                        '"A fixed time every day".',
                    },
                ),
            )
        # Status, phase and deadline are in the Controls panel above the form.
        return (
            (
                None,
                {
                    "fields": (
                        "name",
                        "organizer_email",
                        "settings",
                        "fingerprint",
                        "created",
                        "finished",
                    )
                },
            ),
            (
                "Deadline settings",
                {
                    "fields": TIMING_FIELDS,
                    "description": "Changes apply from the next phase on: the current "
                    "phase keeps its deadline (use Extend in the controls to move it).",
                },
            ),
            (
                "Bots",
                {
                    "fields": ("bot_seconds",),
                    "description": "How long the bots at this table take to answer; the "
                    "organizer's page hands a seat to a bot. Applies from the next move on.",
                },
            ),
        )

    def get_inlines(self, request, obj):
        return [SeatInline] if obj else []

    @admin.display(description="Round and phase")
    def round_and_phase(self, game):
        return labels.phase_line(game.state or {}, labels.seat_names(game))

    @admin.display(description="Deadline", ordering="phase_deadline")
    def deadline(self, game):
        return labels.moment(game.phase_deadline, game.deadline_timezone)

    @admin.display(description="Created", ordering="created_at")
    def created(self, game):
        return labels.moment(game.created_at, game.deadline_timezone)

    @admin.display(description="Finished")
    def finished(self, game):
        return labels.moment(game.finished_at, game.deadline_timezone)

    @admin.display(description="Settings")
    def settings(self, game):
        return labels.settings_line(game.config, labels.seat_names(game))

    @admin.display(description="Fairness fingerprint")
    def fingerprint(self, game):
        return format_html(
            '<code>{}</code><div class="help">The SHA-256 of the secret seed, shown to the '
            "players from the start; the seed itself is revealed when the game ends.</div>",
            game.seed_sha256,
        )

    # --- deleting: never a game in play ---------------------------------------------

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.status == Game.Status.ACTIVE:
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request):
        # A bulk delete would take games in play with it: delete one finished game at a time.
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def delete_view(self, request, object_id, extra_context=None):
        game = self.get_object(request, unquote(object_id))
        if game is not None and game.status == Game.Status.ACTIVE:
            messages.error(
                request, "A game in play cannot be deleted. Cancel it first if it must stop."
            )
            return HttpResponseRedirect(reverse("admin:games_game_change", args=[game.pk]))
        return super().delete_view(request, object_id, extra_context)

    def get_deleted_objects(self, objs, request):
        """A finished game goes with its seats, events and emails, which cannot be
        deleted on their own: list the game only (the summary counts the rest)."""
        _, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        deleted_with_game = {
            m._meta.verbose_name for m in (GameEvent, OutboxEmail, Submission, RecordOpening)
        }
        return [str(obj) for obj in objs], counts, perms_needed - deleted_with_game, protected

    def save_model(self, request, obj, form, change):
        if change:
            # Only the settings: state, version and the current deadline stay untouched.
            settings = ("name", "organizer_email", *TIMING_FIELDS)
            Game.objects.filter(pk=obj.pk).update(**{f: getattr(obj, f) for f in settings})
            return
        data = form.cleaned_data
        try:
            game = game_setup.create_game(
                name=data["name"],
                players=data["players"],
                config=data["config"],
                seed=data["seed"] or None,
                organizer_email=data["organizer_email"],
                timing={f: data[f] for f in TIMING_FIELDS},
            )
        except EngineError as error:
            messages.error(request, error.message)
            raise
        obj.pk = game.pk
        obj.refresh_from_db()

    def save_related(self, request, form, formsets, change):
        if change:
            super().save_related(request, form, formsets, change)


class ReadOnlyAdmin(admin.ModelAdmin):
    """What happened: never added, changed or deleted by hand."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class RecordAdmin(OwnFiltersOnly, ReadOnlyAdmin):
    """What happened in a game (emails, events, moves): read-only. Times are in the
    game's deadline zone. A list can be narrowed to one game (``?game__id__exact=``).
    A record's own content (``full_record_fields``) is shown only when the game's
    full record is open to the reader (games.organizer.records)."""

    extra_lookups = ("game",)
    full_record_fields = ()

    class Media:
        css = {"all": ["games/admin-game.css"]}

    def get_fields(self, request, obj=None):
        fields = tuple(super().get_fields(request, obj))
        if obj is not None and records.is_open(obj.game, request.user):
            fields += self.full_record_fields
        return fields

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    list_select_related = ("game",)
    empty_value_display = labels.NONE

    @admin.display(description="When", ordering="created_at")
    def created(self, record):
        return labels.moment(record.created_at, record.game.deadline_timezone)


@admin.register(OutboxEmail)
class OutboxEmailAdmin(RecordAdmin):
    """Delivery only: an email's body is its reader's own view of the game, so the
    organizer (who may play too) sees who it went to and how, never what it says."""

    DELIVERY = ("game", "recipient", "what", "status", "attempts", "possible_duplicates")
    list_display = (*DELIVERY, "created", "sent")
    list_filter = ("status",)
    list_select_related = ("game", "seat")
    search_fields = ("to", "game__name")
    fields = (*DELIVERY, "last_error", "next_attempt", "created", "sent")
    full_record_fields = ("body",)

    def get_queryset(self, request):
        """The emails of games only: a sign-in email (no game) carries its code, and
        nobody at the admin needs it."""
        return super().get_queryset(request).filter(game__isnull=False)

    @admin.display(description="To")
    def recipient(self, email):
        who = str(email.seat) if email.seat else "The organizer"
        return f"{who} <{email.to}>"

    @admin.display(description="Possible duplicates", ordering="in_doubt")
    def possible_duplicates(self, email):
        """Sent again without knowing whether an earlier attempt arrived (its answer was
        lost): the copy carries the same Message-ID, which most mail apps fold."""
        return email.in_doubt

    @admin.display(description="What")
    def what(self, email):
        return labels.label(labels.EMAILS, email.kind)

    @admin.display(description="Sent", ordering="sent_at")
    def sent(self, email):
        return labels.moment(email.sent_at, email.game.deadline_timezone)

    @admin.display(description="Next attempt")
    def next_attempt(self, email):
        return labels.moment(email.next_attempt_at, email.game.deadline_timezone)

    @admin.display(description="Text (seat link left out)")
    def body(self, email):
        return _preformatted(records.email_text(email.text))


class EventKindFilter(admin.SimpleListFilter):
    title = "what happened"
    parameter_name = "what"

    def lookups(self, request, model_admin):
        return list(labels.EVENTS.items())

    def queryset(self, request, queryset):
        return queryset.filter(type=self.value()) if self.value() else queryset


@admin.register(GameEvent)
class GameEventAdmin(RecordAdmin):
    """The append-only log, as a spectator knows it: the stored record itself holds
    the seed, the deck and every hand, so it is never shown."""

    list_display = ("game", "number", "what", "created")
    list_filter = (EventKindFilter,)
    fields = ("game", "number", "what", "log_line", "created")
    full_record_fields = ("as_stored",)

    @admin.display(description="No.", ordering="seq")
    def number(self, event):
        return event.seq + 1

    @admin.display(description="What")
    def what(self, event):
        return labels.label(labels.EVENTS, event.type)

    @admin.display(description="In the game log")
    def log_line(self, event):
        game = event.game
        line = labels.event_line(game.engine_state(), event.data, labels.seat_names(game))
        return line or "Not in the game log."

    @admin.display(description="As stored")
    def as_stored(self, event):
        return _preformatted(records.pretty_json(event.data))


@admin.register(Submission)
class SubmissionAdmin(RecordAdmin):
    """Every move a player made (not its content: a bag's cards stay the player's
    secret). Refused moves changed nothing and are not kept."""

    list_display = ("game", "seat", "move", "created")
    list_select_related = ("game", "seat")
    fields = ("game", "seat", "move", "created")
    full_record_fields = ("as_received",)

    @admin.display(description="Move")
    def move(self, submission):
        return labels.label(labels.MOVES, str(submission.command.get("type", "")))

    @admin.display(description="As received")
    def as_received(self, submission):
        return _preformatted(records.pretty_json(submission.command))


@admin.register(RecordOpening)
class RecordOpeningAdmin(RecordAdmin):
    """Every time a superuser opened the full record of a game in play, and why."""

    list_display = ("game", "opened_by", "reason", "when")
    fields = list_display

    @admin.display(description="Opened by", ordering="username")
    def opened_by(self, opening):
        return opening.username

    @admin.display(description="When", ordering="opened_at")
    def when(self, opening):
        return labels.moment(opening.opened_at, opening.game.deadline_timezone)


def _preformatted(text: str) -> str:
    return format_html('<pre class="record-text">{}</pre>', text)


@admin.register(InboundMessage)
class InboundMessageAdmin(OwnFiltersOnly, ReadOnlyAdmin):
    """The emails received at the seats' reply addresses, and what became of each:
    read-only. The reply's text is not shown: one that was not posted stays private."""

    list_display = ("received_at", "esp", "outcome", "from_address", "seat", "detail")
    list_filter = ("outcome", "esp")
    search_fields = ("from_address", "message_id")
    fields = ("message_id", *list_display)
    readonly_fields = fields


@admin.register(DeliveryEvent)
class DeliveryEventAdmin(OwnFiltersOnly, ReadOnlyAdmin):
    """What the email provider reported after taking an email: read-only."""

    list_display = ("received_at", "esp", "event_type", "recipient", "description")
    list_filter = ("event_type", "esp")
    search_fields = ("recipient",)
    fields = (
        "esp",
        "event_type",
        "recipient",
        "reject_reason",
        "description",
        "occurred_at",
        "received_at",
    )
    readonly_fields = fields
