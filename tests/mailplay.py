"""Playing through the emails: read links out of sent messages, load the page
they lead to, read its forms, fill one in and post it — as a player would."""

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlparse

from django.core import mail

from games import outbox
from games.models import OutboxEmail

LINK = re.compile(r"https?://[^\s\"'<>]+/play/[^\s\"'<>]+/")


def deliver_pending() -> int:
    """What the Celery tasks do after commit: send every owed email."""
    sent = 0
    for pk in OutboxEmail.objects.filter(status="pending").values_list("pk", flat=True):
        sent += outbox.deliver(pk) == "sent"
    return sent


def inbox(address: str) -> list:
    return [m for m in mail.outbox if address in m.to]


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


class FormReader(HTMLParser):
    def __init__(self):
        super().__init__()
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("method", "get").lower() == "post":
            self.current = Form(action=a.get("action", ""))
            self.forms.append(self.current)
        if self.current is None:
            return
        kind = a.get("type", "text")
        name = a.get("name")
        if tag == "input" and name:
            if kind == "checkbox":
                self.current.checkboxes.setdefault(name, []).append(a.get("value", "on"))
            elif kind == "radio":
                self.current.radios.setdefault(name, []).append(a.get("value", ""))
            elif kind == "submit":
                self.current.submit[name] = a.get("value", "")
            else:
                self.current.fields[name] = a.get("value", "")
        elif tag == "button" and name:
            self.current.submit[name] = a.get("value", "")
        elif tag == "textarea" and name:
            self.current.fields[name] = ""
        elif tag == "select" and name:
            self.select = name
            self.current.selects[name] = []
        elif tag == "option" and self.select:
            self.current.selects[self.select].append(a.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None
        elif tag == "select":
            self.select = None


def forms_in(html: str) -> list:
    reader = FormReader()
    reader.feed(html)
    return reader.forms
