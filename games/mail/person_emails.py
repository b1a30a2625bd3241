"""Emails to a person about all their games rather than one: their links, sent
again when they ask ("resend my links"), and their one email a day across all
their games. Both are owed as rows naming only the address (the admin lists
none of them) and written when sent, from the person's games as they are then.
"""

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.core import links, my_links, notifications, people
from games.mail import threads
from games.present import my_games
from games.words import i18n

ENGINE = "jinja"


def _email(to: str, subject: str, template: str, context: dict, key: str) -> dict:
    """A short email (short.html) with a Message-ID of its own."""
    message_id = f"<{key.replace(':', '.')}@{threads.domain()}>"
    return {
        "to": to,
        "subject": subject,
        "text": render_to_string(f"{template}.txt", context, using=ENGINE),
        "html": render_to_string(f"{template}.html", context, using=ENGINE),
        "headers": {"Message-ID": message_id, **threads.AUTOMATIC},
    }


def render_links(to: str, params: dict, key: str) -> dict:
    """A link to each seat the address holds in a game in play, in the language
    the asker read the page in."""
    seats = [
        {"game": seat.game.name, "name": seat.name, "url": links.seat_url(seat)}
        for seat in my_links.seats_in_play(to)
    ]
    with translation.override(params.get("language") or settings.LANGUAGE_CODE):
        context = {"seats": seats, "my_games_url": _my_games_url()}
        return _email(to, _("Your links to your games"), "links_email", context, key)


def render_daily(to: str, params: dict, key: str) -> dict:
    """The day's email across all the person's games: My games' rows, with links,
    in their language and zone."""
    with i18n.as_seat(people.person(to)):
        found = my_games.my_games(to, base=settings.SITE_URL)
        waiting = found.your_move()
        if waiting:
            subject = ngettext(
                "Your games today: %(count)d waits for your move",
                "Your games today: %(count)d wait for your move",
                waiting,
            ) % {"count": waiting}
        else:
            subject = _("Your games today: none waits for your move")
        context = {"sections": found.sections(), "my_games_url": _my_games_url()}
        return _email(to, subject, "daily_email", context, key)


def _my_games_url() -> str:
    return settings.SITE_URL + reverse("games:my-games")


RENDERERS = {notifications.LINKS: render_links, notifications.DAILY: render_daily}
