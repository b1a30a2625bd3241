"""Emails about no game in play, to a person rather than a seat: the sign-in, an
invitation to a lobby, the organizer's "every seat is taken", their links sent
again ("resend my links") and their one email a day across all their games. Each
is rendered when sent, from what its row names (its params) and the person's
games as they are then, in the language the person read the page in or the
organizer's."""

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.core import links, lobbies, my_links, notifications, people
from games.mail import threads
from games.mail.emails import render_sign_in, short_email
from games.models import Invitation, Lobby
from games.present import my_games, pace
from games.words import i18n, user_text


def render_for_person(kind: str, to: str, params: dict, key: str) -> dict:
    if kind == notifications.SIGN_IN:
        return render_sign_in(to, params, key)
    if kind == notifications.INVITATION:
        return render_invitation(params, key)
    if kind == notifications.TABLE_FULL:
        return render_table_full(params, key)
    if kind == notifications.LINKS:
        return render_links(to, params, key)
    if kind == notifications.DAILY:
        return render_daily(to, key)
    raise ValueError(f"no person email of kind {kind!r}")


def _headers(key: str) -> dict:
    return {"Message-ID": f"<{key.replace(':', '.')}@{threads.domain()}>", **threads.AUTOMATIC}


def table_facts(lobby: Lobby) -> dict:
    """What an invitation tells of its table: nothing the players choose later."""
    seated = lobby.invitations.filter(status=Invitation.Status.ACCEPTED)
    return {
        "lobby": lobby,
        "organizer": user_text.isolate(lobby.organizer_name),
        "game": user_text.isolate(lobby.name),
        "pace": pace.summary(lobby.timing, lobby.config.get("edition", 2)),
        "seats": lobby.players,
        "seated": [user_text.isolate(name) for name in seated.values_list("name", flat=True)],
    }


def render_invitation(params: dict, key: str) -> dict:
    invitation = Invitation.objects.select_related("lobby").get(pk=params["invitation"])
    lobby = invitation.lobby
    url = settings.SITE_URL + reverse("games:invitation", args=[invitation.token])
    never = settings.SITE_URL + reverse("games:never-invite", args=[invitation.token])
    with translation.override(invitation.language or settings.LANGUAGE_CODE):
        context = {
            **table_facts(lobby),
            "url": url,
            "never_url": never,
            "by_link": invitation.via == Invitation.Via.LINK,
            "name": user_text.isolate(invitation.name),
        }
        words = {"organizer": context["organizer"], "game": context["game"]}
        if context["by_link"]:
            subject = _("Confirm your seat at %(game)s") % words
        else:
            subject = _("%(organizer)s invites you to play Sheriff of Nottingham: %(game)s") % words
        headers = {
            **_headers(key),
            # RFC 8058: the mail app's one-click "unsubscribe" never invites again.
            "List-Unsubscribe": f"<{never}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
        return short_email(invitation.email, subject, "invitation_email", context, headers)


def render_table_full(params: dict, key: str) -> dict:
    lobby = Lobby.objects.get(pk=params["lobby"])
    url = settings.SITE_URL + reverse("games:lobby", args=[lobby.pk])
    with translation.override(lobby.organizer_language or settings.LANGUAGE_CODE):
        context = {**table_facts(lobby), "url": url, "taken": lobbies.taken(lobby)}
        subject = _("Every seat is taken: start %(game)s") % {"game": context["game"]}
        return short_email(
            lobby.organizer_email, subject, "table_full_email", context, _headers(key)
        )


def render_links(to: str, params: dict, key: str) -> dict:
    """A link to each seat the address holds in a game in play, in the language
    the asker read the page in."""
    seats = [
        {"game": seat.game.name, "name": seat.name, "url": links.seat_url(seat)}
        for seat in my_links.seats_in_play(to)
    ]
    with translation.override(params.get("language") or settings.LANGUAGE_CODE):
        context = {"seats": seats, "my_games_url": _my_games_url()}
        return short_email(to, _("Your links to your games"), "links_email", context, _headers(key))


def render_daily(to: str, key: str) -> dict:
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
        return short_email(to, subject, "daily_email", context, _headers(key))


def _my_games_url() -> str:
    return settings.SITE_URL + reverse("games:my-games")
