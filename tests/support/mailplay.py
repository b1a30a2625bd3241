"""Playing through the emails: read links out of sent messages, load the page
they lead to, read its forms, fill one in and post it — as a player would."""

import re
from dataclasses import dataclass, field
from urllib.parse import urlparse

from django.core import mail

from games.mail import outbox
from games.models import OutboxEmail
from tests.support.fixtures_pages import forms_of

LINK = re.compile(r"https?://[^\s\"'<>]+/play/[^\s\"'<>]+/")


def deliver_pending() -> int:
    """What the Celery tasks do after commit: send every owed email."""
    sent = 0
    for pk in OutboxEmail.objects.filter(status="pending").values_list("pk", flat=True):
        sent += outbox.deliver(pk) == "sent"
    return sent


def inbox(address: str) -> list:
    return [m for m in mail.outbox if address in m.to]


def mails_by_name() -> dict:
    """Deliver what is owed; the sent emails by their recipient's capitalized name,
    and an empty outbox for the next step."""
    deliver_pending()
    found = {m.to[0].split("@")[0].capitalize(): m for m in mail.outbox}
    mail.outbox.clear()
    return found


def preheader(message) -> str:
    """The hidden first line of an email's HTML, as a mail app lists it."""
    html = html_of(message)
    start = html.index('overflow:hidden;">') + len('overflow:hidden;">')
    return html[start : html.index("</div>", start)]


def html_of(message) -> str:
    return next((c for c, kind in getattr(message, "alternatives", []) if kind == "text/html"), "")


def seat_link(message) -> str:
    """The seat link of an email, from its plain text; the HTML must carry the same link."""
    found = LINK.findall(message.body)
    assert found, f"no seat link in email to {message.to}"
    assert found[0] in html_of(message)
    return urlparse(found[0]).path


@dataclass
class Form:
    action: str
    fields: dict = field(default_factory=dict)  # name -> value of hidden/text/number inputs
    checkboxes: dict = field(default_factory=dict)  # name -> [values]
    radios: dict = field(default_factory=dict)  # name -> [values]
    selects: dict = field(default_factory=dict)  # name -> [option values]
    submit: dict = field(default_factory=dict)  # name -> value of the submit buttons

    @property
    def move(self) -> str:
        return self.fields.get("move") or self.submit.get("move", "")


def forms_in(html: str) -> list:
    """The page's forms, read by the page tests' reader, grouped by input kind."""
    forms = []
    for read in forms_of(html):
        form = Form(action="")
        for name, value, kind, _ in read.fields:
            if not name:
                continue
            if kind == "checkbox":
                form.checkboxes.setdefault(name, []).append(value or "on")
            elif kind == "radio":
                form.radios.setdefault(name, []).append(value)
            elif kind == "select":
                form.selects[name] = read.options.get(name, [])
            elif kind == "submit":
                form.submit[name] = value
            else:
                form.fields[name] = value
        forms.append(form)
    return forms
