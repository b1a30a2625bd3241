"""Web Push: each person's devices that asked for notifications, and the pushes owed
to them, recorded in the move's own transaction and sent by a worker (games.push),
as the email outbox is (``OutboxEmail``)."""

from django.db import models

from games.models.play import Game, Seat

# What a person may ask to be told on a device (games.core.pushes words each one).
PUSH_KINDS = ("your_move", "deal", "talk", "game_over")


def all_kinds() -> list:
    return list(PUSH_KINDS)


class PushSubscription(models.Model):
    """One device (a browser's push subscription) of one person: a person is their
    email address, lower case, so a subscription made from one seat's settings
    serves every seat of theirs. The endpoint is the push service's address for
    this device; p256dh and auth are the device's keys, which encrypt every push.
    A push service's 404 or 410 deletes it (games.push.delivery)."""

    email = models.EmailField(db_index=True)  # lower case
    # Push services' endpoints run to a few hundred characters; unique through its hash
    # (an index on the text itself would cap its length).
    endpoint = models.URLField(max_length=2000)
    endpoint_sha256 = models.CharField(max_length=64, unique=True, editable=False)
    p256dh = models.CharField(max_length=100)  # base64url, an uncompressed P-256 point
    auth = models.CharField(max_length=32)  # base64url, 16 random bytes
    kinds = models.JSONField(default=all_kinds)  # of PUSH_KINDS
    language = models.CharField(max_length=8, default="en")  # the notifications' words
    device = models.CharField(max_length=60, blank=True)  # "Chrome on Android", to tell apart
    created_at = models.DateTimeField(auto_now_add=True)
    renewed_at = models.DateTimeField()  # the app last opened on this device (or subscribed)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Push subscription of {self.email} ({self.device or 'a device'})"


class OutboxPush(models.Model):
    """A push owed to one subscription, recorded in the same transaction as the move
    (or deadline, or line of talk) that caused it. ``key`` (subscription and cause) is
    unique, so a cause yields one push a device. Its payload is written when owed and
    names the game and the kind only (games.core.pushes)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENDING = "sending", "Being sent"  # handed to the push service; answer not recorded
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"
        GONE = "gone", "Subscription gone"  # the push service said the device is gone

    # SET_NULL: the row stays, to be counted, once its device is gone. No constraint in
    # the database: a move may owe a push to a subscription deleted in the same instant,
    # and must not fail for it (the sender finds none: the row is marked gone).
    subscription = models.ForeignKey(
        PushSubscription,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="pushes",
        db_constraint=False,
    )
    # Written beside their game's locked row, by the thousand at a deadline, as the
    # outbox's emails are (HOT_APPEND_ONLY in games/models/play.py).
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="pushes", db_constraint=False
    )
    seat = models.ForeignKey(
        Seat, on_delete=models.SET_NULL, null=True, blank=True, db_constraint=False
    )
    kind = models.CharField(max_length=12)  # of PUSH_KINDS
    key = models.CharField(max_length=120, unique=True)
    # The Web Push Topic: one per seat, so a newer push for the seat replaces a stale
    # one the push service still holds.
    topic = models.CharField(max_length=32)
    payload = models.JSONField()  # {"title", "body", "url", "tag", "lang"}
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    sending_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    # The last attempt may have reached the push service (its answer was lost).
    uncertain = models.BooleanField(default=False)
    # Sends made without knowing whether an earlier one arrived: possible duplicates.
    in_doubt = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)  # the push service's 201

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "next_attempt_at"])]

    def __str__(self) -> str:
        return f"Push {self.kind} ({self.get_status_display().lower()})"
