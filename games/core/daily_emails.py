"""One email a day across all a person's games, at the hour they chose in their
own zone (Person.daily_hour): beat's ``games.tasks.send_daily_emails`` owes them.
While it is on, the daily summaries of their seats are not sent
(notifications.record_digests); the emails that ask for a move still are.

Owed as a row only, about no one game: it is written when sent, from My games'
rows as they are then (games/mail/person_emails.py).
"""

from itertools import groupby

from django.db.models.functions import Lower

from games.core import notifications
from games.models import Game, Person, Seat


def record_daily(now) -> list:
    """The daily emails due now: each person whose hour has come today in their
    zone (or later that day, should beat have been down at the hour), who has not
    had today's and plays or organizes a game in play at an address that takes mail."""
    due = []
    for person in Person.objects.filter(daily_hour__isnull=False).exclude(email=""):
        local = now.astimezone(notifications.local_zone(person.timezone))
        if local.hour >= person.daily_hour and person.last_daily_on != local.date():
            due.append((local.date(), person))
    if not due:
        return []
    addresses = {person.email for _today, person in due}
    in_play = _in_play(addresses)
    for today, found in groupby(sorted(due, key=lambda d: d[0]), key=lambda d: d[0]):
        Person.objects.filter(pk__in=[p.pk for _t, p in found]).update(last_daily_on=today)
    owed = [
        notifications.to_a_person(
            person.email, notifications.DAILY, f"daily:{person.pk}:{today:%Y%m%d}"
        )
        for today, person in due
        if person.email in in_play
    ]
    return notifications.save_owed(owed)


def _in_play(addresses: set) -> set:
    """Of these (lower-case) addresses, those with a game in play, as a seat or as
    its organizer, and whose mail is not refused."""
    active = Game.objects.filter(status=Game.Status.ACTIVE, practice=False)  # never mailed
    seats = Seat.objects.filter(game__in=active).annotate(address=Lower("email"))
    seats = seats.filter(address__in=addresses)
    playing = set(seats.values_list("address", flat=True))
    refused = set(seats.filter(undeliverable_at__isnull=False).values_list("address", flat=True))
    organizers = active.annotate(address=Lower("organizer_email")).filter(address__in=addresses)
    return (playing | set(organizers.values_list("address", flat=True))) - refused
