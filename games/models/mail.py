"""The development mailbox's messages and the ESPs' delivery reports."""

from django.db import models

from games.models.play import OutboxEmail


class DevMail(models.Model):
    """Messages caught by the development mailbox backend (never used in production)."""

    to = models.TextField()
    subject = models.CharField(max_length=200)
    text = models.TextField()
    html = models.TextField(blank=True)
    headers = models.JSONField(default=dict)
    # [{"filename", "mimetype", "content"}]; content is text, or base64 when "base64" is set.
    attachments = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]


class DeliveryEvent(models.Model):
    """One tracking event an ESP reported (delivered, bounced, ...), stored once:
    ESPs resend webhooks, so (esp, event_id) is unique."""

    esp = models.CharField(max_length=30)
    event_id = models.CharField(max_length=200)
    event_type = models.CharField(max_length=20)
    message_id = models.CharField(max_length=200, blank=True)
    recipient = models.EmailField(blank=True)
    reject_reason = models.CharField(max_length=20, blank=True)
    description = models.CharField(max_length=300, blank=True)
    occurred_at = models.DateTimeField(null=True, blank=True)
    received_at = models.DateTimeField(auto_now_add=True)
    email = models.ForeignKey(
        OutboxEmail, on_delete=models.SET_NULL, null=True, blank=True, related_name="events"
    )

    class Meta:
        ordering = ["-received_at"]
        constraints = [
            models.UniqueConstraint(fields=["esp", "event_id"], name="unique_delivery_event"),
        ]

    def __str__(self) -> str:
        return f"{self.event_type} for {self.recipient or 'an email'}"
