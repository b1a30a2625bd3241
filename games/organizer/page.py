"""The organizer's own page for their game, on the players' site and phone-first:
where the game stands, its players and their email delivery, the log as a
spectator knows it, and the controls (pause, resume, extend, advance now, replace
a player, hand a seat to a bot, cancel, resend an email), each through
games.organizer.control_actions as the admin's are, with the same effects and the
same emails to the players; once the game is over, a new game with the same players
(play_again).

Only a signed-in person whose address is the game's organizer's may see or use
it. Anyone else signed in gets the same "not found" as for a game that does not
exist; someone not signed in is sent to sign in first, whatever the number.
GET shows and changes nothing; a control is a POST (CSRF-checked) at the version
the page showed, then Post/Redirect/Get with a message; a refused one shows the
page again, with what was typed, and changes nothing.
"""

from dataclasses import dataclass
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from games.models import Game, Person, Seat
from games.organizer import control_actions, labels, play_again, reply_senders, talk_moderation
from games.organizer.overview import overview
from games.present import clock, live_poll
from games.present.page_language import browser_language, in_language
from games.words import i18n

# What a refused form sends back into the page: its fields, cut to a field's length.
SENT_FIELDS = (
    *("action", "seat", "name", "email", "timezone", "hours", "message", "reason", "level"),
)
SENT_LENGTH = 254


@dataclass(frozen=True)
class Organizer:
    """Who reads the page: their own seat when they play in the game, the language
    the page reads in and the zone its times are given in."""

    seat: Seat | None
    language: str
    zone: str


def _organizer(request, game: Game) -> Organizer:
    """The language: the person's own choice across games, else their seat's in
    this game, else the browser's. The zone: their seat's, else the game's
    deadline zone."""
    email = request.user.email
    seat = game.seats.filter(email__iexact=email).order_by("index").first()
    person = Person.objects.filter(email__iexact=email).first()
    chosen = person.language if person is not None else ""
    if chosen in dict(settings.LANGUAGES):
        language = chosen
    elif seat is not None:
        language = i18n.language_of(seat)
    else:
        language = browser_language(request)
    zone = seat.timezone if seat is not None else game.deadline_timezone
    return Organizer(seat=seat, language=language, zone=zone)


def _organized_game(request, pk: int) -> Game | None:
    """The game ``pk`` if the signed-in person organizes it (their address, in any
    case); None for any other game and for a game that does not exist."""
    email = (request.user.email or "").strip()
    if not email:  # a blank organizer address is nobody's
        return None
    return Game.objects.filter(pk=pk, organizer_email__iexact=email).first()


def _sign_in_first(pk: int):
    """The sign-in page, which comes back here: the same for any number."""
    back = reverse("games:organize", args=[pk])
    return redirect(f"{reverse('games:sign-in')}?{urlencode({'next': back})}")


def _not_found(request):
    context = {"address": request.user.email, "sign_out_url": reverse("games:sign-out")}
    return in_language(request, "organize_not_found.html", context, status=404)


@never_cache
@require_http_methods(["GET", "HEAD"])
def organize(request, pk: int):
    if not request.user.is_authenticated:
        return _sign_in_first(pk)
    game = _organized_game(request, pk)
    if game is None:
        return _not_found(request)
    return _show(request, game, _organizer(request, game))


@never_cache
@require_POST
def control(request, pk: int):
    """One control, said in the organizer's language: back to the page with its
    result, or the page again with what was wrong (400) or why nothing was done
    (409: the game changed meanwhile, or is no longer in play)."""
    if not request.user.is_authenticated:
        return _sign_in_first(pk)
    game = _organized_game(request, pk)
    if game is None:
        return _not_found(request)
    organizer = _organizer(request, game)
    with translation.override(organizer.language):
        action = request.POST.get("action", "")
        if action in talk_moderation.ACTIONS:
            outcome = talk_moderation.perform(game, request.POST, request.user.email)
        elif action in reply_senders.ACTIONS:
            outcome = reply_senders.perform(game, request.POST, request.user)
        elif action in play_again.ACTIONS:
            outcome = play_again.perform(game, request.POST)
        else:
            outcome = control_actions.perform(game, request.POST, organizer.zone, clock.deadline)
    if outcome.done:
        messages.success(request, outcome.message)
        return redirect("games:organize", pk=outcome.game_id or game.pk)
    messages.error(request, outcome.message)
    game.refresh_from_db()
    sent = {name: request.POST.get(name, "")[:SENT_LENGTH] for name in SENT_FIELDS}
    if action in play_again.ACTIONS:
        sent.update(play_again.sent_back(request.POST))
    return _show(request, game, organizer, sent=sent, status=outcome.status)


def _show(request, game: Game, organizer: Organizer, sent: dict | None = None, status=200):
    with translation.override(organizer.language):
        context = _context(game, organizer, sent or dict.fromkeys(SENT_FIELDS, ""))
    context["live"] = live_poll.organizer_poll(game.pk, request.user.email)
    return in_language(request, "organize.html", context, status, organizer.language)


def _context(game: Game, organizer: Organizer, sent: dict) -> dict:
    """What the page shows, in the active language and the organizer's zone."""
    zone = organizer.zone
    return {
        "game_name": game.name,
        "settings_line": labels.settings_line(game.config, labels.seat_names(game)),
        "status": labels.label(labels.STATUSES, game.status),
        "game": overview(game, zone, clock.deadline),
        "halted": clock.halted(game, zone),
        "own_seat": organizer.seat.pk if organizer.seat is not None else None,
        "control_url": reverse("games:organize-control", args=[game.pk]),
        "zones": clock.ZONES,
        "sent": sent,
        "talk": talk_moderation.section(game, zone),
        "replies": reply_senders.section(game, zone),
        "play_again": play_again.section(game, sent),
    }
