"""Games, seats, the append-only event log, submissions, the email outbox, the
people and the games they gather.

Game state changes only through the writes of ``games.core`` (game_setup, moves,
timers, controls); the admin is read-mostly.
"""

import secrets

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine import GameConfig, State
from games.fields import JSONTextField
from games.words import user_text


class Game(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    name = models.CharField(max_length=100)
    config = models.JSONField(help_text="The engine configuration (edition, players, options).")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    state = JSONTextField(editable=False, help_text="Snapshot of the engine state.")
    version = models.PositiveIntegerField(default=0, editable=False)
    seed_sha256 = models.CharField(max_length=64, editable=False)
    organizer_email = models.EmailField(blank=True)
    # Threads every email of a game into one conversation in the players' mail apps.
    thread_token = models.CharField(max_length=64, default=secrets.token_hex, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True, editable=False)

    # --- deadlines, set by the organizer -------------------------------------------
    class DeadlineMode(models.TextChoices):
        NONE = "none", "No deadlines"
        DURATION = "duration", "A duration per phase"
        DAILY = "daily", "A fixed time every day"

    deadline_mode = models.CharField(
        max_length=8, choices=DeadlineMode.choices, default=DeadlineMode.NONE
    )
    market_minutes = models.PositiveIntegerField(
        default=24 * 60, help_text="2nd edition market (everyone at once), in minutes."
    )
    market_turn_minutes = models.PositiveIntegerField(
        default=12 * 60, help_text="Each 1st edition market turn (one player), in minutes."
    )
    load_minutes = models.PositiveIntegerField(default=24 * 60, help_text="Load and declare.")
    inspection_minutes = models.PositiveIntegerField(default=24 * 60, help_text="Inspection.")
    bargaining_minutes = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Bargaining time at the start of each inspection, in minutes: the Sheriff can "
        "decide a bag once its merchant has made an offer or said 'no offer', or once this time "
        "is over. Blank: half the inspection time (no limit without deadlines). 0: no waiting.",
    )
    black_market_minutes = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="The Black Market step, in minutes: when the last bag is decided, the merchants "
        "who could still claim a Black Market card have this long to claim or decline. "
        "Blank: a tenth of the inspection time. 0: no deadline.",
    )
    daily_time = models.TimeField(
        null=True, blank=True, help_text="Daily mode: the local time every deadline falls at."
    )
    deadline_timezone = models.CharField(
        max_length=64, default="UTC", help_text="The zone of the daily time and of weekends."
    )
    skip_weekends = models.BooleanField(default=False, help_text="No deadline on Sat or Sun.")
    reminder_minutes = models.FloatField(
        default=0,
        validators=[MinValueValidator(0)],
        help_text="Remind seats that still owe a move this many minutes before (0: never; "
        "fractions allowed, e.g. 0.5).",
    )
    advance_early = models.BooleanField(
        default=True, help_text="Start the next phase as soon as every required move is in."
    )
    miss_alert_after = models.PositiveSmallIntegerField(
        default=2, help_text="Email the organizer when a seat misses this many deadlines in a row."
    )
    abandon_after = models.PositiveSmallIntegerField(
        default=3,
        help_text="When this many phases in a row reach their deadline with nobody having "
        "moved, the game pauses itself and emails the organizer (0: never).",
    )
    away_pauses = models.BooleanField(
        default=True,
        help_text="When a deadline falls while a player it waits for is away (they said so in "
        "their settings), the game waits for them: the phase starts again when they are "
        "back. Off: the missed-move defaults apply as usual.",
    )
    away_cap_days = models.PositiveSmallIntegerField(
        default=7,
        validators=[MinValueValidator(0)],
        help_text="At most this many days of waiting for away players in the whole game "
        "(0: never wait).",
    )
    away_minutes_used = models.FloatField(default=0, editable=False)
    # --- the current phase's timing (the database is the source of truth) -----------
    phase_since = models.PositiveIntegerField(default=0, editable=False)
    phase_deadline = models.DateTimeField(null=True, blank=True, editable=False)
    reminder_at = models.DateTimeField(null=True, blank=True, editable=False)
    # When this inspection's bargaining time runs out (None: not in inspection, no limit, or over).
    bargaining_until = models.DateTimeField(null=True, blank=True, editable=False)
    paused_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Who holds this phase's deadline, and until when (games.core.deadline_claims): a
    # deadline process claims it ahead and writes it when it falls; past the lease, any
    # other process (or the beat's safety sweep) may take it over. Every new deadline
    # clears the lease (game_writes.phase_timing, the controls).
    deadline_claimed_until = models.DateTimeField(null=True, blank=True, editable=False)
    deadline_claimed_by = models.CharField(max_length=80, blank=True, default="", editable=False)
    # When the sweep last handed this due reminder or ended bargaining time to a
    # worker (see tasks.sweep_deadlines).
    remind_queued_at = models.DateTimeField(null=True, blank=True, editable=False)
    bargaining_queued_at = models.DateTimeField(null=True, blank=True, editable=False)
    # --- is anybody still playing? (timers.advance_many, "abandoned games") ----------
    # The seq of the last accepted player move's first event: a phase saw a move
    # if and only if this is at or after the phase's start (phase_since).
    last_move_seq = models.PositiveIntegerField(default=0, editable=False)
    # Phases in a row that reached their deadline with no player's move; any move resets it.
    idle_phases = models.PositiveSmallIntegerField(default=0, editable=False)
    # How fast each seat may move (games.core.pacing): seat index -> [moves left, as counted
    # at that ISO time]. On the game's row, which a move locks and writes anyway, so
    # pacing costs a move no query of its own.
    move_allowances = models.JSONField(default=dict, editable=False)
    # Each seat's standing instructions (games.core.standing), known to that seat alone:
    # seat index -> {"no_offer": true, "pass_gold": 5}. On the game's row too: a move
    # reads them with its lock, as they stand, at no query of its own.
    standing = models.JSONField(default=dict, editable=False)

    class Talk(models.TextChoices):
        """When the players may write in the table's talk (games.core.talk)."""

        ALL = "all", _("All game")
        INSPECTION = "inspection", _("During the inspection only")
        OFF = "off", _("Off")

    talk = models.CharField(max_length=10, choices=Talk.choices, default=Talk.ALL)
    # Private messages between two seats (off: everyone negotiates in the open, as the
    # rulebooks have it), and whether the final page shows them to the whole table.
    talk_private = models.BooleanField(default=False)
    reveal_private = models.BooleanField(default=True)
    # The game its organizer started with the same players once this one was over
    # (games.core.rematch): set once, under this row's lock, so a form sent twice
    # starts one game; the old pages link to it.
    rematch = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="rematch_of",
    )
    # A finished game's archive (games.core.archive) is its players' alone, unless one
    # of them made it public: then anyone with this random token's address may read
    # it. Made private again, the token is dropped; a new one is drawn next time.
    archive_token = models.CharField(
        max_length=32, unique=True, null=True, blank=True, editable=False
    )
    # --- bots (games.core.bot_turns) ---------------------------------------------------
    # The seats bots play: seat index -> level (games.bots.LEVELS). On the game's row,
    # which every move locks and reads: whether a bot has a move due costs no query.
    bots = models.JSONField(default=dict, editable=False)
    bot_seconds = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="How long a bot takes to answer, in seconds. Blank: a few minutes in a "
        "game with deadlines, a few seconds without. Never past half the time left.",
    )
    # When the bots next look at the table (None: nothing for them to do), and when the
    # sweep last handed that to a worker (as for reminders: tasks.sweep_deadlines).
    bots_due_at = models.DateTimeField(null=True, blank=True, editable=False)
    bots_queued_at = models.DateTimeField(null=True, blank=True, editable=False)
    # What the bots were asked this phase with nothing they had to do: the optional
    # moves each made, the version each chose to wait at (games.core.bot_timing.Asks).
    bot_asks = models.JSONField(default=dict, editable=False)
    # A practice game (home page, "Play now"): one person against bots, no deadlines.
    practice = models.BooleanField(default=False, editable=False)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "phase_deadline"]),
            models.Index(fields=["status", "reminder_at"]),
            models.Index(fields=["status", "bargaining_until"]),
            # The deadlines nobody holds yet, earliest first: what a deadline process
            # claims (games.core.deadline_claims). A claimed row leaves it.
            models.Index(
                fields=["phase_deadline", "id"],
                name="game_deadline_unclaimed",
                condition=models.Q(
                    status="active",
                    paused_at=None,
                    phase_deadline__isnull=False,
                    deadline_claimed_until=None,
                ),
            ),
            models.Index(
                fields=["bots_due_at"],
                name="game_bots_due",
                condition=models.Q(bots_due_at__isnull=False),
            ),
            # The games an address organizes, in any case: My games' poll, every few
            # seconds per open page (games.core.live).
            models.Index(Lower("organizer_email"), name="game_organizer_lower"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def engine_config(self) -> GameConfig:
        return GameConfig.from_dict(self.config)

    def engine_state(self) -> State:
        return State.from_dict(self.state)

    @property
    def paused_itself(self) -> bool:
        """Paused because nobody moved for ``abandon_after`` phases, not by the
        organizer (a resume clears the count)."""
        return self.paused_at is not None and 0 < self.abandon_after <= self.idle_phases

    @property
    def subject(self) -> str:
        """The game's name as the organizer's alerts begin their subject (a player's
        emails have their own subjects: games.mail.threads)."""
        return f"Sheriff of Nottingham: {user_text.isolate(self.name)}"


REPLY_KEY_LENGTH = 20


def new_reply_key() -> str:
    """A seat's reply address key (``play+<key>@``): lowercase letters and digits
    only, since mail systems may lowercase an address's local part."""
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    return "".join(secrets.choice(alphabet) for _ in range(REPLY_KEY_LENGTH))


class Seat(models.Model):
    # Seats are found by game through unique_seat_index (game, index): no index of its own.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", db_index=False)
    index = models.PositiveSmallIntegerField(help_text="Engine seat number, clockwise from 0.")
    name = models.CharField(max_length=60)
    email = models.EmailField()
    timezone = models.CharField(max_length=64, default="UTC")
    language = models.CharField(max_length=8, default="en")  # one of settings.LANGUAGES

    class Notify(models.TextChoices):
        """Which emails the player wants (games.core.notifications.wanted). An email that
        asks for a move is always sent; the news of one not sent comes with the next."""

        EVERY_EVENT = "all", _("Every event")
        TURN_AND_RESULTS = "results", _("My turn and results")
        TURN_ONLY = "turn", _("My turn only")

    notify = models.CharField(max_length=8, choices=Notify.choices, default=Notify.TURN_AND_RESULTS)
    # A daily summary of what happened, at this hour of the seat's own zone (None: none).
    digest_hour = models.PositiveSmallIntegerField(null=True, blank=True)
    last_digest_on = models.DateField(null=True, blank=True, editable=False)
    # Away from the first to the last of these days, inclusive, in the seat's zone.
    away_from = models.DateField(null=True, blank=True)
    away_until = models.DateField(null=True, blank=True)
    # Bumping the version revokes every link sent before (games.core.links.revoke, which
    # rotates the reply key with it).
    link_version = models.PositiveIntegerField(default=1)
    # The key of the seat's reply address (games.core.replies), and whether a reply
    # from another address than the seat's is taken (the organizer's choice).
    reply_key = models.CharField(max_length=32, unique=True, default=new_reply_key, editable=False)
    reply_from_anyone = models.BooleanField(default=False)
    # When an answer last told the seat that its reply was not used, and when one last
    # told a stranger writing for it: at most one of each an hour, so that no mail loop
    # can start (and a stranger's replies cannot silence the seat's own answers).
    reply_refused_at = models.DateTimeField(null=True, blank=True, editable=False)
    reply_held_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The first event this seat's emails have not told it about yet ("what just happened").
    notified_seq = models.PositiveIntegerField(default=0, editable=False)
    missed_in_a_row = models.PositiveSmallIntegerField(default=0, editable=False)
    # Delivery, as the ESP's tracking webhooks report it (games.mail.tracking).
    last_delivered_at = models.DateTimeField(null=True, blank=True, editable=False)
    last_failure = models.CharField(max_length=300, blank=True, editable=False)
    last_failure_at = models.DateTimeField(null=True, blank=True, editable=False)
    autoreply_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Set on a hard bounce, rejection or complaint: nothing more is sent to this address.
    undeliverable_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Table talk: muted by the organizer for the rest of the game (None: may talk), and
    # how fast the seat may post (games.core.pacing's bucket: messages left, counted when).
    talk_muted_at = models.DateTimeField(null=True, blank=True, editable=False)
    talk_tokens = models.FloatField(default=0, editable=False)
    talk_counted_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The newest message the player has read on the page, and the newest one an email
    # told them: what is newer than both (and not their own) is unread.
    talk_read_id = models.PositiveIntegerField(default=0, editable=False)
    talk_mailed_id = models.PositiveIntegerField(default=0, editable=False)
    # Whether the talk panel shows the game's own lines (a bag passed, an offer made).
    talk_system_lines = models.BooleanField(default=True)

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="unique_seat_index"),
        ]
        # The seats of an address, in any case: My games' poll (games.core.live).
        indexes = [models.Index(Lower("email"), name="seat_email_lower")]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.index + 1})"

    @property
    def bot(self) -> str:
        """The level of the bot that plays this seat, or "" for a person."""
        return self.game.bots.get(str(self.index), "")


# HOT_APPEND_ONLY: the rows a deadline writes by the thousand in the same second (an
# event, an owed email) refer to their game and seat without a foreign-key constraint
# in the database. PostgreSQL checks each such key at commit, about 12 µs a row; for
# 250 games that is some 30 ms of a 110 ms write, and 10,000 same-second deadlines must
# be written within a p50 of 0.5 s (issue 39; bench_deadlines). These rows are only
# ever written beside their game's locked row, no game or seat is deleted but through
# Django, which still cascades (on_delete), and tests/core/test_write_storage.py keeps
# both true.


class GameEvent(models.Model):
    """The engine's events, append-only; replaying them rebuilds the state."""

    # Events are found by game through unique_event_seq (game, seq): no index of its own.
    # No constraint in the database either (HOT_APPEND_ONLY): an event is written only
    # with its game's row, under its lock, and Django deletes a game's events with it.
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        related_name="events",
        db_index=False,
        db_constraint=False,
    )
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="unique_event_seq")]

    def __str__(self) -> str:
        return f"{self.game} — event {self.seq + 1}"


class Submission(models.Model):
    """Every move a seat made, keyed by the form's one-time key: a double submit
    or a retried request finds it here and changes nothing. (A refused move
    changed nothing, so it leaves no row: sent again, it is judged again.)"""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="submissions")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, null=True, blank=True)
    key = models.CharField(max_length=64)
    command = models.JSONField()
    version_after = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "key"], name="unique_submission_key"),
        ]


class OutboxEmail(models.Model):
    """An email owed, recorded in the same transaction as the move that caused
    it. ``key`` (seat and cause) is unique, so a cause never yields two emails."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENDING = "sending", "Being sent"  # handed to the ESP; its answer not yet recorded
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"

    # None: an email to a person, not about one game (a sign-in). Neither key is a
    # constraint in the database (HOT_APPEND_ONLY).
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        related_name="emails",
        null=True,
        blank=True,
        db_constraint=False,
    )
    seat = models.ForeignKey(
        Seat, on_delete=models.SET_NULL, null=True, blank=True, db_constraint=False
    )
    key = models.CharField(max_length=120, unique=True)
    # What to tell the seat (notifications.*); rendered from its view when sent.
    kind = models.CharField(max_length=20, blank=True)
    # What an email to an address other than a seat's tells (notifications.ALERTS),
    # as it was when owed; rendered from these when sent. A seat's: the newest line
    # of table talk its body tells (games.mail.outbox.TALK_TOLD).
    params = models.JSONField(default=dict, blank=True)
    rendered_at = models.DateTimeField(null=True, blank=True)
    # The game version the body tells of; the seat's news start there once it is sent.
    rendered_version = models.PositiveIntegerField(null=True, blank=True)
    to = models.EmailField()
    subject = models.CharField(max_length=200)
    text = models.TextField(blank=True)
    html = models.TextField(blank=True)
    headers = models.JSONField(default=dict)
    attachments = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    provider_message_id = models.CharField(max_length=200, blank=True)
    sending_at = models.DateTimeField(null=True, blank=True)
    # The last attempt may have reached the ESP (its answer was lost): the next one
    # sends the same words under the same Message-ID, so a mail app folds a copy.
    uncertain = models.BooleanField(default=False)
    # Sends made without knowing whether an earlier one arrived: possible duplicates.
    in_doubt = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "next_attempt_at"])]

    def __str__(self) -> str:
        return f"Email to {self.to} ({self.get_status_display().lower()})"


class RecordOpening(models.Model):
    """A superuser opened the full record of a game in play (games.organizer.records): who,
    when and why. Kept for good, and shown on every player's page."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="openings")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    # Still says who once the account is gone.
    username = models.CharField(max_length=150)
    reason = models.CharField(max_length=200)
    opened_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "opened_at"]

    def __str__(self) -> str:
        return f"{self.game} — full record opened by {self.username}"


class SignIn(models.Model):
    """A sign-in asked for by email: the email carries a link, whose page signs in
    only when its button is pressed (a mail scanner's GET uses nothing up), and a
    6-digit code for typing on the device where it was asked for. Either works
    once, within SIGN_IN_MINUTES. The rows also pace the asking, per address and
    per client."""

    email = models.EmailField(db_index=True)  # lower case
    code_hash = models.CharField(max_length=64)
    client = models.CharField(max_length=64, db_index=True)  # a hash of the client's address
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    used_at = models.DateTimeField(null=True, blank=True)
    wrong_codes = models.PositiveSmallIntegerField(default=0)

    class Purpose(models.TextChoices):
        SIGN_IN = "sign_in", "Sign in"
        LINKS = "links", "Resend my links"  # an email with a link to each active seat
        JOIN = "join", "Join by link"  # a seat asked for through a lobby's join link

    # Every purpose counts towards the same pacing: one form would not bypass another.
    purpose = models.CharField(max_length=8, choices=Purpose.choices, default=Purpose.SIGN_IN)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Sign-in for {self.email}"


class Person(models.Model):
    """A person's choices across every game they play: a person is their email
    address (lower case), whether or not they have ever signed in."""

    email = models.EmailField(unique=True)
    language = models.CharField(max_length=8, blank=True)  # blank: as each page was read
    timezone = models.CharField(max_length=64, blank=True)
    # One email a day across all their games, at this hour of their zone (None: none).
    daily_hour = models.PositiveSmallIntegerField(null=True, blank=True)
    last_daily_on = models.DateField(null=True, blank=True, editable=False)
    # "Never invite me again": invitations to this address are not sent.
    no_invitations_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.email


class Lobby(models.Model):
    """A game being gathered by its organizer: its settings and its invitations.
    The Game (and its seats) is created when it starts, with every seat taken."""

    class Status(models.TextChoices):
        OPEN = "open", "Gathering players"
        STARTED = "started", "Started"
        CANCELLED = "cancelled", "Cancelled"

    name = models.CharField(max_length=100)
    organizer_email = models.EmailField(db_index=True)  # lower case
    # How invitations and the join link name the organizer ("ask Alice").
    organizer_name = models.CharField(max_length=60)
    organizer_language = models.CharField(max_length=8, default="en")
    # The engine's configuration without the player count, and the Game's deadline
    # settings (as game_setup.create_game takes them; times as "HH:MM").
    config = models.JSONField()
    timing = models.JSONField(default=dict)
    players = models.PositiveSmallIntegerField()  # seats, 3 to 6
    random_order = models.BooleanField(default=True)  # else: in the order listed
    # Started automatically at this time once every seat is taken (None: by the organizer).
    start_at = models.DateTimeField(null=True, blank=True)
    # The join link's secret; a new one (or join_open off) closes the old link.
    join_token = models.CharField(max_length=64, unique=True, default=secrets.token_urlsafe)
    join_open = models.BooleanField(default=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    game = models.OneToOneField(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="lobby"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "lobbies"
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class Invitation(models.Model):
    """One person asked to a lobby's table: by the organizer's email, or by
    themselves through the join link (they confirm from their email either way).
    The organizer's own seat, when they play, is an accepted invitation."""

    class Status(models.TextChoices):
        INVITED = "invited", "Invited"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        REMOVED = "removed", "Removed"

    class Via(models.TextChoices):
        EMAIL = "email", "Invited by email"
        LINK = "link", "Joined by link"
        ORGANIZER = "organizer", "The organizer"
        BOT = "bot", "A bot"

    lobby = models.ForeignKey(Lobby, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(blank=True)  # lower case; blank for a bot
    bot = models.CharField(max_length=20, blank=True)  # a bot's level (games.bots.LEVELS)
    name = models.CharField(max_length=60)
    via = models.CharField(max_length=10, choices=Via.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.INVITED)
    # The secret of the invitation's link (its page: accept or decline).
    token = models.CharField(max_length=64, unique=True, default=secrets.token_urlsafe)
    created_at = models.DateTimeField(default=timezone.now)
    answered_at = models.DateTimeField(null=True, blank=True)
    position = models.PositiveSmallIntegerField(default=0)  # the order listed
    sends = models.PositiveSmallIntegerField(default=0)  # invitation emails owed so far
    last_sent_at = models.DateTimeField(null=True, blank=True)
    language = models.CharField(max_length=8, default="en")
    # Last in the class: the field's name hides django.utils.timezone below it.
    timezone = models.CharField(max_length=64, default="UTC")

    class Meta:
        ordering = ["lobby", "position", "pk"]
        constraints = [
            # One live invitation per address and lobby: nobody is invited twice
            # (bots have no address).
            models.UniqueConstraint(
                fields=["lobby", "email"],
                condition=~models.Q(status="removed") & ~models.Q(email=""),
                name="one_invitation_per_address",
            ),
        ]
        indexes = [models.Index(fields=["email"], name="invitation_email")]  # My games' poll

    def __str__(self) -> str:
        return f"{self.name} <{self.email}>"
