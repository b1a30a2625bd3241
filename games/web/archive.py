"""A finished game's archive page (games.core.archive, games.present.archive):
the score sheet, the awards, the reveal, the game's facts and seed check, and the
replay, a round a step (``?round=3``).

Three ways in, one page:
- a seat's link (``/play/<token>/archive/``), which keeps opening the archive
  after the game's links have stopped working;
- signed in (``/archive/<id>/``), as one of the game's players (their address
  is a seat's) or its organizer: My games links here;
- the public address (``/archive/public/<token>/``), once a player made it public.

A player (by seat link, or signed in with a seat's address) can make the archive
public and private again: a POST with CSRF, then back to the page. GET changes
nothing. Before the end there is nothing to see: a game in play or cancelled
answers as a game that does not exist, and its switch changes nothing.
"""

from dataclasses import dataclass
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from games import engine
from games.core import after_game, archive, links, selectors
from games.models import Game, Person, Seat
from games.present import archive as archive_page
from games.present import reveal
from games.present.page_language import browser_language, in_browser_language, in_language
from games.words import i18n, user_text
from games.words.typed_text import whole_number

NO_SUCH_ROUND = gettext_lazy("That round is not in this game: choose one of its rounds below.")
NOT_A_CHOICE = gettext_lazy(
    "Choose “Make it public by link” or “Make it private”. Nothing was changed."
)
PLAYERS_ONLY = gettext_lazy(
    "Only the game's players can make its archive public or private. Nothing was changed."
)
SHARING = {"public": True, "private": False}


@dataclass(frozen=True)
class Reader:
    """Who reads the archive: their seat, if they played (None: the organizer, or
    anyone at the public address), the language and zone the page reads in, the
    page's own address, and where its switch posts (None: theirs is no switch)."""

    game: Game
    seat: Seat | None
    language: str
    zone: str
    page: str
    sharing: str | None
    at_public_address: bool = False


def _private(response):
    """A private archive's address is a secret, like a seat's."""
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


# --- by a seat's link --------------------------------------------------------------------


def _seat_reader(token: str) -> Reader:
    """The reader behind a seat's link, or LinkError."""
    seat = links.resolve_for_archive(token)
    return Reader(
        game=seat.game,
        seat=seat,
        language=i18n.language_of(seat),
        zone=seat.timezone,
        page=reverse("games:seat-archive", args=[token]),
        sharing=reverse("games:seat-archive-sharing", args=[token]),
    )


def _link_refused(request, error: links.LinkError):
    context = {"title": error.title, "message": error.message}
    return _private(in_language(request, "link_error.html", context, error.status))


@never_cache
@require_http_methods(["GET", "HEAD"])
def by_seat(request, token: str):
    try:
        reader = _seat_reader(token)
    except links.LinkError as error:
        return _link_refused(request, error)
    return _private(_show(request, reader))


@never_cache
@require_POST
def share_by_seat(request, token: str):
    try:
        reader = _seat_reader(token)
    except links.LinkError as error:
        return _link_refused(request, error)
    return _private(_share(request, reader))


# --- signed in ---------------------------------------------------------------------------


def _person_reader(request, pk: int) -> Reader | None:
    """The signed-in reader of game ``pk``'s archive: one of its players or its
    organizer; None for anyone else, and for a game not finished or not there."""
    found = archive.for_person(pk, request.user.email)
    if found is None:
        return None
    game, seat = found
    return Reader(
        game=game,
        seat=seat,
        language=_person_language(request, seat),
        zone=seat.timezone if seat is not None else game.deadline_timezone,
        page=reverse("games:archive", args=[pk]),
        sharing=reverse("games:archive-sharing", args=[pk]) if seat is not None else None,
    )


def _person_language(request, seat: Seat | None) -> str:
    """The person's own choice across games, else their seat's, else the browser's."""
    person = Person.objects.filter(email__iexact=request.user.email.strip()).first()
    if person is not None and person.language in dict(settings.LANGUAGES):
        return person.language
    return i18n.language_of(seat) if seat is not None else browser_language(request)


def _sign_in_first(pk: int):
    back = reverse("games:archive", args=[pk])
    return redirect(f"{reverse('games:sign-in')}?{urlencode({'next': back})}")


def _as_person(request, pk: int, then):
    """``then(request, reader)`` for the signed-in reader of game ``pk``: signed out,
    to sign in first; not its player or organizer, as if it did not exist."""
    if not request.user.is_authenticated:
        return _sign_in_first(pk)
    reader = _person_reader(request, pk)
    if reader is None:
        return _not_found(request)
    return _private(then(request, reader))


@never_cache
@require_http_methods(["GET", "HEAD"])
def signed_in(request, pk: int):
    return _as_person(request, pk, _show)


@never_cache
@require_POST
def share_signed_in(request, pk: int):
    return _as_person(request, pk, _share)


# --- at the public address ---------------------------------------------------------------


@never_cache
@require_http_methods(["GET", "HEAD"])
@in_browser_language
def public(request, token: str):
    game = archive.public_game(token)
    if game is None:
        return _not_found(request)
    reader = Reader(
        game=game,
        seat=None,
        language=browser_language(request),
        zone=game.deadline_timezone,
        page=reverse("games:public-archive", args=[token]),
        sharing=None,
        at_public_address=True,
    )
    return _private(_show(request, reader))


# --- the page ----------------------------------------------------------------------------


def _not_found(request, reader: Reader | None = None):
    """The one answer for an archive that is not there, private to someone else, or
    of a game not finished: it tells nobody which games exist or how they stand.
    A player of a game in play (``reader``) is led back to their table."""
    table = links.seat_path(reader.seat) if reader and reader.seat is not None else ""
    language = reader.language if reader else None
    context = {"table": table}
    return _private(in_language(request, "archive_missing.html", context, 404, language))


def _show(request, reader: Reader, status: int = 200):
    game = reader.game
    if not archive.is_finished(game):
        return _not_found(request, reader)
    state = game.engine_state()
    steps = archive.rounds(game, state)
    chosen = request.GET.get("round")
    number = whole_number(chosen, 2) if chosen is not None else None
    with translation.override(reader.language):
        if chosen is not None and not (number and number <= len(steps)):
            messages.error(request, str(NO_SUCH_ROUND))
            number, status = None, 404
        context = _context(reader, state, steps, number, selectors.seats_of(game))
        return in_language(request, "archive.html", context, status, reader.language)


def _context(reader: Reader, state, steps: list, number: int | None, seats) -> dict:
    game = reader.game
    names = user_text.names(s.name for s in seats)
    me = reader.seat.index if reader.seat is not None else None
    revealed = reveal.presented(after_game.told(game, state), names)
    context = {
        "facts": archive_page.facts(game, state, names, reader.zone),
        "page": reader.page,
        "sharing": reader.sharing,
        "shows_sharing": not reader.at_public_address,
        "public_url": _public_url(game),
        "rounds": archive_page.steps_nav(steps, number),
    }
    if number is None:
        context.update(archive_page.overview(engine.view_for(state, me), names))
        context["reveal"] = revealed
        context["replay_page"] = reader.page
        return context
    events = archive.round_events(game, steps[number - 1])
    context["step"] = archive_page.step(steps, number, revealed, events, state, names, game)
    return context


def _public_url(game: Game) -> str:
    if not game.archive_token:
        return ""
    return settings.SITE_URL + reverse("games:public-archive", args=[game.archive_token])


def _share(request, reader: Reader):
    """The switch: public or private, then back to the page with what it did."""
    with translation.override(reader.language):
        if not archive.is_finished(reader.game):
            return _not_found(request, reader)
        if reader.sharing is None:
            messages.error(request, str(PLAYERS_ONLY))
            return _show(request, reader, status=403)
        choice = SHARING.get(request.POST.get("sharing", ""))
        if choice is None:
            messages.error(request, str(NOT_A_CHOICE))
            return _show(request, reader, status=400)
        game = archive.share(reader.game.pk, choice)
        if game is None:
            return _not_found(request, reader)
        if choice:
            said = _("The archive is public: anyone with its link can read it.")
        else:
            said = _("The archive is private again: its public link no longer works.")
        messages.success(request, said)
    return redirect(reader.page)
