"""The fault drill's table talk (games.management.commands.chaos): lines posted
through a seat page's talk form, and replies posted to the inbound webhook as
Postmark posts them (sent again after a 5xx or no answer, as an ESP does). Each
line's text is unique, so that once the drill is over each is looked for in the
database: a line the site took, or answered with a 5xx, and that is not there is
lost."""

import secrets
from collections import Counter
from dataclasses import dataclass, field

PAGE, WEBHOOK = "page", "webhook"
ESP_TRIES = 3  # how often the drill's ESP posts a reply whose webhook failed
NO_ANSWER = 0  # the status kept for a request that got no answer at all
POSTED = "talk_posted"  # InboundMessage.Outcome.TALK_POSTED


@dataclass
class Line:
    """A line of talk the drill sent: its text, how, each answer's status (in order)
    and, for a reply, its Message-ID."""

    text: str
    channel: str
    message_id: str = ""
    answers: list = field(default_factory=list)

    def taken(self, outcome: str | None) -> bool:
        """Did the site say it took the line? The page redirects to the table; the
        webhook answers 200 having posted it (``outcome``: its InboundMessage's, None
        without one; a 200 with no row at all took it and lost it)."""
        if not self.answers:
            return False
        last = self.answers[-1]
        if self.channel == PAGE:
            return last in (302, 303)
        return last == 200 and outcome in (POSTED, None)

    def failed(self) -> bool:
        return any(status >= 500 for status in self.answers)


def new_line(channel: str, number: int) -> Line:
    """A line no player would write by chance, and that no reply reads as a move."""
    token = secrets.token_hex(4)
    text = f"Drill talk {number} ({channel}), marked {token}."
    message_id = f"<drill-{number}-{token}@drill.invalid>" if channel == WEBHOOK else ""
    return Line(text, channel, message_id)


def reply_payload(line: Line, name: str, email: str, reply_key: str, domain: str) -> dict:
    """The JSON Postmark's inbound webhook posts for a reply of ``line``'s text."""
    to = f"play+{reply_key}@{domain}"
    return {
        "FromName": name,
        "From": email,
        "FromFull": {"Email": email, "Name": name, "MailboxHash": ""},
        "To": to,
        "ToFull": [{"Email": to, "Name": "", "MailboxHash": ""}],
        "OriginalRecipient": to,
        "Subject": "Re: Sheriff of Nottingham",
        "MessageID": secrets.token_hex(8),
        "Date": "Sat, 28 Nov 2026 10:00:00 +0000",
        "TextBody": line.text,
        "HtmlBody": "",
        "Headers": [
            {"Name": "Return-Path", "Value": f"<{email}>"},
            {"Name": "Message-ID", "Value": line.message_id},
        ],
        "Attachments": [],
    }


def tally(lines: list, kept: Counter, outcomes: dict) -> Counter:
    """What became of the lines: ``kept`` counts the database's copies of each text,
    ``outcomes`` gives each reply's InboundMessage outcome by Message-ID."""
    counts = Counter()
    for line in lines:
        copies = kept[line.text]
        outcome = outcomes.get(line.message_id) if line.channel == WEBHOOK else None
        counts[f"sent by {line.channel}"] += 1
        counts["kept"] += copies > 0
        counts["doubled"] += copies > 1
        counts["5xx answered"] += line.failed()
        if copies == 0 and (line.taken(outcome) or line.failed()):
            counts["lost"] += 1
        elif copies == 0 and line.answers[-1:] == [NO_ANSWER]:
            counts["unanswered, not kept"] += 1
        elif copies == 0:
            counts["refused"] += 1
    return counts
