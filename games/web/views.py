"""The player's page, reached from the signed link in every email.

GET shows the seat's page and never changes anything (mail scanners open
every link). POST performs one move, then redirects back (Post/Redirect/Get)
with a message; a refused move instead shows the page again at once, its form
filled in as it was sent, so nothing the player ticked or typed is lost. The
page is built only from the seat's engine view and its projected log.
"""

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib import admin, messages
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, Resolver404, resolve, reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from games.core import after_game, game_writes, links, moves, rematch, selectors, talk
from games.present import (
    clock,
    game_log,
    live_poll,
    move_done,
    my_games,
    presenters,
    reveal,
    standing,
)
from games.present import talk as talk_panel
from games.present.move_fields import sent_back
from games.present.page_language import in_language
from games.present.seat_page import seat_view
from games.web.forms import FormError, parse_move
from games.words import i18n, user_text
from games.words.typed_text import whole_number

log = logging.getLogger(__name__)


def _private(response):
    """The page's address is a secret: keep it out of caches and indexes. (Out of
    other sites' Referer headers too: SECURE_REFERRER_POLICY in the settings.)"""
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_http_methods(["GET", "HEAD"])
def home(request):
    return home_page(request)


def home_page(request, links_form=None, status: int = 200):
    """What the site is and how a player reaches their game: the link in their own
    emails, My games once signed in, or their links sent again. ``links_form``:
    the "resend my links" form, refused."""
    person = request.user if request.user.is_authenticated else None
    context = {
        "person": person,
        "sign_in_url": reverse("games:sign-in"),
        "sign_out_url": reverse("games:sign-out"),
        "my_games_url": reverse("games:my-games"),
        "links_url": reverse("games:resend-links"),
        "links_form": links_form,
        "new_game_url": url_if_any("games:new-game"),
        "play_now_url": url_if_any("games:play-now"),
    }
    return in_language(request, "home.html", context, status)


def url_if_any(name: str) -> str:
    """The page's address, or "" where this site has no such page."""
    try:
        return reverse(name)
    except NoReverseMatch:
        return ""


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def seat_page(request, token: str):
    try:
        if request.method == "POST":
            seat, seats = links.resolve_at_table(token)
        else:
            seat, table = _seat_and_table(request, token)
    except links.LinkError as error:
        context = {"title": error.title, "message": error.message}
        if error.archive:  # the game's links have stopped working: its archive has not
            context["archive"] = reverse("games:seat-archive", args=[token])
            context["archive_kept"] = True
        return _private(in_language(request, "link_error.html", context, error.status))
    with i18n.as_seat(seat):
        if request.method == "POST":
            return _private(_move(request, seat, seats))
        return _private(_show(request, seat, table=table))


@dataclass(frozen=True)
class Table:
    """What a page shows besides the seat, read with it: the game's seats, the
    newest batch of its log (none for the whole log, read from the start) and the
    newest talk."""

    seats: list
    newest_events: list | None
    newest_talk: list
    fingerprint: list  # the rows the page's poll compares (games.core.live.SEAT)


def _seat_and_table(request, token: str) -> tuple:
    """A GET's seat (or LinkError) and its Table, in one round trip where the
    database allows it (selectors.seat_page)."""
    link = links.read(token)
    whole = _whole_log(request)
    seat, seats, events, talk_rows, fingerprint = selectors.seat_page(
        link.seat, link.game, 0 if whole else selectors.EVENTS_BATCH
    )
    table = Table(seats, None if whole else events, talk_rows, fingerprint)
    return links.seat_if_link_current(seat, link.version), table


def _whole_log(request) -> bool:
    """The page shows the whole log from the start (``?log=all``)."""
    return request.GET.get("log") == "all"


def _move(request, seat, seats: list):
    """``seats``: the game's seats in seat order, read with ``seat`` (for the
    emails the move owes and its success message)."""
    try:
        move = parse_move(request.POST)
    except FormError as error:
        return _refused(request, seat, error.message)
    # Namespaced per seat, so two seats' keys can never meet.
    key = f"{seat.pk}.{move.key}"
    try:
        outcome = moves.submit(seat, move.command, version=move.version, key=key, seats=seats)
    except game_writes.ServiceError as error:
        messages.error(request, error.message)
        return redirect(request.path)
    if outcome.code == "stale_page":  # a page from an older phase: show the current table
        messages.error(request, outcome.message)
        return redirect(request.path)
    if outcome.code == "too_fast":
        response = _refused(request, seat, outcome.message)
        response.status_code = 429
        response["Retry-After"] = str(outcome.retry_after)
        return response
    if not outcome.accepted:
        return _refused(request, seat, outcome.message)
    messages.success(request, _done(seat, move.command["type"], outcome, seats))
    return redirect(request.path)


def _done(seat, kind: str, outcome, seats: list) -> str:
    """The success message of a move, and for a decision what it did."""
    return move_done.told(seat, kind, outcome, user_text.names(s.name for s in seats))


def _refused(request, seat, message: str):
    """The page again, with the refused form as the player filled it in."""
    messages.error(request, message)
    return _show(request, seat, sent=sent_back(request.POST))


def show_again(request, seat, talk_text: str, status: int, talk_chosen: dict | None = None):
    """The page again after a refused talk message, the text as it was typed (and
    whom it was for, what it answered). Shown as at the seat's own address, which
    its links and forms start from."""
    request.path = reverse("games:seat", args=[request.resolver_match.kwargs["token"]])
    response = _show(request, seat, talk_text=talk_text, talk_chosen=talk_chosen)
    response.status_code = status
    return _private(response)


def _show(
    request,
    seat,
    sent: dict | None = None,
    table: Table | None = None,
    talk_text: str = "",
    talk_chosen: dict | None = None,
):
    seen = seat_view(seat, seats=table.seats if table else None)
    game, state, view, seats, names = seen.game, seen.state, seen.view, seen.seats, seen.names
    log_all = _whole_log(request)
    if log_all:  # the whole log from the start, a page at a time
        lines, log_next = _log_page(game, state, names, seat.index, request.GET.get("after"))
        more = False
    else:
        first = table and table.newest_events
        events = selectors.events_in_batches(game.pk, newest_first=True, first=first)
        lines, more = game_log.log_lines(
            state, events, names, seat.index, game_log.LOG_LINES, game=game
        )
        log_next = None
    context = presenters.seat_page(
        view,
        names,
        game_name=game.name,
        log=lines,
        log_all=log_all,
        log_more=more,
        log_next=log_next,
        deadline=clock.deadline(game.phase_deadline, seat.timezone),
        halted=clock.halted(game, seat.timezone),
        halted_title=clock.halted_title(game),
        bargaining_until=clock.deadline(game.bargaining_until, seat.timezone),
        confirm=request.GET,
        sent=sent,
        openings=clock.record_openings(
            game.openings.all() if seat.record_opened else [], seat.timezone
        ),
        away=clock.away_notes(seats, timezone.localdate()),
    )
    context["next_game"] = _next_game(request, seat)
    context["standing"] = standing.panel(seat, view)  # the seat's own, shown to it alone
    context["reveal"] = reveal.presented(after_game.told(game, state), names)
    context["rematch"] = rematch.note_for(seat)  # after the game: their seat in the next one
    before = talk.message_by_ref(seat, request.GET.get("talk_before", ""))
    newest_talk = table.newest_talk if table else None
    context["talk"] = talk_panel.panel(game, seat, seats, state, before, newest_talk)
    # Whom to write to and what to answer: as refused, or as a link preselected it.
    chosen = talk_chosen or {"about": request.GET.get("talk_about", "")}
    context["talk"].update(talk_panel.form_choices(game, seat, seats, view, chosen))
    context["talk_text"] = talk_text
    context["bots_playing"] = bots_playing(game)
    fingerprint = table.fingerprint if table else None
    context["live"] = live_poll.seat_poll(request, seat, fingerprint, quick=game.practice)
    return render(request, "seat.html", context, using="jinja")


def bots_playing(game) -> bool:
    """A practice game whose bots are about to move: the page says so, and its script
    shows their moves within seconds (static/games/live.js polls every QUICK seconds)."""
    playing = game.status == game.Status.ACTIVE and game.paused_at is None
    return game.practice and playing and game.bots_due_at is not None


def _next_game(request, seat):
    """Right after a move (its success message is about to be shown), in a browser
    signed in as the seat's own address: the person's next game waiting for their
    move (my_games.Link), if any. Anyone else's page reads nothing more."""
    if not any(m.level == messages.SUCCESS for m in messages.get_messages(request)):
        return None
    person = request.user
    if not person.is_authenticated or person.email.lower() != seat.email.strip().lower():
        return None
    return my_games.next_waiting(person.email, seat)


def _log_page(game, state, names: list, seat: int, after: str | None):
    """The page of the whole log after the event ``after`` (a seq; anything else
    starts from the beginning)."""
    start = whole_number(after or "", 9)
    first_round = 0 if start is None else selectors.round_at(game.pk, start)
    events = selectors.events_in_batches(game.pk, newest_first=False, after=start)
    return game_log.log_page(state, events, names, seat, first_round, game=game)


# What a refused form tells the player, by the cause Django's CSRF check found.
CSRF_CAUSES = {
    "cookies": (
        gettext_lazy("Your browser did not send this site's cookie"),
        gettext_lazy(
            "Your move was not made. This site needs a cookie to know that a form really "
            "comes from your page. Allow cookies for this site (a private window or a "
            "strict blocker may refuse them), open your table again and repeat your move."
        ),
    ),
    "expired": (
        gettext_lazy("This form has expired"),
        gettext_lazy(
            "Your move was not made. The page was opened before your browser's session "
            "with this site was renewed (an old tab, perhaps). Open your table again and "
            "repeat your move."
        ),
    ),
    "origin": (
        gettext_lazy("This form came from another address"),
        gettext_lazy(
            "Your move was not made. Your browser says the form was sent from a page that "
            "is not this site, or would not say where it came from (a saved copy, a "
            "translation service or a proxy can do this). Open your table at this site's "
            "own address and repeat your move."
        ),
    ),
}


# The same, for a control on the organizer's page (games.organizer.page).
ORGANIZER_NOT_DONE = gettext_lazy(
    "Nothing was done. This site needs its cookie to know that a form really comes from "
    "its own page, sent from this site's address: allow cookies for this site, open the "
    "organizer's page again and repeat what you did."
)


# The same, for the archive's public switch (games.web.archive): the switch -> its page.
ARCHIVE_SWITCHES = {
    "games:seat-archive-sharing": "games:seat-archive",
    "games:archive-sharing": "games:archive",
}
ARCHIVE_NOT_CHANGED = gettext_lazy(
    "Nothing was changed. This site needs its cookie to know that a form really comes "
    "from its own page, sent from this site's address: allow cookies for this site, open "
    "the game's archive again and repeat what you did."
)


def csrf_cause(reason: str) -> str:
    """Django's CSRF failure reason -> one of CSRF_CAUSES."""
    if reason.startswith(("Origin checking failed", "Referer checking failed")):
        return "origin"
    if reason == "CSRF cookie not set.":
        return "cookies"
    return "expired"  # token missing, malformed or from an older cookie


def csrf_failure(request, reason=""):
    """A refused form: say which cause was detected, and lead back to the seat's
    table when the form was posted to a valid seat link (in the seat's language;
    else in the browser's), or to the organizer's page from one of its controls."""
    title, message = CSRF_CAUSES[csrf_cause(reason)]  # Django logs the reason itself
    table, language = None, None
    match = request.resolver_match or _resolve(request.path_info)
    if match is not None and match.view_name == "games:organize-control":
        back = reverse("games:organize", kwargs=match.kwargs)
        context = {"title": title, "message": ORGANIZER_NOT_DONE, "back": back}
        return in_language(request, "organize_refused.html", context, 403)
    if match is not None and match.view_name in ARCHIVE_SWITCHES:
        back = reverse(ARCHIVE_SWITCHES[match.view_name], kwargs=match.kwargs)
        context = {"title": title, "message": ARCHIVE_NOT_CHANGED, "archive": back}
        return _private(in_language(request, "link_error.html", context, 403))
    if match is not None and match.view_name == "games:seat":
        try:
            language = i18n.language_of(links.resolve(match.kwargs["token"]))
            table = request.path
        except links.LinkError:
            pass
    context = {"title": title, "message": message, "table": table}
    return _private(in_language(request, "link_error.html", context, 403, language))


def _resolve(path: str):
    try:
        return resolve(path)
    except Resolver404:
        return None


def locked_out(request, original_response=None, credentials=None):
    """django-axes' answer to a login refused after too many wrong passwords
    (settings.AXES_LOCKOUT_CALLABLE): a page that says what happened and until
    when, not an error."""
    minutes = int(settings.AXES_COOLOFF_TIME / timedelta(minutes=1))
    context = {
        **admin.site.each_context(request),
        "title": "Too many wrong passwords",
        "attempts": settings.AXES_FAILURE_LIMIT,
        "minutes": minutes,
    }
    return render(request, "admin/locked_out.html", context, status=429)
