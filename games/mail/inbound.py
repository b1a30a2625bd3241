"""anymail's inbound signal: an email to a seat's reply address, read into plain
values and handed to games.core.replies (which decides everything).

The webhook (games.mail.webhooks) answers a 400 for a body anymail cannot read; once
the message is read, bad input (any bytes in headers or body) is recorded by the
core, never raised; only a failure of our own (the database) is a 500, so that the
ESP sends the message again.
"""

import contextvars
import logging
from email.utils import collapse_rfc2231_value

from anymail.signals import inbound
from django.dispatch import receiver

from games.core import replies
from games.mail import reply_moves
from games.words.flowed_text import unflow

log = logging.getLogger(__name__)

# Set once the message is read and being handled (games.mail.webhooks: a 500 after).
HANDLING = contextvars.ContextVar("inbound_handling", default=False)
# The headers that may carry a reply address, besides To and Cc.
RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")


@receiver(inbound)
def on_inbound(sender, event, esp_name: str, **kwargs) -> None:
    received = read(event.message, esp_name)
    HANDLING.set(True)
    replies.handle(received, read_move=reply_moves.read_move)


def read(message, esp: str) -> replies.Received:
    """The message as games.core.replies reads it; whatever cannot be read is left empty."""
    headers = tuple(_headers(message))
    recipients = [value for name, value in headers if name.title() in RECIPIENT_HEADERS]
    envelope = _safe(lambda: message.envelope_recipient)
    return replies.Received(
        esp=esp,
        message_id=_header(headers, "Message-ID"),
        recipients=tuple(recipients + ([envelope] if envelope else [])),
        from_header=_header(headers, "From"),
        headers=headers,
        envelope_sender=_safe(lambda: message.envelope_sender),
        date=_header(headers, "Date"),
        text=str(_safe(lambda: plain_text(message)) or ""),
        html=str(_safe(lambda: message.html) or ""),
    )


def plain_text(message) -> str | None:
    """The first text/plain part, as anymail's ``message.text`` finds it, with its
    soft line breaks joined when the part says format=flowed (RFC 3676): a long line
    written in Thunderbird or Apple Mail arrives as one line, not cut at 72 columns."""
    for part in message.walk():
        if part.get_content_type() == "text/plain" and not part.is_attachment():
            text = part.get_content_text()
            if text is None or _param(part, "format") != "flowed":
                return text
            return unflow(text, delsp=_param(part, "delsp") == "yes")
    return None


def _param(part, name: str) -> str:
    """A Content-Type parameter in lower case, "" if absent or unreadable (the text
    is then read as it came)."""
    try:
        value = part.get_param(name)
        return str(collapse_rfc2231_value(value)).strip().lower() if value else ""
    except Exception:
        return ""


def _headers(message):
    """(name, value) pairs as strings; a value that cannot be decoded is kept raw."""
    try:
        raw_items = list(message.raw_items())
    except Exception:
        return
    for name, raw in raw_items:
        try:
            value = str(message.policy.header_fetch_parse(name, raw))
        except Exception:
            value = str(raw)
        yield str(name), value


def _header(headers, name: str) -> str:
    wanted = name.lower()
    return next((value for key, value in headers if key.lower() == wanted), "")


def _safe(read_it):
    try:
        return read_it()
    except Exception as error:  # a part that cannot be decoded: read as absent
        log.info("inbound: unreadable part (%s)", type(error).__name__)
        return None
