"""Development email backend: keeps every message in the database for the
/dev/mail/ pages, so a newcomer can play the demo game from the players'
mailboxes without any mail server."""

import base64
from email.mime.base import MIMEBase

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
                attachments=[stored(a) for a in message.attachments],
            )
        return len(email_messages)


def stored(attachment) -> dict:
    """An attachment as the mailbox keeps it: text as it is, bytes in base64."""
    if isinstance(attachment, MIMEBase):
        filename, mimetype = attachment.get_filename(), attachment.get_content_type()
        content = attachment.get_payload(decode=True)
    else:  # (filename, content, mimetype)
        filename, content, mimetype = attachment
    if isinstance(content, str):
        return {"filename": filename, "mimetype": mimetype, "content": content}
    encoded = base64.b64encode(content).decode("ascii")
    return {"filename": filename, "mimetype": mimetype, "content": encoded, "base64": True}
