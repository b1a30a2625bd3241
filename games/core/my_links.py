"""Resend my links: a person who lost their emails asks, by address, for one email
with a link to each seat they hold in a game in play.

The asking is paced with the sign-ins (a SignIn row of purpose LINKS, counted and
recorded in one step by sign_in.take_ask), so neither form lets anyone flood an
inbox the other would not.
The answer is the same whether the address plays here or not, and whether it
was paced: only the email, owed to an address with seats, differs.
"""

from django.db import transaction
from django.utils import timezone

from games.core import notifications, sign_in
from games.models import Game, Seat, SignIn


def seats_in_play(email: str) -> list:
    """The seats at ``email`` (in any case) in games in play, each with its game,
    the oldest game first."""
    seats = Seat.objects.filter(email__iexact=email, game__status=Game.Status.ACTIVE)
    return list(seats.select_related("game").order_by("game__created_at", "game_id", "index"))


def ask(email: str, client: str, language: str, now=None) -> bool:
    """Owe ``email`` (already checked as an address) its links, unless paced or it
    holds no seat in play. Returns whether an email is owed; the page says the
    same either way."""
    now = now or timezone.now()
    email = email.strip().lower()
    with transaction.atomic():
        # Used at once: it paces, and never signs anyone in.
        asked = sign_in.take_ask(email, client, now, SignIn.Purpose.LINKS, used_at=now)
        if asked is None:
            return False
        if not Seat.objects.filter(email__iexact=email, game__status=Game.Status.ACTIVE).exists():
            return False
        notifications.record_links(asked, language)
    return True
