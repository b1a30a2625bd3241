"""The table talk (its messages and their reports) and the replies received by
email (games.core.talk, games.core.replies)."""

import secrets

from django.db import models
from django.utils import timezone

from games.models.play import Game, Seat


def new_talk_ref() -> str:
    return secrets.token_urlsafe(9)


class TalkMessage(models.Model):
    """A line of the table's talk, public or private (games.core.talk). A hidden message stays
    in the record, with who hid it and why; players see only that it was hidden."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="talk_messages")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="talk_messages")
    # What pages and forms name it by: random, so that no gap between two numbers a
    # player sees tells them a private message was written in between.
    ref = models.CharField(max_length=16, unique=True, default=new_talk_ref, editable=False)
    # A private message's one reader (None: the whole table reads it).
    to_seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, null=True, blank=True, related_name="talk_received"
    )
    text = models.TextField()
    # What it answers, from the phase it was written in: an offer (by its number) or a
    # seat's declaration (by the seat's index). Empty: nothing.
    quote_kind = models.CharField(max_length=12, blank=True)
    quote_ref = models.PositiveIntegerField(null=True, blank=True)
    # When it was written, as the game stood: "round 2, Inspection".
    round = models.PositiveSmallIntegerField(default=0)
    phase_kind = models.CharField(max_length=20, blank=True)
    # The game's events so far when it was written: the game's own lines with a
    # lower seq came before it (the panel puts them among the talk).
    after_seq = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.EmailField(blank=True)
    hidden_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["game", "-id"]
        indexes = [models.Index(fields=["game", "-id"])]

    def __str__(self) -> str:
        return f"Talk #{self.pk} by {self.seat_id}"


class TalkReport(models.Model):
    """A player's report of a message, for the organizer to look at."""

    message = models.ForeignKey(TalkMessage, on_delete=models.CASCADE, related_name="reports")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="talk_reports")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "seat"], name="one_report_per_seat"),
        ]

    def __str__(self) -> str:
        return f"Report of talk #{self.message_id} by {self.seat_id}"


class InboundMessage(models.Model):
    """An email received at a seat's reply address, and what became of it
    (games.core.replies): kept once per Message-ID, so that a resent webhook does
    nothing twice. ``detail`` is for operators only, never shown to a player."""

    class Outcome(models.TextChoices):
        TALK_POSTED = "talk_posted", "Posted to the talk"
        MOVE_MADE = "move_made", "A move made"
        REFUSED = "refused", "Refused"
        HELD_SENDER = "held_sender", "Held: not the seat's address"
        IGNORED_AUTOMATED = "ignored_automated", "Ignored: automated mail"
        DUPLICATE = "duplicate", "Duplicate"
        UNKNOWN_KEY = "unknown_key", "Unknown reply address"

    message_id = models.CharField(max_length=255, unique=True)
    esp = models.CharField(max_length=30, blank=True)
    received_at = models.DateTimeField(default=timezone.now)
    seat = models.ForeignKey(
        Seat, on_delete=models.SET_NULL, null=True, blank=True, related_name="inbound_messages"
    )
    from_address = models.CharField(max_length=254, blank=True)
    outcome = models.CharField(max_length=20, choices=Outcome.choices)
    detail = models.CharField(max_length=300, blank=True)
    text = models.TextField(blank=True)

    class Meta:
        ordering = ["-received_at"]

    def __str__(self) -> str:
        return f"{self.get_outcome_display()} from {self.from_address or 'nobody'}"
