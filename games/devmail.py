"""Development email backend: keeps every message in the database for the
/dev/mail/ pages, so a newcomer can play the demo game from the players'
mailboxes without any mail server."""

from django.core.mail.backends.base import BaseEmailBackend


class DevMailboxBackend(BaseEmailBackend):
    def send_messages(self, email_messages) -> int:
        from games.models import DevMail

        for message in email_messages:
            html = ""
            for content, mimetype in getattr(message, "alternatives", []):
                if mimetype == "text/html":
                    html = content
            DevMail.objects.create(
                to=", ".join(message.to),
                subject=message.subject,
                text=message.body,
                html=html,
                headers=dict(message.extra_headers),
            )
        return len(email_messages)
